// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote source's control of the agents' kernels: the scope, the tracer and
 * dynamic probes (USDT ones made by the agent), and the probes' counts. */
#include "config.h"

#include "source/remote_local.h"

/* The scope request op (KT_REQ_SCOPE at the start, KT_REQ_SCOPE_SET from the key) to every
 * host. The first host that takes it says the header's words (desc). A host that refuses
 * (the pid does not run there) while another took it is told to record none of its
 * processes (KT_REQ_SCOPE_SET "none"), so the stream holds the scope's processes alone:
 * desc then names the hosts that took it ("pid 42 on db-1") and note the first refusal.
 * When none takes it, -1 with the first refusal (what: the option, at the start: "HOST
 * refused -p: ..."), and nothing changed. */
int rs_scope_all(struct remote_src *rs, uint8_t op, const char *what, const char *kind,
		 const char *arg, char *desc, size_t desclen, char *note, size_t notelen,
		 char *err, size_t errlen)
{
	bool took[KT_REMOTES_MAX] = { false };
	char reply[1024], on[256] = "";
	unsigned yes = 0, no = 0;
	size_t used;

	note[0] = err[0] = '\0';
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, op, kind, arg, reply, sizeof(reply)) == 0) {
			took[i] = true;
			if (!yes++)
				snprintf(desc, desclen, "%s", reply);
			used = strlen(on);
			snprintf(on + used, sizeof(on) - used, "%s%s", used ? "," : "", h->label);
		} else if (!no++) {
			snprintf(err, errlen, "%s%s%s%s%s", what ? (rs->n > 1 ? h->label :
						remote_name(h->r)) : rs->n > 1 ? h->label : "",
				 what ? " refused " : rs->n > 1 ? ": " : "", what ? what : "",
				 what ? ": " : "", reply);
		}
	}
	if (!yes || !no)
		return yes ? 0 : -1;
	for (unsigned i = 0; i < rs->n; i++)
		if (!took[i] && !rs_gone(&rs->hosts[i]) &&
		    rs_ask(&rs->hosts[i], KT_REQ_SCOPE_SET, "none", "", reply, sizeof(reply)) < 0)
			log_debug("%s: %s: %s", __func__, rs->hosts[i].label, reply);
	used = strlen(desc);
	snprintf(desc + used, desclen - used, " on %s", on);
	snprintf(note, notelen, "%.700s%s: %s records none of its processes", err,
		 no > 1 ? " (and more)" : "", no > 1 ? "those hosts each" : "that host");
	err[0] = '\0';
	return 0;
}

/* The scope key's scope, on every host (rs_scope_all); "" clears it. */
static int remote_set_scope(struct kt_source *s, const char *kind, const char *arg,
			    char *desc, size_t desclen, char *note, size_t notelen, char *err,
			    size_t errlen)
{
	int ret = rs_scope_all(RS(s), KT_REQ_SCOPE_SET, NULL, kind, arg, desc, desclen, note,
			       notelen, err, errlen);

	if (ret == 0 && !*kind)
		desc[0] = '\0';
	return ret;
}

char *remote_tracer(struct kt_source *s)
{
	return xstrdup(RS(s)->tracer);
}

