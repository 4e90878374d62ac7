// SPDX-License-Identifier: GPL-2.0-or-later
/* The explorer's text of a record (evtext.h): which events are rendered as the familiar
 * tools do, sched_switch and sched_wakeup as trace-cmd's plugin, function_graph as the
 * kernel's function_graph output; the system calls are evtext_sys.c's. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/xalloc.h"
#include "decode.h"
#include "evtext_local.h"
#include "store.h"

#define GRAPH_INDENT 2	   /* the kernel's TRACE_GRAPH_INDENT */
#define GRAPH_MAX_DEPTH 40 /* deeper calls are indented no further */

struct kt_evtext *evtext_new(void)
{
	return xcalloc(1, sizeof(struct kt_evtext));
}

void evtext_free(struct kt_evtext *x)
{
	free(x);
}

int evtext_num(struct tep_event *ev, const struct kt_rec *r, const char *name,
	       unsigned long long *v)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f || f->size > 8 || f->offset + f->size > r->size)
		return -1;
	return tep_read_number_field(f, r->data, v) ? -1 : 0;
}

/* A char[] field (a comm), NUL-terminated into buf. */
static int str_field(struct tep_event *ev, const struct kt_rec *r, const char *name, char *buf,
		     size_t len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	size_t n;

	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) || f->offset + f->size > r->size)
		return -1;
	n = strnlen((const char *)r->data + f->offset, f->size);
	snprintf(buf, len, "%.*s", (int)n, (const char *)r->data + f->offset);
	return 0;
}

/* The __print_flags() table of ev's print format (sched_switch's prev_state: the kernel's
 * own letters for task states, which change between kernel versions). */
static const struct tep_print_flag_sym *flags_table(const struct tep_print_arg *a)
{
	const struct tep_print_flag_sym *t;

	for (; a; a = a->next) {
		if (a->type == TEP_PRINT_FLAGS)
			return a->flags.flags;
		if (a->type == TEP_PRINT_OP && ((t = flags_table(a->op.left)) ||
						(t = flags_table(a->op.right))))
			return t;
		if (a->type == TEP_PRINT_TYPE && (t = flags_table(a->typecast.item)))
			return t;
	}
	return NULL;
}

/* "S", "D|W", "R", "R+" (preempted): the letters the kernel's print format has for each
 * state bit; a bit above them all is the preemption mark. */
static void task_state(struct tep_event *ev, unsigned long long st, char *buf, size_t len)
{
	const struct tep_print_flag_sym *f = flags_table(ev->print_fmt.args);
	unsigned long long known = 0, bit;
	size_t n = 0;

	buf[0] = '\0';
	for (; f; f = f->next) {
		bit = strtoull(f->value, NULL, 0);
		known |= bit;
		if (bit && (st & bit) == bit && n + strlen(f->str) + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", f->str);
	}
	if (!n)
		snprintf(buf, len, "R");
	for (bit = 1; bit && bit <= known; bit <<= 1)
		;
	if (known && (st & bit) && strlen(buf) + 1 < len)
		strcat(buf, "+");
}

/* trace-cmd's sched_switch plugin: "prev_comm:prev_pid [prio] STATE ==> next_comm:pid [prio]";
 * narrow: from STATE on. */
static int sched_switch(struct tep_event *ev, const struct kt_rec *r, bool narrow, char *buf,
			size_t len)
{
	unsigned long long ppid, pprio, pst, npid, nprio;
	char pcomm[32], ncomm[32], st[32];

	if (str_field(ev, r, "prev_comm", pcomm, sizeof(pcomm)) ||
	    str_field(ev, r, "next_comm", ncomm, sizeof(ncomm)) ||
	    evtext_num(ev, r, "prev_pid", &ppid) || evtext_num(ev, r, "prev_prio", &pprio) ||
	    evtext_num(ev, r, "prev_state", &pst) || evtext_num(ev, r, "next_pid", &npid) ||
	    evtext_num(ev, r, "next_prio", &nprio))
		return -1;
	task_state(ev, pst, st, sizeof(st));
	if (narrow)
		snprintf(buf, len, "%s ==> %s:%d [%d]", st, ncomm, (int)npid, (int)nprio);
	else
		snprintf(buf, len, "%s:%d [%d] %s ==> %s:%d [%d]", pcomm, (int)ppid, (int)pprio,
			 st, ncomm, (int)npid, (int)nprio);
	return 0;
}

/* The plugin's sched_wakeup: "comm:pid [prio] CPU:NNN" (success= on kernels with it). */
static int sched_wakeup(struct tep_event *ev, const struct kt_rec *r, char *buf, size_t len)
{
	unsigned long long pid, prio, cpu, ok;
	char comm[32];
	int n;

	if (str_field(ev, r, "comm", comm, sizeof(comm)) || evtext_num(ev, r, "pid", &pid) ||
	    evtext_num(ev, r, "prio", &prio) || evtext_num(ev, r, "target_cpu", &cpu))
		return -1;
	n = snprintf(buf, len, "%s:%d [%d]", comm, (int)pid, (int)prio);
	if (!evtext_num(ev, r, "success", &ok) && (size_t)n < len)
		n += snprintf(buf + n, len - n, " %s", ok ? "Success" : "Failed");
	if ((size_t)n < len)
		snprintf(buf + n, len - n, " CPU:%03d", (int)cpu);
	return 0;
}

/* The kernel's duration column (trace_print_graph_duration): an overhead mark, microseconds
 * with three decimals in at most seven digits, " us ", padded to the column's width. */
static int graph_duration(unsigned long long ns, char *buf, size_t len)
{
	static const struct {
		unsigned long long over;
		char mark;
	} marks[] = { { 1000000000ULL, '$' }, { 100000000ULL, '@' }, { 10000000ULL, '*' },
		      { 1000000ULL, '#' },    { 100000ULL, '!' },     { 10000ULL, '+' } };
	char us[24], ns3[8];
	char mark = ' ';
	size_t i;
	int n;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over) {
			mark = marks[i].mark;
			break;
		}
	n = snprintf(us, sizeof(us), "%llu", ns / 1000);
	if (n < 7) {
		snprintf(ns3, (size_t)(8 - n) < sizeof(ns3) ? (size_t)(8 - n) : sizeof(ns3),
			 "%03llu", ns % 1000);
		n += snprintf(us + n, sizeof(us) - n, ".%s", ns3);
	}
	return snprintf(buf, len, "%c %s us %*s", mark, us, n < 8 ? 8 - n : 0, "");
}

