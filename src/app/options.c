// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/tracefs/probes.h"
#include "backend/tracefs/usdt.h"
#include "backend/tracefs/tracers.h"
#include "backend/bpf/histspec.h"
#include "backend/tracefs/triggers.h"
#include "armspec.h"
#include "options.h"
#include "remote/proto.h"
#include "util/timerange.h"
#include "util/xalloc.h"

#define KT_DEFAULT_MEMORY (256ull << 20)
#define KT_DEFAULT_DELAY_MS 1000u

long long options_parse_size(const char *s)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mult = 1ull << 10;
		end++;
		break;
	case 'm': case 'M':
		mult = 1ull << 20;
		end++;
		break;
	case 'g': case 'G':
		mult = 1ull << 30;
		end++;
		break;
	default:
		return -1;
	}
	if (*end == 'B' || *end == 'b' || (*end == 'i' && end[1] == 'B' && end++))
		end++;
	if (*end)
		return -1;
	if (v > (unsigned long long)(1ll << 62) / mult)
		return -1;
	return (long long)(v * mult);
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "1234" or "1,2,3", appended to o->pids. */
static int parse_pids(const char *s, struct kt_options *o)
{
	unsigned long v;
	char *end;

	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v == 0 || v > INT_MAX || (*end && *end != ','))
			return -1;
		o->pids = xreallocarray(o->pids, o->n_pids + 1, sizeof(*o->pids));
		o->pids[o->n_pids++] = (pid_t)v;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static void options_defaults(struct kt_options *o)
{
	const char *nc = getenv("NO_COLOR");

	memset(o, 0, sizeof(*o));
	o->mode = KT_MODE_INTERACTIVE;
	o->delay_ms = KT_DEFAULT_DELAY_MS;
	o->memory_bytes = KT_DEFAULT_MEMORY;
	o->arm_pre = 5;
	o->arm_post = 1;
	/* https://no-color.org: any non-empty value */
	o->no_color = nc && *nc;
}

static void add_probe(struct kt_options *o, int kind, bool usdt, const char *def)
{
	o->probes = xreallocarray(o->probes, o->n_probes + 1, sizeof(*o->probes));
	o->probes[o->n_probes].kind = kind;
	o->probes[o->n_probes].usdt = usdt;
	o->probes[o->n_probes++].def = def;
}

static void add_list_entry(struct kt_options *o, int which, const char *entry)
{
	o->ftrace_lists[which] = xreallocarray(o->ftrace_lists[which],
					       o->n_ftrace_lists[which] + 2, sizeof(char *));
	o->ftrace_lists[which][o->n_ftrace_lists[which]++] = entry;
	o->ftrace_lists[which][o->n_ftrace_lists[which]] = NULL;
}

/* --hist list: the built-in names and the generic forms' prefixes, one a line (for shell
 * completion and for people). */
static void print_hist_kinds(void)
{
	const char *const *names;
	size_t n;

	names = histspec_builtins(&n);
	for (size_t i = 0; i < n; i++)
		printf("%.*s\n", (int)strcspn(names[i], ":") + !!strchr(names[i], ':'), names[i]);
	puts("field:\nlatency:\nusdt:");
}

/* One more -H host or --via cmd, labelled (struct kt_remote_opt). Returns 0, or -1 with
 * err. */
static int options_add_remote(struct kt_options *o, const char *host, const char *via,
			      char *err, size_t errlen)
{
	struct kt_remote_opt *r;
	size_t vias = 0;

	if (o->n_remotes == KT_REMOTES_MAX) {
		snprintf(err, errlen, "at most %d remotes (-H and --via) in one run: run another "
			 "ktop for the rest", KT_REMOTES_MAX);
		return -1;
	}
	for (size_t i = 0; i < o->n_remotes; i++)
		vias += o->remotes[i].via != NULL;
	r = &o->remotes[o->n_remotes];
	r->host = host;
	r->via = via;
	if (host)
		snprintf(r->label, sizeof(r->label), "%s", host);
	else
		snprintf(r->label, sizeof(r->label), "via%zu", vias + 1);
	for (size_t i = 0; i < o->n_remotes; i++) {
		if (!strcmp(o->remotes[i].label, r->label)) {
			snprintf(err, errlen, "two remotes labelled %s (-H HOST is labelled HOST, "
				 "--via CMD via1, via2... in order): give each host once", r->label);
			return -1;
		}
	}
	o->n_remotes++;
	return 0;
}

/* ---- the table: one row per option ---------------------------------------------------- */

/* What a setter is given besides the options and the value: its row, the command line (-l
 * takes the next word) and where a usage error goes. */
struct opt_ctx {
	const struct opt_row *r; /* the option being set */
	int argc;
	char **argv;
	char *err;
	size_t errlen;
};

