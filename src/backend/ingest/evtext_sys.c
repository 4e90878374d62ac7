// SPDX-License-Identifier: GPL-2.0-or-later
/* System calls as strace and perf trace show them (evtext.h): named by the histogram pane's
 * syscall table, arguments typed by the syscall's own syscalls:sys_enter_NAME format (read
 * once per syscall: a pointer in hex, an int or a long as a signed number), a failed return
 * with its errno name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "decode.h"
#include "evtext_local.h"
#include "backend/bpf/histdata.h"
#include "store.h"

#define MAX_ERRNO 4095 /* the kernel's: a return in [-4095, -1] is an error */

/* 'p' pointer, 'i' signed int, 'l' signed long or 'u' unsigned for a syscalls: format's
 * field type ("const char *", "int", "loff_t", "size_t"): every field is 8 bytes there. */
static char arg_kind(const char *type)
{
	static const char *const ints[] = { "int", "pid_t", "clockid_t", "timer_t",
					    "key_serial_t", "mqd_t" };
	static const char *const longs[] = { "long", "off_t", "loff_t" };
	size_t i;

	if (strchr(type, '*'))
		return 'p';
	if (!strncmp(type, "const ", 6))
		type += 6;
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (!strcmp(type, ints[i]))
			return 'i';
	for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		if (!strcmp(type, longs[i]))
			return 'l';
	return 'u';
}

/* The arguments of a syscalls:sys_enter_NAME event (after __syscall_nr). */
static void args_of(struct tep_event *ev, struct evtext_sys_args *a)
{
	struct tep_format_field *f;

	a->n = 0;
	for (f = ev->format.fields; f && a->n < EVTEXT_SYS_ARGS; f = f->next)
		if (strcmp(f->name, "__syscall_nr"))
			a->kind[a->n++] = arg_kind(f->type);
}

/* Syscall nr's argument types, from its syscalls: format the first time (a recording
 * without it, or no such event: every raw argument is shown, untyped). */
static const struct evtext_sys_args *sys_args(struct kt_evtext *x, long nr)
{
	static const struct evtext_sys_args untyped = { true, -1, { 0 } };
	struct evtext_sys_args *a;
	const char *name = nr >= 0 ? hist_syscall_name((unsigned long long)nr) : NULL;
	struct tep_event *ev;
	char event[96];

	if (nr < 0 || nr >= EVTEXT_SYS_NR || !name)
		return &untyped;
	a = &x->sys[nr];
	if (a->read)
		return a;
	a->read = true;
	a->n = -1;
	snprintf(event, sizeof(event), "sys_enter_%s", name);
	if (decoder_load(x->d, "syscalls", event) == 0 &&
	    (ev = tep_find_event_by_name(decoder_tep(x->d), "syscalls", event)))
		args_of(ev, a);
	return a;
}

/* One argument: kind 'p' hex (NULL for 0), 'i' and 'l' the signed int or long it is, 'u'
 * decimal while small; untyped (0) a small negative as such (AT_FDCWD), a small number in
 * decimal, the rest in hex. */
static int arg_text(char kind, unsigned long long v, char *buf, size_t len)
{
	long long s = (long long)v;

	switch (kind) {
	case 'p':
		return v ? snprintf(buf, len, "0x%llx", v) : snprintf(buf, len, "NULL");
	case 'i':
		return snprintf(buf, len, "%d", (int)v);
	case 'l':
		return snprintf(buf, len, "%lld", s);
	default:
		if (!kind && s < 0 && s >= -MAX_ERRNO)
			return snprintf(buf, len, "%lld", s);
		return v < 0x100000 ? snprintf(buf, len, "%llu", v) : snprintf(buf, len, "0x%llx", v);
	}
}

/* "name(a, b, c)" into buf from the n values in v typed by kind (NULL: untyped). */
static void call_text(const char *name, long nr, const unsigned long long *v, int n,
		      const char *kind, char *buf, size_t len)
{
	size_t pos;
	int i;

	pos = (size_t)(name ? snprintf(buf, len, "%s(", name) :
			      snprintf(buf, len, "syscall_%ld(", nr));
	for (i = 0; i < n && pos < len; i++) {
		if (i)
			pos += (size_t)snprintf(buf + pos, len - pos, ", ");
		if (pos < len)
			pos += (size_t)arg_text(kind ? kind[i] : 0, v[i], buf + pos, len - pos);
	}
	if (pos < len)
		snprintf(buf + pos, len - pos, ")");
}

