/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where events and control come from: the event source the app holds (app->source): a
 * live kernel session (source_live.c, live_data.c), a recording (source_recording.c) or
 * agents on other machines (remote_*.c). A new one is an ops table; no pane changes.
 *
 * A source reports capabilities (enum kt_cap), one per table of ops it fills in. The panes and batch mode ask
 * (app_can(app, KT_CAP_TRACER)) and go through the source_* calls below, never through the
 * backend objects behind it: a call for a capability the source lacks does nothing, returns
 * -1 (or NULL, false, 0) and fills err with the source's one-line reason (source_refusal),
 * the line the explorer shows. Records themselves do not pass through this interface: every
 * source fills the app's store (store.h), named by its decoder, whatever carries them. */
#ifndef KTOP_SOURCE_H
#define KTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/tracefs/probes.h"
#include "backend/tracefs/tracers.h"

struct kt_app;
struct kt_source;
struct kt_cgroup;
struct kt_trigger;
struct kt_histsrc;
struct kt_countersrc;
struct kt_profsrc;
struct kt_profsrc_req;
struct kt_ovsrc;
struct kt_symbolizer;
struct kt_symlist;
struct kt_tdat_meta;
struct tep_event;
struct tep_handle;

enum kt_cap {
	KT_CAP_EVENTS = 1u << 0,   /* turns kernel events on and off (-e, the picker) */
	KT_CAP_FILTER = 1u << 1,   /* filters events in the kernel (--filter, the picker's Enter) */
	KT_CAP_TRIGGERS = 1u << 2, /* event triggers (--trigger, --stop-when, Ctrl-T/Ctrl-R) */
	KT_CAP_STACKS = 1u << 3,   /* stack triggers on events (--stack, Ctrl-K) */
	KT_CAP_TRACER = 1u << 4,   /* switches the tracer, sets function lists (R, live trees) */
	KT_CAP_PROBES = 1u << 5,   /* creates dynamic probes (P, --kprobe...) */
	KT_CAP_SCOPE = 1u << 6,	   /* scopes the capture to pids, a comm, a cgroup */
	KT_CAP_HIST = 1u << 7,	   /* BPF histograms (H) */
	KT_CAP_COUNTERS = 1u << 8, /* performance counters (m) */
	KT_CAP_PROFILE = 1u << 9,  /* samples on-CPU stacks (--profile, the flame pane) */
	KT_CAP_LIVE = 1u << 10,	   /* the capture grows as it is watched (pause, follow) */
	KT_CAP_CLEAR = 1u << 11,   /* what is stored may be dropped (x) */
	KT_CAP_WRITE = 1u << 12,   /* what it captures may be written to a trace.dat (w, A, -o) */
	KT_CAP_SEEK = 1u << 13,	   /* offline: all of it is there from the start, read in the
				    * background; the store is a window over it (nothing evicted) */
	KT_CAP_KBUF = 1u << 14,	   /* a kernel ring buffer per CPU with its loss counters */
	KT_CAP_HIDE = 1u << 15,	   /* ktop hides and filters its event types as it reads
				    * them (the recorded-events pane, source_type_*) */
	KT_CAP_SELF = 1u << 16,	   /* the capture runs in this process: ktop's own threads
				    * can be told apart (selftask.h) and their rows hidden */
	KT_CAP_OVERVIEW = 1u << 17, /* counts every running task in the kernel (the overview
				     * pane, --top: ovsrc.h) */
};

/* Several remote hosts merged (ktop -H a -H b): the most one source holds (KT_REMOTES_MAX). */
#define KT_SOURCE_HOSTS_MAX 16

/* One of them, for the header. */
struct kt_source_host {
	char label[64];		     /* -H's HOST, "via1" ... */
	bool clock;		     /* a pong came: offset and uncertainty are known */
	int64_t offset_ns;	     /* its clock minus this machine's */
	uint64_t uncertainty_ns;     /* half the shortest round trip */
	bool ended;		     /* its agent ended or failed: its capture stopped */
	uint64_t behind_bytes, behind_ns; /* as the source's own, this host's */
	char group[32];		     /* its agent's probe group, "" before its first probe */
};