/* The first agent's instance's tracers (tracers.h's array). */
char **remote_tracers_available(struct kt_source *s, char *err, size_t errlen)
{
	char reply[1024], *save = NULL, *w;
	char **names = xcalloc(1, sizeof(*names));
	size_t n = 0;

	if (rs_ask(&RS(s)->hosts[0], KT_REQ_TRACERS, "", "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s", reply);
		free(names);
		return NULL;
	}
	for (w = strtok_r(reply, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		names = xreallocarray(names, n + 2, sizeof(*names));
		names[n++] = xstrdup(w);
		names[n] = NULL;
	}
	return names;
}

/* The agent's available_events again: its catalogue after a probe came or went. */
static int rs_refresh_catalog(struct remote_src *rs, char *err, size_t errlen)
{
	struct kt_catalog *cat;

	if (rs_call(rs, KT_REQ_EVENTS, "", "", err, errlen) < 0)
		return -1;
	cat = catalog_parse(rs->events);
	if (!cat) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	catalog_free(rs->app->catalog);
	rs->app->catalog = cat;
	return 0;
}

/* Host h's names of what it made ("GROUP:NAME ..."), checked: one group, the first host's
 * names (its binary, its kernel may differ). Its group learned. Returns 0, or -1 with err. */
static int rs_probe_names(struct rs_host *h, const char *reply, const char *first, char *err,
			  size_t errlen)
{
	struct remote_src *rs = h->rs;
	size_t g = strcspn(reply, ":"), a, b;
	const char *p = reply, *q = first;

	if (!reply[g] || g >= sizeof(h->group) || strchr(reply, ':') > reply + strcspn(reply, " ")) {
		snprintf(err, errlen, "%s named its probe '%.200s', not GROUP:NAME",
			 remote_name(h->r), reply);
		return -1;
	}
	for (; *p; p += a + (p[a] == ' '), q += b + (q[b] == ' ')) {
		a = strcspn(p, " ");
		b = strcspn(q, " ");
		if (strncmp(p, reply, g + 1) ||
		    (h->idx && (a - g != b - strcspn(q, ":") || strncmp(p + g, q + strcspn(q, ":"),
									 a - g)))) {
			snprintf(err, errlen, "its sites %.300s are not %.300s's %.300s (the binaries "
				 "differ?)", reply, rs->hosts[0].label, first);
			return -1;
		}
	}
	if (h->idx && *q) {
		snprintf(err, errlen, "its sites %.300s are not %.300s's %.300s (the binaries "
			 "differ?)", reply, rs->hosts[0].label, first);
		return -1;
	}
	rs_lock(rs); /* the client thread maps its records by it */
	snprintf(h->group, sizeof(h->group), "%.*s", (int)g, reply);
	rs_unlock(rs);
	return 0;
}

/* A probe came or went: the counts the agents sent before are of other probes (a name
 * made again counts from 0). */
static void rs_counts_forget(struct remote_src *rs)
{
	rs_lock(rs);
	for (unsigned k = 0; k < rs->n; k++) {
		free(rs->hosts[k].counts);
		rs->hosts[k].counts = NULL;
		rs->hosts[k].n_counts = 0;
	}
	rs_unlock(rs);
}

/* Deletes each of names ("GROUP:NAME ...") on host h. */
static void rs_probe_undo(struct rs_host *h, const char *names)
{
	char one[256], why[1024];

	for (const char *p = names; *p; p += strcspn(p, " "), p += *p == ' ') {
		snprintf(one, sizeof(one), "%.*s", (int)strcspn(p, " "), p);
		if (rs_ask(h, KT_REQ_PROBE_DEL, one, "", why, sizeof(why)) < 0)
			log_debug("%s: %s: %s: %s", __func__, h->label, one, why);
	}
}

/* Every agent makes it (kind "usdt": one probe a site), disabled, all or none: the first
 * host that refuses is named with its reason and the hosts that made it delete it again.
 * A host that ended is passed over. The first host's catalogue is read again. The formats
 * come as for any event: the decoder asks for them (request 8), and each agent sends its
 * own when the event is enabled (so a probe made again, with a new id, is decoded by its
 * new one). Returns how many probes, the first host's names in events. */
static int rs_probe_add(struct remote_src *rs, const char *kindname, enum kt_probe_kind kind,
			const char *def, char *events, size_t eventslen, char *err, size_t errlen)
{
	char made[KT_REMOTES_MAX][1024], reply[1024], why[1024], *first = NULL;
	unsigned i, k;
	int n = 0;

	for (i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		made[i][0] = '\0';
		if (rs_gone(h) && rs->n > 1)
			continue;
		if (rs_ask(h, KT_REQ_PROBE_ADD, kindname, def, reply, sizeof(reply)) < 0) {
			snprintf(why, sizeof(why), "%s", reply);
			goto undo;
		}
		snprintf(made[i], sizeof(made[i]), "%s", reply);
		if (rs_probe_names(h, reply, first ? first : reply, why, sizeof(why)) < 0)
			goto undo;
		if (!first)
			first = made[i];
	}
	if (!first) {
		snprintf(err, errlen, "%s: %s", rs->hosts[0].label, rs->hosts[0].ended);
		return -1;
	}
	if (rs_refresh_catalog(rs, err, errlen) < 0) {
		i = rs->n;
		why[0] = '\0';
		goto undo_all;
	}
	snprintf(events, eventslen, "%s", first);
	rs_counts_forget(rs);
	for (const char *p = first; *p; p += strcspn(p, " "), p += *p == ' ', n++) {
		size_t g = strcspn(p, ":"), w = strcspn(p, " ");

		rs->probes = xreallocarray(rs->probes, rs->n_probes + 1, sizeof(*rs->probes));
		rs->probes[rs->n_probes++] = (struct kt_probe){
			.kind = kind,
			.system = xasprintf("%.*s", (int)g, p),
			.event = xasprintf("%.*s", (int)(w - g - 1), p + g + 1),
			.definition = xstrdup(def),
		};
	}
	return n;
undo:
	if (rs->n > 1)
		snprintf(err, errlen, "%s: %s", rs->hosts[i].label, why);
	else
		snprintf(err, errlen, "%s", why);
	i++; /* a host that made it with other names deletes it too */
undo_all:
	for (k = 0; k < i; k++)
		rs_probe_undo(&rs->hosts[k], made[k]);
	return -1;
}

static int remote_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			       char *event, size_t eventlen, char *err, size_t errlen)
{
	char names[1024];
	int n = rs_probe_add(RS(s), probe_kind_name(kind), kind, def, names, sizeof(names), err,
			     errlen);

	if (n < 0)
		return -1;
	snprintf(event, eventlen, "%s", names);
	return 0;
}

