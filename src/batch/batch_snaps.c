// SPDX-License-Identifier: GPL-2.0-or-later
/* What agents render for the end of a batch run, kept and printed (batch_snaps.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "backend/tracefs/probeprint.h"
#include "batch_print.h"
#include "batch_profile.h"
#include "batch_snaps.h"
#include "util/xalloc.h"

void batch_snaps_init(struct batch_snaps *s, const struct kt_options *o)
{
	s->ids = xcalloc(o->n_hists + 1, sizeof(*s->ids));
	s->text = xcalloc(o->n_hists + 1, sizeof(*s->text));
}

void batch_snaps_free(struct batch_snaps *s, const struct kt_options *o)
{
	for (size_t i = 0; s->text && i <= o->n_hists; i++)
		free(s->text[i]);
	free(s->text);
	free(s->ids);
	free(s->probes);
	free(s->profile_text);
	free(s->offcpu_text);
}

void batch_snaps_take(struct batch_snaps *s, const struct kt_options *o,
		      struct kt_snapshot *snap)
{
	size_t n = o->n_hists;

	if (snap->kind == KT_SNAP_PROBES) {
		free(s->probes);
		s->probes = probeprint_parse_wire(snap->text, &s->n_probes);
		free(snap->text);
		return;
	}
	if (snap->kind == KT_SNAP_PROFILE && s->profile_id && snap->id == s->profile_id) {
		free(s->profile_text);
		s->profile_text = snap->text;
		return;
	}
	if (snap->kind == KT_SNAP_OFFCPU && s->offcpu_id && snap->id == s->offcpu_id) {
		free(s->offcpu_text);
		s->offcpu_text = snap->text;
		return;
	}
	for (size_t i = 0; i <= n; i++) {
		if (!s->ids[i] || s->ids[i] != snap->id ||
		    snap->kind != (i < n ? KT_SNAP_HIST : KT_SNAP_COUNTERS))
			continue;
		free(s->text[i]);
		s->text[i] = snap->text;
		return;
	}
	free(snap->text); /* not one of ours */
}

/* A host's profile as local batch mode renders it (text, its counts line first; --folded,
 * the stacks alone, the counts on stderr already; --json, one object): as it is with one
 * host, else after a line naming the host, each JSON object with "host", each folded
 * stack under the host's label, one flame graph's input for them all. text is changed. */
static void snaps_print_block(FILE *out, const struct kt_options *o, bool several,
			      const struct batch_snaps *s, char *text)
{
	char *line, *save = NULL;

	if (!several && !o->json) {
		fputs(text, out);
		return;
	}
	if (!o->json && !o->folded) {
		fprintf(out, "# host %s\n%s", s->label, text);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (o->json) {
			batch_print_host_json(out, s->label, line);
			fputc('\n', out);
		} else {
			fprintf(out, "%s;%s\n", s->label, line);
		}
	}
}

/* A host's --profile stacks rendered as local batch mode prints them (batch_profile.c, from
 * the text the agent sent). malloc'd; NULL with the reason on stderr. */
static char *snaps_profile_text(const struct kt_options *o, const struct batch_snaps *s)
{
	struct kt_batch_profile *bp;
	char err[200], *text = NULL;
	size_t len;
	FILE *mem;
	int ret;

	bp = batch_profile_from_text(o, s->profile_text, err, sizeof(err));
	if (!bp) {
		fprintf(stderr, "ktop: %s: %s\n", s->name, err);
		return NULL;
	}
	mem = open_memstream(&text, &len);
	ret = mem ? batch_profile_print(bp, mem) : -1;
	if (mem && fclose(mem))
		ret = -1;
	batch_profile_free(bp);
	if (ret < 0) {
		fprintf(stderr, "ktop: %s: out of memory for its profile\n", s->name);
		free(text);
		return NULL;
	}
	return text;
}

/* A host's --off-cpu profile as the agent rendered it (local batch mode's text or JSON);
 * --folded takes its counts line to stderr, as locally. Its stacks (or the object) stay
 * in text. */
static char *snaps_offcpu_text(const struct kt_options *o, struct batch_snaps *s)
{
	char *text = s->offcpu_text, *nl;

	s->offcpu_text = NULL;
	if (!o->folded || o->json || strncmp(text, "# off-cpu: ", 11))
		return text;
	nl = strchr(text, '\n');
	fprintf(stderr, "ktop: off-cpu: %.*s\n", nl ? (int)(nl - text - 11) : (int)strlen(text + 11),
		text + 11);
	memmove(text, nl ? nl + 1 : text + strlen(text), strlen(nl ? nl + 1 : "") + 1);
	return text;
}

int batch_snaps_print_profiles(FILE *out, const struct kt_options *o, struct batch_snaps **s,
			       unsigned n)
{
	char *text;

	for (unsigned k = 0; (o->cpu_profile || o->off_cpu) && k < n; k++) {
		struct batch_snaps *h = s[k];

		if (o->cpu_profile ? !h->profile_text : !h->offcpu_text) {
			fprintf(stderr, "ktop: %s sent no %s profile%s\n", h->name,
				o->cpu_profile ? "on-CPU" : "off-CPU",
				h->failed ? " (it ended early)" : "");
			continue;
		}
		text = o->cpu_profile ? snaps_profile_text(o, h) : snaps_offcpu_text(o, h);
		if (text)
			snaps_print_block(out, o, n > 1, h, text);
		free(text);
	}
	return ferror(out) ? -1 : 0;
}

/* A host's probes' hits and misses, as local batch mode prints them after the counters;
 * with several hosts after a line naming it, in JSON each object with "host" first. */
static void snaps_print_probes(FILE *out, const struct kt_options *o, bool several,
			       const struct batch_snaps *s)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *mem;

	if (!s->n_probes)
		return;
	if (!o->json) {
		if (several)
			fprintf(out, "# host %s\n", s->label);
		probeprint(s->probes, s->n_probes, false, out);
		return;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	probeprint(s->probes, s->n_probes, true, mem);
	if (fclose(mem) == 0)
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			batch_print_host_json(out, s->label, line);
			fputc('\n', out);
		}
	free(text);
}

void batch_snaps_print(FILE *out, const struct kt_options *o, struct batch_snaps **s,
		       unsigned n)
{
	const char *text;

	for (size_t i = 0; i < o->n_hists + o->pmu; i++) {
		for (unsigned k = 0; k < n; k++) {
			text = s[k]->text[i];
			if (!text) {
				fprintf(stderr, "ktop: %s sent no %s%s%s\n", s[k]->name,
					i < o->n_hists ? "histogram for --hist " : "counters",
					i < o->n_hists ? o->hists[i] : "",
					s[k]->failed ? " (it ended early)" : "");
				continue;
			}
			if (o->json) {
				/* an agent's is one object: its fields follow the host */
				batch_print_host_json(out, s[k]->label, text);
				continue;
			}
			if (n > 1)
				fprintf(out, "# host %s\n", s[k]->label);
			fputs(text, out);
		}
	}
	for (unsigned k = 0; k < n; k++)
		snaps_print_probes(out, o, n > 1, s[k]);
}
