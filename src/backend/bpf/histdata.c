// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "backend/tracefs/cgroup.h"
#include "histdata.h"

/* [nr] = "name", generated from <sys/syscall.h> at build time (src/probes/local.mk) */
static const char *const syscall_names[] = {
#include "src/backend/syscall_names.h"
};

const char *hist_syscall_name(unsigned long long nr)
{
	if (nr >= sizeof(syscall_names) / sizeof(syscall_names[0]))
		return NULL;
	return syscall_names[nr];
}

void hist_bounds(const struct kt_hist_spec *s, unsigned int slot, unsigned long long *lo,
		 unsigned long long *hi)
{
	if (s->scale == KT_SCALE_LINEAR) {
		*lo = slot * s->step;
		*hi = slot == KT_HIST_SLOTS - 1 ? 0 : (slot + 1) * s->step;
		return;
	}
	*lo = slot ? 1ull << slot : 0;
	*hi = slot == KT_HIST_SLOTS - 1 ? 0 : 2ull << slot;
}

unsigned long long hist_percentile(const struct kt_hist_spec *s, const struct kt_hist_val *v,
				   double q)
{
	unsigned long long want, seen = 0, lo, hi, r;
	unsigned int i;

	if (!v->count)
		return 0;
	want = (unsigned long long)(q * (double)v->count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < KT_HIST_SLOTS; i++) {
		if (!v->slots[i])
			continue;
		if (seen + v->slots[i] >= want) {
			hist_bounds(s, i, &lo, &hi);
			/* No estimate outside what was seen: a bucket holding one value
			 * repeated gives that value, not a point inside the bucket. */
			if (lo < v->min)
				lo = v->min;
			if (!hi || hi > v->max + 1)
				hi = v->max + 1;
			if (hi <= lo)
				return v->max;
			r = lo + (unsigned long long)((double)(hi - lo) *
						      (double)(want - seen) / (double)v->slots[i]);
			return r > v->max ? v->max : r;
		}
		seen += v->slots[i];
	}
	return v->max;
}

void hist_val_add(struct kt_hist_val *dst, const struct kt_hist_val *src)
{
	unsigned int i;

	if (src->count && (!dst->count || src->min < dst->min))
		dst->min = src->min;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < KT_HIST_SLOTS; i++)
		dst->slots[i] += src->slots[i];
}

void hist_val_diff(struct kt_hist_val *dst, const struct kt_hist_val *a,
		   const struct kt_hist_val *b)
{
	unsigned int i;

	dst->count = a->count - b->count;
	dst->sum = a->sum - b->sum;
	dst->min = a->min;
	dst->max = a->max;
	for (i = 0; i < KT_HIST_SLOTS; i++)
		dst->slots[i] = a->slots[i] - b->slots[i];
}

/* lock-contention's by=flags as the kernel prints them (LCB_F_*, "MUTEX|SPIN"), by=lock_addr
 * in hex. */
static void lock_key(const struct kt_hist_spec *s, unsigned long long id, char *buf,
		     size_t len)
{
	static const char *const names[] = { "SPIN", "READ", "WRITE", "RT", "PERCPU", "MUTEX" };
	size_t used = 0, i;

	if (strcmp(s->by_field, "flags")) {
		snprintf(buf, len, "0x%llx", id);
		return;
	}
	buf[0] = '\0';
	for (i = sizeof(names) / sizeof(names[0]); i-- > 0;)
		if (id & (1ull << i) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "",
						 names[i]);
	if (!used)
		snprintf(buf, len, "%llu", id);
}

void hist_key_label(const struct kt_hist_spec *s, const struct kt_hist_key *k, char *buf,
		    size_t len)
{
	const char *name;

	switch (s->by) {
	case KT_BY_NONE:
		snprintf(buf, len, "all");
		break;
	case KT_BY_SYSCALL:
		name = hist_syscall_name(k->id);
		if (name)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "syscall %lld", (long long)k->id);
		break;
	case KT_BY_COMM:
		snprintf(buf, len, "%.*s", KT_HIST_COMM, k->name);
		break;
	case KT_BY_PID:
	case KT_BY_TID:
		snprintf(buf, len, "%s %llu", s->by == KT_BY_PID ? "pid" : "tid", k->id);
		break;
	case KT_BY_CPU:
		snprintf(buf, len, "cpu %llu", k->id);
		break;
	case KT_BY_CGROUP:
		cgroup_path_of_id(k->id, buf, len);
		break;
	case KT_BY_FIELD:
		if (k->name[0])
			snprintf(buf, len, "%.*s", KT_HIST_COMM, k->name);
		else if (!strcmp(s->builtin, "lock-contention"))
			lock_key(s, k->id, buf, len);
		else
			snprintf(buf, len, "%lld", (long long)k->id);
		break;
	}
}

void hist_format_value(const struct kt_hist_spec *s, unsigned long long v, char *buf,
		       size_t len)
{
	static const char *const time_units[] = { "ns", "us", "ms", "s" };
	static const char *const size_units[] = { "", "K", "M", "G", "T", "P", "E" };
	double d = (double)v;
	unsigned int u = 0;

	if (s->is_time) {
		while (d >= 1000 && u < 3) {
			d /= 1000;
			u++;
		}
		snprintf(buf, len, d < 10 && u ? "%.1f%s" : "%.0f%s", d, time_units[u]);
		return;
	}
	while (d >= 1024 && u < 6) {
		d /= 1024;
		u++;
	}
	snprintf(buf, len, d < 10 && u ? "%.1f%s" : "%.0f%s", d, size_units[u]);
}
