/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stacks on events. An event's `stacktrace` trigger in ktop's instance makes the kernel
 * write the event's kernel stack as an ftrace kernel_stack entry right after each of its
 * records, on the same CPU (the instance's `userstacktrace` option adds a user_stack entry
 * after it, for every event). The store attaches those entries to their event's record
 * (store_set_stack_types); this reads them back as frames and names them. Kernel frames are
 * named from the decoder's kallsyms (a recording's own, when reading one), user frames by
 * the symbolizer (symbolize.h: the process's mappings and ELF symbols) when there is one,
 * else shown as addresses. Single-threaded, like the decoder.
 */
#ifndef KTOP_EVSTACK_H
#define KTOP_EVSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evstack_record.h"
#include "backend/stacks/stacks.h"

struct kt_decoder;
struct kt_rec;
struct kt_session;
struct kt_store;
struct kt_symbolizer;
struct tep_event;
struct tep_handle;

#define KT_EVSTACK_MAX 256 /* frames kept of one event's stacks */

struct kt_evstack_frame {
	uint64_t addr;
	bool user;
	int pid; /* a user frame's process (the user stack's tgid) */
};


/* Adds the stacktrace trigger that puts system:event's kernel stack after each of its
 * records, with the event's filter in force as its condition (te: the event's format, for
 * the check; may be NULL). Returns 0, or -1 with trigger_add()'s one line. */
int evstack_enable(struct kt_session *s, struct tep_event *te, const char *system,
		   const char *event, char *err, size_t errlen);
/* The event's filter changed: its stacktrace trigger, if it has one, takes the new one. */
int evstack_refilter(struct kt_session *s, struct tep_event *te, const char *system,
		     const char *event, char *err, size_t errlen);
/* Removes the event's stacktrace triggers, and only those. Returns how many, or -1. */
int evstack_disable(struct kt_session *s, const char *system, const char *event, char *err,
		    size_t errlen);
/* The instance's userstacktrace option: on, every event of the instance is followed by the
 * user stack of the task it happened in (walked by frame pointers). Returns 0, or -1 with
 * one line naming what this kernel lacks. */
int evstack_user(struct kt_session *s, bool on, char *err, size_t errlen);
/* Whether the event has a stacktrace trigger in the instance (read from the kernel). */
bool evstack_enabled(struct kt_session *s, const char *system, const char *event);

/* The frames of the stacks attached to r (r.stack), innermost first, the kernel's first
 * and then the user's, at most max. Store lock held. Reading them may page a recording's
 * store (store_get): r's data may then be stale, so use it before. Returns how many (0: r
 * has no stack). */
size_t evstack_read(struct kt_decoder *d, const struct kt_store *st, const struct kt_rec *r,
		    struct kt_evstack_frame *out, size_t max);
/* The frame's name into buf ("do_syscall_64+0x82/0x190" with offset, "do_syscall_64"
 * without; a user frame as sym names it, "main" or "[libc.so.6+0x2a1ca]"; an address
 * nothing names as "0xffffffff81234567"), and its kind. sym may be NULL. Returns buf. */
const char *evstack_name(struct kt_decoder *d, struct kt_symbolizer *sym,
			 const struct kt_evstack_frame *f, bool offset, char *buf, size_t len,
			 enum kt_frame_kind *kind);
/* The same, a kernel frame named from syms's kallsyms (another host's kernel: several
 * remote hosts), the decoder's when syms is NULL. */
const char *evstack_name_syms(struct kt_decoder *d, struct tep_handle *syms,
			      struct kt_symbolizer *sym, const struct kt_evstack_frame *f,
			      bool offset, char *buf, size_t len, enum kt_frame_kind *kind);
/* The frames as a JSON array of {"addr","name","kind"} objects, innermost first; kind is
 * "kernel", "user", "jit" or "unresolved". */
void evstack_write_json(struct kt_decoder *d, struct kt_symbolizer *sym,
			const struct kt_evstack_frame *f, size_t n, FILE *out);

#endif
