/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's profiles beside --profile's (app.h's app->profile): the explorer's flame pane
 * (KT_REQ_PROFILE_LIVE: on-CPU at a frequency, or off-CPU), whose stacks go out as PROFROWS
 * frames every tick of the viewer's, and --off-cpu in batch mode (KT_REQ_PROFILE "off-cpu"),
 * rendered as local -b --off-cpu prints it when the capture stops. Sampled with the local
 * code (profile.h, offcpu.h), scoped by the agent's options (the scope request), its
 * frames named on the agent's machine. Its perf events and BPF programs are its fds: they
 * go with agentprof_free or with the agent, however it ends. Main thread only.
 */
#ifndef KTOP_REMOTE_AGENTPROF_H
#define KTOP_REMOTE_AGENTPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_app;
struct kt_wbuf;
struct kt_agentprof;

/* -F's frequency as the request gives it ("" the default, 0). Returns 0, or -1 with one
 * line in err. */
int agentprof_freq(const char *arg, unsigned *freq, char *err, size_t errlen);
/* Whether arg asks for the off-CPU profile: "off-cpu", or "off-cpu=VIA" (--off-cpu=VIA);
 * "off-cpu+wakers[=VIA]" with its wakers (--wakers). */
bool agentprof_is_offcpu(const char *arg);
/* Opens arg's profile: "" or a frequency (on-CPU), "off-cpu" or "off-cpu=VIA". NULL with the one line the
 * local ktop would say (a frequency over the kernel's limit, no BPF privilege...). */
struct kt_agentprof *agentprof_open(struct kt_app *app, const char *arg, char *err,
				    size_t errlen);
/* Its title: "cpu-clock", "off-CPU, tp_btf". */
const char *agentprof_name(const struct kt_agentprof *p);
/* Takes what its rings or map hold into its stacks (a failure kept for the next frame). */
void agentprof_poll(struct kt_agentprof *p);
/* The PROFROWS payload of the stacks since the last one (into b), which it forgets. */
void agentprof_encode(struct kt_agentprof *p, uint32_t id, struct kt_wbuf *b);
/* Off-CPU: the stacks of the whole run as local -b --off-cpu prints them: "# off-cpu:
 * COUNTS" then the folded stacks (quiet: the counts alone), or json's object. malloc'd;
 * NULL when out of memory or not off-CPU. */
char *agentprof_offcpu_text(struct kt_agentprof *p, bool json, bool quiet);
void agentprof_free(struct kt_agentprof *p); /* NULL is fine */

#endif