/* What the header and the summary say about a source. */
struct kt_source_desc {
	char name[256];		  /* "ktop-1234" (the instance), "trace.dat" (a recording's
				   * file name); a remote one: its host */
	char host[65], kernel[128]; /* where the events were made, "" when unknown */
	/* whose files a path the user types names: "the agent's" (another machine's), "" for
	 * this machine's */
	char files_of[32];
	/* whose tracefs instance it drives, for what the panes say it now does: "ktop's", "the
	 * agent's" */
	char instance_of[32];
	bool complete;		  /* SEEK: read to its end */
	uint64_t events;	  /* SEEK: events read so far */
	unsigned long long first_ts, last_ts; /* SEEK: its span */
	uint64_t corrupt;	  /* records a corrupt page gave, left out */
	char corrupt_page[256];	  /* "PATH: corrupt page at offset ...": read up to there */
	/* a remote agent that is behind (its oldest unsent event waited half a second or
	 * more): the bytes it and its kernel hold unsent, that wait; 0 and 0 when caught up */
	uint64_t behind_bytes, behind_ns;
	/* the last line its far end wrote to its stderr (a remote agent's command: ssh's
	 * warnings), and how many it wrote: a new one when note_seq changes */
	char note[256];
	unsigned note_seq;
	/* several remote hosts: each one (0 with one source of events, as a single -H) */
	unsigned n_hosts;
	struct kt_source_host hosts[KT_SOURCE_HOSTS_MAX];
};

typedef void (*kt_source_event_fn)(const char *system, const char *event, void *ctx);

/* KT_CAP_EVENTS: kernel events on and off. */
struct kt_source_events_ops {
	/* event (NULL: every event of system) on or off, as the kernel does */
	int (*enable)(struct kt_source *s, const char *system, const char *event, bool on,
		      char *err, size_t errlen);
	bool (*is_enabled)(struct kt_source *s, const char *system, const char *event);
	int (*for_each_enabled)(struct kt_source *s, kt_source_event_fn fn, void *ctx);
};

/* KT_CAP_FILTER: filters in the kernel. */
struct kt_source_filter_ops {
	char *(*get_filter)(struct kt_source *s, const char *system, const char *event);
	int (*set_filter)(struct kt_source *s, const char *system, const char *event,
			  const char *filter, char *err, size_t errlen);
};

/* KT_CAP_TRIGGERS (triggers.h). */
struct kt_source_trigger_ops {
	int (*trigger_add)(struct kt_source *s, struct tep_event *te, const struct kt_trigger *t,
			   char *err, size_t errlen);
	int (*trigger_remove_all)(struct kt_source *s, const char *system, const char *event,
				  char *err, size_t errlen);
	/* only the triggers of one command ("stacktrace"), the others left as they are */
	int (*trigger_remove_cmd)(struct kt_source *s, const char *system, const char *event,
				  const char *cmd, char *err, size_t errlen);
	char *(*trigger_list)(struct kt_source *s, const char *system, const char *event);
	int (*triggers_for_each)(struct kt_source *s, kt_source_event_fn fn, void *ctx);
	bool (*trigger_spent)(struct kt_source *s, const char *system, const char *event,
			      const char *cmd);
	char *(*trigger_output)(struct kt_source *s, const struct kt_trigger *t);
	int (*tracing_on)(struct kt_source *s, bool on);
};

/* KT_CAP_STACKS (evstack.h). */
struct kt_source_stack_ops {
	bool (*stacks_enabled)(struct kt_source *s, const char *system, const char *event);
	int (*stacks_refilter)(struct kt_source *s, struct tep_event *te, const char *system,
			       const char *event, char *err, size_t errlen);
	/* the event's kernel stack after each of its records, or no more (the event, on
	 * already, stays on); te: its format, for the check (may be NULL) */
	int (*stacks_set)(struct kt_source *s, struct tep_event *te, const char *system,
			  const char *event, bool on, char *err, size_t errlen);
};

/* KT_CAP_TRACER (tracers.h). */
struct kt_source_tracer_ops {
	char *(*tracer)(struct kt_source *s);
	char **(*tracers_available)(struct kt_source *s, char *err, size_t errlen);
	/* switches it where the source's kernel is (a live one's reader stopped and started
	 * again around it, as the kernel will not switch while one reads) */
	int (*set_tracer)(struct kt_source *s, const char *name, char *err, size_t errlen);
	/* the kernel functions the lists take, for the pane to complete from, with a note on
	 * them in note; NULL with note the reason there are none (another machine's kernel:
	 * typed whole, checked there) */
	struct kt_symlist *(*functions)(struct kt_source *s, char *note, size_t notelen);
	bool (*list_exists)(struct kt_source *s, enum kt_ftrace_list which);
	char **(*list_get)(struct kt_source *s, enum kt_ftrace_list which, char *err,
			   size_t errlen);
	int (*list_add)(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			char *err, size_t errlen);
	int (*list_remove)(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			   char *err, size_t errlen);
	int (*list_clear)(struct kt_source *s, enum kt_ftrace_list which, char *err,
			  size_t errlen);
};

