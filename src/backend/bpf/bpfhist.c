// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BPF histogram loader, with no code per kind: the row of its kind (histkind.h) names
 * the object (bpfobj.h), the tunables and the variants, tried in order of cost (tp_btf,
 * raw_tp, tracepoint; fentry/fexit, kprobe/kretprobe); the first the kernel accepts stays.
 * Each histogram is its own object instance (its own maps and .rodata). Maps are per-CPU hashes that the kernel only adds to; a read
 * sums the CPUs and subtracts the previous read, so nothing is deleted under the program.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpfhist.h"
#include "bpfobj.h"
#include "histkind.h"
#include "util/log.h"
#include "util/xalloc.h"

#define BATCH_KEYS 256

struct kt_bpfhist {
	struct kt_hist_spec spec;
	const char *variant;
	struct kt_hist_load load; /* its object and links */
	const char *untimed_counter; /* a .bss count of runs it could not time, NULL: none */
	int map_fd;
	int sys_fd; /* syscall-latency's array of rows by syscall number; -1: none */
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

/* Sets the tunables of hist_common.bpf.h, which every object has, and the row's own. */
static int set_tunables(struct bpf_object *obj, const struct kt_hist_kind_row *row,
			const struct kt_hist_spec *s, char *err, size_t errlen)
{
	const struct kt_hist_setting common[] = {
		{ "hist_scale", s->scale },
		{ "hist_step", s->step ? s->step : 1 },
		{ "hist_by", s->by },
		{ "filter_tgid", s->pid },
		/* ktop's own, as perf trace leaves its own out (an agent: the agent) */
		{ "exclude_tgid", s->self ? 0 : (unsigned long long)getpid() },
		{ "filter_cgroup", s->cgroup_id },
		{ "filter_cgroup_level", (unsigned long long)s->cgroup_level },
	};
	size_t i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (bpfobj_set_int(obj, common[i].var, common[i].value, err, errlen) < 0)
			return -1;
	for (i = 0; i < sizeof(row->settings) / sizeof(row->settings[0]); i++)
		if (row->settings[i].var &&
		    bpfobj_set_int(obj, row->settings[i].var, row->settings[i].value, err, errlen) < 0)
			return -1;
	if (s->by != KT_BY_FIELD)
		return 0;
	for (i = 0; i < sizeof(row->keys) / sizeof(row->keys[0]); i++)
		if (row->keys[i].field && !strcmp(row->keys[i].field, s->by_field))
			return bpfobj_set_int(obj, row->keys[i].set.var, row->keys[i].set.value, err,
					      errlen);
	return 0;
}

/* Why row's own programs cannot key by its by=FIELD; NULL when they can. They read the
 * hook's arguments, not the tracepoint's record, so only the fields they compute. */
static const char *key_refusal(const struct kt_hist_kind_row *row, const struct kt_hist_spec *s,
			       char *why, size_t len)
{
	size_t i;

	if (s->by != KT_BY_FIELD || !row->key_refusal)
		return NULL;
	for (i = 0; i < sizeof(row->keys) / sizeof(row->keys[0]); i++)
		if (row->keys[i].field && !strcmp(row->keys[i].field, s->by_field))
			return NULL;
	snprintf(why, len, "%s, not by=%s", row->key_refusal, s->by_field);
	return why;
}

static void unload(struct kt_bpfhist *h)
{
	int i;

	for (i = 0; i < KT_HIST_MAX_LINKS; i++) {
		bpf_link__destroy(h->load.links[i]);
		h->load.links[i] = NULL;
	}
	bpf_object__close(h->load.obj);
	h->load.obj = NULL;
	h->map_fd = h->sys_fd = -1;
}

/* Opens, tunes, loads and attaches one variant of row. 0; >0 a usage error in err (nothing
 * else is worth trying); <0 -errno, the kernel's refusal (bpfobj_failure_reason() tells it). */
static int try_variant(struct kt_bpfhist *h, const struct kt_hist_kind_row *row,
		       const struct kt_hist_variant *v, char *err, size_t errlen)
{
	struct kt_hist_load *l = &h->load;
	int r;

	l->obj = bpfobj_open(row->object);
	if (!l->obj) {
		snprintf(err, errlen, "cannot open the BPF object %s: %s", row->object,
			 strerror(errno));
		return 1;
	}
	if (set_tunables(l->obj, row, &h->spec, err, errlen) < 0)
		return 1;
	r = row->prepare ? row->prepare(l, v, err, errlen) : 0;
	if (r)
		return r;
	bpfobj_autoload_only(l->obj, v->progs);
	bpfobj_log_capture();
	r = bpf_object__load(l->obj);
	if (r)
		return r < 0 ? r : -EINVAL;
	r = row->attach ? row->attach(l, v) : histkind_attach_in_order(l, v);
	if (r)
		return r;
	bpfobj_log_release();
	h->map_fd = bpf_object__find_map_fd_by_name(l->obj, "hist");
	h->sys_fd = bpf_object__find_map_fd_by_name(l->obj, "hist_syscalls");
	return h->map_fd < 0 ? -ENOENT : 0;
}

/* Each variant of row in turn (or the one via= names); the first that loads and attaches
 * stays. What each refused goes into err after used bytes, "VIA: why" joined by "; ". */
static int load_row(struct kt_bpfhist *h, const struct kt_hist_kind_row *row, char *err,
		    size_t errlen, size_t *used)
{
	const struct kt_hist_variant *v;
	char why[512];
	int r;

	for (v = row->variants; v < row->variants + 3 && v->via; v++) {
		if (h->spec.via[0] && strcmp(h->spec.via, v->via))
			continue;
		if (!key_refusal(row, &h->spec, why, sizeof(why))) {
			r = try_variant(h, row, v, why, sizeof(why));
			if (!r) {
				h->variant = v->via;
				return 0;
			}
			if (r > 0) { /* a usage error: said as it is */
				bpfobj_log_release();
				*used += (size_t)snprintf(err + *used, *used < errlen ? errlen - *used : 0,
							  "%s%s", *used ? "; " : "", why);
				unload(h);
				return -1;
			}
			bpfobj_failure_reason(-r, why, sizeof(why));
		}
		log_debug("%s: %s: %s: %s", __func__, h->spec.text, v->via, why);
		*used += (size_t)snprintf(err + *used, *used < errlen ? errlen - *used : 0,
					  "%s%s: %s", *used ? "; " : "", v->via, why);
		unload(h);
	}
	return -1;
}

/* The row's variants, then for built-ins with one the generic tracepoint program on the
 * built-in's expansion (histspec.c). */
static int load_variants(struct kt_bpfhist *h, const struct kt_hist_kind_row *row, char *err,
			 size_t errlen)
{
	size_t used = 0;

	err[0] = '\0';
	h->load.builtin = NULL;
	if (load_row(h, row, err, errlen, &used) == 0)
		return 0;
	if (!row->tracepoint_fallback || (h->spec.via[0] && strcmp(h->spec.via, "tracepoint")))
		return -1;
	h->load.builtin = row;
	return load_row(h, histkind_generic(h->spec.kind), err, errlen, &used);
}

struct kt_bpfhist *bpfhist_open(const struct kt_hist_spec *spec, char *err, size_t errlen)
{
	struct kt_bpfhist *h = xcalloc(1, sizeof(*h));
	const struct kt_hist_kind_row *row;
	char why[512];
	int r;

