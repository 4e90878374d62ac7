// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stacks on events (evstack.h). A kernel_stack entry is "int size; unsigned long caller[]"
 * with size callers (the format file says caller[8]: the kernel writes as many as the stack
 * had), a user_stack entry "unsigned int tgid; unsigned long caller[8]", zero-terminated.
 * Older kernels end a stack with ULONG_MAX; neither end marker is a frame.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "util/json.h"
#include "backend/ingest/decode.h"
#include "evstack.h"
#include "evstack_record.h"
#include "backend/tracefs/session.h"
#include "backend/ingest/store.h"
#include "backend/symbols/symbolize.h"
#include "backend/tracefs/triggers.h"

#define STACKTRACE "stacktrace"
#define EVERY_RECORD "common_pid >= 0"

static int stack_type(struct kt_decoder *d, const char *name)
{
	struct tep_event *ev;

	decoder_load(d, "ftrace", name);
	ev = tep_find_event_by_name(decoder_tep(d), "ftrace", name);
	return ev ? ev->id : -1;
}

void evstack_setup(struct kt_store *st, struct kt_decoder *d)
{
	int kernel = stack_type(d, "kernel_stack"), user = stack_type(d, "user_stack");

	store_lock(st);
	store_set_stack_types(st, kernel, user);
	store_unlock(st);
}

/*
 * Always a condition: the event's own filter, or one every record passes. A trigger with a
 * condition runs after its event is written (an unconditional one runs before it on some
 * kernels, and for records the event's filter or pid list then drops), so the stack lands
 * right after the record it belongs to, and only after records that are kept.
 */
static void evstack_trigger(struct kt_trigger *t, const char *system, const char *event,
			    const char *filter)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->system, sizeof(t->system), "%s", system);
	snprintf(t->event, sizeof(t->event), "%s", event);
	snprintf(t->cmd, sizeof(t->cmd), STACKTRACE);
	snprintf(t->filter, sizeof(t->filter), "%s", filter && *filter ? filter : EVERY_RECORD);
	t->count = -1;
}

int evstack_enable(struct kt_session *s, struct tep_event *te, const char *system,
		   const char *event, char *err, size_t errlen)
{
	char *filter = session_get_filter(s, system, event);
	struct kt_trigger t;

	evstack_trigger(&t, system, event, filter);
	free(filter);
	return trigger_add(s, te, &t, err, errlen);
}

int evstack_disable(struct kt_session *s, const char *system, const char *event, char *err,
		    size_t errlen)
{
	return trigger_remove_cmd(s, system, event, STACKTRACE, err, errlen);
}

int evstack_refilter(struct kt_session *s, struct tep_event *te, const char *system,
		     const char *event, char *err, size_t errlen)
{
	if (!evstack_enabled(s, system, event))
		return 0;
	if (evstack_disable(s, system, event, err, errlen) < 0)
		return -1;
	return evstack_enable(s, te, system, event, err, errlen);
}

int evstack_user(struct kt_session *s, bool on, char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_instance(s);
	const char *file = "options/userstacktrace";

	if (!tracefs_file_exists(inst, file)) {
		snprintf(err, errlen, "this kernel has no user stacks in trace events (no %s in "
			 "%s: CONFIG_USER_STACKTRACE_SUPPORT)", file, session_name(s));
		return -1;
	}
	if (tracefs_instance_file_write(inst, file, on ? "1" : "0") < 0) {
		snprintf(err, errlen, "cannot write %s of %s: %s", file, session_name(s),
			 strerror(errno));
		return -1;
	}
	return 0;
}

bool evstack_enabled(struct kt_session *s, const char *system, const char *event)
{
	char *text = trigger_list(s, system, event), *p;
	bool on = false;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, STACKTRACE ":", sizeof(STACKTRACE)))
			on = true;
	free(text);
	return on;
}

/* The callers of one stack record into out[n..max); returns the new n. */
static size_t read_callers(struct kt_decoder *d, const struct kt_rec *r, bool user,
			   struct kt_evstack_frame *out, size_t n, size_t max)
{
	struct tep_event *ev = decoder_event(d, r);
	struct tep_format_field *callers, *size, *tgid;
	unsigned long long count = 0, addr, pid = 0;
	size_t i, room;

	if (!ev || !(callers = tep_find_field(ev, "caller")) || callers->offset >= (int)r->size)
		return n;
	room = (r->size - (size_t)callers->offset) / sizeof(uint64_t);
	size = user ? NULL : tep_find_field(ev, "size");
	if (size && tep_read_number_field(size, r->data, &count) == 0 && count < room)
		room = (size_t)count;
	tgid = user ? tep_find_field(ev, "tgid") : NULL;
	if (!tgid || tep_read_number_field(tgid, r->data, &pid))
		pid = (unsigned long long)decoder_rec_pid(r);
	for (i = 0; i < room && n < max; i++) {
		memcpy(&addr, (const char *)r->data + callers->offset + i * sizeof(uint64_t),
		       sizeof(addr));
		if (addr == 0 || addr == UINT64_MAX) {
			if (user)
				break;
			continue;
		}
		out[n].addr = addr;
		out[n].user = user;
		out[n].pid = (int)pid;
		n++;
	}
	return n;
}

