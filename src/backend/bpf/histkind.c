// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of BPF histogram kinds (histkind.h), and the steps of the generic forms: the
 * tracepoint program's fields resolved from the events' formats, a kernel function as the
 * attach target, a USDT probe's sites.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <bpf/libbpf.h>
#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "bpfobj.h"
#include "backend/symbols/elfsyms.h"
#include "histkind.h"
#include "backend/tracefs/usdt.h"

/* ---- the generic tracepoint program (tphist.bpf.c) --------------------------------------- */

int histkind_tp_field(const char *sys, const char *ev, const char *name, bool numeric,
		      struct kt_hist_field *f, char *err, size_t errlen)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *event = NULL;
	struct tep_format_field *ff;
	char *fmt;
	int size, r = -1;

	fmt = tracefs_event_file_read(NULL, sys, ev, "format", &size);
	if (!fmt || !tep) {
		snprintf(err, errlen, "no event %s:%s here (ktop --list shows them)", sys, ev);
		goto out;
	}
	if (tep_parse_format(tep, &event, fmt, (unsigned long)size, sys) != 0 || !event) {
		snprintf(err, errlen, "cannot parse the format of %s:%s", sys, ev);
		goto out;
	}
	ff = tep_find_any_field(event, name);
	if (!ff) {
		snprintf(err, errlen, "%s:%s has no field '%s' (its format file lists them)", sys,
			 ev, name);
		goto out;
	}
	memset(f, 0, sizeof(*f));
	f->offset = (unsigned int)ff->offset;
	f->size = (unsigned int)ff->size;
	f->is_signed = !!(ff->flags & TEP_FIELD_IS_SIGNED);
	if (ff->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) {
		snprintf(err, errlen, "%s:%s: field '%s' has a variable length; pick a fixed one",
			 sys, ev, name);
		goto out;
	}
	if (ff->flags & TEP_FIELD_IS_ARRAY) {
		if (numeric || !(ff->flags & TEP_FIELD_IS_STRING)) {
			snprintf(err, errlen, "%s:%s: field '%s' is an array, not a number", sys,
				 ev, name);
			goto out;
		}
		f->is_string = 1;
		if (f->size > KT_HIST_COMM)
			f->size = KT_HIST_COMM;
	} else if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
		snprintf(err, errlen, "%s:%s: field '%s' is %u bytes, not a number", sys, ev,
			 name, f->size);
		goto out;
	}
	r = 0;
out:
	free(fmt);
	tep_free(tep);
	return r;
}

/* Resolves the field and hands it to the program's .rodata variable var. */
static int set_field(struct bpf_object *obj, const char *var, const char *sys, const char *ev,
		     const char *name, bool numeric, char *err, size_t errlen)
{
	struct kt_hist_field f;

	return histkind_tp_field(sys, ev, name, numeric, &f, err, errlen) < 0 ||
			       bpfobj_set_bytes(obj, var, &f, sizeof(f), err, errlen) < 0 ?
		       -1 :
		       0;
}

/* Field offsets first: a bad name is a usage error, not a kernel refusal. */
static int tphist_prepare(struct kt_hist_load *l, const struct kt_hist_variant *v, char *err,
			  size_t errlen)
{
	const struct kt_hist_spec *s = l->spec;
	const struct kt_hist_point *keyev = s->kind == KT_HIST_LATENCY ? &s->end : &s->ev;

	(void)v;
	if (s->kind == KT_HIST_FIELD &&
	    set_field(l->obj, "value_field", s->ev.system, s->ev.event, s->ev.field, true, err,
		      errlen) < 0)
		return 1;
	if (s->kind == KT_HIST_LATENCY && s->ev.field[0] &&
	    (bpfobj_set_int(l->obj, "start_match", KT_MATCH_FIELD, err, errlen) < 0 ||
	     bpfobj_set_int(l->obj, "end_match", KT_MATCH_FIELD, err, errlen) < 0 ||
	     set_field(l->obj, "start_field", s->ev.system, s->ev.event, s->ev.field, true, err,
		       errlen) < 0 ||
	     set_field(l->obj, "end_field", s->end.system, s->end.event, s->end.field, true, err,
		       errlen) < 0))
		return 1;
	if (s->by == KT_BY_FIELD &&
	    set_field(l->obj, "key_field", keyev->system, keyev->event, s->by_field, false, err,
		      errlen) < 0)
		return 1;
	/* offcpu keeps no start for a task's last switch, as its typed variants do */
	if (l->builtin && l->builtin->fallback_dying &&
	    set_field(l->obj, "dying_field", "sched", "sched_switch", "prev_state", true, err,
		      errlen) < 0)
		return 1;
	return 0;
}

static int attach_tp(struct kt_hist_load *l, int slot, const char *prog, const char *sys,
		     const char *ev)
{
	l->links[slot] = bpf_program__attach_tracepoint(bpfobj_program(l->obj, prog), sys, ev);
	return l->links[slot] ? 0 : -errno;
}

