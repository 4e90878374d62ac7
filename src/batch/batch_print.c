// SPDX-License-Identifier: GPL-2.0-or-later
/* The lines every batch front end prints alike (batch_print.h). */
#include "config.h"

#include "batch_print.h"
#include "util/json.h"

void batch_print_event(FILE *out, const char *ts, const char *label, unsigned cpu,
		       const char *comm, int pid, const char *name, const char *info)
{
	fprintf(out, "%s%s [%03u] %16s-%-7d %s: %s\n", ts, label, cpu, comm, pid, name, info);
}

void batch_print_lost(FILE *out, const char *ts, const char *label, unsigned cpu,
		      const char *info)
{
	fprintf(out, "%s%s [%03u] %s\n", ts, label, cpu, info);
}

void batch_print_stacks(FILE *out, bool json, uint64_t records, const char *kinds)
{
	if (json)
		fprintf(out, "{\"stacks\":{\"records\":%llu}}\n", (unsigned long long)records);
	else
		fprintf(out, "# ktop: stacks=%llu (%s stack records, each printed with its "
			"event)\n", (unsigned long long)records, kinds);
}

static double batch_rate(const struct batch_totals *t)
{
	return t->secs > 0 ? (double)t->events / t->secs : 0;
}

void batch_print_totals(FILE *out, const struct batch_totals *t)
{
	fprintf(out,
		"# ktop: events=%llu lost=%llu lost_marked=%llu lost_unknown_pages=%llu "
		"evicted=%llu duration=%.3fs rate=%.0f/s\n",
		(unsigned long long)t->events, (unsigned long long)t->lost,
		(unsigned long long)t->lost_marked, (unsigned long long)t->lost_unknown,
		(unsigned long long)t->evicted, t->secs, batch_rate(t));
}

void batch_print_totals_json(FILE *out, const struct batch_totals *t)
{
	fprintf(out,
		"{\"summary\":{\"events\":%llu,\"printed\":%llu,\"lost\":%llu,"
		"\"lost_marked\":%llu,\"lost_unknown_pages\":%llu,\"evicted\":%llu,"
		"\"duration\":%.3f,\"events_per_sec\":%.0f,",
		(unsigned long long)t->events, (unsigned long long)t->printed,
		(unsigned long long)t->lost, (unsigned long long)t->lost_marked,
		(unsigned long long)t->lost_unknown, (unsigned long long)t->evicted, t->secs,
		batch_rate(t));
}

void batch_print_host_json(FILE *out, const char *label, const char *obj)
{
	fputs("{\"host\":", out);
	json_string(out, label);
	fprintf(out, ",%s", obj + (obj[0] == '{'));
}
