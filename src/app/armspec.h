/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --arm's conditions as the user writes them:
 *   syscall>DUR  a syscall took DUR or more          errno=NAME  a syscall failed with NAME
 *   runq>DUR     a task waited DUR on a run queue    offcpu>DUR  a task was off the CPU DUR
 *   event:SYS:EV[ if FILTER]   the event, as --stop-when takes it
 * the first four with ",comm=NAME", ",pid=PID", ",cgroup=PATH", ",name=SYSCALL" qualifiers
 * (DUR: "100ms", "2s", "500us"). func:NAME>DUR is refused here: it needs fexit or a
 * kretprobe. Parsing touches no kernel state; a cgroup path is resolved to its id. */
#ifndef KTOP_ARMSPEC_H
#define KTOP_ARMSPEC_H

#include <stddef.h>

#include "backend/tracefs/triggers.h"
#include "src/probes/arm.h"

struct kt_armspec {
	unsigned int kind;	 /* enum kt_arm_kind; KT_ARM_NONE: an event (trig) */
	struct kt_arm_cond cond; /* the kernel's row for the other kinds */
	struct kt_trigger trig;	 /* event: its stacktrace:1 trigger, the condition its filter */
	char text[KT_TRIGGER_MAX + 64]; /* as the user wrote it */
};

/* Parses one --arm spec. Returns 0, or -1 with a one-line reason naming the way out. */
int armspec_parse(const char *text, struct kt_armspec *a, char *err, size_t errlen);

#endif
