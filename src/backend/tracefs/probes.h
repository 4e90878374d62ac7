/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dynamic probes: kprobe, kretprobe, uprobe and uretprobe events that ktop creates in its own
 * group "ktop_<pid>" (DESIGN.md, the kernel-state contract), from definitions written as the
 * user types them:
 *
 *   [NAME=]TARGET [ARG...]
 *     kprobe/kretprobe TARGET:  FUNC | FUNC+OFFSET | MODULE:FUNC
 *     uprobe/uretprobe TARGET:  PATH:FUNC | PATH:FUNC+OFFSET | PATH:0xFILEOFFSET
 *                               | PATH:0xFILEOFFSET(0xREFCTROFFSET) (a semaphore the kernel
 *                               counts up while the probe is on: USDT, usdt.h)
 *                               (PATH without '/' is looked up in $PATH; OFFSET is
 *                               decimal or 0x hex)
 *     ARG:  [ANAME=]FETCHARG[:TYPE]   FETCHARG: $argN $retval $comm $stackN $stack %REG
 *           @ADDR @SYM[+-OFF] @+FILEOFF \IMM +|-[u]OFF(FETCHARG)
 *           TYPE: u8..u64 s8..s64 x8..x64 char string ustring symbol symstr
 *                 b<width>@<offset>/<size>, and any of them with [N] (array)
 *     pid=PID (uprobes only, 1 to 4194304): only hits of this process count (a common_pid
 *     filter)
 *     maxactive=N (kretprobes only, 1 to 4096): how many calls of the function may be in
 *     flight at once and still have their return seen (the kernel's "r[MAXACTIVE]:" prefix;
 *     without it the kernel picks max(10, 2 * CPUs))
 *
 * e.g. "do_sys_openat2 path=+0($arg2):string", "ret=$retval:s32" on a kretprobe,
 * "/usr/bin/bash:readline", "opens=/lib/x86_64-linux-gnu/libc.so.6:open file=+0($arg1):ustring".
 * Without NAME= the event is named after the function ("readline", "do_sys_openat2_ret" for
 * return probes), with "_2", "_3"... when that name is taken in the group.
 *
 * Parsing is pure (no kernel, no files) so the probe editor can validate on every key.
 * Creating resolves uprobe functions to file offsets (elfsyms.h) and writes the kernel's
 * syntax to dynamic_events in append mode (session_dynevent_command), which reports the
 * kernel's own error_log entry and caret on rejection. */
#ifndef KTOP_PROBES_H
#define KTOP_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kt_session;

enum kt_probe_kind {
	KT_PROBE_KPROBE,
	KT_PROBE_KRETPROBE,
	KT_PROBE_UPROBE,
	KT_PROBE_URETPROBE,
};

#define KT_PROBE_NAME_MAX 64 /* event names, as the kernel's MAX_EVENT_NAME_LEN */

/* A parsed definition. Strings are malloc'd; free with probe_def_free(). */
struct kt_probe_def {
	enum kt_probe_kind kind;
	char *name;	/* NAME= given, or NULL for an automatic name */
	char *module;	/* kprobe MODULE:FUNC, or NULL */
	char *path;	/* uprobe: the binary as written (resolved only by probes_create) */
	char *func;	/* function name, or NULL for a uprobe at 0xFILEOFFSET */
	uint64_t offset; /* kprobe: +OFFSET into func; uprobe: +OFFSET into func, or the file
			  * offset when func is NULL */
	uint64_t ref_ctr_offset; /* uprobe at 0xFILEOFFSET(0xREF): the semaphore's file
				  * offset, 0 for none */
	char *args;	/* the ARG tokens, space-separated as the kernel takes them, or "" */
	pid_t pid;	/* uprobe pid=PID, 0 for every process */
	unsigned maxactive; /* kretprobe maxactive=N, 0 for the kernel's default */
};

#define KT_PROBE_MAXACTIVE_MAX 4096 /* the kernel's KRETPROBE_MAXACTIVE_MAX */

/* "kprobe", "kretprobe", "uprobe", "uretprobe". */
const char *probe_kind_name(enum kt_probe_kind kind);
/* The kind of a name above (also "k", "kr", "u", "ur", "p", "r"). Returns 0, or -1. */
int probe_kind_parse(const char *name, enum kt_probe_kind *kind);
static inline bool probe_kind_is_user(enum kt_probe_kind k)
{
	return k == KT_PROBE_UPROBE || k == KT_PROBE_URETPROBE;
}
static inline bool probe_kind_is_return(enum kt_probe_kind k)
{
	return k == KT_PROBE_KRETPROBE || k == KT_PROBE_URETPROBE;
}