	h->spec = *spec;
	h->load.spec = &h->spec;
	h->map_fd = h->sys_fd = -1;
	h->ncpus = libbpf_num_possible_cpus();
	if (h->ncpus <= 0) {
		snprintf(err, errlen, "%s: cannot count the possible CPUs", spec->text);
		goto fail;
	}
	row = histkind_of(spec);
	if (!row) {
		snprintf(err, errlen, "%s: no BPF program for this kind of histogram", spec->text);
		goto fail;
	}
	if (row->needs_event) {
		char sys[64];

		snprintf(sys, sizeof(sys), "%.*s", (int)strcspn(row->needs_event, ":"),
			 row->needs_event);
		if (!tracefs_event_file_exists(NULL, sys, strchr(row->needs_event, ':') + 1,
					       "format")) {
			snprintf(err, errlen, "%s: %s", spec->text, row->needs_why);
			goto fail;
		}
	}
	h->untimed_counter = row->untimed_counter;
	r = load_variants(h, row, why, sizeof(why));
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
	unload(h);
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

/* syscall-latency's rows by syscall number that the array holds: those with a count. */
static int read_syscall_rows(struct kt_bpfhist *h)
{
	const struct kt_hist_val *v = h->vals;
	struct kt_hist_key key;
	unsigned int nr;
	int cpu;

	for (nr = 0; nr < KT_HIST_SYSCALLS; nr++) {
		if (bpf_map_lookup_elem(h->sys_fd, &nr, h->vals) < 0)
			return -errno;
		for (cpu = 0; cpu < h->ncpus && !v[cpu].count; cpu++)
			;
		if (cpu == h->ncpus)
			continue;
		memset(&key, 0, sizeof(key));
		key.id = nr;
		add_row(h, &key, h->vals);
	}
	return 0;
}

/*
 * Runs the kernel skipped: a plain tracepoint program does not run while another BPF program
 * or a BPF map syscall holds the CPU (ktop's own batch read, preempted, is one), and the
 * typed ones not when they would recurse. The kernel counts each (recursion_misses); the
 * histogram then lacks those samples, and says how many. Added to them: the samples a
 * program had but its map refused (hist_common.bpf.h's dropped), and lock-contention's
 * waits it could not time, begun inside its own map updates (lockcont.bpf.c's untimed).
 */
static uint64_t read_missed(const struct kt_bpfhist *h)
{
	unsigned long long untimed, dropped;
	uint64_t n = bpfobj_recursion_misses(h->load.obj);

	if (h->untimed_counter && bpfobj_read_bss(h->load.obj, h->untimed_counter, &untimed) == 0)
		n += untimed;
	if (bpfobj_read_bss(h->load.obj, "dropped", &dropped) == 0)
		n += dropped;
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
	if (r >= 0 && h->sys_fd >= 0)
		r = read_syscall_rows(h);
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
