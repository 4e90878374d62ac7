// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "app.h"
#include "backend/profile.h"
#include "backend/stacks.h"
#include "batch_profile.h"
#include "json.h"
#include "options.h"

struct kt_batch_profile {
	struct kt_app *app;
	struct kt_stacks *stacks;
};

struct kt_batch_profile *batch_profile_new(struct kt_app *app)
{
	struct kt_batch_profile *bp = calloc(1, sizeof(*bp));

	if (!bp || !(bp->stacks = stacks_new(KT_STACK_SAMPLES))) {
		free(bp);
		return NULL;
	}
	bp->app = app;
	return bp;
}

void batch_profile_poll(struct kt_batch_profile *bp)
{
	profile_poll(bp->app->profile, bp->stacks);
}

/* The counts beside the stacks, as "key=value" words. */
static void counts_text(const struct kt_batch_profile *bp, const struct kt_profile_stats *s,
			FILE *out)
{
	const struct kt_profile *p = bp->app->profile;

	fprintf(out, "event=%s freq=%uHz unit=samples samples=%" PRIu64 " lost=%" PRIu64
		" out_of_scope=%" PRIu64 " dropped_memory=%" PRIu64 " frames_unresolved=%"
		PRIu64 " frames_resolved=%" PRIu64 " stacks=%zu bytes=%zu%s",
		profile_event_name(p), profile_freq(p), s->samples, s->lost, s->out_of_scope,
		s->dropped_memory, s->frames_unresolved, s->frames_resolved,
		stacks_leaves(bp->stacks), stacks_bytes(bp->stacks),
		s->kernel_hidden ? " kernel_symbols=hidden" : "");
}

struct json_walk {
	FILE *out;
	bool first;
};

static int json_stack(void *arg, const struct kt_stack_node *const *path, size_t n,
		      uint64_t self)
{
	struct json_walk *w = arg;
	size_t i;

	fputs(w->first ? "{\"frames\":[" : ",{\"frames\":[", w->out);
	w->first = false;
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', w->out);
		json_string(w->out, path[i]->name);
	}
	fprintf(w->out, "],\"count\":%" PRIu64 "}", self);
	return ferror(w->out) ? -1 : 0;
}

static int print_json(struct kt_batch_profile *bp, const struct kt_profile_stats *s, FILE *out)
{
	const struct kt_profile *p = bp->app->profile;
	struct json_walk w = { out, true };

	fprintf(out, "{\"profile\":{\"event\":\"%s\",\"freq\":%u,\"unit\":\"%s\",\"samples\":%"
		PRIu64 ",\"lost\":%" PRIu64 ",\"out_of_scope\":%" PRIu64 ",\"dropped_memory\":%"
		PRIu64 ",\"frames_resolved\":%" PRIu64 ",\"frames_unresolved\":%" PRIu64
		",\"kernel_symbols_hidden\":%s,\"bytes\":%zu,\"stacks\":[", profile_event_name(p),
		profile_freq(p), stacks_unit_name(stacks_unit(bp->stacks)), s->samples, s->lost,
		s->out_of_scope, s->dropped_memory, s->frames_resolved, s->frames_unresolved,
		s->kernel_hidden ? "true" : "false", stacks_bytes(bp->stacks));
	if (stacks_walk(bp->stacks, json_stack, &w))
		return -1;
	fputs("]}}\n", out);
	return ferror(out) ? -1 : 0;
}

int batch_profile_print(struct kt_batch_profile *bp, FILE *out)
{
	const struct kt_options *o = bp->app->opts;
	struct kt_profile_stats s;

	profile_stats(bp->app->profile, &s);
	if (o->json)
		return print_json(bp, &s, out);
	if (o->folded) {
		fputs("ktop: profile: ", stderr);
		counts_text(bp, &s, stderr);
		fputc('\n', stderr);
	} else {
		fputs("# profile: ", out);
		counts_text(bp, &s, out);
		fputc('\n', out);
	}
	return stacks_write_folded(bp->stacks, out);
}

void batch_profile_free(struct kt_batch_profile *bp)
{
	if (!bp)
		return;
	stacks_free(bp->stacks);
	free(bp);
}