/* KT_CAP_PROBES (probes.h). */
struct kt_source_probe_ops {
	/* creates one, disabled, its event in the catalogue after
	 * ("GROUP:NAME" in event) */
	int (*probe_create)(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			    char *event, size_t eventlen, char *err, size_t errlen);
	/* removes one ("GROUP:NAME" or NAME), and its event from the catalogue */
	int (*probe_delete)(struct kt_source *s, const char *name, char *err, size_t errlen);
	size_t (*probe_count)(struct kt_source *s);
	/* the i-th in creation order, valid until the next create or delete */
	const struct kt_probe *(*probe_get)(struct kt_source *s, size_t i);
	/* its hits and misses (NULL: the source cannot say); with several hosts every host's
	 * summed */
	int (*probe_health)(struct kt_source *s, size_t i, struct kt_probe_health *h);
	/* several hosts: host's own counts of it (-1 unknown there) */
	int (*probe_host_health)(struct kt_source *s, size_t i, unsigned host,
				 struct kt_probe_health *h);
	/* asks for fresh counts, without waiting (an agent's: what probe_health gives once
	 * they came); NULL: probe_health reads them itself */
	void (*probe_refresh)(struct kt_source *s);
	/* a USDT probe (usdt.h's definition), the binary read where the source's kernel is:
	 * one probe per site, disabled, in the catalogue after, all or none; returns how many,
	 * their "GROUP:NAME" space-separated in events */
	int (*usdt_create)(struct kt_source *s, const char *def, char *events, size_t eventslen,
			   char *err, size_t errlen);
	/* what the probe editor completes from, read where the source's kernel is
	 * (probenames.h): what "ksyms", "dir" (arg a directory), "elf" or "usdt" (arg a path,
	 * a name or a pid); the names, NULL-terminated, and in reply the file's canonical path
	 * ("elf", a file's "usdt"); NULL with one line in reply */
	char **(*names)(struct kt_source *s, const char *what, const char *arg, char *reply,
			size_t len);
	/* whether the kernel takes probes of kind: false with why (a remote one says true:
	 * its agent's kernel says what it lacks as it refuses the probe) */
	bool (*supported)(struct kt_source *s, enum kt_probe_kind kind, char *why,
			  size_t whylen);
	/* the probe group the pane's title names ("ktop_1234"; an agent's once it named one,
	 * else its host) */
	void (*group)(struct kt_source *s, char *buf, size_t len);
};

/* KT_CAP_SCOPE. */
struct kt_source_scope_ops {
	/* brings the kernel's pid scope up to date with the cgroup's members */
	int (*sync_cgroup)(struct kt_source *s, const struct kt_cgroup *cg, char *err,
			   size_t errlen);
	/* where the source's kernel is (the pids checked, the command and the cgroup resolved
	 * there): kind "pid", "pid+children", "comm", "comm+children", "cgroup" or "" (all
	 * processes), arg the pids comma-separated, the name or the path; the scope there
	 * replaced. desc: the scope as the header says it ("" all processes); note: what
	 * some hosts of several refused ("" none). Returns 0, or -1 with one line and the
	 * scope unchanged. */
	int (*set_scope)(struct kt_source *s, const char *kind, const char *arg, char *desc,
			 size_t desclen, char *note, size_t notelen, char *err, size_t errlen);
};

/* KT_CAP_HIDE: event types by tep id. */
struct kt_source_hide_ops {
	uint64_t (*type_count)(struct kt_source *s, int id);
	bool (*type_hidden)(struct kt_source *s, int id);
	void (*type_set_hidden)(struct kt_source *s, int id, bool hidden);
	const char *(*type_filter)(struct kt_source *s, int id);
	int (*type_set_filter)(struct kt_source *s, int id, const char *expr, char *err,
			       size_t errlen);
};