static int tphist_attach(struct kt_hist_load *l, const struct kt_hist_variant *v)
{
	const struct kt_hist_spec *s = l->spec;
	const char *also = l->builtin ? l->builtin->fallback_also_start : NULL;
	char sys[64];
	int r;

	r = attach_tp(l, 0, v->progs[0], s->ev.system, s->ev.event);
	if (!r && s->kind == KT_HIST_LATENCY)
		r = attach_tp(l, 1, v->progs[1], s->end.system, s->end.event);
	/* runq-latency counts new tasks' first wait too, as its other variants do */
	if (!r && also) {
		snprintf(sys, sizeof(sys), "%.*s", (int)strcspn(also, ":"), also);
		r = attach_tp(l, 2, v->progs[0], sys, strchr(also, ':') + 1);
	}
	return r;
}

/* ---- func: (funclat.bpf.c) --------------------------------------------------------------- */

static int funclat_prepare(struct kt_hist_load *l, const struct kt_hist_variant *v, char *err,
			   size_t errlen)
{
	int i, r;

	(void)err;
	(void)errlen;
	if (strcmp(v->via, "fentry"))
		return 0;
	for (i = 0; v->progs[i]; i++) {
		r = bpf_program__set_attach_target(bpfobj_program(l->obj, v->progs[i]), 0,
						   l->spec->func);
		if (r)
			return r < 0 ? r : -EINVAL;
	}
	return 0;
}

static int funclat_attach(struct kt_hist_load *l, const struct kt_hist_variant *v)
{
	int i;

	if (strcmp(v->via, "kprobe"))
		return histkind_attach_in_order(l, v);
	for (i = 0; i < 2; i++) { /* the entry, then the return */
		l->links[i] = bpf_program__attach_kprobe(bpfobj_program(l->obj, v->progs[i]),
							 i == 1, l->spec->func);
		if (!l->links[i])
			return -errno;
	}
	return 0;
}

/* ---- usdt: (usdthist.bpf.c) -------------------------------------------------------------- */

/* The probe and its arguments must exist: said as --usdt says it, before libbpf. */
static int usdt_prepare(struct kt_hist_load *l, const struct kt_hist_variant *v, char *err,
			size_t errlen)
{
	const struct kt_hist_spec *s = l->spec;
	char check[sizeof(s->usdt) + 32], **defs;
	int n;

	(void)v;
	n = snprintf(check, sizeof(check), "%s", s->usdt);
	if (s->usdt_value)
		n += snprintf(check + n, sizeof(check) - (size_t)n, " arg%u", s->usdt_value);
	if (s->usdt_key)
		snprintf(check + n, sizeof(check) - (size_t)n, " k=arg%u", s->usdt_key);
	n = usdt_uprobe_defs(check, &defs, err, errlen);
	if (n < 0)
		return 1;
	usdt_defs_free(defs, n);
	return bpfobj_set_int(l->obj, "value_arg", s->usdt_value, err, errlen) < 0 ||
			       bpfobj_set_int(l->obj, "key_arg", s->usdt_key, err, errlen) < 0 ||
			       bpfobj_set_int(l->obj, "key_string", s->usdt_key_string, err,
					      errlen) < 0 ?
		       1 :
		       0;
}

/* libbpf finds the sites and their argument specs in the notes and attaches to each, in
 * every process (or pid=). */
static int usdt_attach(struct kt_hist_load *l, const struct kt_hist_variant *v)
{
	const struct kt_hist_spec *s = l->spec;
	struct kt_usdt_def def;
	char path[4096], why[256];
	int r = -EINVAL;

	if (usdt_parse(s->usdt, &def, why, sizeof(why)) < 0)
		return r;
	if (elfsyms_resolve_path(def.path, path, sizeof(path), why, sizeof(why)) == 0) {
		l->links[0] = bpf_program__attach_usdt(bpfobj_program(l->obj, v->progs[0]),
						       s->pid ? (pid_t)s->pid : -1, path,
						       def.provider, def.probe, NULL);
		r = l->links[0] ? 0 : -errno;
	}
	usdt_def_free(&def);
	return r;
}

/* ---- the table ---------------------------------------------------------------------------- */

