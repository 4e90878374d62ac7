// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/perf/profile.h"
#include "backend/stacks/stacks.h"
#include "batch_profile.h"
#include "util/json.h"
#include "app/options.h"

#define MAX_FRAMES 1024

struct kt_batch_profile {
	struct kt_app *app; /* the live profile's; NULL for a text's */
	const struct kt_options *opts;
	struct kt_stacks *stacks;
	/* the live profile's at print time, or the recording's */
	char event[32];
	unsigned freq;
	struct kt_profile_stats st;
};

static const char kind_letter[] = {
	[KT_FRAME_TASK] = 't', [KT_FRAME_KERNEL] = 'k', [KT_FRAME_USER] = 'u',
	[KT_FRAME_JIT] = 'j', [KT_FRAME_UNRESOLVED] = 'x',
};

static struct kt_batch_profile *profile_new(struct kt_app *app, const struct kt_options *o)
{
	struct kt_batch_profile *bp = calloc(1, sizeof(*bp));

	if (!bp || !(bp->stacks = stacks_new(KT_STACK_SAMPLES))) {
		free(bp);
		return NULL;
	}
	bp->app = app;
	bp->opts = o;
	return bp;
}

struct kt_batch_profile *batch_profile_new(struct kt_app *app)
{
	return profile_new(app, app->opts);
}

void batch_profile_poll(struct kt_batch_profile *bp)
{
	profile_poll(bp->app->profile, bp->stacks);
}

/* The live profile's figures, when there is one. */
static void take_live(struct kt_batch_profile *bp)
{
	const struct kt_profile *p = bp->app ? bp->app->profile : NULL;

	if (!p)
		return;
	snprintf(bp->event, sizeof(bp->event), "%s", profile_event_name(p));
	bp->freq = profile_freq(p);
	profile_stats(p, &bp->st);
}

/* The counts beside the stacks, as "key=value" words. */
static void counts_text(const struct kt_batch_profile *bp, FILE *out)
{
	const struct kt_profile_stats *s = &bp->st;

	fprintf(out, "event=%s freq=%uHz unit=samples samples=%" PRIu64 " lost=%" PRIu64
		" out_of_scope=%" PRIu64 " dropped_memory=%" PRIu64 " frames_unresolved=%"
		PRIu64 " frames_resolved=%" PRIu64 " stacks=%zu bytes=%zu%s", bp->event, bp->freq,
		s->samples, s->lost, s->out_of_scope, s->dropped_memory, s->frames_unresolved,
		s->frames_resolved, stacks_leaves(bp->stacks), stacks_bytes(bp->stacks),
		s->kernel_hidden ? " kernel_symbols=hidden" : "");
}

/* Parses counts_text's words back. */
static int parse_counts(struct kt_batch_profile *bp, const char *line)
{
	struct kt_profile_stats *s = &bp->st;
	const char *w = line;
	bool event = false;

	while (*w) {
		unsigned long long v;
		int n = 0;

		w += strspn(w, " ");
		if (sscanf(w, "event=%31s%n", bp->event, &n) == 1)
			event = true;
		else if (sscanf(w, "freq=%uHz%n", &bp->freq, &n) == 1)
			;
		else if (sscanf(w, "samples=%llu%n", &v, &n) == 1)
			s->samples = v;
		else if (sscanf(w, "lost=%llu%n", &v, &n) == 1)
			s->lost = v;
		else if (sscanf(w, "out_of_scope=%llu%n", &v, &n) == 1)
			s->out_of_scope = v;
		else if (sscanf(w, "dropped_memory=%llu%n", &v, &n) == 1)
			s->dropped_memory = v;
		else if (sscanf(w, "frames_unresolved=%llu%n", &v, &n) == 1)
			s->frames_unresolved = v;
		else if (sscanf(w, "frames_resolved=%llu%n", &v, &n) == 1)
			s->frames_resolved = v;
		else if (!strncmp(w, "kernel_symbols=hidden", 21))
			s->kernel_hidden = true;
		w += n ? (size_t)n : strcspn(w, " "); /* words it does not know: skipped */
	}
	return event ? 0 : -1;
}