struct opt_row;
/* Returns 0, 1 when ktop should exit 0 (it printed what was asked), or -1 with ctx->err. */
typedef int opt_setter(struct kt_options *o, char *arg, struct opt_ctx *c);

struct opt_row {
	const char *name;    /* the long option; NULL: a heading line of --help */
	char letter;	     /* its short option, or 0 */
	char has_arg;	     /* no_argument, required_argument or optional_argument */
	const char *value;   /* the value's name in --help ("[=VALUE]" when optional) */
	const char *help;    /* its --help lines, "\n" between them; NULL: an alias, unlisted */
	opt_setter *set;
	size_t field;	     /* set_true's bool, set_str's string: offsetof(struct kt_options) */
	int which;	     /* the setter's variant: a mode, a probe kind, a function list */
	const char *empty;   /* set_str: the error when the value is empty (NULL: allowed) */
};

static int __attribute__((format(printf, 2, 3))) fail(struct opt_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Appends s to the NULL-terminated *v of *n. */
static void push(const char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 2, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

static int set_true(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)arg;
	*(bool *)((char *)o + c->r->field) = true;
	return 0;
}

static int set_str(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (c->r->empty && !*arg)
		return fail(c, "%s", c->r->empty);
	*(const char **)((char *)o + c->r->field) = arg;
	return 0;
}

static int set_mode(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)arg;
	o->mode = (enum kt_mode)c->r->which;
	return 0;
}

static int set_list(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	o->mode = KT_MODE_LIST;
	/* "-l sched:*" as well as "--list=sched:*" */
	if (!arg && optind < c->argc && c->argv[optind][0] != '-')
		arg = c->argv[optind++];
	o->list_spec = arg;
	return 0;
}

static int set_list_usdt(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg)
		return fail(c, "--list-usdt needs a binary, a library or a process id");
	o->mode = KT_MODE_LIST_USDT;
	o->list_spec = arg;
	return 0;
}

static int set_event(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg)
		return fail(c, "-e needs an event such as sched:sched_switch");
	push(&o->events, &o->n_events, arg);
	return 0;
}

static int set_duration(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	char *end;

	errno = 0;
	o->duration = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->duration >= 0) || o->duration > 1e7)
		return fail(c, "--duration takes seconds, such as 3 or 0.5, not '%s'", arg);
	return 0;
}

static int set_delay(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	unsigned long ul;

	if (parse_ulong(arg, 36000, &ul) || ul == 0)
		return fail(c, "-d takes tenths of a second from 1 to 36000, not '%s'", arg);
	o->delay_ms = (unsigned)ul * 100;
	o->delay_set = true;
	return 0;
}

static int set_buffer_kb(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (parse_ulong(arg, 16ul << 20, &o->buffer_kb) || o->buffer_kb < 4)
		return fail(c, "--buffer-kb takes KiB per CPU from 4 to 16777216, not '%s'", arg);
	return 0;
}

static int set_read_mode(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (strcmp(arg, "mmap") && strcmp(arg, "read"))
		return fail(c, "--read-mode takes mmap or read, not '%s'", arg);
	o->read_copy = !strcmp(arg, "read");
	return 0;
}

static int set_memory(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	long long ll = options_parse_size(arg);

	if (ll < (8 << 20))
		return fail(c, "--memory takes a size of at least 8M, such as 256M or 2G, not '%s'",
			    arg);
	o->memory_bytes = (size_t)ll;
	return 0;
}

static int set_max_events(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (parse_ulong(arg, (unsigned long)-1, &o->max_events) || o->max_events == 0)
		return fail(c, "--max-events takes a positive count, not '%s'", arg);
	return 0;
}

static int set_pmu_event(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg)
		return fail(c, "--pmu-event needs an event such as cache-misses or msr/tsc/");
	push(&o->pmu_events, &o->n_pmu_events, arg);
	o->pmu = true;
	return 0;
}

static int set_trigger(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	struct kt_trigger t;
	char bad[400];

	if (trigger_parse(arg, true, &t, bad, sizeof(bad)) < 0)
		return fail(c, "--trigger: %s", bad);
	push(&o->triggers, &o->n_triggers, arg);
	return 0;
}

static int set_stop_when(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	struct kt_trigger t;
	char bad[400];

	if (trigger_parse_stop(arg, &t, bad, sizeof(bad)) < 0)
		return fail(c, "--stop-when: %s", bad);
	o->stop_when = arg;
	return 0;
}

/* The flight recorder's (src/batch/flightrec.h). */
static int set_arm(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	struct kt_armspec a;
	char bad[512];

	if (armspec_parse(arg, &a, bad, sizeof(bad)) < 0)
		return fail(c, "%s", bad);
	o->arms = xreallocarray(o->arms, o->n_arms + 1, sizeof(*o->arms));
	o->arms[o->n_arms++] = arg;
	return 0;
}

