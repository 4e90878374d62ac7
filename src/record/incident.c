// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing one incident's directory (incident.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend/ingest/decode.h"
#include "backend/bpf/histdata.h"
#include "util/clock.h"
#include "util/json.h"
#include "incident.h"
#include "recorder.h"

static const char *const kind_names[] = {
	[KT_ARM_NONE] = "event", [KT_ARM_SYSCALL] = "syscall", [KT_ARM_ERRNO] = "errno",
	[KT_ARM_RUNQ] = "runq",	 [KT_ARM_OFFCPU] = "offcpu",
};
static const char *const files[] = { "trace.dat", "summary.json", INCIDENT_STACKS,
				      INCIDENT_TASK_STACKS };

/* The wall-clock time of ts (CLOCK_MONOTONIC), "20261207T165012.345Z". */
static void wall_of(uint64_t ts, char *buf, size_t len)
{
	long long ns = (long long)clock_ns(CLOCK_REALTIME) - ((long long)clock_mono_ns() - (long long)ts);
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;
	size_t n;

	gmtime_r(&s, &tm);
	n = strftime(buf, len, "%Y%m%dT%H%M%S", &tm);
	snprintf(buf + n, len - n, ".%03lldZ", ns % 1000000000 / 1000000);
}

static void json_ts(FILE *f, const char *key, uint64_t ts)
{
	char buf[32];

	fprintf(f, "\"%s\":\"%s\",\"%s_ns\":%llu", key, decoder_format_ts(ts, 0, buf, sizeof(buf)),
		key, (unsigned long long)ts);
}

/* What fired: the value and the syscall, when there is one. */
static void json_what(FILE *f, const struct kt_incident *inc)
{
	const struct kt_arm_fire *fi = &inc->fire;
	const char *sc = fi->nr >= 0 ? hist_syscall_name((unsigned long long)fi->nr) : NULL;

	if (inc->kind == KT_ARM_NONE) {
		fputs(",\"event\":", f);
		json_string(f, inc->event);
	} else if (inc->kind == KT_ARM_ERRNO) {
		fprintf(f, ",\"value\":%llu,\"errno\":", fi->value);
		json_string(f, strerrorname_np((int)fi->value) ? strerrorname_np((int)fi->value) : "?");
	} else {
		fprintf(f, ",\"value_ns\":%llu,\"threshold_ns\":%llu", fi->value, inc->threshold_ns);
	}
	if (sc) {
		fputs(",\"syscall\":", f);
		json_string(f, sc);
		fprintf(f, ",\"ret\":%ld", fi->ret);
	}
}

/* Which stack files there are, and how many stacks each holds. */
static void json_stacks(FILE *f, const struct kt_incident_stacks *s, int err)
{
	if (s->all > 0) {
		fprintf(f, ",\"stacks\":{\"" INCIDENT_STACKS "\":%lld,\"" INCIDENT_TASK_STACKS
			"\":%lld}", (long long)s->all, (long long)s->task);
		return;
	}
	fputs(",\"stacks\":null,\"stacks_note\":", f);
	json_string(f, err ? strerror(err) : "no event stacks in the window (--stack SYS:EV, "
					     "--user-stacks or an event: condition put them there)");
}

static int write_summary(const char *path, const struct kt_incident *inc,
			 const struct kt_window_stats *ws, int rc, const char *why,
			 const struct kt_incident_stacks *stk, int stk_err)
{
	FILE *f = fopen(path, "wx");
	char wall[48];

	if (!f)
		return -1;
	wall_of(inc->fire.ts, wall, sizeof(wall));
	fprintf(f, "{\"incident\":%u,\"condition\":", inc->n);
	json_string(f, inc->cond);
	fprintf(f, ",\"kind\":\"%s\"", kind_names[inc->kind]);
	json_what(f, inc);
	if (inc->kind != KT_ARM_NONE) /* the kernel counts its conditions' matches */
		fprintf(f, ",\"matches\":%llu,\"firings_dropped\":%llu", inc->matches,
			inc->full);
	json_stacks(f, stk, stk_err);
	fprintf(f, ",\"task\":{\"pid\":%d,\"tid\":%d,\"comm\":", inc->fire.pid, inc->fire.tid);
	json_string(f, inc->fire.comm);
	fprintf(f, "},\"cpu\":%u,", inc->fire.cpu);
	json_ts(f, "start", inc->fire.start);
	fputc(',', f);
	json_ts(f, "fired", inc->fire.ts);
	fprintf(f, ",\"wall_time\":\"%s\",\"window\":{", wall);
	json_ts(f, "from", inc->from);
	fputc(',', f);
	json_ts(f, "to", inc->to);
	fprintf(f, ",\"pre_s\":%g,\"post_s\":%g,\"truncated\":%s", inc->pre, inc->post,
		inc->truncated ? "true" : "false");
	if (inc->truncated) /* ktop quit or disarmed inside the post-roll: what it had */
		fprintf(f, ",\"post_kept_s\":%.3f", (double)(inc->to - inc->fire.ts) / 1e9);
	fprintf(f, "},\"events\":%llu,"
		"\"loss\":{\"kernel_markers\":%llu,\"kernel_events\":%llu,\"evicted_before\":%s,"
		"\"stopped_early\":",
		ws->events, ws->lost_markers, ws->lost_events,
		ws->truncated ? "true" : "false");
	if (rc == 1)
		json_string(f, why);
	else
		fputs("null", f);
	fputs("}}\n", f);
	return fclose(f) ? -1 : 0;
}

int incident_write(const struct kt_incident_from *src, const char *dir,
		   const struct kt_incident *inc, char *path, size_t pathlen,
		   struct kt_window_stats *ws, char *err, size_t errlen)
{
	struct kt_incident_stacks stk = { 0 };
	char wall[48], file[4096], why[512] = "";
	int rc, stk_err;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	wall_of(inc->fire.ts, wall, sizeof(wall));
	snprintf(path, pathlen, "%s/incident-%u-%s", dir, inc->n, wall);
	if (mkdir(path, 0700) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(file, sizeof(file), "%s/trace.dat", path);
	rc = recorder_write_window(&src->rec, file, inc->from, inc->to, ws, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "%s", why);
		incident_remove(path);
		return -1;
	}
	stk_err = incident_stacks_write(src, path, inc, &stk) < 0 ? errno : 0;
	snprintf(file, sizeof(file), "%s/summary.json", path);
	if (write_summary(file, inc, ws, rc, why, &stk, stk_err) < 0) {
		snprintf(err, errlen, "%s: %s%s%s", file, strerror(errno), rc ? "; " : "",
			 rc ? why : "");
		return 1;
	}
	snprintf(err, errlen, "%s", why);
	return rc;
}

unsigned long long incident_size(const char *path)
{
	unsigned long long n = 0;
	char file[4096];
	struct stat st;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", path, files[i]);
		if (stat(file, &st) == 0)
			n += (unsigned long long)st.st_blocks * 512;
	}
	return n;
}

int incident_remove(const char *path)
{
	char file[4096];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", path, files[i]);
		if (unlink(file) < 0 && errno != ENOENT)
			return -1;
	}
	return rmdir(path);
}