/* One "KINDS FOLDED COUNT" line into the tree; line is changed. */
static int parse_stack(struct kt_batch_profile *bp, char *line)
{
	static struct kt_frame frames[MAX_FRAMES];
	char *kinds = line, *folded, *count, *end, *save = NULL, *tok;
	unsigned long long weight;
	size_t n = 0, i;

	folded = strchr(line, ' ');
	count = strrchr(line, ' ');
	if (!folded || count == folded)
		return -1;
	*folded++ = '\0';
	*count++ = '\0';
	weight = strtoull(count, &end, 10);
	if (end == count || *end || !weight)
		return -1;
	for (tok = strtok_r(folded, ";", &save); tok && n < MAX_FRAMES;
	     tok = strtok_r(NULL, ";", &save)) {
		if (n >= strlen(kinds))
			return -1;
		for (i = 0; i < sizeof(kind_letter) && kind_letter[i] != kinds[n]; i++)
			;
		if (i == sizeof(kind_letter))
			return -1;
		frames[n++] = (struct kt_frame){ tok, (enum kt_frame_kind)i };
	}
	if (!n || n != strlen(kinds))
		return -1;
	return stacks_add(bp->stacks, frames, n, weight);
}

struct kt_batch_profile *batch_profile_from_text(const struct kt_options *opts, const char *text,
						 char *err, size_t errlen)
{
	struct kt_batch_profile *bp = profile_new(NULL, opts);
	char *copy = strdup(text), *line, *save = NULL;
	unsigned no = 0;

	if (!bp || !copy) {
		snprintf(err, errlen, "out of memory for the recorded profile");
		goto fail;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		no++;
		if (no == 1 ? strncmp(line, "# profile: ", 11) || parse_counts(bp, line + 11)
			    : parse_stack(bp, line) < 0) {
			snprintf(err, errlen, "its profile is corrupt at line %u: '%.60s'", no, line);
			goto fail;
		}
	}
	if (!no) {
		snprintf(err, errlen, "its profile is empty");
		goto fail;
	}
	free(copy);
	return bp;
fail:
	free(copy);
	batch_profile_free(bp);
	return NULL;
}


static int text_stack(void *arg, const struct kt_stack_node *const *path, size_t n,
		      uint64_t self)
{
	FILE *out = arg;
	size_t i;

	for (i = 0; i < n; i++)
		fputc(kind_letter[path[i]->kind], out);
	for (i = 0; i < n; i++)
		fprintf(out, "%c%s", i ? ';' : ' ', path[i]->name);
	fprintf(out, " %" PRIu64 "\n", self);
	return ferror(out) ? -1 : 0;
}

char *batch_profile_text(struct kt_batch_profile *bp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int bad;

	if (!out)
		return NULL;
	take_live(bp);
	fputs("# profile: ", out);
	counts_text(bp, out);
	fputc('\n', out);
	bad = stacks_walk(bp->stacks, text_stack, out) || ferror(out);
	if (fclose(out) || bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int print_json(struct kt_batch_profile *bp, FILE *out)
{
	const struct kt_profile_stats *s = &bp->st;

	fputs("{\"profile\":{\"event\":", out);
	json_string(out, bp->event);
	fprintf(out, ",\"freq\":%u,\"unit\":\"%s\",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64
		",\"out_of_scope\":%" PRIu64 ",\"dropped_memory\":%" PRIu64
		",\"frames_resolved\":%" PRIu64 ",\"frames_unresolved\":%" PRIu64
		",\"kernel_symbols_hidden\":%s,\"bytes\":%zu,\"stacks\":", bp->freq,
		stacks_unit_name(stacks_unit(bp->stacks)), s->samples, s->lost, s->out_of_scope,
		s->dropped_memory, s->frames_resolved, s->frames_unresolved,
		s->kernel_hidden ? "true" : "false", stacks_bytes(bp->stacks));
	if (stacks_write_json(bp->stacks, out) < 0)
		return -1;
	fputs("}}\n", out);
	return ferror(out) ? -1 : 0;
}

int batch_profile_print(struct kt_batch_profile *bp, FILE *out)
{
	const struct kt_options *o = bp->opts;

	take_live(bp);
	if (o->json)
		return print_json(bp, out);
	if (o->folded) {
		fputs("ktop: profile: ", stderr);
		counts_text(bp, stderr);
		fputc('\n', stderr);
	} else {
		fputs("# profile: ", out);
		counts_text(bp, out);
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