/* --pre, --post, --incident-gap: seconds, the row's field a double */
static int set_seconds(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	double *v = (double *)((char *)o + c->r->field);
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v >= 0) || *v > 86400)
		return fail(c, "--%s takes seconds from 0 to 86400, such as 5 or 0.5, not '%s'",
			    c->r->name, arg);
	return 0;
}

static int set_max_incidents(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	unsigned long ul;

	if (parse_ulong(arg, UINT_MAX, &ul) || ul == 0)
		return fail(c, "--max-incidents takes a positive count, not '%s'", arg);
	o->max_incidents = (unsigned)ul;
	return 0;
}

static int set_incident_quota(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	long long ll = options_parse_size(arg);

	if (ll <= 0)
		return fail(c, "--incident-quota takes a size such as 100M or 2G, not '%s'", arg);
	o->incident_quota = (size_t)ll;
	return 0;
}

static int set_stack(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!strchr(arg, ':'))
		return fail(c, "--stack '%s': needs SYS:EV, e.g. syscalls:sys_enter_openat", arg);
	push(&o->stacks, &o->n_stacks, arg);
	return 0;
}

static int set_hist(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	struct kt_hist_spec spec;
	char bad[400];

	if (!strcmp(arg, "list")) {
		print_hist_kinds();
		return 1;
	}
	if (histspec_parse(arg, &spec, bad, sizeof(bad)) < 0)
		return fail(c, "--hist: %s", bad);
	push(&o->hists, &o->n_hists, arg);
	return 0;
}

static int set_pid(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (parse_pids(arg, o) < 0)
		return fail(c, "-p takes a process id or a comma-separated list, not '%s'", arg);
	return 0;
}

static int set_freq(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	unsigned long ul;

	if (parse_ulong(arg, UINT_MAX, &ul) || ul == 0)
		return fail(c, "-F takes samples per second, 1 or more (perf's default is 99), "
			    "not '%s'", arg);
	o->freq = (unsigned)ul;
	return 0;
}

/* --kprobe, --kretprobe, --uprobe, --uretprobe: the row's which is the enum kt_probe_kind */
static int set_probe(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	char why[512];
	int pos;

	/* syntax is checked here (exit 2); the kernel's verdict comes later */
	if (probe_parse((enum kt_probe_kind)c->r->which, arg, NULL, why, sizeof(why), &pos) < 0)
		return fail(c, "--%s '%s': %s (at column %d)", c->r->name, arg, why, pos + 1);
	add_probe(o, c->r->which, false, arg);
	return 0;
}

static int set_usdt(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	char why[512];

	if (usdt_parse(arg, NULL, why, sizeof(why)) < 0)
		return fail(c, "--usdt '%s': %s", arg, why);
	add_probe(o, KT_PROBE_UPROBE, true, arg);
	return 0;
}

/* --ftrace-filter, --ftrace-notrace, -g, --graph-notrace: the row's which is the enum
 * kt_ftrace_list */
static int set_ftrace_list(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	char why[512];
	int pos;

	if (tracers_filter_check((enum kt_ftrace_list)c->r->which, arg, why, sizeof(why), &pos) < 0)
		return fail(c, "--%s '%s': %s", c->r->name, arg, why);
	add_list_entry(o, c->r->which, arg);
	return 0;
}

static int set_comm(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg || strlen(arg) > 15 || strpbrk(arg, "\"\\"))
		return fail(c, "--comm takes a command name of 1 to 15 characters without quotes "
			    "or backslashes, not '%s'", arg);
	o->comm = arg;
	return 0;
}

static int set_off_cpu(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (arg && strcmp(arg, "tp_btf") && strcmp(arg, "raw_tp") && strcmp(arg, "tracepoint"))
		return fail(c, "--off-cpu=VIA takes tp_btf, raw_tp or tracepoint, not '%s'", arg);
	o->off_cpu = true;
	o->off_cpu_via = arg;
	return 0;
}

static int set_top(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (arg && strcmp(arg, "tp_btf") && strcmp(arg, "raw_tp") && strcmp(arg, "proc"))
		return fail(c, "--top=VIA takes tp_btf, raw_tp or proc, not '%s'", arg);
	o->top = true;
	o->top_via = arg;
	return 0;
}

static int set_interval(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	char *end;

	errno = 0;
	o->top_interval = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->top_interval >= 0.1) || o->top_interval > 3600)
		return fail(c, "--interval takes seconds from 0.1 to 3600, such as 1 or 0.5, "
			    "not '%s'", arg);
	return 0;
}

static int set_verbose(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)arg, (void)c;
	o->verbose++;
	return 0;
}

