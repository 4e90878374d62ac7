/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a histogram measures, as the user writes it (--hist, the pane's prompt):
 *
 *   syscall-latency | runq-latency | offcpu | bio-latency | bio-size | read-size |
 *   write-size | lock-contention | tcp-connect-latency | func:FUNCTION | field:SYSTEM:EVENT.FIELD |
 *   latency:SYSTEM:EVENT[.FIELD]->SYSTEM:EVENT[.FIELD] | usdt:PATH:PROVIDER:PROBE[.argN]
 *
 * followed by options, each after a comma: by=pid|tid|comm|cpu|cgroup|syscall|FIELD|field:FIELD
 * (usdt: by=argN or argN:string),
 * linear=STEP, pid=PID, via=VARIANT (tp_btf, raw_tp, tracepoint, fentry, kprobe), self (ktop's
 * own process counted too). The built-in names are shorthands for the generic forms (see
 * histspec.c); ktop.1 is the reference. No kernel access here.
 */
#ifndef KTOP_BACKEND_HISTSPEC_H
#define KTOP_BACKEND_HISTSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "src/probes/hist.h"

enum kt_hist_kind {
	KT_HIST_SYSCALL, /* sys_enter -> sys_exit of a thread, dedicated program */
	KT_HIST_FIELD,	 /* a numeric field of one tracepoint */
	KT_HIST_LATENCY, /* time between two tracepoints */
	KT_HIST_FUNC,	 /* entry -> return of a kernel function */
	KT_HIST_USDT,	 /* a USDT probe's argument, or its hits (usdt.h) */
};

struct kt_hist_point {
	char system[64];
	char event[128];
	char field[64]; /* "" for a latency side matched on the thread */
};

struct kt_hist_spec {
	char text[256];	 /* as written, for titles and errors */
	enum kt_hist_kind kind;
	struct kt_hist_point ev;  /* field: the event; latency: the start */
	struct kt_hist_point end; /* latency: the end */
	char func[128];
	enum kt_hist_by by;
	char by_field[64];
	enum kt_hist_scale scale;
	unsigned long long step;
	unsigned int pid; /* only this process, 0: all */
	bool self;	  /* ktop's own process counted too (it is left out unless) */
	unsigned long long cgroup_id; /* only this cgroup v2 and below (cgroup.h), 0: all */
	int cgroup_level;	      /* its depth below the root */
	char via[16];	  /* only this variant (tp_btf, raw_tp, tracepoint, fentry, kprobe), "" any */
	char builtin[24]; /* the built-in name it was written as, "" for a generic form */
	char usdt[256];	  /* usdt: PATH:PROVIDER:PROBE */
	unsigned int usdt_value; /* usdt: the argument bucketed (from 1), 0: hits only */
	unsigned int usdt_key;	 /* usdt by=argN: N */
	bool usdt_key_string;	 /* usdt by=argN:string: the text its char pointer points to */
	bool is_time;	  /* values are nanoseconds */
};

/* Parses text into s. Returns 0, or -1 with a one-line reason in err. */
int histspec_parse(const char *text, struct kt_hist_spec *s, char *err, size_t errlen);
/* The name of "by" ("syscall", "comm", the field name...), "" for none. */
const char *histspec_by_name(const struct kt_hist_spec *s);
/* The built-in names and func:FUNCTION, for completion: n of them, then NULL. */
const char *const *histspec_builtins(size_t *n);

#endif