/* Several hosts merged (no capability of its own: NULL with one host). */
struct kt_source_host_ops {
	/* several hosts: the label of the host whose CPU cpu is (the store numbers every
	 * host's CPUs one after the other), that CPU's own number in *local; NULL with one */
	const char *(*cpu_host)(struct kt_source *s, uint32_t cpu, uint32_t *local);
	/* several hosts: the tep whose kallsyms name the kernel addresses of a record of that
	 * CPU (its host's kernel); NULL with one, or when the decoder's do */
	struct tep_handle *(*symbols)(struct kt_source *s, uint32_t cpu);
	/* --user-stacks from an agent: what names the user frames of a record of that CPU
	 * (the names its host's agent sent, usernames.h); NULL op or NULL: app_symbolizer's */
	struct kt_symbolizer *(*user_symbolizer)(struct kt_source *s, uint32_t cpu);
};

/* KT_CAP_SEEK. */
struct kt_source_seek_ops {
	void (*wait_complete)(struct kt_source *s);
	const char *(*kept_stacks)(struct kt_source *s); /* the profile it keeps, or NULL */
};

/* One implementation: a few ops every source has, then one table per capability (or one op
 * where the capability is one call). A capability is the table's presence: a source
 * without it leaves the table NULL, and source_refusal gives its one line. An op a table
 * leaves NULL is refused the same way. The source_* calls check both, so a pane never
 * calls a NULL op. Strings returned as char * are malloc'd for the caller. */
struct kt_source_ops {
	const char *kind; /* "live", "recording": for ktop -v */
	/* the capabilities that have no ops: KT_CAP_LIVE, _CLEAR, _WRITE, _KBUF, _SELF */
	unsigned int flags;
	/* of its tables' capabilities and its flags, those it has now (a live source without
	 * tracefs has fewer, a remote one with several hosts writes none); NULL: all */
	unsigned int (*caps)(struct kt_source *s);
	/* The one line said when cap (a single bit it lacks) is asked for. NULL: a generic
	 * "not available from this source" line. */
	const char *(*refusal)(struct kt_source *s, enum kt_cap cap);
	void (*describe)(struct kt_source *s, struct kt_source_desc *d);
	/* Copies its figures into the app's tick fields (rstats, kernel_lost, cpu_stats). */
	void (*tick)(struct kt_source *s);
	void (*close)(struct kt_source *s);

	const struct kt_source_events_ops *events;
	const struct kt_source_filter_ops *filter;
	const struct kt_source_trigger_ops *triggers;
	const struct kt_source_stack_ops *stacks;
	const struct kt_source_tracer_ops *tracer;
	const struct kt_source_probe_ops *probes;
	const struct kt_source_scope_ops *scope;
	const struct kt_source_hide_ops *hide;
	const struct kt_source_host_ops *hosts;
	const struct kt_source_seek_ops *seek;
	/* KT_CAP_HIST (histsrc.h): opens spec where the source's kernel is (BPF here, an
	 * agent's there), NULL with one line in err */
	struct kt_histsrc *(*hist_open)(struct kt_source *s, const char *spec, char *err,
					size_t errlen);
	/* KT_CAP_COUNTERS (countersrc.h): opens the options' counters where the source's
	 * kernel is (perf here, agents' there), NULL with one line in err */
	struct kt_countersrc *(*counters_open)(struct kt_source *s, char *err, size_t errlen);
	/* KT_CAP_PROFILE (profsrc.h): the profile req asks for, sampled where the source's
	 * kernel is; NULL with one line in err */
	struct kt_profsrc *(*profile_open)(struct kt_source *s, const struct kt_profsrc_req *req,
					   char *err, size_t errlen);
	/* KT_CAP_OVERVIEW (ovsrc.h): the overview (via as --top=VIA's, NULL the first the
	 * kernel takes) counted where the source's kernel is (an agent's sends every tick);
	 * NULL with one line in err */
	struct kt_ovsrc *(*overview_open)(struct kt_source *s, const char *via, char *err,
					  size_t errlen);
	/* KT_CAP_WRITE of another machine's capture: what the trace.dat writer reads of its
	 * kernel (its tracefs files mirrored here, its kallsyms, uname and CPUs), valid while
	 * the source lives; 0, or -1 with one line. NULL op: this machine's (recorder.c) */
	int (*record_meta)(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
			   size_t errlen);
};

struct kt_source {
	const struct kt_source_ops *ops;
	struct kt_app *app; /* what it feeds: store, decoder, catalogue, figures */
	void *data;	    /* the implementation's own */
};

/* What the live source asks of the app that opened it (app.c fills it), so that it needs
 * none of app.c's functions: the reader and the catalogue are the app's. */
