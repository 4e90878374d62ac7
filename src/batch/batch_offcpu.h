/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode's off-CPU profile (-b --off-cpu): loads the profile (src/backend/bpf/offcpu.h),
 * polls it every -d for --duration or until a signal, then prints it as batch_profile.c
 * prints the on-CPU profile: a "# off-cpu: KEY=VALUE..." line of counts, then the folded
 * stacks (one "task;outer;...;leaf NS" line each, nanoseconds off the CPU); with --folded
 * the stacks alone and the counts on stderr; with --json one {"offcpu":{...,"stacks":[...]}}
 * object. It needs BPF, not tracefs. */
#ifndef KTOP_BATCH_OFFCPU_H
#define KTOP_BATCH_OFFCPU_H

#include <stdbool.h>
#include <stdio.h>

struct kt_offcpu;
struct kt_options;
struct kt_stacks;

/* Returns an exit code: 3 when BPF is not permitted, 2 for a bad scope (-p, --cgroup), 1
 * when the kernel refused every variant; the reason in one line on stderr. */
int batch_offcpu_run(const struct kt_options *o, FILE *out);
/* The counts beside st's stacks, as "key=value" words without a newline (what follows
 * "# off-cpu: "). An agent renders its profile with these two (KT_SNAP_OFFCPU). */
void batch_offcpu_counts(const struct kt_offcpu *oc, const struct kt_stacks *st, FILE *out);
/* --json's {"offcpu":{...}} line; quiet (-q): its stacks []. */
void batch_offcpu_json(const struct kt_offcpu *oc, const struct kt_stacks *st, bool quiet,
		       FILE *out);

#endif
