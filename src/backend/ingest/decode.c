// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding with libtraceevent. Only the page header is parsed up front; an event's format is
 * parsed when it is enabled or first seen, printk formats and kallsyms when a row is first
 * formatted. That keeps start-up in milliseconds instead of the ~160 ms all formats take.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <tracefs.h>

#include "util/fileio.h"
#include "util/json.h"
#include "util/log.h"
#include "util/xalloc.h"
#include "backend/perf/comms.h"
#include "decode.h"
#include "store.h"
#include "util/clock.h"

#define COMM_SLOTS 4096
#define COMM_TTL_NS 1000000000ull
#define NAME_SLOTS 1024
#define CMDLINES_MIN_AGE_NS 100000000ull

struct comm_slot {
	int pid; /* 0: free */
	char comm[16];
	unsigned long long looked_at; /* when comm was last looked up */
};

/* saved_cmdlines, parsed: the kernel's names of tasks that have exited. */
struct cmdline {
	int pid;
	char comm[16];
};

struct id_entry {
	int id;
	char *system, *name;
};

struct kt_decoder {
	struct tep_handle *tep;
	bool tep_borrowed;  /* a recording's: formats, kallsyms and names all come from it */
	char *tracing_dir;  /* NULL for a recording */
	bool extras_loaded; /* printk formats */
	bool kallsyms_loaded;
	struct id_entry *ids; /* id -> system/name, built on the first unknown id */
	size_t nids;
	bool ids_loaded;
	struct comm_slot comms[COMM_SLOTS];
	struct kt_comms *history;
	kt_format_loader loader; /* a borrowed tep's formats fetched on demand, or NULL */
	void *loader_ctx;
	char names[NAME_SLOTS][KT_COMM_LEN]; /* interned names from the history */
	struct cmdline *cmdlines; /* sorted by pid */
	size_t ncmdlines;
	unsigned long long cmdlines_read_at; /* 0: never */
	unsigned long long cmdlines_cost_ns;  /* how long that read took */
	struct trace_seq seq;
};