#define TYPED_SYS(prefix)                                                                   \
	{ "tp_btf", { "btf_" #prefix, NULL } }, { "raw_tp", { "raw_" #prefix, NULL } }
#define SCHED_KEYS                                                                         \
	{ { "next_comm", { "key_next", KT_SCHED_KEY_COMM } },                               \
	  { "next_pid", { "key_next", KT_SCHED_KEY_PID } } }

static const struct kt_hist_kind_row rows[] = {
	{ .name = "syscall-latency", .kind = KT_HIST_SYSCALL, .object = "syslat",
	  /* the switch first: a start must never sit in a CPU's slot unwatched */
	  .variants = { { "tp_btf", { "btf_switch", "btf_enter", "btf_exit" } },
			{ "raw_tp", { "raw_enter", "raw_exit" } },
			{ "tracepoint", { "tp_enter", "tp_exit" } } } },
	{ .name = "runq-latency", .by_name_only = true, .object = "schedlat",
	  .variants = { { "tp_btf", { "btf_wakeup", "btf_wakeup_new", "btf_switch_in" } },
			{ "raw_tp", { "raw_wakeup", "raw_wakeup_new", "raw_switch_in" } } },
	  .keys = SCHED_KEYS, .key_refusal = "keys by next_comm or next_pid only",
	  .tracepoint_fallback = true, .fallback_also_start = "sched:sched_wakeup_new" },
	{ .name = "offcpu", .by_name_only = true, .object = "schedlat",
	  .variants = { TYPED_SYS(switch) },
	  .keys = SCHED_KEYS, .key_refusal = "keys by next_comm or next_pid only",
	  .tracepoint_fallback = true, .fallback_dying = true, .untimed_counter = "unended" },
	{ .name = "bio-latency", .by_name_only = true, .object = "blockio",
	  .variants = { { "tp_btf", { "btf_issue", "btf_complete" } },
			{ "raw_tp", { "raw_issue", "raw_complete" } } },
	  .keys = { { "dev", { "key_dev", 1 } } }, .key_refusal = "keys by the field dev only",
	  .tracepoint_fallback = true },
	{ .name = "bio-size", .by_name_only = true, .object = "blockio",
	  .variants = { TYPED_SYS(size) },
	  .keys = { { "dev", { "key_dev", 1 } } }, .key_refusal = "keys by the field dev only",
	  .tracepoint_fallback = true },
	{ .name = "read-size", .by_name_only = true, .object = "rwsize",
	  .variants = { TYPED_SYS(exit) }, .settings = { { "syscall_nr", SYS_read } },
	  .key_refusal = "keys by pid, tid, comm or cpu only", .tracepoint_fallback = true },
	{ .name = "write-size", .by_name_only = true, .object = "rwsize",
	  .variants = { TYPED_SYS(exit) }, .settings = { { "syscall_nr", SYS_write } },
	  .key_refusal = "keys by pid, tid, comm or cpu only", .tracepoint_fallback = true },
	/* its own program in every variant: waits nest, so starts are kept per thread and
	 * lock, which the generic program's per-thread match cannot do */
	{ .name = "lock-contention", .by_name_only = true, .object = "lockcont",
	  .variants = { { "tp_btf", { "btf_begin", "btf_end" } },
			{ "raw_tp", { "raw_begin", "raw_end" } },
			{ "tracepoint", { "tp_begin", "tp_end" } } },
	  .keys = { { "flags", { "key_field", KT_LOCK_KEY_FLAGS } },
		    { "lock_addr", { "key_field", KT_LOCK_KEY_ADDR } } },
	  .key_refusal = "keys by pid, tid, comm, cpu, flags or lock_addr only",
	  .needs_event = "lock:contention_end",
	  .needs_why = "this kernel has no lock:contention_begin/contention_end tracepoints "
		       "(Linux 5.19 added them): lock contention cannot be timed here",
	  .untimed_counter = "untimed" },
	{ .name = "tcp-connect-latency", .by_name_only = true, .object = "tcpconn",
	  .variants = { { "tp_btf", { "btf_state" } }, { "raw_tp", { "raw_state" } },
			{ "tracepoint", { "tp_state" } } },
	  .keys = { { "dport", { "key_dport", 1 } } },
	  .key_refusal = "keys by pid, tid, comm, cpu, cgroup or dport only" },
	/* the generic forms */
	{ .kind = KT_HIST_FIELD, .object = "tphist",
	  .variants = { { "tracepoint", { "field_hist" } } },
	  .prepare = tphist_prepare, .attach = tphist_attach },
	{ .kind = KT_HIST_LATENCY, .object = "tphist",
	  .variants = { { "tracepoint", { "lat_start", "lat_end" } } },
	  .prepare = tphist_prepare, .attach = tphist_attach },
	{ .kind = KT_HIST_FUNC, .object = "funclat",
	  .variants = { { "fentry", { "fentry_entry", "fexit_return" } },
			{ "kprobe", { "kprobe_entry", "kretprobe_return" } } },
	  .prepare = funclat_prepare, .attach = funclat_attach },
	{ .kind = KT_HIST_USDT, .object = "usdthist", .variants = { { "usdt", { "usdt_hist" } } },
	  .prepare = usdt_prepare, .attach = usdt_attach },
};

const struct kt_hist_kind_row *histkind_generic(enum kt_hist_kind kind)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!rows[i].by_name_only && rows[i].kind == kind)
			return &rows[i];
	return NULL;
}

const struct kt_hist_kind_row *histkind_of(const struct kt_hist_spec *spec)
{
	size_t i;

	if (!spec->builtin[0])
		return histkind_generic(spec->kind);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].name && !strcmp(rows[i].name, spec->builtin))
			return &rows[i];
	return NULL;
}

int histkind_attach_in_order(struct kt_hist_load *l, const struct kt_hist_variant *v)
{
	int i;

	for (i = 0; v->progs[i] && i < KT_HIST_MAX_LINKS; i++) {
		l->links[i] = bpf_program__attach(bpfobj_program(l->obj, v->progs[i]));
		if (!l->links[i])
			return -errno;
	}
	return 0;
}
