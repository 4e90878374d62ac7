/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of kernel functions, for the kprobe editor's and the function-filter picker's
 * completion, and to name a missing symbol before the kernel is asked. */
#ifndef KTOP_KSYMS_H
#define KTOP_KSYMS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_symlist;

enum kt_ksyms_source {
	KT_KSYMS_FILTER_FUNCTIONS, /* available_filter_functions: what ftrace can trace */
	KT_KSYMS_KALLSYMS,	   /* /proc/kallsyms text symbols: what kprobes can probe */
};

/* Loads the function names of source. KT_KSYMS_FILTER_FUNCTIONS falls back to kallsyms
 * when the file is unreadable (EPERM where the function tracer is locked), saying so in
 * note (may be NULL; "" when no fallback). Names only: "[module]" suffixes are dropped.
 * NULL with err. Free with symlist_free(). */
struct kt_symlist *ksyms_load(enum kt_ksyms_source source, char *note, size_t notelen,
			      char *err, size_t errlen);

/* Whether /proc/kallsyms has a text symbol func (MODULE:FUNC or FUNC); streamed, no list
 * kept. 1 yes, 0 no, -1 cannot tell (kallsyms unreadable). */
int ksyms_has_function(const char *func);

#endif
