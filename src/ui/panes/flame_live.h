/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flame graph pane's live sources on a session: the on-CPU profile (profile.h), the
 * off-CPU profile (offcpu.h) and the stacks of the stream's events (evstacks.h). I opens the
 * pane on the events' stacks when the stream holds rows with stacks, else on the on-CPU
 * profile; C in the pane goes to the next kind (on-CPU, off-CPU, event stacks when there are
 * any), a new tree each time; the pane's c narrows the on-CPU profile to one CPU's samples
 * (profile_set_scope) and event stacks to one CPU's records (the stored ones again); in the
 * off-CPU profile y starts it again with its wakers or without, and Y walks a wakeup chain
 * (flame_wakers.h). A kind
 * that cannot start (no BPF privilege, a v1 cgroup, several -p processes off-CPU) says
 * why in the status line and the pane keeps what it showed. On a recording, I shows the
 * profile it keeps, else its events' stacks; C goes between the two, and what only a live
 * kernel samples (on- and off-CPU, wakers) is refused in one line. The events' stacks are
 * the only kind with times: with a time range marked they are the range's, made again when
 * it changes; the profiles stay whole.
 */
#ifndef KTOP_UI_FLAME_LIVE_H
#define KTOP_UI_FLAME_LIVE_H

#include <stdbool.h>
#include <sys/types.h>

struct kt_view;

/* Puts the first live source that starts into the flame pane v, or on a recording (-i) the
 * profile it keeps (ktop -b --profile -o), else its events' stacks; a refusal goes to the
 * status line. */
void flame_live_open(struct kt_view *v);
/* The on-CPU (off_cpu: the off-CPU) profile of process pid alone in the flame pane v (the
 * overview's drill-down). */
void flame_live_open_pid(struct kt_view *v, pid_t pid, bool off_cpu);
/* Process pid's page faults, each one with its stack, in the flame pane v (the overview's
 * drill-down from its fault columns). false: refused, the reason in the status line. */
bool flame_live_open_faults(struct kt_view *v, pid_t pid);

#endif