static int set_log(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)c;
	o->log_path = arg;
	if (!o->verbose)
		o->verbose = 1;
	return 0;
}

static int set_host(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg || *arg == '-')
		return fail(c, "-H takes a host name as ssh knows it, not '%s'", arg);
	if (strlen(arg) >= sizeof(o->remotes[0].label))
		return fail(c, "-H %.40s...: a host name of at most %zu characters (an ssh config "
			    "alias is shorter)", arg, sizeof(o->remotes[0].label) - 1);
	return options_add_remote(o, arg, NULL, c->err, c->errlen);
}

static int set_via(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	if (!*arg)
		return fail(c, "--via takes a command that runs ktop --agent, such as "
			    "'ssh HOST ktop --agent'");
	return options_add_remote(o, NULL, arg, c->err, c->errlen);
}

/* --push, --no-push: the row's which is the enum kt_push */
static int set_push(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)arg;
	if (o->push != KT_PUSH_AUTO && o->push != (enum kt_push)c->r->which)
		return fail(c, "--push and --no-push contradict each other: give one");
	o->push = (enum kt_push)c->r->which;
	return 0;
}

static int set_help(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)o, (void)arg, (void)c;
	options_usage(stdout);
	return 1;
}

static int set_version(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	(void)o, (void)arg, (void)c;
	/* the second line: what a viewer's push looks for (src/remote/push.c) */
	printf("ktop %s\nremote protocol %u\n", PACKAGE_VERSION, KT_PROTO_VERSION);
#ifdef KTOP_TEST_HOOKS
	printf("built with --enable-test-hooks: the test suite's variables are read\n");
#endif
	return 1;
}

#define HEADING(text) { .help = text }
#define ROW(name_, letter_, has_arg_, value_, help_, ...)                                 \
	{ .name = name_, .letter = letter_, .has_arg = has_arg_, .value = value_, .help = help_, \
	  __VA_ARGS__ }
#define FLAG(member) .set = set_true, .field = offsetof(struct kt_options, member)
#define STR(member, why) .set = set_str, .field = offsetof(struct kt_options, member), .empty = why
#define NO no_argument
#define REQ required_argument
#define OPT optional_argument

/* --from, --to: one end of o->range; the row's which is 1 for --from. */
static int set_range_end(struct kt_options *o, char *arg, struct opt_ctx *c)
{
	struct kt_time *t = c->r->which ? &o->range.from : &o->range.to;
	char why[200];

	if (time_parse(arg, t, why, sizeof(why)) < 0)
		return fail(c, "%s '%s': %s (give +SECONDS after the start, such as +40.1, or a "
			    "timestamp as printed, such as 205.060123)",
			    c->r->which ? "--from" : "--to", arg, why);
	if (c->r->which)
		o->range.has_from = true;
	else
		o->range.has_to = true;
	return 0;
}

