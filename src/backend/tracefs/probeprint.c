// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probeprint.h"
#include "util/json.h"
#include "util/xalloc.h"

void probeprint(const struct kt_probe_report *r, size_t n, bool json, FILE *out)
{
	for (size_t i = 0; i < n; i++, r++) {
		bool user = probe_kind_is_user(r->kind);

		if (json) {
			fprintf(out, "{\"probe\":{\"event\":\"%s\",\"kind\":\"%s\","
				"\"maxactive\":%u,\"hits\":%llu", r->event, probe_kind_name(r->kind),
				r->maxactive, (unsigned long long)r->health.hits);
			if (!user)
				fprintf(out, ",\"misses\":%llu", (unsigned long long)r->health.misses);
			if (r->health.misses) {
				fputs(",\"miss_reason\":", out);
				json_string(out, probe_miss_reason(r->kind));
			}
			fputs("}}\n", out);
			continue;
		}
		fprintf(out, "# probe %s %s hits=%llu", r->event, probe_kind_name(r->kind),
			(unsigned long long)r->health.hits);
		if (!user)
			fprintf(out, " misses=%llu", (unsigned long long)r->health.misses);
		if (r->maxactive)
			fprintf(out, " maxactive=%u", r->maxactive);
		if (r->health.misses)
			fprintf(out, ": %s", probe_miss_reason(r->kind));
		fputc('\n', out);
	}
}

void probeprint_wire(const struct kt_probe_report *r, size_t n, FILE *out)
{
	for (size_t i = 0; i < n; i++, r++)
		fprintf(out, "%s %s %u %llu %llu\n", r->event, probe_kind_name(r->kind),
			r->maxactive, (unsigned long long)r->health.hits,
			(unsigned long long)r->health.misses);
}

_Static_assert(sizeof(((struct kt_probe_report *)0)->event) == 104, "%103s below");

struct kt_probe_report *probeprint_parse_wire(const char *text, size_t *n)
{
	struct kt_probe_report *v = NULL, r;
	char event[sizeof(r.event)], kind[16];
	unsigned long long hits, misses;
	const char *line, *nl;
	int used;

	*n = 0;
	for (line = text; *line; line = nl + (*nl == '\n')) {
		nl = line + strcspn(line, "\n");
		memset(&r, 0, sizeof(r));
		used = 0;
		if (sscanf(line, "%103s %15s %u %llu %llu%n", event, kind, &r.maxactive, &hits,
			   &misses, &used) != 5 || line + used != nl ||
		    probe_kind_parse(kind, &r.kind) < 0)
			continue;
		snprintf(r.event, sizeof(r.event), "%s", event);
		r.health.hits = hits;
		r.health.misses = misses;
		v = xreallocarray(v, *n + 1, sizeof(*v));
		v[(*n)++] = r;
	}
	return v;
}