/* function_graph as the kernel and trace-cmd print it: "            |    func() {" and
 * "! 205.060 us  |    }", the closing brace followed by the function's name in a C comment
 * as the kernel's funcgraph-tail option prints it (the opening row may be far away, among
 * another CPU's rows or filtered out). */
static int funcgraph(struct kt_decoder *d, struct tep_event *ev, const struct kt_rec *r,
		     bool exit, char *buf, size_t len)
{
	unsigned long long func, depth, call, ret;
	const char *name;
	char addr[24];
	int n, indent;

	if (evtext_num(ev, r, "func", &func) || evtext_num(ev, r, "depth", &depth))
		return -1;
	name = tep_find_function(decoder_tep_with_symbols(d), func);
	if (!name) {
		snprintf(addr, sizeof(addr), "0x%llx", func);
		name = addr;
	}
	indent = (int)(depth < GRAPH_MAX_DEPTH ? depth : GRAPH_MAX_DEPTH) * GRAPH_INDENT;
	if (!exit) {
		snprintf(buf, len, "%14s|  %*s%s() {", "", indent, "", name);
		return 0;
	}
	if (evtext_num(ev, r, "calltime", &call) || evtext_num(ev, r, "rettime", &ret))
		return -1;
	n = graph_duration(ret > call ? ret - call : 0, buf, len);
	if ((size_t)n < len)
		snprintf(buf + n, len - n, "|  %*s} /* %s */", indent, "", name);
	return 0;
}

static int well_known(struct kt_evtext *x, struct kt_decoder *d, struct tep_event *ev,
		      const struct kt_rec *r, bool narrow, char *buf, size_t len)
{
	if (!strcmp(ev->system, "sched")) {
		if (!strcmp(ev->name, "sched_switch"))
			return sched_switch(ev, r, narrow, buf, len);
		if (!strncmp(ev->name, "sched_wak", 9)) /* wakeup, wakeup_new, waking */
			return sched_wakeup(ev, r, buf, len);
		return -1;
	}
	if (!strcmp(ev->system, "ftrace")) {
		if (!strcmp(ev->name, "funcgraph_entry"))
			return funcgraph(d, ev, r, false, buf, len);
		if (!strcmp(ev->name, "funcgraph_exit"))
			return funcgraph(d, ev, r, true, buf, len);
		return -1;
	}
	if (!strcmp(ev->system, "raw_syscalls") || !strcmp(ev->system, "syscalls")) {
		if (x->d != d) { /* another decoder's argument types */
			memset(x->sys, 0, sizeof(x->sys));
			x->d = d;
		}
		if (!evtext_sys_enter(x, ev, r, buf, len))
			return 0;
		return evtext_sys_exit(ev, r, buf, len);
	}
	return -1;
}

char *evtext_info(struct kt_evtext *x, struct kt_decoder *d, const struct kt_rec *r,
		  bool narrow, char *buf, size_t len)
{
	struct tep_event *ev = (r->flags & KT_REC_LOST) ? NULL : decoder_event(d, r);

	if (!ev || well_known(x, d, ev, r, narrow, buf, len) < 0)
		decoder_format_info(d, r, buf, len);
	return buf;
}

int evtext_task_pid(struct kt_decoder *d, const struct kt_rec *r)
{
	struct tep_event *ev = (r->flags & KT_REC_LOST) ? NULL : decoder_event(d, r);
	unsigned long long pid;
	const char *field;

	if (!ev || strcmp(ev->system, "sched"))
		return -1;
	if (!strcmp(ev->name, "sched_switch"))
		field = "next_pid";
	else if (!strncmp(ev->name, "sched_wak", 9))
		field = "pid";
	else
		return -1;
	return evtext_num(ev, r, field, &pid) ? -1 : (int)pid;
}

int evtext_field(struct kt_decoder *d, const struct kt_rec *r, int i, char *name,
		 size_t nlen, char *val, size_t vlen)
{
	struct tep_event *ev = (r->flags & KT_REC_LOST) ? NULL : decoder_event(d, r);
	struct tep_format_field *f = ev ? ev->format.fields : NULL;
	struct trace_seq s;

	while (f && i-- > 0)
		f = f->next;
	if (!f)
		return -1;
	snprintf(name, nlen, "%s", f->name);
	if (f->offset + f->size > r->size) {
		snprintf(val, vlen, "(beyond the record)");
		return 0;
	}
	trace_seq_init(&s);
	tep_print_field_content(&s, (void *)(uintptr_t)r->data, (int)r->size, f);
	trace_seq_terminate(&s);
	snprintf(val, vlen, "%s", s.buffer ? s.buffer : "");
	trace_seq_destroy(&s);
	return 0;
}
