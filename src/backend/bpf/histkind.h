/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kinds of BPF histogram, as a table (histkind.c): each row names its BPF object
 * (src/probes/OBJECT.bpf.c), the variants tried in order of cost with the programs each
 * loads and attaches, the .rodata it sets, the by=FIELD keys its programs compute, and what it
 * needs of the kernel. The loader (bpfhist.c) has no code per kind: a new typed histogram is
 * its .bpf.c, its name in src/probes/local.mk's BPF_PROGS and one row here. The generic forms
 * (field:, latency:, func:, usdt:) add steps of their own through the row's hooks.
 */
#ifndef KTOP_BACKEND_HISTKIND_H
#define KTOP_BACKEND_HISTKIND_H

#include <stdbool.h>
#include <stddef.h>

#include "histspec.h"

struct bpf_object;
struct bpf_link;
struct kt_hist_kind_row;
struct kt_hist_field;

#define KT_HIST_MAX_LINKS 4

/* One histogram being loaded, as the hooks see it (bpfhist.c owns it). */
struct kt_hist_load {
	const struct kt_hist_spec *spec;
	const struct kt_hist_kind_row *builtin; /* the built-in a generic form stands in for */
	struct bpf_object *obj;
	struct bpf_link *links[KT_HIST_MAX_LINKS];
};

struct kt_hist_variant {
	const char *via;      /* tp_btf, raw_tp, tracepoint, fentry, kprobe, usdt */
	const char *progs[4]; /* loaded, then attached in this order; NULL-terminated */
};

/* A .rodata integer set before load. */
struct kt_hist_setting {
	const char *var;
	unsigned long long value;
};

struct kt_hist_kind_row {
	const char *name;	 /* a built-in's --hist name; NULL for a generic form */
	enum kt_hist_kind kind;	 /* the spec kind served when matched by kind, not name */
	bool by_name_only;	 /* a built-in histspec.c expands: matched by its name only */
	const char *object;	 /* src/probes/OBJECT.bpf.c */
	struct kt_hist_variant variants[3];
	struct kt_hist_setting settings[2];
	/* by=FIELD: the fields its own programs compute, each a setting; any other field is
	 * refused with "KEY_REFUSAL, not by=FIELD" (NULL: not checked) */
	struct {
		const char *field;
		struct kt_hist_setting set;
	} keys[2];
	const char *key_refusal;
	/* built-ins whose last variant is the generic tracepoint program on their expansion:
	 * a third tracepoint its start also attaches to, and a sched_switch field that says the
	 * task is dying (no start kept for it) */
	bool tracepoint_fallback;
	const char *fallback_also_start; /* "SYSTEM:EVENT" */
	bool fallback_dying;
	const char *needs_event;	 /* "SYSTEM:EVENT" without which it is refused ... */
	const char *needs_why;		 /* ... with this reason */
	const char *untimed_counter;	 /* a .bss count of runs it could not time */
	/* Before load: 0, >0 a usage error in err (nothing else is tried), <0 -errno: this
	 * variant fails. NULL: nothing to do. */
	int (*prepare)(struct kt_hist_load *l, const struct kt_hist_variant *v, char *err,
		       size_t errlen);
	/* After load: 0 or -errno. NULL: bpf_program__attach of each program in order. */
	int (*attach)(struct kt_hist_load *l, const struct kt_hist_variant *v);
};

/* The row for spec: its built-in by name, else the generic form of its kind. NULL: none. */
const struct kt_hist_kind_row *histkind_of(const struct kt_hist_spec *spec);
/* The generic form of kind (what a built-in's tracepoint fallback runs). */
const struct kt_hist_kind_row *histkind_generic(enum kt_hist_kind kind);
/* A field of SYSTEM:EVENT as its format file describes it, for a plain tracepoint program's
 * .rodata (numeric: it must be a number; else a string is taken too, cut to KT_HIST_COMM).
 * Returns 0, or -1 with a one-line reason in err. */
int histkind_tp_field(const char *sys, const char *ev, const char *name, bool numeric,
		      struct kt_hist_field *f, char *err, size_t errlen);
/* The default attach: bpf_program__attach of each of v's programs, in order. 0 or -errno. */
int histkind_attach_in_order(struct kt_hist_load *l, const struct kt_hist_variant *v);

#endif
