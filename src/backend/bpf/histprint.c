// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bpfhist.h"
#include "histprint.h"
#include "util/json.h"

#define BAR_WIDTH 40

static const char *unit_of(const struct kt_hist_spec *s)
{
	return s->is_time ? "ns" : "value";
}

static void print_stats(const struct kt_hist_spec *s, const struct kt_hist_val *v, FILE *out)
{
	fprintf(out, "count=%llu sum=%llu avg=%llu min=%llu p50=%llu p90=%llu p99=%llu max=%llu\n",
		v->count, v->sum, v->count ? v->sum / v->count : 0, v->count ? v->min : 0,
		hist_percentile(s, v, 0.50), hist_percentile(s, v, 0.90),
		hist_percentile(s, v, 0.99), v->max);
}

void histprint_text(const struct kt_bpfhist *h, FILE *out)
{
	const struct kt_hist_spec *s = bpfhist_spec(h);
	const struct kt_hist_row *rows;
	unsigned long long lo, hi, most;
	size_t n = bpfhist_rows(h, &rows), i;
	char label[64], bar[BAR_WIDTH + 1];
	unsigned int b, w;

	fprintf(out, "# hist %s: by=%s unit=%s scale=%s", s->text,
		s->by == KT_BY_NONE ? "none" : histspec_by_name(s), unit_of(s),
		s->scale == KT_SCALE_LINEAR ? "linear" : "log2");
	if (s->scale == KT_SCALE_LINEAR)
		fprintf(out, " step=%llu", s->step);
	fprintf(out, " via=%s keys=%zu missed=%llu\n", bpfhist_variant(h), n,
		(unsigned long long)bpfhist_missed(h));
	for (i = 0; i < n; i++) {
		const struct kt_hist_val *v = &rows[i].cum;

		hist_key_label(s, &rows[i].key, label, sizeof(label));
		fprintf(out, "key %s ", label);
		print_stats(s, v, out);
		most = 0;
		for (b = 0; b < KT_HIST_SLOTS; b++)
			if (v->slots[b] > most)
				most = v->slots[b];
		for (b = 0; b < KT_HIST_SLOTS; b++) {
			if (!v->slots[b])
				continue;
			hist_bounds(s, b, &lo, &hi);
			w = (unsigned int)(v->slots[b] * BAR_WIDTH / most);
			memset(bar, '*', w);
			bar[w] = '\0';
			if (hi)
				fprintf(out, "  [%llu, %llu) %llu |%-*s|\n", lo, hi, v->slots[b],
					BAR_WIDTH, bar);
			else
				fprintf(out, "  [%llu, inf) %llu |%-*s|\n", lo, v->slots[b],
					BAR_WIDTH, bar);
		}
	}
}

void histprint_json(const struct kt_bpfhist *h, FILE *out)
{
	const struct kt_hist_spec *s = bpfhist_spec(h);
	const struct kt_hist_row *rows;
	unsigned long long lo, hi;
	size_t n = bpfhist_rows(h, &rows), i;
	char label[64];
	unsigned int b;
	bool first;

	fputs("{\"hist\":{\"spec\":", out);
	json_string(out, s->text);
	fputs(",\"by\":", out);
	json_string(out, s->by == KT_BY_NONE ? "none" : histspec_by_name(s));
	fprintf(out,
		",\"unit\":\"%s\",\"scale\":\"%s\",\"step\":%llu,\"via\":\"%s\",\"missed\":%llu,"
		"\"keys\":[",
		unit_of(s), s->scale == KT_SCALE_LINEAR ? "linear" : "log2", s->step,
		bpfhist_variant(h), (unsigned long long)bpfhist_missed(h));
	for (i = 0; i < n; i++) {
		const struct kt_hist_val *v = &rows[i].cum;

		hist_key_label(s, &rows[i].key, label, sizeof(label));
		fprintf(out, "%s{\"key\":", i ? "," : "");
		json_string(out, label);
		fprintf(out,
			",\"id\":%llu,\"count\":%llu,\"sum\":%llu,\"avg\":%llu,\"min\":%llu,"
			"\"p50\":%llu,\"p90\":%llu,\"p99\":%llu,\"max\":%llu,\"buckets\":[",
			rows[i].key.id, v->count, v->sum, v->count ? v->sum / v->count : 0,
			v->count ? v->min : 0, hist_percentile(s, v, 0.50), hist_percentile(s, v, 0.90),
			hist_percentile(s, v, 0.99), v->max);
		first = true;
		for (b = 0; b < KT_HIST_SLOTS; b++) {
			if (!v->slots[b])
				continue;
			hist_bounds(s, b, &lo, &hi);
			fprintf(out, "%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}", first ? "" : ",",
				lo, hi, v->slots[b]);
			first = false;
		}
		fputs("]}", out);
	}
	fputs("]}}\n", out);
}