/* In --help's order; a heading starts a group (a blank line, then the heading if any). */
static const struct opt_row rows[] = {
	HEADING("Modes:\n  (default)              full-screen explorer"),
	ROW("batch", 'b', NO, NULL, "no screen: capture, then print events and a loss summary",
	    .set = set_mode, .which = KT_MODE_BATCH),
	ROW("doctor", 0, NO, NULL, "what this kernel and these privileges allow, and why not",
	    .set = set_mode, .which = KT_MODE_DOCTOR),
	ROW("list", 'l', OPT, "SPEC", "list the available events (matching SPEC, globs allowed)",
	    .set = set_list),
	ROW("list-usdt", 0, REQ, "PATH|PID", "list a binary's or a process's USDT probes",
	    .set = set_list_usdt),

	HEADING("Capture:"),
	ROW("event", 'e', REQ, "SPEC", "enable system:event (globs allowed), repeatable",
	    .set = set_event),
	ROW("filter", 0, REQ, "EXPR", "kernel filter for every -e event (e.g. 'common_pid == 42')",
	    STR(filter, NULL)),
	ROW("buffer-kb", 0, REQ, "N",
	    "ring buffer per CPU in KiB (default: 64 MiB, less on small machines)",
	    .set = set_buffer_kb),
	ROW("read-mode", 0, REQ, "MODE",
	    "mmap (default where the kernel can) or read: how the ring buffer is read",
	    .set = set_read_mode),
	ROW("memory", 0, REQ, "SIZE", "event store budget (default 256M; k, M, G suffixes)",
	    .set = set_memory),

	HEADING("Recordings (trace-cmd's trace.dat):"),
	ROW("output", 'o', REQ, "FILE",
	    "with -b: also record the capture to FILE (with -i and\n"
	    "--from/--to: that part of the recording)",
	    STR(record_path, "-o needs a file name to record to, such as trace.dat")),
	ROW("force", 0, NO, NULL, "-o, w and A may replace an existing file of one's own",
	    FLAG(force)),
	ROW("input", 'i', REQ, "FILE", "explore FILE offline (with -b: print its events)",
	    STR(input_path, "-i needs a trace.dat file to open")),
	ROW("from", 0, REQ, "T",
	    "only the events from T on (+40.1: seconds after the start;\n"
	    "205.060123: a timestamp as printed); with -i, -b, -o",
	    .set = set_range_end, .which = 1),
	ROW("to", 0, REQ, "T", "... and up to T", .set = set_range_end, .which = 0),
	ROW("chrome-trace", 0, REQ, "FILE",
	    "write Trace Event Format JSON (Perfetto, chrome://tracing):\n"
	    "with -i it writes and exits; with -b at the capture's end",
	    STR(chrome_path, "--chrome-trace needs a file name to write, such as trace.json")),

	HEADING("Flame graphs:"),
	ROW("flame", 0, REQ, "FILE",
	    "the flame graph of a folded-stacks file (perf script |\n"
	    "stackcollapse-perf.pl, inferno, ktop -b --folded)",
	    STR(flame_path, "--flame needs a folded-stacks file to show")),
	ROW("diff-base", 0, REQ, "FILE",
	    "with --flame: colour frames by their change from FILE's\n"
	    "(red grew, blue shrank)",
	    STR(diff_base, "--diff-base needs a folded-stacks file to compare with")),

	HEADING("Tracers and dynamic probes:"),
	ROW("tracer", 't', REQ, "NAME", "tracer of ktop's instance (function, function_graph, ...)",
	    STR(tracer, "-t needs a tracer name such as function or function_graph")),
	ROW("ftrace-filter", 0, REQ, "F", "trace only functions F (globs, :mod:MODULE, F:traceoff)",
	    .set = set_ftrace_list, .which = KT_FTRACE_FILTER),
	ROW("ftrace-notrace", 0, REQ, "F", "never trace functions F", .set = set_ftrace_list,
	    .which = KT_FTRACE_NOTRACE),
	ROW("graph-function", 'g', REQ, "F", "function_graph from F down", .set = set_ftrace_list,
	    .which = KT_GRAPH_FUNCTION),
	ROW("graph-notrace", 0, REQ, "F", "function_graph: not below F (the four repeatable)",
	    .set = set_ftrace_list, .which = KT_GRAPH_NOTRACE),
	ROW("top-level", 0, NO, NULL,
	    "where -t or -g exist only at tracefs's top level, use it\n"
	    "(it must be idle; saved and restored at exit)",
	    FLAG(top_level)),
	ROW("kprobe", 0, REQ, "DEF",
	    "probe a kernel function: '[NAME=]FUNC [ARG=FETCH:TYPE...]'", .set = set_probe,
	    .which = KT_PROBE_KPROBE),
	ROW("kretprobe", 0, REQ, "DEF",
	    "probe its return ('do_sys_openat2 ret=$retval:s32'); add\n"
	    "maxactive=N (1-4096) for N calls in flight at once",
	    .set = set_probe, .which = KT_PROBE_KRETPROBE),
	ROW("uprobe", 0, REQ, "DEF", "probe a user function: '[NAME=]PATH:FUNC [ARG...] [pid=N]'",
	    .set = set_probe, .which = KT_PROBE_UPROBE),
	ROW("uretprobe", 0, REQ, "DEF", "probe its return; all four repeatable, enabled at once",
	    .set = set_probe, .which = KT_PROBE_URETPROBE),
	ROW("usdt", 0, REQ, "DEF",
	    "a USDT probe: '[NAME=]PATH:PROVIDER:PROBE [argN:string...]\n"
	    "[pid=N]', its arguments typed from the note; repeatable",
	    .set = set_usdt),
	ROW("comm", 0, REQ, "NAME", "only events of tasks named NAME", .set = set_comm),
	ROW("follow-children", 0, NO, NULL, "-p and --comm also cover the children they fork",
	    FLAG(follow_children)),
	ROW("cgroup", 0, REQ, "PATH",
	    "only tasks in cgroup PATH and below (v2, relative to its\n"
	    "mount, or a v1 directory): events, probes, --hist, --pmu",
	    STR(cgroup, "--cgroup needs a cgroup directory such as /system.slice/cron.service")),
	ROW("trigger", 0, REQ, "SPEC",
	    "event trigger 'SYS:EV:TRIGGER[:COUNT] [if FILTER]'\n"
	    "(traceon, traceoff, stacktrace, enable_event:SYS:EV,\n"
	    "disable_event:SYS:EV, ...); repeatable",
	    .set = set_trigger),
	ROW("stop-when", 0, REQ, "SPEC",
	    "stop capturing when 'SYS:EV [if FILTER]' fires (with -b:\n"
	    "end the run there)",
	    .set = set_stop_when),
	ROW("stack", 0, REQ, "SYS:EV",
	    "trace SYS:EV (globs allowed) with its kernel stack on\n"
	    "every row (a stacktrace trigger); repeatable",
	    .set = set_stack),
	ROW("user-stacks", 0, NO, NULL,
	    "every event also carries its task's user stack\n"
	    "(the instance's userstacktrace option)",
	    FLAG(user_stacks)),

	HEADING("Flight recorder (-b):"),
	ROW("arm", 0, REQ, "COND",
	    "write an incident each time COND is met: syscall>DUR,\n"
	    "errno=NAME, runq>DUR, offcpu>DUR (,comm= ,pid= ,cgroup=\n"
	    ",name=) or event:SYS:EV[ if FILTER]; repeatable",
	    .set = set_arm),
	ROW("incidents", 0, REQ, "DIR", "where incidents go (DIR/incident-N-TIME/)",
	    STR(incidents_dir, "--incidents needs a directory to write incidents to")),
	ROW("pre", 0, REQ, "SECS", "seconds kept before the moment (default 5)",
	    .set = set_seconds, .field = offsetof(struct kt_options, arm_pre)),
	ROW("post", 0, REQ, "SECS", "seconds kept after it (default 1)",
	    .set = set_seconds, .field = offsetof(struct kt_options, arm_post)),
	ROW("max-incidents", 0, REQ, "N", "end the run after N incidents",
	    .set = set_max_incidents),
	ROW("incident-gap", 0, REQ, "SECS", "a condition fires again no sooner than SECS",
	    .set = set_seconds, .field = offsetof(struct kt_options, arm_gap)),
	ROW("incident-quota", 0, REQ, "SIZE", "remove the oldest incidents past SIZE in all",
	    .set = set_incident_quota),

	HEADING("Counters (perf_event_open):"),
	ROW("pmu", 0, NO, NULL,
	    "performance counters: a pane beside the stream, or\n"
	    "with -b a table (or JSON object) at the end",
	    FLAG(pmu)),
	ROW("pmu-event", 0, REQ, "SPEC",
	    "also count SPEC as perf spells it (cache-misses, r01c2,\n"
	    "cpu/event=0x3c/, msr/tsc/, sched:sched_switch); repeatable",
	    .set = set_pmu_event),
	ROW("pid", 'p', REQ, "PID[,PID]",
	    "count these processes' threads instead of every CPU,\n"
	    "and trace only them (set_event_pid, set_ftrace_pid)\n"
	    "(-p and --pmu-event imply --pmu; with --profile, -p\n"
	    "scopes the profile and --pmu is asked for apart)",
	    .set = set_pid),

	HEADING("The overview (a top of the kernel, counted in the kernel by BPF):"),
	ROW("top", 0, OPT, "VIA",
	    "with -b: one table of every process per interval (CPU,\n"
	    "run-queue wait, off-CPU, syscalls, faults, I/O, context\n"
	    "switches, migrations; --json: one object per line); VIA\n"
	    "pins tp_btf, raw_tp or proc (no BPF); with -H or --via,\n"
	    "the agent's machine's. The explorer opens on it when\n"
	    "nothing else is named",
	    .set = set_top),
	ROW("interval", 0, REQ, "SECS", "--top's interval (default: -d's)", .set = set_interval),

	HEADING("Profiles (perf_event_open sampling with kernel and user stacks):"),
	ROW("profile", 0, NO, NULL,
	    "sample on-CPU stacks on every CPU (or -p, --comm): cycles\n"
	    "with a PMU, else cpu-clock; with -b, folded stacks at the\n"
	    "end (--json: a JSON object); --memory bounds the stacks",
	    FLAG(cpu_profile)),
	ROW("freq", 'F', REQ, "HZ", "samples per second per CPU (default 99)", .set = set_freq),
	ROW("off-cpu", 0, OPT, "VIA",
	    "time off the CPU (blocked, then waiting for a CPU) by\n"
	    "kernel and user stack, in ns, with -b (BPF); VIA pins\n"
	    "tp_btf, raw_tp or tracepoint; one -p, --comm or --cgroup",
	    .set = set_off_cpu),
	ROW("wakers", 0, NO, NULL,
	    "with --off-cpu: each wait under the stacks of the task\n"
	    "that woke it too (waker;...;--;...;blocked, offwaketime)",
	    FLAG(wakers)),
	ROW("folded", 0, NO, NULL,
	    "with -b: stacks folded (task;outer;...;inner COUNT) for\n"
	    "flame graphs, instead of event lines: the profile's, or\n"
	    "the --stack events' (counts on stderr)",
	    FLAG(folded)),

	HEADING("Histograms (BPF, aggregated in the kernel):"),
	ROW("hist", 0, REQ, "SPEC",
	    "syscall-latency, runq-latency, offcpu, bio-latency,\n"
	    "bio-size, read-size, write-size, lock-contention,\n"
	    "tcp-connect-latency, func:FUNCTION, field:SYS:EVENT.FIELD,\n"
	    "latency:SYS:EV[.F]->SYS:EV[.F], usdt:PATH:PROVIDER:PROBE[.argN];\n"
	    "options ,by=KEY ,linear=STEP ,pid=PID\n"
	    ",via=tp_btf|raw_tp|tracepoint|fentry|kprobe; repeatable;\n"
	    "--hist list shows the kinds",
	    .set = set_hist),

	HEADING("Batch mode:"),
	ROW("duration", 0, REQ, "SECS", "capture this long (default: until SIGINT/SIGTERM)",
	    .set = set_duration),
	ROW("max-events", 0, REQ, "N", "stop after N events", .set = set_max_events),
	ROW("json", 0, NO, NULL, "one JSON object per line", FLAG(json)),
	ROW("quiet", 'q', NO, NULL, "print only the summary", FLAG(quiet)),
	ROW("tree", 0, NO, NULL,
	    "function_graph call trees, in the kernel's layout (or\n"
	    "JSON with --json), instead of event lines",
	    FLAG(tree)),

	HEADING("Remote (docs/remote.md):"),
	ROW("host", 'H', REQ, "HOST", "capture on HOST: runs ssh HOST ktop --agent",
	    .set = set_host),
	ROW("via", 0, REQ, "CMD",
	    "capture through CMD (/bin/sh -c), which runs ktop --agent\n"
	    "(kubectl exec -i POD -- ktop --agent, docker exec -i ...)\n"
	    "-H and --via repeat (up to 16): one stream by time, a\n"
	    "host column (HOST, or via1, via2... in order)",
	    .set = set_via),
	ROW("compress", 0, NO, NULL, "the agent sends its pages zstd-compressed (slow links)",
	    FLAG(compress)),
	ROW("push", 0, NO, NULL,
	    "send the static agent even where HOST has ktop (with\n"
	    "--via, CMD starts a POSIX shell: 'chroot ROOT /bin/sh');\n"
	    "-H sends it by itself where HOST has no ktop of this\n"
	    "version; it runs from memory and leaves nothing there",
	    .set = set_push, .which = KT_PUSH_FORCE),
	ROW("no-push", 0, NO, NULL, "-H: only HOST's own ktop (ssh HOST ktop --agent)",
	    .set = set_push,
	    .which = KT_PUSH_NEVER),
	ROW("agent", 0, NO, NULL,
	    "no screen: the remote protocol on stdin/stdout, for a\n"
	    "viewer at the other end of the pipe",
	    FLAG(agent)),

	HEADING("Screen:"),
	ROW("delay", 'd', REQ, "TENTHS",
	    "refresh interval in tenths of a second (default 10)", .set = set_delay),
	ROW("no-color", 'C', NO, NULL, "monochrome (also when NO_COLOR is set)", FLAG(no_color)),
	ROW("no-colour", 'C', NO, NULL, NULL, FLAG(no_color)),
	ROW("ascii", 'U', NO, NULL, "ASCII line drawing", FLAG(ascii)),
	ROW("theme", 0, REQ, "NAME",
	    "colour theme (default, light, mono, high-contrast, yours;\n"
	    "--theme list shows them)",
	    STR(theme, "--theme needs a name (--theme list shows them)")),
	ROW("no-mouse", 'M', NO, NULL, "no mouse (clicks and the wheel go to the terminal)",
	    FLAG(no_mouse)),
	ROW("preset", 'P', REQ, "NAME",
	    "events and layout of a profile: sched, block, syscalls,\n"
	    "memory, net, or ~/.config/ktop/profiles/NAME (-P list)",
	    STR(profile, "-P needs a profile name such as sched")),

	HEADING(""),
	ROW("verbose", 'v', NO, NULL, "debug log to ktop-PID.log", .set = set_verbose),
	ROW("log", 0, REQ, "FILE", "the debug log to FILE instead (implies -v)", .set = set_log),
	ROW("help", 'h', NO, NULL, "this help", .set = set_help),
	ROW("version", 'V', NO, NULL, "version", .set = set_version),
};