/* raw_syscalls:sys_enter: the number and six raw arguments, typed by the syscall's own
 * event format when there is one. */
static int raw_enter(struct kt_evtext *x, struct tep_event *ev, const struct kt_rec *r,
		     char *buf, size_t len)
{
	struct tep_format_field *f = tep_find_field(ev, "args");
	const struct evtext_sys_args *a;
	unsigned long long id, v[EVTEXT_SYS_ARGS];
	int i;

	if (evtext_num(ev, r, "id", &id) || !f || f->offset + f->size > r->size ||
	    f->size != (int)sizeof(v))
		return -1;
	for (i = 0; i < EVTEXT_SYS_ARGS; i++)
		memcpy(&v[i], (const char *)r->data + f->offset + i * 8, 8);
	a = sys_args(x, (long)id);
	call_text(hist_syscall_name(id), (long)id, v, a->n < 0 ? EVTEXT_SYS_ARGS : a->n,
		  a->n < 0 ? NULL : a->kind, buf, len);
	return 0;
}

/* syscalls:sys_enter_NAME: its own fields, typed. */
static int named_enter(struct tep_event *ev, const struct kt_rec *r, char *buf, size_t len)
{
	struct evtext_sys_args a;
	struct tep_format_field *f;
	unsigned long long nr, v[EVTEXT_SYS_ARGS];
	const char *name;
	int n = 0;

	if (evtext_num(ev, r, "__syscall_nr", &nr))
		return -1;
	args_of(ev, &a);
	for (f = ev->format.fields; f && n < a.n; f = f->next)
		if (strcmp(f->name, "__syscall_nr") && evtext_num(ev, r, f->name, &v[n++]))
			return -1;
	name = hist_syscall_name(nr);
	call_text(name ? name : ev->name + strlen("sys_enter_"), (long)nr, v, a.n, a.kind, buf,
		  len);
	return 0;
}

int evtext_sys_enter(struct kt_evtext *x, struct tep_event *ev, const struct kt_rec *r,
		     char *buf, size_t len)
{
	if (!strcmp(ev->system, "raw_syscalls") && !strcmp(ev->name, "sys_enter"))
		return raw_enter(x, ev, r, buf, len);
	if (!strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_enter_", 10))
		return named_enter(ev, r, buf, len);
	return -1;
}

/* "name(...) = ret": an error with its errno name, a large value (an address) in hex. */
int evtext_sys_exit(struct tep_event *ev, const struct kt_rec *r, char *buf, size_t len)
{
	unsigned long long nr, ret;
	const char *name, *err = NULL;
	char nm[32], val[48];
	long long s;

	if (!strcmp(ev->system, "raw_syscalls") && !strcmp(ev->name, "sys_exit")) {
		if (evtext_num(ev, r, "id", &nr))
			return -1;
	} else if (!strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_exit_", 9)) {
		if (evtext_num(ev, r, "__syscall_nr", &nr))
			return -1;
	} else {
		return -1;
	}
	if (evtext_num(ev, r, "ret", &ret))
		return -1;
	name = hist_syscall_name(nr);
	if (!name && !strcmp(ev->system, "syscalls"))
		name = ev->name + strlen("sys_exit_");
	if (name)
		snprintf(nm, sizeof(nm), "%s", name);
	else
		snprintf(nm, sizeof(nm), "syscall_%lld", (long long)nr);
	s = (long long)ret;
	if (s < 0 && s >= -MAX_ERRNO)
		err = strerrorname_np((int)-s);
	if (err)
		snprintf(val, sizeof(val), "%lld %s", s, err);
	else
		snprintf(val, sizeof(val), ret > 0xffffffffULL ? "0x%llx" : "%lld", ret);
	snprintf(buf, len, "%s(...) = %s", nm, val);
	return 0;
}
