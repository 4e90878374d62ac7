// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BPF histogram loader. Each histogram is one skeleton instance (its own maps and
 * .rodata), opened, tuned, loaded and attached here; the variants of a program are tried in
 * order of cost (tp_btf, raw_tp, tracepoint; fentry/fexit, kprobe/kretprobe) and the first
 * the kernel accepts stays. Maps are per-CPU hashes that the kernel only adds to; a read
 * sums the CPUs and subtracts the previous read, so nothing is deleted under the program.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "backend/bpfhist.h"
#include "backend/elfsyms.h"
#include "backend/usdt.h"
#include "fileio.h"
#include "log.h"
#include "xalloc.h"

/* bpftool's generated code casts const away */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#include "src/probes/blockio.skel.h"
#include "src/probes/funclat.skel.h"
#include "src/probes/lockcont.skel.h"
#include "src/probes/rwsize.skel.h"
#include "src/probes/schedlat.skel.h"
#include "src/probes/syslat.skel.h"
#include "src/probes/tphist.skel.h"
#include "src/probes/usdthist.skel.h"
#pragma GCC diagnostic pop

#define BATCH_KEYS 256
#define MAX_LINKS 3 /* runq-latency: two wakeups and the switch */

struct kt_bpfhist {
	struct kt_hist_spec spec;
	const char *variant;
	struct ktop_syslat *syslat;
	struct ktop_tphist *tphist;
	struct ktop_funclat *funclat;
	struct ktop_schedlat *schedlat;
	struct ktop_blockio *blockio;
	struct ktop_rwsize *rwsize;
	struct ktop_usdthist *usdthist;
	struct ktop_lockcont *lockcont;
	struct bpf_link *links[MAX_LINKS];
	int map_fd;
	int ncpus;
	bool no_batch; /* the kernel has no batch lookup for this map: key by key */
	size_t batch;
	struct kt_hist_key *keys;
	void *vals;
	struct kt_hist_row *rows; /* display order: cumulative count, most first */
	struct kt_hist_row *prev; /* the previous read, by key */
	size_t nrows, nprev, cap;
	struct kt_hist_row total;
	uint64_t missed; /* runs the kernel skipped, summed over the programs (since the start) */
};

/* libbpf's messages: always to the log; while loading, also kept to explain a failure. */
static char load_log[16384];
static size_t load_len;
static bool capturing;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	if (capturing && load_len < sizeof(load_log) - 1) {
		va_copy(copy, ap);
		n = vsnprintf(load_log + load_len, sizeof(load_log) - load_len, fmt, copy);
		va_end(copy);
		if (n > 0)
			load_len += (size_t)n < sizeof(load_log) - load_len ?
					    (size_t)n : sizeof(load_log) - 1 - load_len;
	}
	if (level != LIBBPF_DEBUG || log_level() > 1)
		log_vdebug(fmt, ap);
	return 0;
}

static void capture_start(void)
{
	static bool set;

	if (!set) {
		libbpf_set_print(libbpf_print);
		set = true;
	}
	load_len = 0;
	load_log[0] = '\0';
	capturing = true;
}

/* The last non-empty line ending before end, trimmed, into out; returns where it starts. */
static const char *last_line(const char *start, const char *end, char *out, size_t len)
{
	const char *b, *e = end, *line;

	while (e > start && (e[-1] == '\n' || e[-1] == ' '))
		e--;
	b = e;
	while (b > start && b[-1] != '\n')
		b--;
	line = b;
	if (!strncmp(b, "libbpf: ", 8))
		b += 8;
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return line;
}

/* libbpf's lines that only repeat an earlier one, or mislead: its "ulimit -l" hint is wrong
 * where the kernel charges BPF memory to the cgroup. */
static bool uninformative(const char *line)
{
	return strstr(line, "failed to load object") || strstr(line, "failed to load BPF skeleton") ||
	       strstr(line, "failed to load: -") || strstr(line, "ulimit") ||
	       strstr(line, "RLIMIT") || !*line;
}

/* One line saying why the load failed: the verifier's last two lines when it spoke, else
 * libbpf's last telling complaint, else errno. */
