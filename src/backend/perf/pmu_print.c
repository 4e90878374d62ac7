// SPDX-License-Identifier: GPL-2.0-or-later
/* A counter set's batch output (see pmu.h): the text table and the JSON object. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "pmu_local.h"
#include "util/json.h"

static void json_number(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.6g", v);
}

static void text_number(FILE *out, double v, int width)
{
	if (v == floor(v) && fabs(v) < 9e15)
		fprintf(out, "%*.0f", width, v);
	else
		fprintf(out, "%*.6g", width, v);
}

void pmu_write_text(const struct kt_pmu *p, FILE *out)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	char target[128], label[32];
	size_t i;
	int s;

	fprintf(out, "# pmu: %s, %.3f s\n", pmu_target_text(p, target, sizeof(target)),
		pmu_elapsed(p));
	fprintf(out, "# pmu %-26s %18s %16s %8s ", "counter", "value", "rate/s", "running");
	for (s = 0; s < p->nslots; s++)
		fprintf(out, " %s", pmu_slot_label(p, s, label, sizeof(label)));
	fputc('\n', out);
	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		if (!pmu_counter_shown(p, i))
			continue;
		fprintf(out, "%-32s ", c->name);
		if (!c->available) {
			fprintf(out, "%18s  %s\n", "n/a", c->reason);
			continue;
		}
		if (!c->counted) {
			fprintf(out, "%18s  never scheduled: the PMU multiplexed it out (fewer "
				"counters at once would help)\n", "<not-counted>");
			continue;
		}
		text_number(out, c->value, 18);
		fputc(' ', out);
		if (isnan(c->rate))
			fprintf(out, "%16s", "-");
		else
			fprintf(out, "%16.1f", c->rate);
		fprintf(out, " %7.1f%% ", isnan(c->share_total) ? 0.0 : c->share_total * 100);
		for (s = 0; s < p->nslots; s++) {
			fputc(' ', out);
			if (!c->slots[s].open)
				fputs("-", out);
			else
				text_number(out, c->slots[s].scaled, 0);
		}
		if (c->attr.unit[0])
			fprintf(out, " %s", c->attr.unit);
		fputc('\n', out);
	}
	pmu_ratios(p, r);
	fputs("# pmu derived:", out);
	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		if (isnan(r[i].value))
			fprintf(out, "%s %s=n/a (%s)", i ? ";" : "", r[i].name, r[i].why);
		else
			fprintf(out, "%s %s=%.3f%s", i ? ";" : "", r[i].name, r[i].value,
				r[i].unit);
	}
	fputc('\n', out);
}

void pmu_write_json(const struct kt_pmu *p, FILE *out)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	size_t i;
	int s;

	fprintf(out, "{\"pmu\":{\"target\":\"%s\",",
		p->per_task ? "pid" : p->cgroup_fd >= 0 ? "cgroup" : "system");
	if (p->cgroup_fd >= 0) {
		fputs("\"cgroup\":", out);
		json_string(out, p->cgroup_dir);
		fputc(',', out);
	}
	if (p->per_task) {
		fputs("\"pids\":[", out);
		for (i = 0; i < p->npids; i++)
			fprintf(out, "%s%d", i ? "," : "", (int)p->pids[i]);
		fputs("],\"threads\":[", out);
	} else {
		fputs("\"cpus\":[", out);
	}
	for (s = 0; s < p->nslots; s++)
		fprintf(out, "%s%d", s ? "," : "", pmu_slot_id(p, s));
	fprintf(out, "],\"duration\":%.3f,\"counters\":[", pmu_elapsed(p));
	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, c->name);
		fprintf(out, ",\"available\":%s", c->available ? "true" : "false");
		if (!c->available) {
			fputs(",\"reason\":", out);
			json_string(out, c->reason);
			fputs("}", out);
			continue;
		}
		fprintf(out, ",\"counted\":%s,\"value\":", c->counted ? "true" : "false");
		json_number(out, c->counted ? c->value : NAN);
		fprintf(out, ",\"raw\":%llu,\"rate\":", (unsigned long long)c->raw);
		json_number(out, c->rate);
		fputs(",\"running\":", out);
		json_number(out, c->share_total);
		if (c->attr.unit[0]) {
			fputs(",\"unit\":", out);
			json_string(out, c->attr.unit);
		}
		fprintf(out, ",\"%s\":[", p->per_task ? "per_thread" : "per_cpu");
		for (s = 0; s < p->nslots; s++) {
			if (s)
				fputc(',', out);
			json_number(out, c->slots[s].open ? c->slots[s].scaled : NAN);
		}
		fputs("]}", out);
	}
	fputs("],\"derived\":[", out);
	pmu_ratios(p, r);
	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_string(out, r[i].name);
		fputs(",\"value\":", out);
		json_number(out, r[i].value);
		if (r[i].unit[0]) {
			fputs(",\"unit\":", out);
			json_string(out, r[i].unit);
		}
		if (r[i].why[0]) {
			fputs(",\"why\":", out);
			json_string(out, r[i].why);
		}
		fputc('}', out);
	}
	fputs("]}}\n", out);
}
