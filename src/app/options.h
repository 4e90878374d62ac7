/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line options. */
#ifndef KTOP_OPTIONS_H
#define KTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "remote/push.h"
#include "util/timerange.h"

/* Exit codes, documented in ktop.1. */
enum {
	KT_EXIT_OK = 0,
	KT_EXIT_FAILURE = 1,   /* the kernel refused something, or a runtime error */
	KT_EXIT_USAGE = 2,     /* bad command line */
	KT_EXIT_NOPERM = 3,    /* not allowed: not root, lockdown, no tracefs */
	KT_EXIT_RECORDING = 4, /* -b -o: the file stopped early or is missing; the capture ran */
	KT_EXIT_SIGNAL = 128,  /* + signal number, after a clean teardown */
};

enum kt_mode { KT_MODE_INTERACTIVE, KT_MODE_BATCH, KT_MODE_DOCTOR, KT_MODE_LIST,
	       KT_MODE_LIST_USDT };

/* At most this many -H and --via in one run: each is a process, a pipe and a queue. */
#define KT_REMOTES_MAX 16

/* One remote: host (-H) or via (--via), and the label its events carry when several merge:
 * the host, or via1, via2... in the order of the --via options. */
struct kt_remote_opt {
	const char *host, *via;
	char label[64];
};

