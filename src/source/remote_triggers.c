// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote source's triggers (one host, checked and run by the agent as
 * locally) and the tracer pane's function lists (the first host's read, every host's
 * written), and the trace.dat writer's view of the agent's kernel. */
#include "config.h"

#include "backend/symbols/probenames.h"
#include "source/remote_local.h"

/* ---- triggers (one host: request 25, checked and run by the agent as locally) ---------- */

static void rs_trig_note(struct remote_src *rs, const char *system, const char *event, bool on)
{
	char key[200];
	size_t i;

	snprintf(key, sizeof(key), "%s:%s", system, event);
	for (i = 0; i < rs->n_trig && strcmp(rs->trig_events[i], key); i++)
		;
	if (on && i == rs->n_trig) {
		rs->trig_events = xreallocarray(rs->trig_events, rs->n_trig + 1,
						sizeof(*rs->trig_events));
		rs->trig_events[rs->n_trig++] = xstrdup(key);
	} else if (!on && i < rs->n_trig) {
		free(rs->trig_events[i]);
		rs->trig_events[i] = rs->trig_events[--rs->n_trig];
	}
}

static int remote_trigger_add(struct kt_source *s, struct tep_event *te,
			      const struct kt_trigger *t, char *err, size_t errlen)
{
	char body[KT_TRIGGER_MAX * 2 + 32], text[sizeof(body) + 200];
	bool took;

	(void)te; /* each agent checks it against its own format */
	err[0] = '\0';
	trigger_format(t, body, sizeof(body));
	snprintf(text, sizeof(text), "%s:%s:%s", t->system, t->event, body);
	if (rs_call_all(RS(s), KT_REQ_TRIGGER, "add", text, &took, err, errlen) < 0 && !took)
		return -1;
	rs_trig_note(RS(s), t->system, t->event, true);
	return err[0] ? -1 : 0;
}

static int remote_trigger_remove_all(struct kt_source *s, const char *system, const char *event,
				     char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	char ev[200], own[256], reply[1024];
	int n = -1;

	snprintf(ev, sizeof(ev), "%s:%s", system, event);
	/* from every host; how many went is the first host's (each took the same) */
	for (unsigned i = rs->n; i-- > 0;) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, KT_REQ_TRIGGER, "remove", rs_host_arg(h, ev, own, sizeof(own)),
			   reply, sizeof(reply)) == 0)
			n = i ? n : atoi(reply);
		else if (!i || !rs_gone(h))
			snprintf(err, errlen, "%s%s%s", rs->n > 1 ? h->label : "",
				 rs->n > 1 ? ": " : "", reply);
	}
	if (n < 0)
		return -1;
	rs_trig_note(rs, system, event, false);
	return n;
}

static char *remote_trigger_list(struct kt_source *s, const char *system, const char *event)
{
	char ev[200], reply[1024], *p;

	snprintf(ev, sizeof(ev), "%s:%s", system, event);
	if (rs_ask(&RS(s)->hosts[0], KT_REQ_TRIGGER, "list", ev, reply, sizeof(reply)) < 0) {
		log_debug("%s: %s: %s", __func__, ev, reply);
		return NULL;
	}
	if (!reply[0])
		return NULL;
	for (p = reply; (p = strchr(p, '\x1f'));)
		*p = '\n';
	return xstrdup(reply);
}

static int remote_triggers_for_each(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	struct remote_src *rs = RS(s);
	char sys[64];
	size_t i;

	for (i = 0; i < rs->n_trig; i++) {
		const char *c = strchr(rs->trig_events[i], ':');

		snprintf(sys, sizeof(sys), "%.*s", (int)(c - rs->trig_events[i]),
			 rs->trig_events[i]);
		fn(sys, c + 1, ctx);
	}
	return (int)rs->n_trig;
}

static int remote_tracing_on(struct kt_source *s, bool on)
{
	char err[1024];
	bool took;

	if (rs_call_all(RS(s), KT_REQ_TRIGGER, "tracing", on ? "on" : "off", &took, err,
			sizeof(err)) < 0) {
		log_debug("%s: %s", __func__, err);
		return took ? 0 : -1;
	}
	return 0;
}

/* Spent on any host: with several, the first to fire stops the others' capture too (a
 * moment later: each kernel fires on its own), so the whole stream ends there. */
static bool remote_trigger_spent(struct kt_source *s, const char *system, const char *event,
				 const char *cmd)
{
	struct remote_src *rs = RS(s);
	char arg[300], own[400], reply[1024];

	snprintf(arg, sizeof(arg), "%s:%s:%s", system, event, cmd);
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, KT_REQ_TRIGGER, "spent", rs_host_arg(h, arg, own, sizeof(own)), reply,
			   sizeof(reply)) < 0 || strcmp(reply, "1"))
			continue;
		if (rs->n > 1 && !strcmp(cmd, "traceoff"))
			remote_tracing_on(s, false);
		return true;
	}
	return false;
}

