// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histspec.h"
#include "backend/tracefs/usdt.h"

/* Built-in histograms, written in the generic syntax they stand for. */
static const struct {
	const char *name;
	const char *expansion;
} builtins[] = {
	/* every one also has tp_btf and raw_tp variants of its own (src/backend/bpf/bpfhist.c) */
	{ "syscall-latency", NULL }, /* its own program: raw_syscalls with tp_btf/raw_tp */
	{ "runq-latency", "latency:sched:sched_wakeup.pid->sched:sched_switch.next_pid" },
	{ "offcpu", "latency:sched:sched_switch.prev_pid->sched:sched_switch.next_pid,by=next_comm" },
	{ "bio-latency", "latency:block:block_rq_issue.sector->block:block_rq_complete.sector" },
	{ "bio-size", "field:block:block_rq_issue.bytes" },
	{ "read-size", "field:syscalls:sys_exit_read.ret,by=comm" },
	{ "write-size", "field:syscalls:sys_exit_write.ret,by=comm" },
	/* its own program in every variant: waits nest, matched on thread and lock */
	{ "lock-contention", "latency:lock:contention_begin->lock:contention_end,by=comm" },
	/* its own program in every variant: a connect's start and end on one socket */
	{ "tcp-connect-latency",
	  "latency:sock:inet_sock_set_state->sock:inet_sock_set_state,by=comm" },
};