struct kt_decoder *decoder_new(const char *tracing_dir, char *err, size_t errlen)
{
	struct kt_decoder *d = calloc(1, sizeof(*d));
	char path[4096];
	size_t len;
	char *buf;

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->tracing_dir = strdup(tracing_dir);
	d->tep = tep_alloc();
	if (!d->tep || !d->tracing_dir) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	tep_set_long_size(d->tep, sizeof(long));
	tep_set_page_size(d->tep, getpagesize());
	tep_set_file_bigendian(d->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(d->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
					TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	snprintf(path, sizeof(path), "%s/events/header_page", tracing_dir);
	buf = file_read_all(path, &len);
	if (!buf || tep_parse_header_page(d->tep, buf, len, sizeof(long)) < 0) {
		snprintf(err, errlen, "cannot parse %s: %s", path,
			 buf ? "unexpected format" : strerror(errno));
		free(buf);
		goto fail;
	}
	free(buf);
	trace_seq_init(&d->seq);
	return d;
fail:
	decoder_free(d);
	return NULL;
}

struct kt_decoder *decoder_new_offline(struct tep_handle *tep)
{
	struct kt_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->tep = tep;
	d->tep_borrowed = true;
	d->extras_loaded = true;
	d->kallsyms_loaded = true;
	d->ids_loaded = true;
	trace_seq_init(&d->seq);
	return d;
}

void decoder_free(struct kt_decoder *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nids; i++) {
		free(d->ids[i].system);
		free(d->ids[i].name);
	}
	free(d->ids);
	free(d->cmdlines);
	if (d->seq.buffer)
		trace_seq_destroy(&d->seq);
	if (d->tep && !d->tep_borrowed)
		tep_free(d->tep);
	free(d->tracing_dir);
	free(d);
}

struct tep_handle *decoder_tep(struct kt_decoder *d)
{
	return d->tep;
}

int decoder_load(struct kt_decoder *d, const char *system, const char *event)
{
	char path[4096];
	size_t len;
	char *buf;
	int ret;

	if (!d->tracing_dir) { /* a recording: the formats it holds; a remote: its agent's */
		if (tep_find_event_by_name(d->tep, system, event))
			return 0;
		if (!d->loader || d->loader(d->loader_ctx, system, event) < 0)
			return -1;
		return tep_find_event_by_name(d->tep, system, event) ? 0 : -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", d->tracing_dir, system, event);
	buf = file_read_all(path, NULL);
	ret = buf ? atoi(buf) : -1;
	free(buf);
	/* by id: a dynamic event removed and made again has the same name and a new format */
	if (ret > 0 ? tep_find_event(d->tep, ret) != NULL :
		      tep_find_event_by_name(d->tep, system, event) != NULL)
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", d->tracing_dir, system, event);
	buf = file_read_all(path, &len);
	if (!buf) {
		log_debug("%s: %s: %s", __func__, path, strerror(errno));
		return -1;
	}
	ret = tep_parse_event(d->tep, buf, len, system);
	free(buf);
	if (ret) {
		log_debug("%s: cannot parse %s:%s (%d)", __func__, system, event, ret);
		return -1;
	}
	return 0;
}

/* Builds the id -> event table from events/<sys>/<event>/id; only on the first record of an
 * event nobody loaded (enabled from the picker's system toggle, for instance). */
static void decoder_load_ids(struct kt_decoder *d)
{
	char path[4096];
	struct dirent *sd, *ed;
	DIR *sdir, *edir;
	char *buf, *grown, *id_line;

	d->ids_loaded = true;
	snprintf(path, sizeof(path), "%s/events", d->tracing_dir);
	sdir = opendir(path);
	if (!sdir)
		return;
	while ((sd = readdir(sdir))) {
		if (sd->d_name[0] == '.' || sd->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", d->tracing_dir, sd->d_name);
		edir = opendir(path);
		if (!edir)
			continue;
		while ((ed = readdir(edir))) {
			if (ed->d_name[0] == '.' || ed->d_type != DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", d->tracing_dir,
				 sd->d_name, ed->d_name);
			buf = file_read_all(path, NULL);
			/* ftrace's own events (funcgraph_entry, ...) may have no id file: the
			 * format's "ID:" line says it */
			if (!buf && !strcmp(sd->d_name, "ftrace")) {
				snprintf(path, sizeof(path), "%s/events/%s/%s/format",
					 d->tracing_dir, sd->d_name, ed->d_name);
				buf = file_read_all(path, NULL);
				id_line = buf ? strstr(buf, "\nID: ") : NULL;
				if (id_line)
					memmove(buf, id_line + 5, strlen(id_line + 5) + 1);
				else if (buf)
					buf[0] = '\0';
			}
			if (!buf)
				continue;
			grown = realloc(d->ids, (d->nids + 1) * sizeof(*d->ids));
			if (grown) {
				d->ids = (struct id_entry *)(void *)grown;
				d->ids[d->nids].id = atoi(buf);
				d->ids[d->nids].system = strdup(sd->d_name);
				d->ids[d->nids].name = strdup(ed->d_name);
				d->nids++;
			}
			free(buf);
		}
		closedir(edir);
	}
	closedir(sdir);
}

int decoder_rec_type(const struct kt_rec *r)
{
	unsigned short type;

	if (r->size < sizeof(type))
		return -1;
	memcpy(&type, r->data, sizeof(type));
	return type;
}

int decoder_rec_pid(const struct kt_rec *r)
{
	int pid;

	if (r->size < 8)
		return -1;
	memcpy(&pid, (const char *)r->data + 4, sizeof(pid));
	return pid;
}

struct tep_event *decoder_event(struct kt_decoder *d, const struct kt_rec *r)
{
	struct tep_event *ev;
	int type = decoder_rec_type(r);
	size_t i;

	if (type < 0 || (r->flags & KT_REC_LOST))
		return NULL;
	ev = tep_find_event(d->tep, type);
	if (ev)
		return ev;
	if (!d->ids_loaded)
		decoder_load_ids(d);
	for (i = 0; i < d->nids; i++)
		if (d->ids[i].id == type) {
			decoder_load(d, d->ids[i].system, d->ids[i].name);
			return tep_find_event(d->tep, type);
		}
	return NULL;
}

static void decoder_load_extras(struct kt_decoder *d)
{
	char path[4096];
	char *buf;

	d->extras_loaded = true;
	snprintf(path, sizeof(path), "%s/printk_formats", d->tracing_dir);
	buf = file_read_all(path, NULL);
	if (buf) {
		tep_parse_printk_formats(d->tep, buf);
		free(buf);
	}
}

/* Whether printing ev names kernel addresses: the function tracers' events, or a print format
 * with %pS-style symbol conversions. */
static bool event_prints_symbols(const struct tep_event *ev)
{
	static const char *const conv[] = { "%ps", "%pS", "%pf", "%pF", "%pB", NULL };
	const char *fmt = ev->print_fmt.format;
	int i;

	if (ev->system && !strcmp(ev->system, "ftrace"))
		return true;
	for (i = 0; fmt && conv[i]; i++)
		if (strstr(fmt, conv[i]))
			return true;
	return false;
}

/*
 * libtraceevent evaluates a print format's '/' and '%' without looking at the divisor, and
 * divides by zero (SIGFPE, the process dies) when a record's field says 0. No kernel format
 * divides by a field; a corrupt or crafted recording can (found by the recording fuzzer).
 * Such a format is not evaluated: its rows show their fields instead.
 */
static bool print_arg_divides_safely(const struct tep_print_arg *a)
{
	for (; a; a = a->next) {
		bool ok = true;

		switch (a->type) {
		case TEP_PRINT_OP:
			if (a->op.op && (!strcmp(a->op.op, "/") || !strcmp(a->op.op, "%")) &&
			    !(a->op.right && a->op.right->type == TEP_PRINT_ATOM &&
			      a->op.right->atom.atom && strtoull(a->op.right->atom.atom, NULL, 0)))
				return false;
			ok = print_arg_divides_safely(a->op.left) &&
			     print_arg_divides_safely(a->op.right);
			break;
		case TEP_PRINT_TYPE:
			ok = print_arg_divides_safely(a->typecast.item);
			break;
		case TEP_PRINT_FLAGS:
			ok = print_arg_divides_safely(a->flags.field);
			break;
		case TEP_PRINT_SYMBOL:
			ok = print_arg_divides_safely(a->symbol.field);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			ok = print_arg_divides_safely(a->hex.field) &&
			     print_arg_divides_safely(a->hex.size);
			break;
		case TEP_PRINT_INT_ARRAY:
			ok = print_arg_divides_safely(a->int_array.field) &&
			     print_arg_divides_safely(a->int_array.count) &&
			     print_arg_divides_safely(a->int_array.el_size);
			break;
		case TEP_PRINT_FUNC:
			ok = print_arg_divides_safely(a->func.args);
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
		case TEP_PRINT_DYNAMIC_ARRAY_LEN:
			ok = print_arg_divides_safely(a->dynarray.index);
			break;
		default:
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

/*
 * /proc/kallsyms has ~200,000 lines and parsing it costs about a second (five under the
 * sanitizers), so it is read only once an event that prints symbols is formatted, not for
 * every capture of sched or syscalls events.
 */
static void decoder_load_kallsyms(struct kt_decoder *d)
{
	char *buf;

	if (d->kallsyms_loaded)
		return;
	d->kallsyms_loaded = true;
	buf = file_read_all("/proc/kallsyms", NULL);
	if (buf) {
		tep_parse_kallsyms(d->tep, buf);
		free(buf);
	}
}

struct tep_handle *decoder_tep_with_symbols(struct kt_decoder *d)
{
	decoder_load_kallsyms(d);
	return d->tep;
}

static struct comm_slot *comm_slot(struct kt_decoder *d, int pid)
{
	unsigned h = ((unsigned)pid * 2654435761u) % COMM_SLOTS;
	unsigned i;

	for (i = 0; i < COMM_SLOTS; i++) {
		struct comm_slot *s = &d->comms[(h + i) % COMM_SLOTS];

		if (s->pid == pid || s->pid == 0)
			return s;
	}
	/* full: recycle the home slot */
	d->comms[h].pid = 0;
	return &d->comms[h];
}

static int cmdline_cmp(const void *a, const void *b)
{
	const struct cmdline *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Re-reads saved_cmdlines into d->cmdlines. */
static void cmdlines_load(struct kt_decoder *d)
{
	char path[4096], *buf, *line, *save = NULL;
	size_t n = 0, cap = 0;
	struct cmdline *tab = NULL;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", d->tracing_dir);
	buf = file_read_all(path, NULL);
	for (line = buf ? strtok_r(buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			tab = xrealloc(tab, cap * sizeof(*tab));
		}
		tab[n].pid = atoi(line);
		snprintf(tab[n].comm, sizeof(tab[n].comm), "%s", sp + 1);
		n++;
	}
	free(buf);
	if (n) /* none read (the file could not be opened): tab is NULL, which qsort may not get */
		qsort(tab, n, sizeof(*tab), cmdline_cmp);
	free(d->cmdlines);
	d->cmdlines = tab;
	d->ncmdlines = n;
}

/*
 * The kernel's last name for pid from saved_cmdlines. The file is parsed into a table, not
 * read once per unknown pid: it holds thousands of lines when a tracer raised
 * saved_cmdlines_size, and a burst of short-lived tasks (a build) read it thousands of times
 * (seen: 34 ms a read, a 10 s stall at exit). A pid the table lacks (a task that exited after
 * the last read) re-reads it, but no sooner than ten times the last read took, and at least
 * CMDLINES_MIN_AGE_NS after it: at most a tenth of a core, whatever the file's size.
 */
static bool comm_from_saved_cmdlines(struct kt_decoder *d, int pid, unsigned long long now,
				     char *out, size_t len)
{
	struct cmdline key = { .pid = pid }, *hit = NULL;
	unsigned long long gap = 10 * d->cmdlines_cost_ns;

	if (gap < CMDLINES_MIN_AGE_NS)
		gap = CMDLINES_MIN_AGE_NS;
	if (d->ncmdlines)
		hit = bsearch(&key, d->cmdlines, d->ncmdlines, sizeof(*hit), cmdline_cmp);
	if (!hit && (!d->cmdlines_read_at || now >= d->cmdlines_read_at + gap)) {
		cmdlines_load(d);
		d->cmdlines_read_at = now;
		d->cmdlines_cost_ns = clock_mono_ns() - now;
		if (d->ncmdlines)
			hit = bsearch(&key, d->cmdlines, d->ncmdlines, sizeof(*hit), cmdline_cmp);
	}
	if (!hit)
		return false;
	snprintf(out, len, "%s", hit->comm);
	return true;
}

/*
 * A task's name changes on exec and prctl(PR_SET_NAME) (an SSH session's shell does both), so
 * a cached name is looked up again after COMM_TTL_NS. A task that has exited is named by the
 * kernel's saved_cmdlines (recorded when it was last switched out), else by the last name
 * seen. Lookups happen only for rows being formatted, so this costs little.
 */
void decoder_set_comms(struct kt_decoder *d, struct kt_comms *comms)
{
	d->history = comms;
}

void decoder_set_loader(struct kt_decoder *d, kt_format_loader fn, void *ctx)
{
	d->loader = fn;
	d->loader_ctx = ctx;
}

/* A stable copy of name, for as long as d lives; NULL when the table is full. */
static const char *intern(struct kt_decoder *d, const char *name)
{
	unsigned h = 5381, i;
	const char *p;

	for (p = name; *p; p++)
		h = h * 33 + (unsigned char)*p;
	for (i = 0; i < NAME_SLOTS; i++) {
		char *slot = d->names[(h + i) % NAME_SLOTS];

		if (!slot[0])
			snprintf(slot, KT_COMM_LEN, "%s", name);
		if (!strncmp(slot, name, KT_COMM_LEN - 1))
			return slot;
	}
	return NULL;
}

const char *decoder_comm(struct kt_decoder *d, int pid, unsigned long long ts)
{
	struct comm_slot *s;
	char path[64], *buf, *nl, name[KT_COMM_LEN];
	unsigned long long now;
	const char *known;

	if (pid == 0)
		return "<idle>";
	/* the side band's history (a remote source: the agent's names) */
	if (d->history && comms_at(d->history, pid, ts, name) && (known = intern(d, name)))
		return known;
	if (d->tep_borrowed) /* another machine's: the names it holds, nothing from this one */
		return tep_is_pid_registered(d->tep, pid) ? tep_data_comm_from_pid(d->tep, pid) :
							    "<...>";
	now = clock_mono_ns();
	s = comm_slot(d, pid);
	if (s->pid == pid && now < s->looked_at + COMM_TTL_NS)
		return s->comm;
	if (s->pid != pid) {
		s->pid = pid;
		s->comm[0] = '\0';
	}
	s->looked_at = now;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	buf = file_read_all(path, NULL);
	if (buf) {
		nl = strchr(buf, '\n');
		if (nl)
			*nl = '\0';
		snprintf(s->comm, sizeof(s->comm), "%s", buf);
		free(buf);
	} else if (!comm_from_saved_cmdlines(d, pid, now, s->comm, sizeof(s->comm)) &&
		   !s->comm[0]) {
		/* gone: the kernel's record of its last name, else the last one seen */
		snprintf(s->comm, sizeof(s->comm), "<...>");
	}
	return s->comm;
}

static void rec_to_tep(const struct kt_rec *r, struct tep_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->ts = r->ts;
	rec->cpu = (int)r->cpu;
	rec->size = (int)r->size;
	rec->data = (void *)(uintptr_t)r->data;
}

char *decoder_format_info(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len)
{
	struct tep_record rec;
	struct tep_event *ev;

	if (r->flags & KT_REC_LOST) {
		if (r->lost > 0)
			snprintf(buf, len, "*** CPU %u: lost %lld events ***", r->cpu,
				 (long long)r->lost);
		else
			snprintf(buf, len, "*** CPU %u: lost events (count unknown) ***", r->cpu);
		return buf;
	}
	ev = decoder_event(d, r);
	if (!ev) {
		snprintf(buf, len, "[unknown event id %d]", decoder_rec_type(r));
		return buf;
	}
	if (!d->extras_loaded)
		decoder_load_extras(d);
	if (event_prints_symbols(ev))
		decoder_load_kallsyms(d);
	rec_to_tep(r, &rec);
	trace_seq_reset(&d->seq);
	if (print_arg_divides_safely(ev->print_fmt.args)) {
		tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	} else {
		trace_seq_puts(&d->seq, "[print format divides by a field: fields shown] ");
		tep_print_fields(&d->seq, rec.data, rec.size, ev);
	}
	trace_seq_terminate(&d->seq);
	snprintf(buf, len, "%s", d->seq.buffer ? d->seq.buffer : "");
	return buf;
}

char *decoder_format_name(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len)
{
	struct tep_event *ev;

	if (r->flags & KT_REC_LOST) {
		snprintf(buf, len, "lost");
		return buf;
	}
	ev = decoder_event(d, r);
	if (ev)
		snprintf(buf, len, "%s:%s", ev->system, ev->name);
	else
		snprintf(buf, len, "id:%d", decoder_rec_type(r));
	return buf;
}

char *decoder_format_ts(unsigned long long ts, unsigned long long base, char *buf, size_t len)
{
	unsigned long long t = ts >= base ? ts - base : 0;

	snprintf(buf, len, "%llu.%06llu", t / 1000000000ull, (t % 1000000000ull) / 1000ull);
	return buf;
}

#define JSON_PUT(...)                                                                    \
	do {                                                                             \
		if (pos < len)                                                           \
			pos += (size_t)snprintf(buf + pos, len - pos, __VA_ARGS__);      \
		if (pos >= len)                                                          \
			pos = len - 1;                                                   \
	} while (0)

static size_t json_field(const struct kt_rec *r, struct tep_format_field *f, bool first,
			 char *buf, size_t pos, size_t len)
{
	unsigned long long val;
	const char *data = r->data;
	unsigned offset, size;

	JSON_PUT(first ? "\"" : ",\"");
	pos = json_escape(buf, pos, len, f->name, strlen(f->name));
	JSON_PUT("\":");
	if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) {
		offset = f->offset;
		size = f->size;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			unsigned dyn;

			memcpy(&dyn, data + f->offset, sizeof(dyn));
			offset = dyn & 0xffff;
			size = dyn >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				offset += f->offset + f->size;
		}
		if (offset + size > r->size)
			size = offset < r->size ? r->size - offset : 0;
		if (f->flags & TEP_FIELD_IS_STRING || !(f->flags & TEP_FIELD_IS_ARRAY) ||
		    f->elementsize == 1) {
			JSON_PUT("\"");
			pos = json_escape(buf, pos, len, data + offset, size);
			JSON_PUT("\"");
			return pos;
		}
		JSON_PUT("null");
		return pos;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY || f->size > 8 || f->offset + f->size > r->size) {
		JSON_PUT("null");
		return pos;
	}
	if (tep_read_number_field(f, data, &val)) {
		JSON_PUT("null");
		return pos;
	}
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		long long sv;

		switch (f->size) {
		case 1: sv = (signed char)val; break;
		case 2: sv = (short)val; break;
		case 4: sv = (int)val; break;
		default: sv = (long long)val; break;
		}
		JSON_PUT("%lld", sv);
	} else {
		JSON_PUT("%llu", val);
	}
	return pos;
}

char *decoder_format_json(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len)
{
	char name[128];
	size_t pos = 0;
	int pid;

	if (r->flags & KT_REC_LOST) {
		JSON_PUT("{\"ts\":%llu,\"cpu\":%u,\"event\":\"lost\",\"lost\":%lld}",
			 (unsigned long long)r->ts, r->cpu, (long long)r->lost);
		return buf;
	}
	pid = decoder_rec_pid(r);
	decoder_format_name(d, r, name, sizeof(name));
	JSON_PUT("{\"ts\":%llu,\"cpu\":%u,\"pid\":%d,\"comm\":\"", (unsigned long long)r->ts,
		 r->cpu, pid);
	{
		const char *comm = decoder_comm(d, pid, r->ts);

		pos = json_escape(buf, pos, len, comm, strlen(comm));
	}
	JSON_PUT("\",\"event\":\"%s\",\"fields\":", name);
	decoder_format_json_fields(d, r, buf + pos, len - pos);
	pos += strlen(buf + pos);
	JSON_PUT("}");
	return buf;
}

char *decoder_format_json_fields(struct kt_decoder *d, const struct kt_rec *r, char *buf,
				 size_t len)
{
	struct tep_format_field *f;
	struct tep_event *ev = decoder_event(d, r);
	size_t pos = 0;

	JSON_PUT("{");
	for (f = ev ? ev->format.fields : NULL; f; f = f->next)
		pos = json_field(r, f, f == ev->format.fields, buf, pos, len);
	JSON_PUT("}");
	return buf;
}