static void failure_reason(int err, char *out, size_t len)
{
	const char *end = strstr(load_log, "-- END PROG LOAD LOG --"), *b;
	char a[256], c[256];

	capturing = false;
	if (end) {
		b = last_line(load_log, end, c, sizeof(c));
		last_line(load_log, b, a, sizeof(a));
		snprintf(out, len, "verifier: %.200s / %.200s", a, c);
		return;
	}
	for (b = load_log + load_len; b > load_log;) {
		b = last_line(load_log, b, c, sizeof(c));
		if (!uninformative(c)) {
			snprintf(out, len, "%s", c);
			return;
		}
	}
	snprintf(out, len, "%s", strerror(err));
}

/* Opens a skeleton's object as ktop_NAME__open() does. The tests alone set
 * KTOP_TEST_BPF_OBJECT=NAME:FILE (tests/live/bpf_verifier.sh): FILE, an object with the same
 * programs, maps and .rodata as src/probes/NAME.bpf.c, is then opened in place of the built-in
 * one, so a program the verifier refuses goes through this very loader. */
static int open_object(struct bpf_object_skeleton *s)
{
	const char *env = getenv("KTOP_TEST_BPF_OBJECT"), *name = s->name + strlen("ktop_");
	const char *file = env ? strchr(env, ':') : NULL;
	void *elf = NULL;
	size_t len;
	int r;

	if (file && (size_t)(file - env) == strlen(name) && !strncmp(env, name, strlen(name))) {
		elf = file_read_all(file + 1, &len);
		if (!elf)
			return -errno;
		log_debug("%s: %s: the object of %s (KTOP_TEST_BPF_OBJECT)", __func__, name, file + 1);
		s->data = elf;
		s->data_sz = len;
	}
	r = bpf_object__open_skeleton(s, NULL);
	s->data = NULL; /* libbpf copied what it needs */
	free(elf);
	return r;
}

/* open_NAME(): ktop_NAME__open() through open_object(). */
#define DEFINE_OPEN(NAME)                                                                    \
	static struct ktop_##NAME *open_##NAME(void)                                          \
	{                                                                                     \
		struct ktop_##NAME *k = xcalloc(1, sizeof(*k));                               \
		int r = ktop_##NAME##__create_skeleton(k);                                    \
                                                                                              \
		if (!r)                                                                       \
			r = open_object(k->skeleton);                                         \
		if (r) {                                                                      \
			ktop_##NAME##__destroy(k);                                            \
			errno = -r;                                                           \
			return NULL;                                                          \
		}                                                                             \
		return k;                                                                     \
	}
DEFINE_OPEN(syslat)
DEFINE_OPEN(tphist)
DEFINE_OPEN(funclat)
DEFINE_OPEN(schedlat)
DEFINE_OPEN(blockio)
DEFINE_OPEN(rwsize)
DEFINE_OPEN(usdthist)
DEFINE_OPEN(lockcont)

static void set_common(unsigned int *scale, unsigned long long *step, unsigned int *by,
		       unsigned int *tgid, unsigned long long *cgroup, int *cgroup_level,
		       const struct kt_hist_spec *s)
{
	*scale = s->scale;
	*step = s->step ? s->step : 1;
	*by = s->by;
	*tgid = s->pid;
	*cgroup = s->cgroup_id;
	*cgroup_level = s->cgroup_level;
}
/* The tunables of hist_common.bpf.h, which every skeleton k has. */
#define SET_COMMON(k, s)                                                                   \
	set_common(&(k)->rodata->hist_scale, &(k)->rodata->hist_step, &(k)->rodata->hist_by, \
		   &(k)->rodata->filter_tgid, &(k)->rodata->filter_cgroup,                  \
		   &(k)->rodata->filter_cgroup_level, s)

/* Every program of obj loads only when named in want. */
static void autoload_only(struct bpf_object *obj, const char *const want[], size_t n)
{
	struct bpf_program *p;
	size_t i;
	bool on;

	bpf_object__for_each_program(p, obj) {
		on = false;
		for (i = 0; i < n; i++)
			on |= !strcmp(bpf_program__name(p), want[i]);
		bpf_program__set_autoload(p, on);
	}
}

static int attach(struct kt_bpfhist *h, struct bpf_program *p, int slot)
{
	h->links[slot] = bpf_program__attach(p);
	return h->links[slot] ? 0 : -errno;
}

