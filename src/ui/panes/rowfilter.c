// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream view's pid/comm/CPU filter (see rowfilter.h). */
#include "config.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rowfilter.h"

static void cpu_set(struct kt_rowfilter *f, unsigned c)
{
	f->cpus[c / 8] |= (unsigned char)(1u << (c % 8));
}

static bool cpu_isset(const struct kt_rowfilter *f, unsigned c)
{
	return c < KT_RF_MAX_CPUS && (f->cpus[c / 8] & (1u << (c % 8)));
}

static bool parse_uint(const char *s, size_t n, long max, long *out)
{
	char buf[24], *end;

	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtol(buf, &end, 10);
	return !*end && *out <= max;
}

/* One key=values word into f. */
static int parse_word(struct kt_rowfilter *f, const char *w, size_t wl, char *err,
		      size_t errlen)
{
	const char *eq = memchr(w, '=', wl), *v, *end = w + wl;
	size_t kl;

	if (!eq || eq == w || eq + 1 == end) {
		snprintf(err, errlen, "'%.*s' is not key=value: write pid=N, comm=NAME or cpu=N "
			 "(Esc: keep the filter as it was)", (int)wl, w);
		return -1;
	}
	kl = (size_t)(eq - w);
	for (v = eq + 1; v < end;) {
		const char *c = memchr(v, ',', (size_t)(end - v));
		size_t vl = c ? (size_t)(c - v) : (size_t)(end - v);
		long a, b;

		if (kl == 3 && !strncmp(w, "pid", 3)) {
			if (!parse_uint(v, vl, 4194304, &a)) {
				snprintf(err, errlen, "pid '%.*s' is not a number", (int)vl, v);
				return -1;
			}
			if (f->npids >= KT_RF_MAX) {
				snprintf(err, errlen, "more than %d pids", KT_RF_MAX);
				return -1;
			}
			f->pids[f->npids++] = (int)a;
		} else if (kl == 4 && !strncmp(w, "comm", 4)) {
			if (!vl || vl >= KT_RF_COMM_LEN) {
				snprintf(err, errlen, "comm '%.*s': the kernel keeps at most %d "
					 "characters of a task name", (int)vl, v,
					 KT_RF_COMM_LEN - 1);
				return -1;
			}
			if (f->ncomms >= KT_RF_MAX) {
				snprintf(err, errlen, "more than %d comms", KT_RF_MAX);
				return -1;
			}
			snprintf(f->comms[f->ncomms++], KT_RF_COMM_LEN, "%.*s", (int)vl, v);
		} else if (kl == 3 && !strncmp(w, "cpu", 3)) {
			const char *dash = memchr(v, '-', vl);

			if (dash ? !parse_uint(v, (size_t)(dash - v), KT_RF_MAX_CPUS - 1, &a) ||
					   !parse_uint(dash + 1, vl - (size_t)(dash - v) - 1,
						       KT_RF_MAX_CPUS - 1, &b) || b < a
				 : !parse_uint(v, vl, KT_RF_MAX_CPUS - 1, &a)) {
				snprintf(err, errlen, "cpu '%.*s' is not a CPU number or range "
					 "such as 0-3", (int)vl, v);
				return -1;
			}
			if (!dash)
				b = a;
			for (; a <= b; a++)
				cpu_set(f, (unsigned)a);
			f->cpus_set = true;
		} else {
			snprintf(err, errlen, "unknown key '%.*s': the stream filters on pid, comm "
				 "and cpu", (int)kl, w);
			return -1;
		}
		v += vl + (c ? 1 : 0);
		if (c && v == end) {
			snprintf(err, errlen, "'%.*s' ends with a comma", (int)wl, w);
			return -1;
		}
	}
	return 0;
}

int rowfilter_parse(struct kt_rowfilter *f, const char *text, char *err, size_t errlen)
{
	struct kt_rowfilter n;
	const char *p = text;

	memset(&n, 0, sizeof(n));
	while (*p) {
		size_t wl;

		while (*p == ' ' || *p == '\t')
			p++;
		wl = strcspn(p, " \t");
		if (!wl)
			break;
		if (parse_word(&n, p, wl, err, errlen) < 0)
			return -1;
		p += wl;
	}
	*f = n;
	return 0;
}

bool rowfilter_active(const struct kt_rowfilter *f)
{
	return f->npids || f->ncomms || f->cpus_set;
}

bool rowfilter_needs_comm(const struct kt_rowfilter *f)
{
	return f->ncomms > 0;
}

bool rowfilter_match_cpu(const struct kt_rowfilter *f, unsigned cpu)
{
	return !f->cpus_set || cpu_isset(f, cpu);
}

bool rowfilter_match(const struct kt_rowfilter *f, int pid, const char *comm, unsigned cpu)
{
	int i;

	if (f->cpus_set && !cpu_isset(f, cpu))
		return false;
	if (f->npids) {
		for (i = 0; i < f->npids && f->pids[i] != pid; i++)
			;
		if (i == f->npids)
			return false;
	}
	if (f->ncomms) {
		if (!comm)
			return false;
		for (i = 0; i < f->ncomms && fnmatch(f->comms[i], comm, 0); i++)
			;
		if (i == f->ncomms)
			return false;
	}
	return true;
}

void rowfilter_text(const struct kt_rowfilter *f, char *buf, size_t len)
{
	size_t n = 0;
	int i;
	unsigned c;

#define PUT(...)                                                                \
	do {                                                                    \
		if (n < len)                                                    \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);   \
	} while (0)
	if (len)
		buf[0] = '\0';
	for (i = 0; i < f->npids; i++)
		PUT("%s%d", i ? "," : n ? " pid=" : "pid=", f->pids[i]);
	for (i = 0; i < f->ncomms; i++)
		PUT("%s%s", i ? "," : n ? " comm=" : "comm=", f->comms[i]);
	if (f->cpus_set) {
		bool first = true;

		for (c = 0; c < KT_RF_MAX_CPUS; c++) {
			unsigned e = c;

			if (!cpu_isset(f, c))
				continue;
			while (e + 1 < KT_RF_MAX_CPUS && cpu_isset(f, e + 1))
				e++;
			PUT("%s%u", first ? (n ? " cpu=" : "cpu=") : ",", c);
			if (e > c)
				PUT("-%u", e);
			first = false;
			c = e;
		}
	}
#undef PUT
	/* cut: end at a value with a word no filter has, so the text is never read as a smaller
	 * filter (the prompt that edits it refuses it instead) */
	if (n >= len && len >= 5) {
		n = len - 5;
		while (n && buf[n] != ',' && buf[n] != ' ')
			n--;
		snprintf(buf + n, len - n, " ...");
	}
}