size_t evstack_read(struct kt_decoder *d, const struct kt_store *st, const struct kt_rec *r,
		    struct kt_evstack_frame *out, size_t max)
{
	struct kt_evstack_frame user[KT_EVSTACK_MAX];
	uint64_t seq = r->seq, link = r->stack;
	size_t n = 0, nu = 0, i;
	struct kt_rec s;
	const char *name;
	char ev[64];

	/* the kernel writes the kernel stack first; the user stack goes after it anyway */
	while (link && store_get(st, seq + link, &s) && (s.flags & KT_REC_STACK)) {
		name = decoder_format_name(d, &s, ev, sizeof(ev));
		if (!strcmp(name, "ftrace:user_stack"))
			nu = read_callers(d, &s, true, user, nu, KT_EVSTACK_MAX);
		else
			n = read_callers(d, &s, false, out, n, max);
		seq = s.seq;
		link = s.stack;
	}
	for (i = 0; i < nu && n < max; i++)
		out[n++] = user[i];
	return n;
}

bool evstack_is_record(struct kt_decoder *d, const struct kt_rec *r)
{
	char ev[64];
	const char *what = decoder_format_name(d, r, ev, sizeof(ev));

	return !strcmp(what, "ftrace:kernel_stack") || !strcmp(what, "ftrace:user_stack");
}

bool evstack_record_print(struct kt_decoder *d, struct kt_symbolizer *sym, const struct kt_rec *r,
			  bool json, FILE *out)
{
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	enum kt_frame_kind kind;
	char ev[64], name[256];
	const char *what = decoder_format_name(d, r, ev, sizeof(ev));
	size_t n;

	if (!strcmp(what, "ftrace:kernel_stack"))
		n = read_callers(d, r, false, f, 0, KT_EVSTACK_MAX);
	else if (!strcmp(what, "ftrace:user_stack"))
		n = read_callers(d, r, true, f, 0, KT_EVSTACK_MAX);
	else
		return false;
	if (json) {
		evstack_write_json(d, sym, f, n, out);
		return true;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(out, " => %s\n", evstack_name(d, sym, &f[i], true, name, sizeof(name), &kind));
	return true;
}

const char *evstack_name(struct kt_decoder *d, struct kt_symbolizer *sym,
			 const struct kt_evstack_frame *f, bool offset, char *buf, size_t len,
			 enum kt_frame_kind *kind)
{
	return evstack_name_syms(d, NULL, sym, f, offset, buf, len, kind);
}

const char *evstack_name_syms(struct kt_decoder *d, struct tep_handle *syms,
			      struct kt_symbolizer *sym, const struct kt_evstack_frame *f,
			      bool offset, char *buf, size_t len, enum kt_frame_kind *kind)
{
	unsigned long long start = 0;
	unsigned long size = 0;
	const char *func = NULL;
	struct kt_frame kf;

	if (f->user && sym) {
		symbolizer_user(sym, f->pid, f->addr, &kf, buf, len);
		*kind = kf.kind;
		return buf;
	}
	if (!f->user && tep_find_function_info(syms ? syms : decoder_tep_with_symbols(d),
					       f->addr, &func, &start, &size) && func) {
		if (offset && size)
			snprintf(buf, len, "%s+0x%llx/0x%lx", func, f->addr - start, size);
		else if (offset)
			snprintf(buf, len, "%s+0x%llx", func, f->addr - start);
		else
			snprintf(buf, len, "%s", func);
		*kind = KT_FRAME_KERNEL;
		return buf;
	}
	snprintf(buf, len, "0x%" PRIx64, f->addr);
	*kind = KT_FRAME_UNRESOLVED;
	return buf;
}

void evstack_write_json(struct kt_decoder *d, struct kt_symbolizer *sym,
			const struct kt_evstack_frame *f, size_t n, FILE *out)
{
	static const char *const kinds[] = {
		[KT_FRAME_TASK] = "task",     [KT_FRAME_KERNEL] = "kernel",
		[KT_FRAME_USER] = "user",     [KT_FRAME_JIT] = "jit",
		[KT_FRAME_UNRESOLVED] = "unresolved",
	};
	enum kt_frame_kind kind;
	char name[256];
	size_t i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		evstack_name(d, sym, &f[i], false, name, sizeof(name), &kind);
		fprintf(out, "%s{\"addr\":\"0x%" PRIx64 "\",\"name\":", i ? "," : "", f[i].addr);
		json_string(out, name);
		fprintf(out, ",\"kind\":\"%s\"}", kinds[kind]);
	}
	fputc(']', out);
}
