/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explorer's text of a record, for the rows on screen only: the well-known events as the
 * tools an engineer already reads render them, any other event as its print format says
 * (decoder_format_info). sched_switch and sched_wakeup as trace-cmd's sched_switch plugin
 * ("bash:117 [120] S ==> swapper/0:0 [120]"), function_graph entries and exits as the
 * kernel's and trace-cmd's function_graph output ("! 205.060 us  |    }"), system calls by
 * name with their errno names, as strace and perf trace ("futex(...) = -110 ETIMEDOUT"),
 * named by the histogram pane's syscall table. And each field of a record by name, for the
 * stream's row detail. Batch mode keeps the kernel's print formats: scripts parse them. */
#ifndef KTOP_BACKEND_EVTEXT_H
#define KTOP_BACKEND_EVTEXT_H

#include <stdbool.h>
#include <stddef.h>

struct kt_decoder;
struct kt_rec;

/* What the rendering caches (a syscall's argument types, read once from its syscalls:
 * event format); one per decoder it is used with. */
struct kt_evtext;

struct kt_evtext *evtext_new(void);
void evtext_free(struct kt_evtext *x);

/* The record's fields as the row shows them, into buf. Returns buf. narrow: a row of 80
 * columns, where what the task column already says is left out (sched_switch's task
 * switched out: "S ==> swapper/0:0 [120]"). */
char *evtext_info(struct kt_evtext *x, struct kt_decoder *d, const struct kt_rec *r,
		  bool narrow, char *buf, size_t len);

/* The other task a record is about, beside the one it ran in: the task sched_switch
 * switches in, the one sched_wakeup wakes; -1 for other events. */
int evtext_task_pid(struct kt_decoder *d, const struct kt_rec *r);

/* Field i (0: the first after the common ones) of the record: its name into name, its value
 * into val (numbers in decimal and hex, strings as they are). Returns 0, or -1 past the
 * last field. */
int evtext_field(struct kt_decoder *d, const struct kt_rec *r, int i, char *name,
		 size_t nlen, char *val, size_t vlen);

#endif
