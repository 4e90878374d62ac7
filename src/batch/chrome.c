// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Trace Event Format writer (chrome.h). Times are microseconds with nanosecond decimals,
 * as the format counts them. The JSON array is written as records come, so memory stays
 * flat however long the capture; a slice is written when the switch that ends it comes.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/callgraph/cpuslice.h"
#include "backend/ingest/decode.h"
#include "chrome.h"
#include "util/json.h"
#include "record/outfile.h"

/* The process whose threads are the CPUs: above any pid (PID_MAX_LIMIT is 4194304). */
#define CHROME_CPU_PID 4194305
/* An event's fields as JSON: a record fits in a 4 KiB page, and escaping at most sextuples
 * it (six-byte escapes), so this holds them whole (a cut would leave the file unparsable). */
#define CHROME_ARGS 65536

struct kt_chrome {
	struct kt_app *app;
	struct kt_outfile of;
	char *path;
	FILE *f;
	struct kt_cpuslicer *slicer; /* made at the first record: slices start there */
	uint64_t last_ts;
	unsigned long long events;
	unsigned char *named; /* a bit per pid: its thread's name is written */
	char args[CHROME_ARGS];
};

/* "12.345678" microseconds of ns. */
static void put_us(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static void put_slice(const struct kt_cpuslice *s, void *arg)
{
	struct kt_chrome *c = arg;

	fputs(",\n{\"ph\":\"X\",\"cat\":\"sched\",\"name\":", c->f);
	json_string(c->f, s->pid ? s->comm : "idle");
	fprintf(c->f, ",\"pid\":%d,\"tid\":%d", CHROME_CPU_PID, s->cpu);
	put_us(c->f, "ts", s->start);
	put_us(c->f, "dur", s->end - s->start);
	fprintf(c->f, ",\"args\":{\"cpu\":%d,\"pid\":%d,\"comm\":", s->cpu, s->pid);
	json_string(c->f, s->comm);
	fprintf(c->f, ",\"prio\":%d}}", s->prio);
	c->events++;
}

/* The process and thread names Perfetto shows for the CPU lanes. */
static void put_names(struct kt_chrome *c)
{
	fprintf(c->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,"
		"\"args\":{\"name\":\"CPUs\"}}", CHROME_CPU_PID);
	for (int cpu = 0; cpu < c->app->ncpus; cpu++)
		fprintf(c->f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
			"\"args\":{\"name\":\"CPU %d\"}}", CHROME_CPU_PID, cpu, cpu);
}

/* A task's thread gets its name the first time it shows (Perfetto shows "Thread N" else). */
static void put_task_name(struct kt_chrome *c, int pid, uint64_t ts)
{
	if (pid <= 0 || pid >= CHROME_CPU_PID || !c->named ||
	    (c->named[pid / 8] & (1u << (pid % 8))))
		return;
	c->named[pid / 8] |= (unsigned char)(1u << (pid % 8));
	fprintf(c->f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"name\":", pid, pid);
	json_string(c->f, decoder_comm(c->app->decoder, pid, ts));
	fputs("}}", c->f);
}

struct kt_chrome *chrome_open(struct kt_app *app, const char *path, char *err, size_t errlen)
{
	struct kt_chrome *c = calloc(1, sizeof(*c));

	if (!c || !(c->path = strdup(path))) {
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->app = app;
	c->named = calloc(CHROME_CPU_PID / 8 + 1, 1); /* without it, tasks are numbers only */
	if (outfile_open(&c->of, path, app->opts->force, err, errlen) < 0) {
		free(c->named);
		free(c->path);
		free(c);
		return NULL;
	}
	c->f = fdopen(c->of.fd, "w");
	if (!c->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		outfile_discard(&c->of, path);
		free(c->named);
		free(c->path);
		free(c);
		return NULL;
	}
	c->of.fd = -1; /* the stream's now */
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", c->f);
	put_names(c);
	return c;
}

static bool read_num(struct tep_event *ev, const struct kt_rec *r, const char *name,
		     unsigned long long *v)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	return f && f->size <= 8 && f->offset + f->size <= r->size &&
	       !tep_read_number_field(f, r->data, v);
}

/* One side of a switch: its pid, prio and comm fields (prefix "prev_" or "next_"). */
static bool read_task(struct tep_event *ev, const struct kt_rec *r, const char *prefix,
		      struct kt_slice_task *t, char comm[KT_SLICE_COMM])
{
	struct tep_format_field *f;
	unsigned long long pid, prio;
	char name[32];

	snprintf(name, sizeof(name), "%spid", prefix);
	if (!read_num(ev, r, name, &pid))
		return false;
	snprintf(name, sizeof(name), "%sprio", prefix);
	if (!read_num(ev, r, name, &prio))
		return false;
	snprintf(name, sizeof(name), "%scomm", prefix);
	f = tep_find_field(ev, name);
	if (!f || f->offset + f->size > r->size)
		return false;
	snprintf(comm, KT_SLICE_COMM, "%.*s", (int)strnlen((const char *)r->data + f->offset,
							   f->size < KT_SLICE_COMM ? f->size :
										     KT_SLICE_COMM - 1),
		 (const char *)r->data + f->offset);
	t->pid = (int)pid;
	t->prio = (int)prio;
	t->comm = comm;
	return true;
}

static bool add_switch(struct kt_chrome *c, struct tep_event *ev, const struct kt_rec *r)
{
	char pcomm[KT_SLICE_COMM], ncomm[KT_SLICE_COMM];
	struct kt_slice_task prev, next;

	if (!read_task(ev, r, "prev_", &prev, pcomm) || !read_task(ev, r, "next_", &next, ncomm))
		return false;
	cpuslicer_switch(c->slicer, (int)r->cpu, r->ts, &prev, &next);
	return true;
}

/* A function_graph return: the call as a complete event on its task's thread. */
static bool add_return(struct kt_chrome *c, struct tep_event *ev, const struct kt_rec *r)
{
	unsigned long long func, call, ret;
	int pid = decoder_rec_pid(r);
	const char *name;
	char addr[32];

	if (!read_num(ev, r, "func", &func) || !read_num(ev, r, "calltime", &call) ||
	    !read_num(ev, r, "rettime", &ret) || ret < call)
		return false;
	name = tep_find_function(decoder_tep_with_symbols(c->app->decoder), func);
	snprintf(addr, sizeof(addr), "0x%llx", func);
	put_task_name(c, pid, r->ts);
	fputs(",\n{\"ph\":\"X\",\"cat\":\"function_graph\",\"name\":", c->f);
	json_string(c->f, name ? name : addr);
	fprintf(c->f, ",\"pid\":%d,\"tid\":%d", pid, pid);
	put_us(c->f, "ts", call);
	put_us(c->f, "dur", ret - call);
	fputs("}", c->f);
	c->events++;
	return true;
}

static void add_instant(struct kt_chrome *c, const struct kt_rec *r)
{
	char name[128], *args = c->args;
	bool lost = r->flags & KT_REC_LOST;
	int pid = lost ? 0 : decoder_rec_pid(r);

	decoder_format_name(c->app->decoder, r, name, sizeof(name));
	if (lost)
		snprintf(args, CHROME_ARGS, "{\"cpu\":%u,\"lost\":%lld}", r->cpu, (long long)r->lost);
	else
		decoder_format_json_fields(c->app->decoder, r, args, CHROME_ARGS);
	put_task_name(c, pid, r->ts);
	fputs(",\n{\"ph\":\"i\",\"s\":", c->f);
	fputs(lost ? "\"g\"" : "\"t\"", c->f);
	fputs(",\"name\":", c->f);
	json_string(c->f, name);
	fprintf(c->f, ",\"pid\":%d,\"tid\":%d", pid, pid);
	put_us(c->f, "ts", r->ts);
	fprintf(c->f, ",\"args\":%s}", args);
	c->events++;
}

void chrome_add(struct kt_chrome *c, const struct kt_rec *r)
{
	struct tep_event *ev = (r->flags & KT_REC_LOST) ? NULL : decoder_event(c->app->decoder, r);

	if (r->flags & KT_REC_STACK)
		return;
	if (!c->slicer)
		c->slicer = cpuslicer_new(c->app->ncpus, r->ts, put_slice, c);
	c->last_ts = r->ts;
	if (ev && !strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch") &&
	    c->slicer && add_switch(c, ev, r))
		return;
	if (ev && !strcmp(ev->system, "ftrace") && !strcmp(ev->name, "funcgraph_exit") &&
	    add_return(c, ev, r))
		return;
	if (ev && !strcmp(ev->system, "ftrace") && !strcmp(ev->name, "funcgraph_entry"))
		return; /* its call is written at its return */
	add_instant(c, r);
}

unsigned long long chrome_events(const struct kt_chrome *c)
{
	return c->events;
}

int chrome_close(struct kt_chrome *c, char *err, size_t errlen)
{
	int ret = 0;

	if (c->slicer)
		cpuslicer_finish(c->slicer, c->last_ts);
	fputs("\n]}\n", c->f);
	if (fflush(c->f) || ferror(c->f) || fsync(fileno(c->f))) {
		snprintf(err, errlen, "%s: %s (the file was removed)", c->path, strerror(errno));
		ret = -1;
	}
	fclose(c->f);
	if (!ret && outfile_commit(&c->of, c->path) < 0) {
		snprintf(err, errlen, "%s: %s (the file was removed)", c->path, strerror(errno));
		ret = -1;
	}
	outfile_discard(&c->of, c->path);
	free(c->named);
	free(c->path);
	free(c);
	return ret;
}