/* ---- the tracer pane's function lists (request 26: the first host's read, every host's
 * changed, as the tracer switches on every host) ----------------------------------------- */

static bool remote_list_exists(struct kt_source *s, enum kt_ftrace_list which)
{
	char reply[1024];

	return rs_ask(&RS(s)->hosts[0], KT_REQ_FTRACE_LIST, "exists", tracers_list_file(which),
		      reply, sizeof(reply)) == 0 &&
	       !strcmp(reply, "1");
}

/* The lines of the list snapshot that came before the first host's reply (requests 26,
 * 29), NULL-terminated. */
static char **rs_take_lines(struct remote_src *rs)
{
	struct rs_host *h = &rs->hosts[0];
	char *text;

	rs_lock(rs);
	text = h->list_text;
	h->list_text = NULL;
	rs_unlock(rs);
	/* as many entries as the snapshot holds lines, whatever the reply says */
	return probe_names_split(text);
}

char **remote_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
		       size_t errlen)
{
	struct remote_src *rs = RS(s);
	char reply[1024];

	if (rs_ask(&rs->hosts[0], KT_REQ_FTRACE_LIST, "get", tracers_list_file(which), reply,
		   sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s", reply);
		return NULL;
	}
	return rs_take_lines(rs);
}

/* The probe editor's names, read on the first host's machine (request 29). */
char **remote_names(struct kt_source *s, const char *what, const char *arg,
		    char *reply, size_t len)
{
	struct remote_src *rs = RS(s);

	if (rs_ask(&rs->hosts[0], KT_REQ_NAMES, what, arg, reply, len) < 0)
		return NULL;
	return rs_take_lines(rs);
}

/* This machine's names would be another kernel's: the agent checks what is typed. */
static struct kt_symlist *remote_functions(struct kt_source *s, char *note, size_t notelen)
{
	snprintf(note, notelen, "the agent's kernel: type a function or a glob whole");
	return NULL;
}

/* op on every host's list with entry: how many functions the first host's now holds (add), or
 * 0; -1 with the first refusal (its label first with several hosts). */
static int rs_list_change(struct remote_src *rs, const char *op, enum kt_ftrace_list which,
			  const char *entry, char *err, size_t errlen)
{
	char arg[600], reply[1024];
	int count = 0;

	snprintf(arg, sizeof(arg), "%s%s%s", tracers_list_file(which), entry ? " " : "",
		 entry ? entry : "");
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_ask(&rs->hosts[i], KT_REQ_FTRACE_LIST, op, arg, reply, sizeof(reply)) < 0) {
			if (rs->n > 1)
				snprintf(err, errlen, "%s: %s", rs->hosts[i].label, reply);
			else
				snprintf(err, errlen, "%s", reply);
			return -1;
		}
		if (!i)
			count = atoi(reply);
	}
	return count;
}

static int remote_list_add(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			   char *err, size_t errlen)
{
	return rs_list_change(RS(s), "add", which, entry, err, errlen);
}

static int remote_list_remove(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			      char *err, size_t errlen)
{
	return rs_list_change(RS(s), "remove", which, entry, err, errlen) < 0 ? -1 : 0;
}

static int remote_list_clear(struct kt_source *s, enum kt_ftrace_list which, char *err,
			     size_t errlen)
{
	return rs_list_change(RS(s), "clear", which, NULL, err, errlen) < 0 ? -1 : 0;
}

/* w, A: the one host's kernel for the trace.dat writer, its kallsyms fetched first (the
 * file's function names are its kernel's). */
int remote_record_meta(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
		       size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_host *h = &rs->hosts[0];

	rs_symbols(rs);
	if (h->mirror_err[0]) {
		snprintf(err, errlen, "%s", h->mirror_err);
		return -1;
	}
	mirror_tdat_meta(h->mirror, &h->hello, h->uname, sizeof(h->uname), h->kallsyms,
			 sizeof(h->kallsyms), meta);
	return 0;
}


const struct kt_source_trigger_ops remote_triggers_ops = {
	.trigger_add = remote_trigger_add,
	.trigger_remove_all = remote_trigger_remove_all,
	.trigger_list = remote_trigger_list,
	.triggers_for_each = remote_triggers_for_each,
	.trigger_spent = remote_trigger_spent,
	.tracing_on = remote_tracing_on,
};

const struct kt_source_tracer_ops remote_tracer_ops = {
	.list_exists = remote_list_exists,
	.list_get = remote_list_get,
	.list_add = remote_list_add,
	.list_remove = remote_list_remove,
	.list_clear = remote_list_clear,
	.tracer = remote_tracer,
	.tracers_available = remote_tracers_available,
	.set_tracer = remote_set_tracer,
	.functions = remote_functions,
};