#define N_ROWS (sizeof(rows) / sizeof(rows[0]))
/* getopt_long's value for a row without a short option: beyond every letter */
#define ROW_VAL(i) (256 + (int)(i))

/* ---- generated from the table: --help and getopt_long's arrays ------------------------- */

/* The help column: an option's text starts here, after at least one space (two when its
 * name and value reach it). */
#define HELP_COL 25

static void usage_row(FILE *out, const struct opt_row *r)
{
	bool optional = r->has_arg == optional_argument;
	const char *line, *nl;
	int n;

	if (r->letter)
		n = fprintf(out, "  -%c, --%s", r->letter, r->name);
	else
		n = fprintf(out, "      --%s", r->name);
	if (r->value)
		n += fprintf(out, "%s%s%s", optional ? "[=" : " ", r->value, optional ? "]" : "");
	fprintf(out, "%*s", n < HELP_COL ? HELP_COL - n : 2, "");
	for (line = r->help; (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(out, "%.*s\n%*s", (int)(nl - line), line, HELP_COL, "");
	fprintf(out, "%s\n", line);
}

void options_usage(FILE *out)
{
	fputs("Usage: ktop [options]\n"
	      "Explore what the Linux kernel is doing, live.\n",
	      out);
	for (size_t i = 0; i < N_ROWS; i++) {
		if (!rows[i].name) /* a heading, after a blank line */
			fprintf(out, "\n%s%s", rows[i].help, *rows[i].help ? "\n" : "");
		else if (rows[i].help)
			usage_row(out, &rows[i]);
	}
	fputs("\n"
	      "Exit status: 0 ok, 1 runtime error, 2 usage error, 3 not permitted,\n"
	      "128+N after signal N in the explorer. See ktop(1).\n",
	      out);
}

/* getopt_long's long options and short-option string, from the rows. */
static void getopt_arrays(struct option *longs, char *shorts)
{
	size_t n = 0;

	*shorts++ = ':'; /* a missing value is ':', not '?' */
	for (size_t i = 0; i < N_ROWS; i++) {
		if (!rows[i].name)
			continue;
		longs[n++] = (struct option){ rows[i].name, rows[i].has_arg, NULL,
					      rows[i].letter ? rows[i].letter : ROW_VAL(i) };
		if (!rows[i].letter || !rows[i].help)
			continue;
		*shorts++ = rows[i].letter;
		if (rows[i].has_arg == required_argument)
			*shorts++ = ':';
	}
	longs[n] = (struct option){ 0 };
	*shorts = '\0';
}

/* The row getopt_long's return value c stands for, or NULL. */
static const struct opt_row *row_of(int c)
{
	if (c >= ROW_VAL(0))
		return c < ROW_VAL(N_ROWS) ? &rows[c - ROW_VAL(0)] : NULL;
	for (size_t i = 0; i < N_ROWS; i++)
		if (rows[i].name && rows[i].letter == c)
			return &rows[i];
	return NULL;
}

int options_parse(int argc, char **argv, struct kt_options *o, char *err, size_t errlen)
{
	struct option longs[N_ROWS + 1];
	char shorts[2 * N_ROWS + 2];
	struct opt_ctx ctx = { .argc = argc, .argv = argv, .err = err, .errlen = errlen };
	const struct opt_row *r;
	int c, ret = 0;

	options_defaults(o);
	getopt_arrays(longs, shorts);
	optind = 1;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		ctx.r = r = row_of(c);
		if (c == ':')
			ret = fail(&ctx, "option '%s' needs a value", argv[optind - 1]);
		else if (!r)
			ret = fail(&ctx, "unknown option '%s'", argv[optind - 1]);
		else
			ret = r->set(o, optarg, &ctx);
	}
	if (!ret && optind < argc && !strcmp(argv[optind - 1], "--profile"))
		ret = fail(&ctx, "unexpected argument '%s' (--profile is the CPU profile and takes "
			   "no value; -P NAME, or --preset NAME, starts with a profile of events)",
			   argv[optind]);
	else if (!ret && optind < argc)
		ret = fail(&ctx, "unexpected argument '%s'", argv[optind]);
	if (!ret)
		ret = options_check(o, err, errlen);
	if (ret)
		options_free(o);
	return ret;
}

void options_free(struct kt_options *o)
{
	free(o->events);
	o->events = NULL;
	o->n_events = 0;
	free(o->pmu_events);
	o->pmu_events = NULL;
	o->n_pmu_events = 0;
	free(o->hists);
	o->hists = NULL;
	o->n_hists = 0;
	free(o->arms);
	o->arms = NULL;
	o->n_arms = 0;
	free(o->triggers);
	o->triggers = NULL;
	o->n_triggers = 0;
	free(o->stacks);
	o->stacks = NULL;
	o->n_stacks = 0;
	free(o->pids);
	o->pids = NULL;
	o->n_pids = 0;
	free(o->profile_events);
	o->profile_events = NULL;
	free(o->probes);
	o->probes = NULL;
	o->n_probes = 0;
	for (size_t i = 0; i < 4; i++) {
		free(o->ftrace_lists[i]);
		o->ftrace_lists[i] = NULL;
		o->n_ftrace_lists[i] = 0;
	}
	o->n_profile_events = 0;
}