struct kt_source_live_hooks {
	/* stops app's reader, its counts kept (the kernel will not switch tracers while
	 * trace_pipe_raw is open) */
	void (*reader_stop)(struct kt_app *app);
	/* starts it again; -1 with one line (the capture stopped) */
	int (*reader_start)(struct kt_app *app, char *err, size_t errlen);
	/* reads the catalogue again (a probe came or went); -1 with one line */
	int (*catalog_refresh)(struct kt_app *app, char *err, size_t errlen);
	/* the scope made these pids (n 0: all processes), or the cgroup at path followed, the
	 * app's scope description set; -1 with one line, the scope unchanged */
	int (*scope_pids)(struct kt_app *app, const pid_t *pids, size_t n, bool children,
			  char *err, size_t errlen);
	int (*scope_cgroup)(struct kt_app *app, const char *path, char *err, size_t errlen);
};

/* The implementations. The live one drives app->session (app.c opens it); the recording one
 * owns the kt_recording it is given (recording.h) and closes it. */
struct kt_source *source_live_new(struct kt_app *app, const struct kt_source_live_hooks *hooks);
/* The live source's ops (its capabilities need no session: for tests). */
extern const struct kt_source_ops source_live_ops;
struct kt_recording;
struct kt_source *source_recording_new(struct kt_app *app, struct kt_recording *rec);
/* The recording source's ops (its capabilities and reasons need no file: for tests). */
extern const struct kt_source_ops source_recording_ops;
/* The remote source's (-H, --via without -b; app_open_remote): its capabilities and
 * reasons need no agent (for tests). */
extern const struct kt_source_ops source_remote_ops;

/* Closes (ops->close) and frees s. Safe on NULL. */
void source_free(struct kt_source *s);
/* Its capabilities now; 0 for NULL. */
unsigned int source_caps(struct kt_source *s);
/* True when s has every capability in caps. */
bool source_can(struct kt_source *s, unsigned int caps);
/* Why s lacks one of caps (the first it lacks): its own line, or a generic one. NULL when
 * it has them all. */
const char *source_refusal(struct kt_source *s, unsigned int caps);
void source_describe(struct kt_source *s, struct kt_source_desc *d);
void source_tick(struct kt_source *s);

int source_enable(struct kt_source *s, const char *system, const char *event, bool on,
		  char *err, size_t errlen);
bool source_is_enabled(struct kt_source *s, const char *system, const char *event);
/* Calls fn (may be NULL) for each enabled event; returns how many (0 without
 * KT_CAP_EVENTS), -1 when the source cannot say. */
int source_for_each_enabled(struct kt_source *s, kt_source_event_fn fn, void *ctx);
/* How many events are on; 0 when the source cannot say. */
int source_enabled_count(struct kt_source *s);
char *source_get_filter(struct kt_source *s, const char *system, const char *event);
int source_set_filter(struct kt_source *s, const char *system, const char *event,
		      const char *filter, char *err, size_t errlen);

int source_trigger_add(struct kt_source *s, struct tep_event *te, const struct kt_trigger *t,
		       char *err, size_t errlen);
int source_trigger_remove_all(struct kt_source *s, const char *system, const char *event,
			      char *err, size_t errlen);
int source_trigger_remove_cmd(struct kt_source *s, const char *system, const char *event,
			      const char *cmd, char *err, size_t errlen);
char *source_trigger_list(struct kt_source *s, const char *system, const char *event);
int source_triggers_for_each(struct kt_source *s, kt_source_event_fn fn, void *ctx);
bool source_trigger_spent(struct kt_source *s, const char *system, const char *event,
			  const char *cmd);
char *source_trigger_output(struct kt_source *s, const struct kt_trigger *t);
int source_tracing_on(struct kt_source *s, bool on);
/* KT_CAP_SCOPE: the pid scope made the cgroup's members now (scope_sync_cgroup); 0 without
 * a source that scopes (before app_open: the cgroup is only resolved), -1 with one line. */
int source_sync_cgroup(struct kt_source *s, const struct kt_cgroup *cg, char *err,
		       size_t errlen);
/* KT_CAP_SCOPE: sets it where the source's kernel is (ops->set_scope's contract). */
int source_set_scope(struct kt_source *s, const char *kind, const char *arg, char *desc,
		     size_t desclen, char *note, size_t notelen, char *err, size_t errlen);

/* KT_CAP_HIST: opens one where the source's kernel is (NULL with its one line: the
 * capability's refusal, or the source's reason). */
struct kt_histsrc *source_hist_open(struct kt_source *s, const char *spec, char *err,
				    size_t errlen);