/* The agents read the binary's notes on their machines and make one uprobe a site, the
 * semaphore counted up there, as local --usdt does. */
static int remote_usdt_create(struct kt_source *s, const char *def, char *events,
			      size_t eventslen, char *err, size_t errlen)
{
	return rs_probe_add(RS(s), "usdt", KT_PROBE_UPROBE, def, events, eventslen, err, errlen);
}

/* On every host (each its own group's); dropped here once one took it. */
static int remote_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	const char *ev = strchr(name, ':') ? strchr(name, ':') + 1 : name;
	struct rs_event *e;
	bool took;
	size_t i;
	int ret = rs_call_all(rs, KT_REQ_PROBE_DEL, name, "", &took, err, errlen);

	if (!took)
		return -1;
	for (i = 0; i < rs->n_probes && strcmp(rs->probes[i].event, ev); i++)
		;
	if (i < rs->n_probes) {
		/* the agent disabled it as it went */
		e = rs_find(rs, rs->probes[i].system, ev, false);
		if (e)
			e->on = false;
		rs_probe_free(&rs->probes[i]);
		memmove(&rs->probes[i], &rs->probes[i + 1],
			(rs->n_probes - i - 1) * sizeof(*rs->probes));
		rs->n_probes--;
	}
	rs_counts_forget(rs);
	rs_refresh_catalog(rs, NULL, 0);
	return ret;
}

/* Host k's last counts of the i-th probe (its name in k's group). Lock held. */
static int rs_host_counts(struct remote_src *rs, size_t i, unsigned k, struct kt_probe_health *h)
{
	const struct rs_host *host = &rs->hosts[k];
	char name[256];

	snprintf(name, sizeof(name), "%s:%s", host->group, rs->probes[i].event);
	for (size_t j = 0; host->group[0] && j < host->n_counts; j++) {
		if (!strcmp(host->counts[j].event, name)) {
			*h = host->counts[j].health;
			return 0;
		}
	}
	return -1;
}

