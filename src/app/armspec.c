// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --arm's condition parser (armspec.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armspec.h"
#include "backend/tracefs/cgroup.h"
#include "backend/bpf/histdata.h"
#include "util/timerange.h"

#define ARM_KINDS "syscall>DUR, errno=NAME, runq>DUR, offcpu>DUR or event:SYS:EV[ if FILTER]"

static const struct {
	const char *name;
	unsigned int kind;
	char op; /* '>' a duration follows, '=' an errno name */
} arm_kinds[] = {
	{ "syscall", KT_ARM_SYSCALL, '>' },
	{ "errno", KT_ARM_ERRNO, '=' },
	{ "runq", KT_ARM_RUNQ, '>' },
	{ "offcpu", KT_ARM_OFFCPU, '>' },
};

/* "ENOENT" -> 2; 0 when this libc knows no such name. */
static int errno_by_name(const char *name)
{
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name))
			return e;
	}
	return 0;
}

/* "fsync" -> its number on this architecture; -1 when unknown. */
static long syscall_by_name(const char *name)
{
	const char *n;

	for (unsigned long long nr = 0; nr < 4096; nr++)
		if ((n = hist_syscall_name(nr)) && !strcmp(n, name))
			return (long)nr;
	return -1;
}

static int arm_duration(const char *v, struct kt_arm_cond *c, char *err, size_t errlen)
{
	struct kt_time t;

	if (time_parse(v, &t, err, errlen) < 0 || t.relative || !t.ns) {
		snprintf(err, errlen, "duration '%s': want a time above 0 with a unit, e.g. 100ms",
			 v);
		return -1;
	}
	c->min_ns = t.ns;
	return 0;
}

static int arm_cgroup(const char *v, struct kt_armspec *a, char *err, size_t errlen)
{
	struct kt_cgroup cg;

	if (a->kind == KT_ARM_RUNQ) {
		snprintf(err, errlen, "cgroup= is not taken by runq> (the wait starts in the "
			 "waker's context): use pid= or comm=");
		return -1;
	}
	if (cgroup_resolve(v, &cg, err, errlen) < 0)
		return -1;
	if (!cg.v2) {
		snprintf(err, errlen, "cgroup=%s: a cgroup v2 directory is needed (BPF asks the "
			 "task's v2 cgroup)", v);
		return -1;
	}
	a->cond.cgroup = cg.id;
	a->cond.cgroup_level = cg.level;
	return 0;
}

/* One ",KEY=VALUE" qualifier. */
static int arm_qualifier(char *q, struct kt_armspec *a, char *err, size_t errlen)
{
	char *v = strchr(q, '='), *end;

	if (!v) {
		snprintf(err, errlen, "qualifier '%s': want comm=, pid=, cgroup= or name=", q);
		return -1;
	}
	*v++ = '\0';
	if (!strcmp(q, "comm")) {
		if (!*v || strlen(v) >= KT_ARM_COMM) {
			snprintf(err, errlen, "comm=%s: want a task name of 1 to 15 bytes", v);
			return -1;
		}
		memcpy(a->cond.comm, v, strlen(v) + 1);
		return 0;
	}
	if (!strcmp(q, "pid")) {
		errno = 0;
		a->cond.pid = (int)strtol(v, &end, 10);
		if (errno || *end || a->cond.pid <= 0) {
			snprintf(err, errlen, "pid=%s: want a process id above 0", v);
			return -1;
		}
		return 0;
	}
	if (!strcmp(q, "cgroup"))
		return arm_cgroup(v, a, err, errlen);
	if (!strcmp(q, "name")) {
		if (a->kind != KT_ARM_SYSCALL && a->kind != KT_ARM_ERRNO) {
			snprintf(err, errlen, "name= names a syscall: only syscall> and errno= take it");
			return -1;
		}
		if ((a->cond.nr = syscall_by_name(v)) < 0) {
			snprintf(err, errlen, "name=%s: no such syscall here (ktop --list "
				 "'syscalls:sys_enter_*' lists them)", v);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown qualifier '%s' (comm=, pid=, cgroup=, name=)", q);
	return -1;
}

/* "syscall>100ms,comm=x": the kind, its threshold, then the qualifiers. */
static int arm_kernel(char *s, struct kt_armspec *a, char *err, size_t errlen)
{
	char *q = strchr(s, ','), *next, *v;
	size_t i, n;

	if (q)
		*q++ = '\0';
	for (i = 0; i < sizeof(arm_kinds) / sizeof(arm_kinds[0]); i++) {
		n = strlen(arm_kinds[i].name);
		if (!strncmp(s, arm_kinds[i].name, n) && s[n] == arm_kinds[i].op)
			break;
	}
	if (i == sizeof(arm_kinds) / sizeof(arm_kinds[0])) {
		snprintf(err, errlen, "condition '%s': want " ARM_KINDS, s);
		return -1;
	}
	a->kind = a->cond.kind = arm_kinds[i].kind;
	a->cond.nr = -1;
	v = s + strlen(arm_kinds[i].name) + 1;
	if (a->kind == KT_ARM_ERRNO && !(a->cond.err = errno_by_name(v))) {
		snprintf(err, errlen, "errno=%s: not an errno name (e.g. ENOENT, EAGAIN)", v);
		return -1;
	}
	if (a->kind != KT_ARM_ERRNO && arm_duration(v, &a->cond, err, errlen) < 0)
		return -1;
	for (; q; q = next) {
		if ((next = strchr(q, ',')))
			*next++ = '\0';
		if (arm_qualifier(q, a, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int armspec_parse(const char *text, struct kt_armspec *a, char *err, size_t errlen)
{
	char buf[sizeof(a->text)];

	memset(a, 0, sizeof(*a));
	if (strlen(text) >= sizeof(a->text)) {
		snprintf(err, errlen, "--arm: the condition is too long");
		return -1;
	}
	snprintf(a->text, sizeof(a->text), "%s", text);
	if (!strncmp(text, "event:", 6)) {
		if (trigger_parse_stop(text + 6, &a->trig, err, errlen) < 0)
			return -1;
		snprintf(a->trig.cmd, sizeof(a->trig.cmd), "stacktrace");
		return 0;
	}
	if (!strncmp(text, "func:", 5)) {
		snprintf(err, errlen, "func:NAME>DUR needs fexit or a kretprobe, and this kernel "
			 "has neither (ktop --doctor says why)");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	return arm_kernel(buf, a, err, errlen);
}
