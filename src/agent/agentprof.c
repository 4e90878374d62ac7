// SPDX-License-Identifier: GPL-2.0-or-later
/* The agent's live and off-CPU profiles (agentprof.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentprof.h"
#include "app/app.h"
#include "backend/bpf/offcpu.h"
#include "backend/perf/profile.h"
#include "backend/stacks/stacks.h"
#include "batch/batch_offcpu.h"
#include "remote/profrows.h"
#include "util/xalloc.h"

struct kt_agentprof {
	struct kt_profile *prof; /* on-CPU, or */
	struct kt_offcpu *oc;	 /* off-CPU */
	struct kt_stacks *st;	 /* since the last frame (live), or the whole run */
	char name[128];
	char note[256]; /* the last poll's failure, "" none */
};

int agentprof_freq(const char *arg, unsigned *freq, char *err, size_t errlen)
{
	unsigned long v = 0;
	char *end;

	if (*arg) {
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || *end || !v || v > 0xffffffffUL) {
			snprintf(err, errlen, "profile: -F '%.40s' is not a frequency in Hz", arg);
			return -1;
		}
	}
	*freq = (unsigned)v;
	return 0;
}

/* What follows "off-cpu" in arg: "+wakers" (into *wakers), then "" or "=VIA". NULL: arg is
 * not the off-CPU profile's. */
static const char *offcpu_rest(const char *arg, bool *wakers)
{
	const char *rest = arg + 7;

	if (strncmp(arg, "off-cpu", 7))
		return NULL;
	*wakers = !strncmp(rest, "+wakers", 7);
	if (*wakers)
		rest += 7;
	return !*rest || *rest == '=' ? rest : NULL;
}

bool agentprof_is_offcpu(const char *arg)
{
	bool wakers;

	return offcpu_rest(arg, &wakers) != NULL;
}

struct kt_agentprof *agentprof_open(struct kt_app *app, const char *arg, char *err,
				    size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_agentprof *p = xcalloc(1, sizeof(*p));
	struct kt_profile_opts po = { .pids = o->pids, .npids = o->n_pids, .comm = o->comm,
				      .max_bytes = o->memory_bytes / 4 };
	struct kt_offcpu_scope sc;
	const char *rest;
	bool wakers;

	rest = offcpu_rest(arg, &wakers);
	if (rest) {
		if (app_offcpu_scope(app, &sc, err, errlen) < 0)
			goto fail;
		if (*rest)
			sc.via = rest + 1;
		sc.wakers = wakers;
		p->oc = offcpu_open(&sc, err, errlen);
		if (!p->oc)
			goto fail;
		snprintf(p->name, sizeof(p->name), "off-CPU, %s", offcpu_variant(p->oc));
		p->st = stacks_new(KT_STACK_NSEC);
	} else {
		if (agentprof_freq(arg, &po.freq, err, errlen) < 0)
			goto fail;
		p->prof = profile_open(&po, err, errlen);
		if (!p->prof)
			goto fail;
		snprintf(p->name, sizeof(p->name), "%s", profile_event_name(p->prof));
		p->st = stacks_new(KT_STACK_SAMPLES);
	}
	if (p->st)
		return p;
	snprintf(err, errlen, "profile: out of memory for its stacks");
fail:
	agentprof_free(p);
	return NULL;
}

const char *agentprof_name(const struct kt_agentprof *p)
{
	return p->name;
}

void agentprof_poll(struct kt_agentprof *p)
{
	char err[256];

	if (p->prof) {
		profile_poll(p->prof, p->st);
	} else if (offcpu_poll(p->oc, p->st, err, sizeof(err)) < 0) {
		snprintf(p->note, sizeof(p->note), "%s", err);
	}
}

void agentprof_encode(struct kt_agentprof *p, uint32_t id, struct kt_wbuf *b)
{
	msg_profrows_encode(b, id, p->note, p->st);
	stacks_clear(p->st);
	p->note[0] = '\0';
}

char *agentprof_offcpu_text(struct kt_agentprof *p, bool json, bool quiet)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (!p->oc)
		return NULL;
	out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	if (json) {
		batch_offcpu_json(p->oc, p->st, quiet, out);
	} else {
		fputs("# off-cpu: ", out);
		batch_offcpu_counts(p->oc, p->st, out);
		fputc('\n', out);
		if (!quiet)
			stacks_write_folded(p->st, out);
	}
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}

void agentprof_free(struct kt_agentprof *p)
{
	if (!p)
		return;
	profile_close(p->prof);
	offcpu_free(p->oc);
	stacks_free(p->st);
	free(p);
}