const char *const *histspec_builtins(size_t *n)
{
	static const char *names[sizeof(builtins) / sizeof(builtins[0]) + 2];
	size_t i;

	if (!names[0]) {
		for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
			names[i] = builtins[i].name;
		names[i] = "func:FUNCTION";
	}
	*n = sizeof(names) / sizeof(names[0]) - 1;
	return names;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static bool copy(char *dst, size_t len, const char *src, size_t n)
{
	if (n == 0 || n >= len)
		return false;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/* "SYSTEM:EVENT[.FIELD]" (the field required when need_field). */
static int parse_point(const char *s, size_t n, bool need_field, struct kt_hist_point *p,
		       const char *what, char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', n), *dot;

	memset(p, 0, sizeof(*p));
	if (!colon)
		FAIL("%s '%.*s' is not SYSTEM:EVENT%s (e.g. sched:sched_switch%s)", what, (int)n,
		     s, need_field ? ".FIELD" : "[.FIELD]", need_field ? ".prev_prio" : "");
	dot = memchr(colon, '.', n - (size_t)(colon - s));
	if (!copy(p->system, sizeof(p->system), s, (size_t)(colon - s)) ||
	    !copy(p->event, sizeof(p->event), colon + 1,
		  (size_t)((dot ? dot : s + n) - colon - 1)) ||
	    (dot && !copy(p->field, sizeof(p->field), dot + 1, (size_t)(s + n - dot - 1))) ||
	    !valid_name(p->system) || !valid_name(p->event) || (dot && !valid_name(p->field)))
		FAIL("%s '%.*s' is not SYSTEM:EVENT%s", what, (int)n, s,
		     need_field ? ".FIELD" : "[.FIELD]");
	if (need_field && !dot)
		FAIL("%s '%.*s' names no field: add .FIELD (the event's format lists them)", what,
		     (int)n, s);
	return 0;
}

/* "argN" at s (n bytes, N from 1 to 12): N, or 0. */
static unsigned int arg_index(const char *s, size_t n)
{
	unsigned int v = 0;
	size_t i;

	if (n < 4 || n > 5 || strncmp(s, "arg", 3) || s[3] == '0')
		return 0;
	for (i = 3; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	return v <= 12 ? v : 0;
}

/* usdt's by=argN[:string] (by=pid ... already taken). */
static int usdt_by(const char *key, struct kt_hist_spec *s, char *err, size_t errlen)
{
	const char *colon = strchr(key, ':');
	size_t n = colon ? (size_t)(colon - key) : strlen(key);

	s->usdt_key = arg_index(key, n);
	if (!s->usdt_key || (colon && strcmp(colon, ":string")))
		FAIL("by=%s: key a USDT histogram by pid, tid, comm, cpu, argN or argN:string", key);
	s->usdt_key_string = colon != NULL;
	snprintf(s->by_field, sizeof(s->by_field), "%.*s", (int)n, key);
	s->by = KT_BY_FIELD;
	return 0;
}

static int parse_option(const char *o, size_t n, struct kt_hist_spec *s, char *err,
			size_t errlen)
{
	static const struct {
		const char *name;
		enum kt_hist_by by;
	} bys[] = {
		{ "pid", KT_BY_PID }, { "tid", KT_BY_TID },	    { "comm", KT_BY_COMM },
		{ "cpu", KT_BY_CPU }, { "syscall", KT_BY_SYSCALL }, { "none", KT_BY_NONE },
		{ "cgroup", KT_BY_CGROUP },
	};
	char buf[128], *end;
	unsigned long long v;
	size_t i;

	if (!copy(buf, sizeof(buf), o, n))
		FAIL("empty or overlong option in '%s'", s->text);
	if (!strncmp(buf, "by=field:", 9)) {
		/* a field named like a keyword: by=field:pid */
		memmove(buf + 3, buf + 9, strlen(buf + 9) + 1);
	} else if (!strncmp(buf, "by=", 3)) {
		for (i = 0; i < sizeof(bys) / sizeof(bys[0]); i++) {
			if (strcmp(buf + 3, bys[i].name))
				continue;
			if (bys[i].by == KT_BY_SYSCALL && s->kind != KT_HIST_SYSCALL)
				FAIL("by=syscall belongs to syscall-latency");
			s->by = bys[i].by;
			s->by_field[0] = '\0';
			return 0;
		}
	}
	if (!strncmp(buf, "by=", 3) && s->kind == KT_HIST_USDT)
		return usdt_by(buf + 3, s, err, errlen);
	if (!strncmp(buf, "by=", 3)) {
		if (s->kind == KT_HIST_SYSCALL || s->kind == KT_HIST_FUNC || !valid_name(buf + 3))
			FAIL("by=%s: key by pid, tid, comm, cpu, cgroup%s", buf + 3,
			     s->kind == KT_HIST_SYSCALL ? " or syscall" :
			     s->kind == KT_HIST_FUNC ? "" : " or a field of the event");
		if (!copy(s->by_field, sizeof(s->by_field), buf + 3, strlen(buf + 3)))
			FAIL("by=%s: no field has a name that long", buf + 3);
		s->by = KT_BY_FIELD;
		return 0;
	}
	if (!strncmp(buf, "via=", 4)) {
		static const char *const syscall_via[] = { "tp_btf", "raw_tp", "tracepoint" };
		static const char *const func_via[] = { "fentry", "kprobe" };
		const char *const *names = s->kind == KT_HIST_FUNC ? func_via : syscall_via;
		/* generic tracepoint forms: checked once the built-in name is known */
		size_t nn = s->kind == KT_HIST_FUNC ? 2 : 3;

		for (i = 0; i < nn; i++)
			if (!strcmp(buf + 4, names[i])) {
				strcpy(s->via, names[i]);
				return 0;
			}
		FAIL("via=%s: %s", buf + 4,
		     s->kind == KT_HIST_FUNC ? "function latency goes via fentry or kprobe" :
						  "the variants are tp_btf, raw_tp and tracepoint");
	}
	if (!strncmp(buf, "linear=", 7) || !strncmp(buf, "pid=", 4)) {
		const char *num = strchr(buf, '=') + 1;

		errno = 0;
		v = strtoull(num, &end, 10);
		if (errno || end == num || *end || *num == '-' || v == 0 ||
		    (buf[0] == 'p' && v > 0x7fffffff))
			FAIL("%.*s takes a positive whole number, not '%s'",
			     (int)(num - buf - 1), buf, num);
		if (buf[0] == 'l') {
			s->scale = KT_SCALE_LINEAR;
			s->step = v;
		} else {
			s->pid = (unsigned int)v;
		}
		return 0;
	}
	if (!strcmp(buf, "self")) {
		s->self = true;
		return 0;
	}
	FAIL("unknown histogram option '%s' (by=KEY, linear=STEP, pid=PID, via=VARIANT, self)",
	     buf);
}

static int parse_generic(const char *text, struct kt_hist_spec *s, char *err, size_t errlen);

int histspec_parse(const char *text, struct kt_hist_spec *s, char *err, size_t errlen)
{
	if (parse_generic(text, s, err, errlen) < 0)
		return -1;
	if (s->via[0] && !s->builtin[0] && (s->kind == KT_HIST_FIELD || s->kind == KT_HIST_LATENCY))
		FAIL("via=%s: tracepoint histograms have one way only", s->via);
	if (s->via[0] && s->kind == KT_HIST_USDT)
		FAIL("via=%s: USDT histograms have one way only", s->via);
	return 0;
}

/* Parses without the check of via= for generic forms, which the built-ins relax. */
static int parse_generic(const char *text, struct kt_hist_spec *s, char *err, size_t errlen)
{
	const char *body = text, *opts, *arrow, *next;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	s->step = 1;
	if (!text || !*text)
		FAIL("no histogram given (try syscall-latency, or field:SYSTEM:EVENT.FIELD)");
	if (strlen(text) >= sizeof(s->text))
		FAIL("histogram '%.40s...' is too long", text);
	snprintf(s->text, sizeof(s->text), "%s", text);
	opts = strchr(text, ',');
	n = opts ? (size_t)(opts - text) : strlen(text);

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		if (strlen(builtins[i].name) != n || strncmp(text, builtins[i].name, n))
			continue;
		if (!builtins[i].expansion) {
			s->kind = KT_HIST_SYSCALL;
			s->by = KT_BY_SYSCALL;
			s->is_time = true;
			goto options;
		}
		/* the expansion, then the user's own options after it */
		{
			struct kt_hist_spec ex;
			char full[512];

			snprintf(full, sizeof(full), "%s%s", builtins[i].expansion, opts ? opts : "");
			if (parse_generic(full, &ex, err, errlen) < 0)
				return -1;
			snprintf(ex.text, sizeof(ex.text), "%s", text);
			snprintf(ex.builtin, sizeof(ex.builtin), "%s", builtins[i].name);
			*s = ex;
			return 0;
		}
	}
	if (!strncmp(text, "func:", 5)) {
		s->kind = KT_HIST_FUNC;
		s->is_time = true;
		if (!copy(s->func, sizeof(s->func), text + 5, n - 5) || !valid_name(s->func))
			FAIL("func: needs a kernel function name, such as func:vfs_read");
	} else if (!strncmp(text, "field:", 6)) {
		s->kind = KT_HIST_FIELD;
		body = text + 6;
		if (parse_point(body, (size_t)(text + n - body), true, &s->ev, "field", err,
				errlen) < 0)
			return -1;
	} else if (!strncmp(text, "usdt:", 5)) {
		const char *colon = NULL, *dot, *p;
		char why[256];

		s->kind = KT_HIST_USDT;
		body = text + 5;
		for (p = body; p < text + n; p++)
			if (*p == ':')
				colon = p;
		dot = colon ? memchr(colon, '.', (size_t)(text + n - colon)) : NULL;
		if (dot) {
			s->usdt_value = arg_index(dot + 1, (size_t)(text + n - dot - 1));
			if (!s->usdt_value)
				FAIL("usdt: '%.*s' is not an argument: the value is .argN, N from 1 to "
				     "12 (or none, to count hits)", (int)(text + n - dot - 1), dot + 1);
		}
		if (!copy(s->usdt, sizeof(s->usdt), body, (size_t)((dot ? dot : text + n) - body)))
			FAIL("usdt: needs PATH:PROVIDER:PROBE, as in "
			     "usdt:/usr/bin/python3.11:python:gc__start.arg1");
		if (usdt_parse(s->usdt, NULL, why, sizeof(why)) < 0)
			FAIL("usdt: %s", why);
	} else if (!strncmp(text, "latency:", 8)) {
		s->kind = KT_HIST_LATENCY;
		s->is_time = true;
		body = text + 8;
		arrow = strstr(body, "->");
		if (!arrow || arrow > text + n)
			FAIL("latency needs two events: latency:SYS:START[.FIELD]->SYS:END[.FIELD]");
		if (parse_point(body, (size_t)(arrow - body), false, &s->ev, "start event", err,
				errlen) < 0 ||
		    parse_point(arrow + 2, (size_t)(text + n - arrow - 2), false, &s->end,
				"end event", err, errlen) < 0)
			return -1;
		if (!s->ev.field[0] != !s->end.field[0])
			FAIL("latency: match both events on a field, or neither (then on the thread)");
	} else {
		char names[512];
		size_t used = 0;

		for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
			used += (size_t)snprintf(names + used, used < sizeof(names) ?
								sizeof(names) - used : 0,
						 "%s, ", builtins[i].name);
		FAIL("unknown histogram '%.*s' (built in: %sfunc:F; or field:SYS:EV.FIELD, "
		     "latency:SYS:EV->SYS:EV, usdt:PATH:PROVIDER:PROBE[.argN])", (int)n, text,
		     names);
	}
options:
	while (opts) {
		next = strchr(opts + 1, ',');
		n = next ? (size_t)(next - opts - 1) : strlen(opts + 1);
		if (parse_option(opts + 1, n, s, err, errlen) < 0)
			return -1;
		opts = next;
	}
	return 0;
}

const char *histspec_by_name(const struct kt_hist_spec *s)
{
	switch (s->by) {
	case KT_BY_PID: return "pid";
	case KT_BY_TID: return "tid";
	case KT_BY_COMM: return "comm";
	case KT_BY_CPU: return "cpu";
	case KT_BY_CGROUP: return "cgroup";
	case KT_BY_SYSCALL: return "syscall";
	case KT_BY_FIELD: return s->by_field;
	default: return "";
	}
}