struct kt_options {
	enum kt_mode mode;
	bool json;
	bool no_color;	 /* -C or NO_COLOR */
	bool ascii;	 /* -U: ASCII line drawing */
	bool quiet;	 /* batch: summary only, no event lines */
	bool tree;	 /* batch --tree: function_graph call trees instead of event lines */
	int verbose;	 /* -v: debug log */
	const char *log_path;
	double duration; /* batch: seconds, 0 = until a signal */
	unsigned delay_ms; /* UI tick (-d, tenths of seconds like top) */
	unsigned long buffer_kb;   /* 0: default */
	bool read_copy;		   /* --read-mode=read: read() the ring buffer, never map it */
	size_t memory_bytes;	   /* store budget */
	const char **events;	   /* -e specs, NULL-terminated */
	size_t n_events;
	const char *filter;	   /* --filter for every -e event */
	const char *list_spec;	   /* --list [SPEC]: NULL lists everything; --list-usdt's
				    * PATH or PID */
	const char *record_path;   /* -o: record the capture to this trace.dat */
	const char *input_path;	   /* -i: explore this trace.dat instead of the kernel */
	const char *flame_path;	   /* --flame: the flame graph of this folded-stacks file */
	const char *diff_base;	   /* --diff-base: its baseline, for the differential view */
	unsigned long max_events;  /* batch: stop after this many, 0 = no limit */
	bool pmu;		   /* --pmu: counters (batch: printed; explorer: the pane) */
	const char **pmu_events;   /* --pmu-event specs, NULL-terminated */
	size_t n_pmu_events;
	const char **hists;	   /* --hist specs (src/backend/bpf/histspec.h), NULL-terminated */
	size_t n_hists;
	pid_t *pids;		   /* -p: count these processes' threads, not every CPU, and
				    * scope events, function tracers and --profile to them */
	size_t n_pids;
	bool cpu_profile;	   /* --profile: on-CPU stack sampling (src/backend/perf/profile.h) */
	unsigned freq;		   /* -F: its samples per second per CPU; 0: the default */
	bool folded;		   /* --folded: batch prints folded stacks (a profile, or events') */
	/* tracers, dynamic probes, scoping (src/backend/tracefs/tracers.c, probes.c, scope.c) */
	struct kt_probe_opt {
		int kind;	   /* enum kt_probe_kind */
		bool usdt;	   /* --usdt: def is usdt.h's, made into uprobes */
		const char *def;
	} *probes;		   /* --kprobe, --kretprobe, --uprobe, --uretprobe, --usdt, in
				    * order */
	size_t n_probes;
	const char *tracer;	   /* -t NAME */
	bool top_level;		   /* --top-level: may use tracefs's top level (toplevel.h) */
	const char **ftrace_lists[4]; /* --ftrace-filter, --ftrace-notrace, -g, --graph-notrace
				       * (indexed by enum kt_ftrace_list), NULL-terminated */
	size_t n_ftrace_lists[4];
	bool follow_children;	   /* --follow-children: -p/--comm include their children */
	const char *comm;	   /* --comm NAME */
	const char *cgroup;	   /* --cgroup PATH (src/backend/tracefs/cgroup.h) */
	const char **triggers;	   /* --trigger 'SYS:EV:TRIGGER[:COUNT] [if FILTER]', NULL-term. */
	size_t n_triggers;
	const char *stop_when;	   /* --stop-when 'SYS:EV [if FILTER]': traceoff there */
	const char **stacks;	   /* --stack SYS:EV: enabled with a stacktrace trigger,
				    * NULL-terminated */
	size_t n_stacks;
	bool user_stacks;	   /* --user-stacks: the instance's userstacktrace option */
	/* themes, configuration, profiles (src/ui/ktoprc.c, src/ui/theme.c) */
	const char *theme;	   /* --theme NAME ("list": print them) */
	const char *profile;	   /* -P NAME */
	bool no_mouse;		   /* -M */
	bool delay_set;		   /* -d given: the configuration's delay does not apply */
	const char **profile_events; /* the profile's specs: those matching nothing are skipped */
	size_t n_profile_events;
	struct kt_config *config;  /* ktoprc as loaded (main.c), or NULL */
	const struct kt_config *profile_config; /* -P's layout, or NULL */
	bool config_bad;	   /* ktoprc failed to parse: never written over */
	char config_path[4096];	   /* "" when there is no place for it */
	char config_error[512];	   /* why ktoprc was not used, for the status line */
	/* profiles (issue 15; src/batch/batch_offcpu.c) */
	bool off_cpu;		   /* --off-cpu: time off the CPU by stack (src/backend/bpf/offcpu.h) */
	bool agent;		   /* --agent: speak the remote protocol on stdin/stdout */
	/* -H HOST (ssh HOST ktop --agent) and --via CMD (CMD through /bin/sh -c runs the
	 * agent), in the order given; several merge into one stream in batch mode */
	struct kt_remote_opt remotes[KT_REMOTES_MAX];
	size_t n_remotes;
	bool compress;		   /* --compress: the agent sends zstd frames */
	bool force;		   /* --force: a recording may replace one's own existing file */
	enum kt_push push;	   /* --push, --no-push (src/remote/push.h) */
	const char *off_cpu_via;   /* --off-cpu=VIA: only that variant; NULL: the first accepted */
	bool wakers;		   /* --wakers: off-CPU stacks joined to their wakers' */
	/* the overview (issue 32; src/batch/batch_top.c, src/ui/panes/view_overview.c) */
	bool top;		   /* --top */
	const char *top_via;	   /* --top=VIA: tp_btf, raw_tp or proc; NULL: the first taken */
	double top_interval;	   /* --interval SECS; 0: -d's */
	/* the flight recorder (issue 34; src/batch/flightrec.h) */
	const char **arms;	   /* --arm COND (src/app/armspec.h), n_arms of them */
	size_t n_arms;
	const char *incidents_dir; /* --incidents DIR */
	double arm_pre, arm_post;  /* --pre, --post: seconds kept before and after */
	double arm_gap;		   /* --incident-gap: seconds before a condition re-arms */
	unsigned max_incidents;	   /* --max-incidents: 0 = no limit */
	size_t incident_quota;	   /* --incident-quota: bytes; 0 = no limit */
	/* the time axis (issue 33) */
	struct kt_time_range range; /* --from, --to: -i's rows, -b's output, -o's file */
	const char *chrome_path;   /* --chrome-trace FILE: Trace Event Format JSON */
};

/* Parses argv into o (defaults first). Returns 0 to run, 1 when it printed --help or
 * --version and ktop should exit 0, -1 on a usage error with the one-line reason in err. */
int options_parse(int argc, char **argv, struct kt_options *o, char *err, size_t errlen);
void options_free(struct kt_options *o);
/* After parsing (src/app/options_check.c): 0, or -1 with the one-line reason why these options
 * do not go together in err. */
int options_check(struct kt_options *o, char *err, size_t errlen);
void options_usage(FILE *out);

/* "256M", "1G", "512k", "1048576" -> bytes; -1 when malformed. */
long long options_parse_size(const char *s);

/* --from or --to was given. */
bool options_ranged(const struct kt_options *o);

/* The explorer lands on the overview: --top, or nothing named on the command line (no
 * event, tracer, histogram, profile, probe, scope, recording or agent). */
bool options_landing(const struct kt_options *o);

#endif