/* Every host's counts, summed; -1 when none has said. */
static int remote_probe_health(struct kt_source *s, size_t i, struct kt_probe_health *h)
{
	struct remote_src *rs = RS(s);
	struct kt_probe_health one;
	int found = 0;

	if (i >= rs->n_probes)
		return -1;
	*h = (struct kt_probe_health){ 0 };
	rs_lock(rs);
	for (unsigned k = 0; k < rs->n; k++) {
		if (rs_host_counts(rs, i, k, &one) < 0)
			continue;
		h->hits += one.hits;
		h->misses += one.misses;
		found++;
	}
	rs_unlock(rs);
	return found ? 0 : -1;
}

static int remote_probe_host_health(struct kt_source *s, size_t i, unsigned host,
				    struct kt_probe_health *h)
{
	struct remote_src *rs = RS(s);
	int ret;

	if (i >= rs->n_probes || host >= rs->n)
		return -1;
	rs_lock(rs);
	ret = rs_host_counts(rs, i, host, h);
	rs_unlock(rs);
	return ret;
}

/* Each agent that answered the last asks for its counts again (request 24, not waited
 * for: its snapshot comes through the client thread). An older agent refuses it: its one
 * request stays unanswered, and its probes show no counts. */
static void remote_probe_refresh(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	sigset_t old;

	if (!rs->n_probes)
		return;
	remote_sigpipe_block(&old);
	rs_lock(rs);
	for (unsigned k = 0; k < rs->n; k++) {
		struct rs_host *h = &rs->hosts[k];

		if (rs_gone(h) || h->counts_asked)
			continue;
		if (remote_send_request(h->r, KT_REQ_PROBE_COUNTS, "", "") < 0)
			log_debug("%s: %s: %s", __func__, h->label, strerror(errno));
		else
			h->counts_asked = true;
	}
	rs_unlock(rs);
	remote_sigpipe_restore(&old);
}

static size_t remote_probe_count(struct kt_source *s)
{
	return RS(s)->n_probes;
}

static const struct kt_probe *remote_probe_get(struct kt_source *s, size_t i)
{
	return i < RS(s)->n_probes ? &RS(s)->probes[i] : NULL;
}

/* Every agent restarts its reader around the switch (its pages keep coming); the first
 * switch to a tracer other than nop fetches the kallsyms (rs_symbols). */
int remote_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	bool took;
	int ret;

	if (strcmp(name, "nop"))
		rs_symbols(rs);
	ret = rs_call_all(rs, KT_REQ_TRACER, name, "", &took, err, errlen);

	if (took)
		snprintf(rs->tracer, sizeof(rs->tracer), "%s", name);
	return ret;
}

/* The agent's kernel says itself what it lacks, as it refuses the probe. */
static bool remote_probe_supported(struct kt_source *s, enum kt_probe_kind kind, char *why,
				   size_t whylen)
{
	return true;
}

/* The agent's group, known once it has named a probe; its host before. */
static void remote_probe_group(struct kt_source *s, char *buf, size_t len)
{
	const struct kt_probe *p0 = source_probe_get(s, 0);
	struct kt_source_desc d;

	source_describe(s, &d);
	snprintf(buf, len, "%.40s", p0 ? p0->system : d.host);
}

const struct kt_source_probe_ops remote_probes_ops = {
	.probe_create = remote_probe_create,
	.probe_delete = remote_probe_delete,
	.probe_count = remote_probe_count,
	.probe_get = remote_probe_get,
	.probe_health = remote_probe_health,
	.probe_host_health = remote_probe_host_health,
	.probe_refresh = remote_probe_refresh,
	.usdt_create = remote_usdt_create,
	.names = remote_names,
	.supported = remote_probe_supported,
	.group = remote_probe_group,
};

const struct kt_source_scope_ops remote_scope_ops = {
	.set_scope = remote_set_scope,
};