/* Parses a definition without touching the kernel or any file. Returns 0 (def filled when
 * not NULL), or -1 with a one-line reason in err and, in *errpos (may be NULL), the byte
 * offset in text where the problem is, for a caret under the editor's field:
 *   "'$retval' exists only in return probes (use a kretprobe)"  (errpos at the '$')
 *   "type 'string' needs a dereference such as +0($arg2):string" */
int probe_parse(enum kt_probe_kind kind, const char *text, struct kt_probe_def *def,
		char *err, size_t errlen, int *errpos);
void probe_def_free(struct kt_probe_def *def);

/* The fetcharg types and special variables the kernel takes, NULL-terminated, for the
 * editor's completion. */
extern const char *const probe_fetch_types[];
extern const char *const probe_fetch_vars[];

/* One probe of the session. */
struct kt_probe {
	enum kt_probe_kind kind;
	char *system;	  /* "ktop_<pid>" */
	char *event;	  /* its name in the group */
	char *definition; /* the text it was created from */
	char *command;	  /* the line written to dynamic_events */
	pid_t pid;	  /* uprobe pid=, 0 for all */
	unsigned maxactive; /* kretprobe maxactive=, 0 for the kernel's default */
};

/* The session's probes. */
struct kt_probes;

/* s gives the instance in which probes are disabled before deletion and pid= filters set. */
struct kt_probes *probes_new(struct kt_session *s);
/* probes_delete_all(), then frees. Safe on NULL. */
void probes_free(struct kt_probes *p);

/* Parses and creates a probe. Returns 0 with "ktop_<pid>:<name>" in event (the event exists
 * in the instance, disabled), or -1 with a one-line reason in err and nothing created:
 *   "no kernel function 'do_sys_opnat2' (/proc/kallsyms has none; the probe editor
 *    completes names)"
 *   "this kernel has no kprobe events (CONFIG_KPROBE_EVENTS is off): probe user space with
 *    --uprobe, or use tracepoints (-e)"
 *   "no function 'readlin' in /usr/bin/bash (.symtab/.dynsym; ktop lists them in the editor)"
 *   "kprobe rejected by the kernel: trace_kprobe: error: ...\n  Command: ...\n  ^" (the
 *    kernel's own error_log entry, over three lines with its caret) */
int probes_create(struct kt_probes *p, enum kt_probe_kind kind, const char *text,
		  char *event, size_t eventlen, char *err, size_t errlen);
/* Disables the event in the instance and removes it. name is the event's name in the group
 * or "ktop_<pid>:<name>". Returns 0, or -1 with err ("no probe 'x' in ktop_123"). */
int probes_delete(struct kt_probes *p, const char *name, char *err, size_t errlen);
/* Removes every probe of the session. Returns how many were removed. */
int probes_delete_all(struct kt_probes *p);
size_t probes_count(const struct kt_probes *p);
/* The i-th probe in creation order, NULL past the end. Valid until the next create/delete. */
const struct kt_probe *probes_get(const struct kt_probes *p, size_t i);

/* A probe's health from the kernel's kprobe_profile or uprobe_profile: hits (the handler
 * ran; a return probe's at the return) and misses (the kernel skipped it; kernel probes
 * only, always 0 for uprobes, whose profile has no such count). */
struct kt_probe_health {
	uint64_t hits;
	uint64_t misses;
};

/* Reads the health of the i-th probe. Returns 0, or -1 when the profile cannot be read or
 * does not tell its line apart (kprobe_profile on older kernels names no group, and
 * uprobe_profile never does: a probe of the same name on the same file coming or going while
 * it is read, or a kprobe of the same name in another group, leaves the counts unknown). */
int probes_health(const struct kt_probes *p, size_t i, struct kt_probe_health *h);

/* One probe's last health, kept once the probe is gone (batch mode's summary). */
struct kt_probe_report {
	char event[KT_PROBE_NAME_MAX + 40]; /* "ktop_<pid>:<name>" */
	enum kt_probe_kind kind;
	unsigned maxactive;
	struct kt_probe_health health;
};

/* The health of every probe whose counts can be read, in creation order, into a malloc'd
 * array (the caller frees it; NULL when there is none) and its length in *n. */
struct kt_probe_report *probes_report(const struct kt_probes *p, size_t *n);
/* One line saying why a probe of this kind misses and the way out, for when misses > 0. */
const char *probe_miss_reason(enum kt_probe_kind kind);

/* Which dynamic-event kinds this kernel takes: false with a one-line reason in why (may be
 * NULL) naming the missing config option. */
bool probes_supported(enum kt_probe_kind kind, char *why, size_t whylen);

#endif