static void detach(struct kt_bpfhist *h)
{
	int i;

	for (i = 0; i < MAX_LINKS; i++) {
		bpf_link__destroy(h->links[i]);
		h->links[i] = NULL;
	}
	ktop_syslat__destroy(h->syslat);
	ktop_tphist__destroy(h->tphist);
	ktop_funclat__destroy(h->funclat);
	ktop_schedlat__destroy(h->schedlat);
	ktop_blockio__destroy(h->blockio);
	ktop_rwsize__destroy(h->rwsize);
	ktop_usdthist__destroy(h->usdthist);
	h->usdthist = NULL;
	ktop_lockcont__destroy(h->lockcont);
	h->lockcont = NULL;
	h->schedlat = NULL;
	h->blockio = NULL;
	h->rwsize = NULL;
	h->syslat = NULL;
	h->tphist = NULL;
	h->funclat = NULL;
}

static int try_syslat(struct kt_bpfhist *h, unsigned int v)
{
	static const char *const progs[][2] = {
		{ "btf_enter", "btf_exit" }, { "raw_enter", "raw_exit" }, { "tp_enter", "tp_exit" },
	};
	struct ktop_syslat *k;
	int r;

	k = h->syslat = open_syslat();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	k->rodata->nr_exit = SYS_exit;
	k->rodata->nr_exit_group = SYS_exit_group;
	autoload_only(k->obj, progs[v], 2);
	r = ktop_syslat__load(k);
	if (r)
		return r;
	switch (v) {
	case 0:
		r = attach(h, k->progs.btf_enter, 0) ?: attach(h, k->progs.btf_exit, 1);
		break;
	case 1:
		r = attach(h, k->progs.raw_enter, 0) ?: attach(h, k->progs.raw_exit, 1);
		break;
	default:
		r = attach(h, k->progs.tp_enter, 0) ?: attach(h, k->progs.tp_exit, 1);
		break;
	}
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

static int try_funclat(struct kt_bpfhist *h, unsigned int v)
{
	struct ktop_funclat *k;
	const char *fn = h->spec.func;
	int r;

	k = h->funclat = open_funclat();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	if (v == 0) {
		static const char *const progs[] = { "fentry_entry", "fexit_return" };

		autoload_only(k->obj, progs, 2);
		if ((r = bpf_program__set_attach_target(k->progs.fentry_entry, 0, fn)) ||
		    (r = bpf_program__set_attach_target(k->progs.fexit_return, 0, fn)) ||
		    (r = ktop_funclat__load(k)))
			return r;
		r = attach(h, k->progs.fentry_entry, 0) ?: attach(h, k->progs.fexit_return, 1);
	} else {
		static const char *const progs[] = { "kprobe_entry", "kretprobe_return" };

		autoload_only(k->obj, progs, 2);
		if ((r = ktop_funclat__load(k)))
			return r;
		h->links[0] = bpf_program__attach_kprobe(k->progs.kprobe_entry, false, fn);
		if (!h->links[0])
			return -errno;
		h->links[1] = bpf_program__attach_kprobe(k->progs.kretprobe_return, true, fn);
		r = h->links[1] ? 0 : -errno;
	}
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

static bool is_sched(const struct kt_hist_spec *s)
{
	return !strcmp(s->builtin, "runq-latency") || !strcmp(s->builtin, "offcpu");
}

static bool is_block(const struct kt_hist_spec *s)
{
	return !strcmp(s->builtin, "bio-latency") || !strcmp(s->builtin, "bio-size");
}

static bool is_rwsize(const struct kt_hist_spec *s)
{
	return !strcmp(s->builtin, "read-size") || !strcmp(s->builtin, "write-size");
}

static bool is_lock(const struct kt_hist_spec *s)
{
	return !strcmp(s->builtin, "lock-contention");
}

/* lock-contention: v 0 is tp_btf, 1 raw_tp, 2 the plain tracepoints, one program for all. */
static int try_lockcont(struct kt_bpfhist *h, unsigned int v)
{
	static const char *const progs[][2] = {
		{ "btf_begin", "btf_end" }, { "raw_begin", "raw_end" }, { "tp_begin", "tp_end" },
	};
	struct ktop_lockcont *k;
	int r;

	k = h->lockcont = open_lockcont();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	if (h->spec.by == KT_BY_FIELD)
		k->rodata->key_field = strcmp(h->spec.by_field, "flags") ? KT_LOCK_KEY_ADDR :
									   KT_LOCK_KEY_FLAGS;
	autoload_only(k->obj, progs[v], 2);
	r = ktop_lockcont__load(k);
	if (r)
		return r;
	switch (v) {
	case 0:
		r = attach(h, k->progs.btf_begin, 0) ?: attach(h, k->progs.btf_end, 1);
		break;
	case 1:
		r = attach(h, k->progs.raw_begin, 0) ?: attach(h, k->progs.raw_end, 1);
		break;
	default:
		r = attach(h, k->progs.tp_begin, 0) ?: attach(h, k->progs.tp_end, 1);
		break;
	}
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

/* runq-latency and offcpu with BTF-typed hooks: v 0 is tp_btf, 1 raw_tp. */
static int try_schedlat(struct kt_bpfhist *h, unsigned int v)
{
	static const char *const runq[][3] = {
		{ "btf_wakeup", "btf_wakeup_new", "btf_switch_in" },
		{ "raw_wakeup", "raw_wakeup_new", "raw_switch_in" },
	};
	static const char *const offcpu[][1] = { { "btf_switch" }, { "raw_switch" } };
	bool rq = !strcmp(h->spec.builtin, "runq-latency");
	struct ktop_schedlat *k;
	int r;

	k = h->schedlat = open_schedlat();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	if (h->spec.by == KT_BY_FIELD)
		k->rodata->key_next = strcmp(h->spec.by_field, "next_comm") ? KT_SCHED_KEY_PID :
									      KT_SCHED_KEY_COMM;
	if (rq)
		autoload_only(k->obj, runq[v], 3);
	else
		autoload_only(k->obj, offcpu[v], 1);
	r = ktop_schedlat__load(k);
	if (r)
		return r;
	if (rq && v == 0)
		r = attach(h, k->progs.btf_wakeup, 0) ?: attach(h, k->progs.btf_wakeup_new, 1) ?:
		    attach(h, k->progs.btf_switch_in, 2);
	else if (rq)
		r = attach(h, k->progs.raw_wakeup, 0) ?: attach(h, k->progs.raw_wakeup_new, 1) ?:
		    attach(h, k->progs.raw_switch_in, 2);
	else
		r = attach(h, v == 0 ? k->progs.btf_switch : k->progs.raw_switch, 0);
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

/* bio-latency and bio-size with BTF-typed hooks: v 0 is tp_btf, 1 raw_tp. */
static int try_blockio(struct kt_bpfhist *h, unsigned int v)
{
	static const char *const lat[][2] = { { "btf_issue", "btf_complete" },
					      { "raw_issue", "raw_complete" } };
	static const char *const size[][1] = { { "btf_size" }, { "raw_size" } };
	bool is_lat = !strcmp(h->spec.builtin, "bio-latency");
	struct ktop_blockio *k;
	int r;

	k = h->blockio = open_blockio();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	k->rodata->key_dev = h->spec.by == KT_BY_FIELD; /* dev: the only field they key by */
	if (is_lat)
		autoload_only(k->obj, lat[v], 2);
	else
		autoload_only(k->obj, size[v], 1);
	r = ktop_blockio__load(k);
	if (r)
		return r;
	if (is_lat)
		r = attach(h, v == 0 ? k->progs.btf_issue : k->progs.raw_issue, 0) ?:
		    attach(h, v == 0 ? k->progs.btf_complete : k->progs.raw_complete, 1);
	else
		r = attach(h, v == 0 ? k->progs.btf_size : k->progs.raw_size, 0);
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

/* read-size and write-size on raw_syscalls' sys_exit: v 0 is tp_btf, 1 raw_tp. */
static int try_rwsize(struct kt_bpfhist *h, unsigned int v)
{
	static const char *const progs[][1] = { { "btf_exit" }, { "raw_exit" } };
	struct ktop_rwsize *k;
	int r;

	k = h->rwsize = open_rwsize();
	if (!k)
		return -errno;
	SET_COMMON(k, &h->spec);
	k->rodata->syscall_nr = strcmp(h->spec.builtin, "read-size") ? SYS_write : SYS_read;
	autoload_only(k->obj, progs[v], 1);
	r = ktop_rwsize__load(k);
	if (r)
		return r;
	r = attach(h, v == 0 ? k->progs.btf_exit : k->progs.raw_exit, 0);
	h->map_fd = bpf_map__fd(k->maps.hist);
	return r;
}

/* Why the typed variants of a built-in cannot key by its by=FIELD; NULL when they can. They
 * read the hook's arguments, not the tracepoint's record, so only the fields they compute
 * as the record does. */
static const char *typed_key_refusal(const struct kt_hist_spec *s, char *why, size_t len)
{
	const char *f = s->by_field;

	if (s->by != KT_BY_FIELD)
		return NULL;
	if (is_sched(s) && strcmp(f, "next_comm") && strcmp(f, "next_pid"))
		snprintf(why, len, "keys by next_comm or next_pid only, not by=%s", f);
	else if (is_block(s) && strcmp(f, "dev"))
		snprintf(why, len, "keys by the field dev only, not by=%s", f);
	else if (is_rwsize(s))
		snprintf(why, len, "keys by pid, tid, comm or cpu only, not by=%s", f);
	else if (is_lock(s) && strcmp(f, "flags") && strcmp(f, "lock_addr"))
		snprintf(why, len, "keys by pid, tid, comm, cpu, flags or lock_addr only, not by=%s",
			 f);
	else
		return NULL;
	return why;
}

/* A field of SYSTEM:EVENT as its format file describes it. */
static int resolve_field(const char *sys, const char *ev, const char *name, bool numeric,
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

/* Field offsets first (a bad name is a usage error, not a kernel refusal). */
static int tphist_fields(const struct kt_hist_spec *s, struct ktop_tphist__rodata *ro,
			 char *err, size_t errlen)
{
	const struct kt_hist_point *keyev = s->kind == KT_HIST_LATENCY ? &s->end : &s->ev;

	if (s->kind == KT_HIST_FIELD &&
	    resolve_field(s->ev.system, s->ev.event, s->ev.field, true, &ro->value_field, err,
			  errlen) < 0)
		return -1;
	if (s->kind == KT_HIST_LATENCY && s->ev.field[0]) {
		ro->start_match = ro->end_match = KT_MATCH_FIELD;
		if (resolve_field(s->ev.system, s->ev.event, s->ev.field, true, &ro->start_field,
				  err, errlen) < 0 ||
		    resolve_field(s->end.system, s->end.event, s->end.field, true, &ro->end_field,
				  err, errlen) < 0)
			return -1;
	}
	if (s->by == KT_BY_FIELD &&
	    resolve_field(keyev->system, keyev->event, s->by_field, false, &ro->key_field, err,
			  errlen) < 0)
		return -1;
	return 0;
}

static int try_tphist(struct kt_bpfhist *h, char *err, size_t errlen)
{
	const struct kt_hist_spec *s = &h->spec;
	struct ktop_tphist *k;
	int r;

	k = h->tphist = open_tphist();
	if (!k) {
		snprintf(err, errlen, "cannot open the BPF object: %s", strerror(errno));
		return -1;
	}
	SET_COMMON(k, s);
	if (tphist_fields(s, k->rodata, err, errlen) < 0)
		return -1;
	/* offcpu keeps no start for a task's last switch, as its typed variants do */
	if (!strcmp(s->builtin, "offcpu") &&
	    resolve_field("sched", "sched_switch", "prev_state", true, &k->rodata->dying_field,
			  err, errlen) < 0)
		return -1;
	if (s->kind == KT_HIST_FIELD) {
		static const char *const progs[] = { "field_hist" };

		autoload_only(k->obj, progs, 1);
	} else {
		static const char *const progs[] = { "lat_start", "lat_end" };

		autoload_only(k->obj, progs, 2);
	}
	capture_start();
	r = ktop_tphist__load(k);
	if (!r && s->kind == KT_HIST_FIELD) {
		h->links[0] = bpf_program__attach_tracepoint(k->progs.field_hist, s->ev.system,
							     s->ev.event);
		r = h->links[0] ? 0 : -errno;
	} else if (!r) {
		h->links[0] = bpf_program__attach_tracepoint(k->progs.lat_start, s->ev.system,
							     s->ev.event);
		h->links[1] = h->links[0] ? bpf_program__attach_tracepoint(
						    k->progs.lat_end, s->end.system, s->end.event) :
					    NULL;
		r = h->links[1] ? 0 : -errno;
		/* runq-latency counts new tasks' first wait too, as its other variants do */
		if (!r && !strcmp(s->builtin, "runq-latency")) {
			h->links[2] = bpf_program__attach_tracepoint(k->progs.lat_start, "sched",
								     "sched_wakeup_new");
			r = h->links[2] ? 0 : -errno;
		}
	}
	if (r) {
		char why[512];

		failure_reason(-r, why, sizeof(why));
		snprintf(err, errlen, "tracepoint: %.480s", why);
		return -1;
	}
	capturing = false;
	h->variant = "tracepoint";
	h->map_fd = bpf_map__fd(k->maps.hist);
	return 0;
}

/* usdt:PATH:PROVIDER:PROBE: libbpf finds the sites and their argument specs in the notes
 * and attaches to each, in every process (or pid=). */
static int try_usdthist(struct kt_bpfhist *h, char *err, size_t errlen)
{
	const struct kt_hist_spec *s = &h->spec;
	struct kt_usdt_def def;
	struct ktop_usdthist *k;
	char path[4096], why[512], check[sizeof(s->usdt) + 32];
	char **defs;
	int n, r;

	/* the probe and its arguments must exist: said as --usdt says it, before libbpf */
	n = snprintf(check, sizeof(check), "%s", s->usdt);
	if (s->usdt_value)
		n += snprintf(check + n, sizeof(check) - (size_t)n, " arg%u", s->usdt_value);
	if (s->usdt_key)
		snprintf(check + n, sizeof(check) - (size_t)n, " k=arg%u", s->usdt_key);
	n = usdt_uprobe_defs(check, &defs, err, errlen);
	if (n < 0)
		return -1;
	usdt_defs_free(defs, n);
	if (usdt_parse(s->usdt, &def, err, errlen) < 0)
		return -1;
	if (elfsyms_resolve_path(def.path, path, sizeof(path), err, errlen) < 0) {
		usdt_def_free(&def);
		return -1;
	}
	k = h->usdthist = open_usdthist();
	if (!k) {
		snprintf(err, errlen, "cannot open the BPF object: %s", strerror(errno));
		usdt_def_free(&def);
		return -1;
	}
	SET_COMMON(k, s);
	k->rodata->value_arg = s->usdt_value;
	k->rodata->key_arg = s->usdt_key;
	k->rodata->key_string = s->usdt_key_string;
	capture_start();
	r = ktop_usdthist__load(k);
	if (!r) {
		h->links[0] = bpf_program__attach_usdt(k->progs.usdt_hist, s->pid ? (pid_t)s->pid :
								   -1, path, def.provider,
						       def.probe, NULL);
		r = h->links[0] ? 0 : -errno;
	}
	usdt_def_free(&def);
	if (r) {
		failure_reason(-r, why, sizeof(why));
		snprintf(err, errlen, "usdt: %.480s", why);
		return -1;
	}
	capturing = false;
	h->variant = "usdt";
	h->map_fd = bpf_map__fd(k->maps.hist);
	return 0;
}

/* Tries each variant in turn; the first that loads and attaches stays. */
static int load_variants(struct kt_bpfhist *h, char *err, size_t errlen)
{
	static const char *const sys_names[] = { "tp_btf", "raw_tp", "tracepoint" };
	static const char *const func_names[] = { "fentry", "kprobe" };
	/* built-ins whose tracepoint variant is the generic program */
	bool typed = is_sched(&h->spec) || is_block(&h->spec) || is_rwsize(&h->spec);
	bool sys = h->spec.kind == KT_HIST_SYSCALL || typed || is_lock(&h->spec);
	const char *const *names = sys ? sys_names : func_names;
	unsigned int v, n = sys ? 3 : 2;
	size_t used = 0;
	char why[512];
	int r;

	err[0] = '\0';
	for (v = 0; v < n; v++) {
		if (h->spec.via[0] && strcmp(h->spec.via, names[v]))
			continue;
		if (typed && v == 2) { /* the generic program; it says why itself */
			if (try_tphist(h, why, sizeof(why)) == 0)
				return 0;
			snprintf(err + used, used < errlen ? errlen - used : 0, "%s%s",
				 used ? "; " : "", why);
			return -1;
		}
		if (!typed_key_refusal(&h->spec, why, sizeof(why))) {
			capture_start();
			r = is_lock(&h->spec) ? try_lockcont(h, v) :
			    is_sched(&h->spec) ? try_schedlat(h, v) :
			    is_block(&h->spec) ? try_blockio(h, v) :
			    is_rwsize(&h->spec) ? try_rwsize(h, v) :
			    sys ? try_syslat(h, v) : try_funclat(h, v);
			if (!r) {
				capturing = false;
				h->variant = names[v];
				return 0;
			}
			failure_reason(-r, why, sizeof(why));
		}
		log_debug("%s: %s: %s: %s", __func__, h->spec.text, names[v], why);
		used += (size_t)snprintf(err + used, used < errlen ? errlen - used : 0, "%s%s: %s",
					 used ? "; " : "", names[v], why);
		detach(h);
	}
	return -1;
}

struct kt_bpfhist *bpfhist_open(const struct kt_hist_spec *spec, char *err, size_t errlen)
{
	struct kt_bpfhist *h = xcalloc(1, sizeof(*h));
	char why[512];
	int r;

	h->spec = *spec;
	h->map_fd = -1;
	h->ncpus = libbpf_num_possible_cpus();
	if (h->ncpus <= 0) {
		snprintf(err, errlen, "%s: cannot count the possible CPUs", spec->text);
		goto fail;
	}
	if (is_lock(spec) && !tracefs_event_file_exists(NULL, "lock", "contention_end", "format")) {
		snprintf(err, errlen, "%s: this kernel has no lock:contention_begin/contention_end "
			 "tracepoints (Linux 5.19 added them): lock contention cannot be timed here",
			 spec->text);
		goto fail;
	}
	if ((spec->kind == KT_HIST_FIELD || spec->kind == KT_HIST_LATENCY) && !spec->builtin[0])
		r = try_tphist(h, why, sizeof(why));
	else if (spec->kind == KT_HIST_USDT)
		r = try_usdthist(h, why, sizeof(why));
	else
		r = load_variants(h, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "%.200s: %.300s", spec->text, why);
		goto fail;
	}
	h->batch = BATCH_KEYS;
	h->keys = xcalloc(h->batch, sizeof(*h->keys));
	h->vals = xcalloc(h->batch * (size_t)h->ncpus, sizeof(struct kt_hist_val));
	log_debug("%s: %s attached via %s", __func__, spec->text, h->variant);
	return h;
fail:
	bpfhist_free(h);
	return NULL;
}

void bpfhist_free(struct kt_bpfhist *h)
{
	if (!h)
		return;
	detach(h);
	free(h->keys);
	free(h->vals);
	free(h->rows);
	free(h->prev);
	free(h);
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct kt_hist_row *)a)->key, &((const struct kt_hist_row *)b)->key,
		      sizeof(struct kt_hist_key));
}

static int count_cmp(const void *a, const void *b)
{
	const struct kt_hist_row *x = a, *y = b;

	if (x->cum.count != y->cum.count)
		return x->cum.count > y->cum.count ? -1 : 1;
	return key_cmp(a, b);
}

/* Sums the CPUs' values of one key into a new row. */
static void add_row(struct kt_bpfhist *h, const struct kt_hist_key *key, const void *percpu)
{
	const struct kt_hist_val *v = percpu;
	struct kt_hist_row *r;
	int cpu;

	if (h->nrows == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->rows = xreallocarray(h->rows, h->cap, sizeof(*h->rows));
	}
	r = &h->rows[h->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = *key;
	for (cpu = 0; cpu < h->ncpus; cpu++)
		hist_val_add(&r->cum, &v[cpu]);
}

static int read_batched(struct kt_bpfhist *h)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	struct kt_hist_key in, out;
	bool first = true;
	__u32 count, i;
	int r;

	for (;;) {
		count = (__u32)h->batch;
		r = bpf_map_lookup_batch(h->map_fd, first ? NULL : &in, &out, h->keys, h->vals,
					 &count, &opts);
		if (r < 0 && errno == ENOSPC) {
			/* one hash bucket holds more keys than fit: a bigger batch */
			h->batch *= 2;
			h->keys = xreallocarray(h->keys, h->batch, sizeof(*h->keys));
			h->vals = xreallocarray(h->vals, h->batch * (size_t)h->ncpus,
						sizeof(struct kt_hist_val));
			continue;
		}
		if (r < 0 && errno != ENOENT)
			return -errno;
		for (i = 0; i < count; i++)
			add_row(h, &h->keys[i],
				(const char *)h->vals +
					(size_t)i * (size_t)h->ncpus * sizeof(struct kt_hist_val));
		if (r < 0) /* ENOENT: that was the last batch */
			return 0;
		in = out;
		first = false;
	}
}

/* Kernels without batch ops for this map type: key by key. */
static int read_one_by_one(struct kt_bpfhist *h)
{
	struct kt_hist_key key, next;
	bool first = true;

	while (bpf_map_get_next_key(h->map_fd, first ? NULL : &key, &next) == 0) {
		if (bpf_map_lookup_elem(h->map_fd, &next, h->vals) == 0)
			add_row(h, &next, h->vals);
		key = next;
		first = false;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* The object of whichever program h loaded. */
static struct bpf_object *hist_object(const struct kt_bpfhist *h)
{
	return h->syslat   ? h->syslat->obj :
	       h->tphist   ? h->tphist->obj :
	       h->funclat  ? h->funclat->obj :
	       h->schedlat ? h->schedlat->obj :
	       h->blockio  ? h->blockio->obj :
	       h->rwsize   ? h->rwsize->obj :
	       h->usdthist ? h->usdthist->obj :
	       h->lockcont ? h->lockcont->obj :
			     NULL;
}

/*
 * Runs the kernel skipped: a plain tracepoint program does not run while another BPF program
 * or a BPF map syscall holds the CPU (ktop's own batch read, preempted, is one), and the
 * typed ones not when they would recurse. The kernel counts each (recursion_misses); the
 * histogram then lacks those samples, and says how many. lock-contention adds the waits it
 * could not time, begun inside its own map updates (lockcont.bpf.c's untimed).
 */
static uint64_t read_missed(const struct kt_bpfhist *h)
{
	struct bpf_object *obj = hist_object(h);
	struct bpf_program *p;
	uint64_t n = 0;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		int fd = bpf_program__fd(p);

		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
			n += info.recursion_misses;
	}
	if (h->lockcont) /* waits inside its own map updates, which it could not time */
		n += __atomic_load_n(&h->lockcont->bss->untimed, __ATOMIC_RELAXED);
	return n;
}

uint64_t bpfhist_missed(const struct kt_bpfhist *h)
{
	return h->missed;
}

int bpfhist_read(struct kt_bpfhist *h, char *err, size_t errlen)
{
	struct kt_hist_row *p, *tmp;
	size_t i, j = 0;
	int r;

	h->nrows = 0;
	r = h->no_batch ? -EINVAL : read_batched(h);
	if (r == -EINVAL || r == -ENOTSUP || r == -EOPNOTSUPP) {
		h->no_batch = true;
		h->nrows = 0;
		r = read_one_by_one(h);
	}
	if (r < 0) {
		snprintf(err, errlen, "%s: reading the histogram: %s", h->spec.text, strerror(-r));
		return -1;
	}
	/* after the map: every run skipped before or during this read is counted */
	h->missed = read_missed(h);
	/* the interval: this read minus the previous one, key by key */
	if (h->nrows)
		qsort(h->rows, h->nrows, sizeof(*h->rows), key_cmp);
	memset(&h->total, 0, sizeof(h->total));
	for (i = 0; i < h->nrows; i++) {
		while (j < h->nprev && key_cmp(&h->prev[j], &h->rows[i]) < 0)
			j++;
		p = j < h->nprev && !key_cmp(&h->prev[j], &h->rows[i]) ? &h->prev[j] : NULL;
		if (p)
			hist_val_diff(&h->rows[i].iv, &h->rows[i].cum, &p->cum);
		else
			h->rows[i].iv = h->rows[i].cum;
		hist_val_add(&h->total.cum, &h->rows[i].cum);
		hist_val_add(&h->total.iv, &h->rows[i].iv);
	}
	tmp = xreallocarray(h->prev, h->cap ? h->cap : 1, sizeof(*h->prev));
	if (h->nrows)
		memcpy(tmp, h->rows, h->nrows * sizeof(*h->rows));
	h->prev = tmp;
	h->nprev = h->nrows;
	if (h->nrows)
		qsort(h->rows, h->nrows, sizeof(*h->rows), count_cmp);
	return 0;
}

const struct kt_hist_spec *bpfhist_spec(const struct kt_bpfhist *h)
{
	return &h->spec;
}

const char *bpfhist_variant(const struct kt_bpfhist *h)
{
	return h->variant;
}

size_t bpfhist_rows(const struct kt_bpfhist *h, const struct kt_hist_row **rows)
{
	*rows = h->rows;
	return h->nrows;
}

const struct kt_hist_row *bpfhist_total(const struct kt_bpfhist *h)
{
	return &h->total;
}