/* KT_CAP_PROFILE: opens one where the source's kernel is (NULL with its one line: the
 * capability's refusal, or the source's reason). */
struct kt_profsrc *source_profile_open(struct kt_source *s, const struct kt_profsrc_req *req,
				       char *err, size_t errlen);

/* KT_CAP_OVERVIEW: opens it where the source's kernel is (NULL with its one line: the
 * capability's refusal, or the source's). */
struct kt_ovsrc *source_overview_open(struct kt_source *s, const char *via, char *err,
				      size_t errlen);

/* KT_CAP_COUNTERS: opens them where the source's kernel is (NULL with its one line: the
 * capability's refusal, or the source's reason). */
struct kt_countersrc *source_counters_open(struct kt_source *s, char *err, size_t errlen);

bool source_stacks_enabled(struct kt_source *s, const char *system, const char *event);
int source_stacks_set(struct kt_source *s, struct tep_event *te, const char *system,
		      const char *event, bool on, char *err, size_t errlen);
int source_stacks_refilter(struct kt_source *s, struct tep_event *te, const char *system,
			   const char *event, char *err, size_t errlen);

char *source_tracer(struct kt_source *s);
char **source_tracers_available(struct kt_source *s, char *err, size_t errlen);
int source_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen);
/* The functions the lists take (ops->functions' contract); NULL with the refusal in note. */
struct kt_symlist *source_tracer_functions(struct kt_source *s, char *note, size_t notelen);
bool source_list_exists(struct kt_source *s, enum kt_ftrace_list which);
char **source_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
		       size_t errlen);
int source_list_add(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
		    char *err, size_t errlen);
int source_list_remove(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
		       char *err, size_t errlen);
int source_list_clear(struct kt_source *s, enum kt_ftrace_list which, char *err,
		      size_t errlen);

/* KT_CAP_WRITE: the writer's view of the source's kernel (its record_meta op). 1 filled, 0
 * when it is this machine's (the caller fills meta), -1 with one line. */
int source_record_meta(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
		       size_t errlen);

int source_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			char *event, size_t eventlen, char *err, size_t errlen);
int source_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen);
/* 0 without KT_CAP_PROBES */
size_t source_probe_count(struct kt_source *s);
/* NULL past the end */
const struct kt_probe *source_probe_get(struct kt_source *s, size_t i);
/* -1 when the source cannot say (probes_health's rules for a live one) */
int source_probe_health(struct kt_source *s, size_t i, struct kt_probe_health *h);
/* Several hosts: host's own counts of the i-th; -1 when unknown there. */
int source_probe_host_health(struct kt_source *s, size_t i, unsigned host,
			     struct kt_probe_health *h);
/* Asks for fresh counts where the source must (an agent's); nothing otherwise. */
void source_probe_refresh(struct kt_source *s);
int source_usdt_create(struct kt_source *s, const char *def, char *events, size_t eventslen,
		       char *err, size_t errlen);
char **source_names(struct kt_source *s, const char *what, const char *arg, char *reply,
		    size_t len);
/* false with why when the source's kernel lacks probes of kind (or the source probes). */
bool source_probe_supported(struct kt_source *s, enum kt_probe_kind kind, char *why,
			    size_t whylen);
/* The probe group to name (ops->group), "" when the source probes nothing. */
void source_probe_group(struct kt_source *s, char *buf, size_t len);

uint64_t source_type_count(struct kt_source *s, int id);
bool source_type_hidden(struct kt_source *s, int id);
void source_type_set_hidden(struct kt_source *s, int id, bool hidden);
const char *source_type_filter(struct kt_source *s, int id);
int source_type_set_filter(struct kt_source *s, int id, const char *expr, char *err,
			   size_t errlen);

/* Several hosts: cpu's host's label (stable while the source is open) and its own number
 * in *local; NULL, *local = cpu, otherwise. */
const char *source_cpu_host(struct kt_source *s, uint32_t cpu, uint32_t *local);
/* The tep that names a CPU's kernel addresses (ops->symbols), NULL: the decoder's. */
struct tep_handle *source_symbols(struct kt_source *s, uint32_t cpu);
/* What names a CPU's user frames when the source names them (ops->user_symbolizer), else
 * NULL. */
struct kt_symbolizer *source_user_symbolizer(struct kt_source *s, uint32_t cpu);

void source_wait_complete(struct kt_source *s);
const char *source_kept_stacks(struct kt_source *s);

#endif
