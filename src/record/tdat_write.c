// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat writer. Version 6 layout (trace-cmd.dat(5)):
 *   magic, "6", endianness, sizeof(long), page size
 *   "header_page" size data, "header_event" size data
 *   ftrace formats (count; size data ...), event systems (count; name count formats ...)
 *   kallsyms (u32 size), printk formats (u32 size), saved cmdlines (u64 size)
 *   CPU count, "options  " (id u16, size u32, data ...; DONE), "flyrecord"
 *   per CPU: offset u64, size u64; an empty trace clock (u64 0); then each CPU's pages,
 *   page aligned.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backend/ingest/loss.h"
#include "backend/ingest/store.h"
#include "util/fileio.h"
#include "util/strutil.h"
#include "outfile.h"
#include "tdat.h"
#include "tdat_write.h"

#define PID_LIMIT (1u << 22) /* the kernel's largest pid_max */

struct cpu_out {
	int fd;			/* temporary file: this CPU's pages */
	unsigned char *page;
	uint32_t used;		/* bytes of events after the page header */
	unsigned page_events;	/* events in page */
	unsigned long long page_ts, last_ts;
	int64_t missed;		/* loss before the next page: >0 counted, -1 unknown, 0 none */
	unsigned long long bytes; /* written to fd */
};

struct kt_tdat_writer {
	char *path;
	struct kt_outfile out; /* opened at the start: an unwritable path fails at once */
	off_t reserved;	      /* bytes allocated up front for the sections before the pages */
	int failed;	      /* errno of the first page that could not be written; 0: none */
	struct kt_tdat_meta meta;
	uint32_t page_size;
	struct cpu_out *cpus;
	unsigned char *types; /* bitmap of event ids seen */
	unsigned char *pids;  /* bitmap of pids seen */
	unsigned long long events; /* in pages written, or in the pages being filled */
	char *stacks;	      /* tdat_writer_set_stacks, or NULL */
	long long offset;     /* tdat_writer_set_offset: the OFFSET option's, 0 none */
};

static void bit_set(unsigned char *map, unsigned n)
{
	map[n / 8] |= (unsigned char)(1u << (n % 8));
}

static int bit_test(const unsigned char *map, unsigned n)
{
	return map[n / 8] & (1u << (n % 8));
}

/* The pid bitmap, half a MiB mapped on its own: only the pages of pids seen are touched, and
 * unmapping it at every incident does not move glibc's mmap threshold as freeing a calloc'd
 * one does (after which each incident's came from the heap, zeroed whole). NULL: none. */
static unsigned char *pids_map(void)
{
	void *p = mmap(NULL, PID_LIMIT / 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* An unnamed file in dir (O_TMPFILE), or one in /tmp when dir's file system has none. */
static int temp_fd(const char *dir)
{
	char tmpl[] = "/tmp/ktop-record-XXXXXX";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

void tdat_writer_abort(struct kt_tdat_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; w->cpus && i < w->meta.ncpus; i++) {
		if (w->cpus[i].fd >= 0)
			close(w->cpus[i].fd);
		free(w->cpus[i].page);
	}
	free(w->cpus);
	outfile_discard(&w->out, w->path);
	free(w->types);
	if (w->pids)
		munmap(w->pids, PID_LIMIT / 8);
	free(w->stacks);
	free(w->path);
	free(w);
}

int tdat_writer_set_stacks(struct kt_tdat_writer *w, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return -1;
	free(w->stacks);
	w->stacks = copy;
	return 0;
}

struct out {
	FILE *f;
	bool failed;
	int err; /* errno of the first failure */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, o->f) != n && !o->failed) {
		o->failed = true;
		o->err = errno;
	}
}

/* path's bytes, read through in pieces (procfs and tracefs files report size 0) and put to
 * o when not NULL. Not read whole: kallsyms is megabytes, and a buffer of it grown and freed
 * at every flight-recorder incident raised glibc's mmap threshold and grew the heap. */
static unsigned long long copy_file(const char *path, struct out *o)
{
	char buf[16384];
	unsigned long long n = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		if (o)
			put(o, buf, (size_t)got);
		n += (unsigned long long)got;
	}
	close(fd);
	return n;
}

static size_t file_bytes(const char *path)
{
	return (size_t)copy_file(path, NULL);
}

/*
 * The sections before the pages are written last, when the pages have taken the disk: their
 * room is allocated now. kallsyms and printk formats as they are now, saved_cmdlines twice
 * (ktop's own names come first), and 1 MiB for the event formats and the options.
 */
static int reserve_header(struct kt_tdat_writer *w)
{
	char path[4096];
	off_t size = 1 << 20;
	int ret;

	size += (off_t)file_bytes(w->meta.kallsyms ? w->meta.kallsyms : "/proc/kallsyms");
	snprintf(path, sizeof(path), "%s/printk_formats", w->meta.tracing_dir);
	size += (off_t)file_bytes(path);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", w->meta.tracing_dir);
	size += 2 * (off_t)file_bytes(path);
	w->reserved = size;
	ret = fallocate(w->out.fd, FALLOC_FL_KEEP_SIZE, 0, size);
	if (ret < 0 && errno == EOPNOTSUPP) {
		w->reserved = 0; /* a file system without it: a full disk may then lose the file */
		return 0;
	}
	return ret;
}

struct kt_tdat_writer *tdat_writer_open(const char *path, const struct kt_tdat_meta *meta,
					char *err, size_t errlen)
{
	struct kt_tdat_writer *w = calloc(1, sizeof(*w));
	char *dir = str_dirname(path);
	int i;

	if (!w || !dir)
		goto nomem;
	w->out.fd = -1; /* before any goto: the abort closes fds that are not -1 */
	w->meta = *meta;
	w->page_size = (uint32_t)getpagesize();
	w->cpus = calloc((size_t)meta->ncpus, sizeof(*w->cpus));
	for (i = 0; w->cpus && i < meta->ncpus; i++)
		w->cpus[i].fd = -1;
	w->path = strdup(path);
	w->types = calloc(65536 / 8, 1);
	w->pids = pids_map();
	if (!w->path || !w->cpus || !w->types || !w->pids)
		goto nomem;
	if (outfile_open(&w->out, path, meta->replace, err, errlen) < 0)
		goto fail;
	if (reserve_header(w) < 0) {
		snprintf(err, errlen, "cannot write %s: %s (its header needs %lld MiB)", path,
			 strerror(errno), (long long)(w->reserved >> 20) + 1);
		goto fail;
	}
	for (i = 0; i < meta->ncpus; i++) {
		struct cpu_out *c = &w->cpus[i];

		c->fd = temp_fd(dir);
		c->page = calloc(1, w->page_size);
		if (c->fd < 0 || !c->page) {
			snprintf(err, errlen, "cannot write %s: temporary file: %s", path,
				 strerror(errno));
			goto fail;
		}
	}
	free(dir);
	return w;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	free(dir);
	tdat_writer_abort(w);
	return NULL;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A page could not be written (a full disk, an I/O error): nothing more is appended, and the
 * file is made of the pages written so far. The pages being filled are dropped, with their
 * events, and so is whatever part of a page reached a temporary file.
 */
static void writer_stop(struct kt_tdat_writer *w, int err)
{
	int i;

	w->failed = err;
	for (i = 0; i < w->meta.ncpus; i++) {
		struct cpu_out *c = &w->cpus[i];

		/* its space back; should that fail, the copy reads only the whole pages anyway */
		int r = ftruncate(c->fd, (off_t)c->bytes);

		(void)r;
		w->events -= c->page_events;
		c->page_events = 0;
		c->used = 0;
		c->missed = 0;
	}
}

/* Writes the page as the kernel would have: header, events, the missed count after the
 * events when known, zeros to the end. */
static int page_flush(struct kt_tdat_writer *w, struct cpu_out *c)
{
	uint64_t commit = c->used;
	uint64_t ts = c->page_ts;

	if (!c->used)
		return 0;
	if (c->missed) {
		commit |= TDAT_PAGE_MISSED_EVENTS;
		if (c->missed > 0) {
			uint64_t n = (uint64_t)c->missed;

			commit |= TDAT_PAGE_MISSED_STORED;
			memcpy(c->page + TDAT_PAGE_HDR + c->used, &n, sizeof(n));
		}
		c->missed = 0;
	}
	memcpy(c->page, &ts, sizeof(ts));
	memcpy(c->page + 8, &commit, sizeof(commit));
	if (write_all(c->fd, c->page, w->page_size) < 0) {
		writer_stop(w, errno ? errno : EIO);
		return -1;
	}
	c->bytes += w->page_size;
	memset(c->page, 0, w->page_size);
	c->used = 0;
	c->page_events = 0;
	return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

int tdat_writer_add(struct kt_tdat_writer *w, const struct kt_rec *r, char *err, size_t errlen)
{
	/* room after the events for the missed-events count */
	uint32_t room = w->page_size - TDAT_PAGE_HDR - 8;
	uint32_t dlen = (r->size + 3) & ~3u, need;
	unsigned long long delta;
	struct cpu_out *c;
	unsigned char *p;
	int pid;

	if (w->failed) {
		errno = w->failed;
		goto io;
	}
	if (r->cpu >= (uint32_t)w->meta.ncpus)
		return 0;
	c = &w->cpus[r->cpu];
	if (r->flags & KT_REC_LOST) {
		/* The gap sits before the next event: that event starts a page with the flag. */
		if (page_flush(w, c) < 0)
			goto io;
		if (r->lost < 0 || c->missed < 0)
			c->missed = -1;
		else
			c->missed += r->lost;
		return 0;
	}
	if (r->size < 8 || dlen + 8 > room)
		return 0; /* no common header, or larger than a page: not an event */
	if (c->used && r->ts < c->last_ts && page_flush(w, c) < 0)
		goto io;
	delta = c->used ? r->ts - c->last_ts : 0;
	need = 4 + (dlen > TDAT_TYPE_LEN_MAX_DATA * 4 ? 4 : 0) + dlen;
	if (delta >> TDAT_DELTA_BITS)
		need += 8;
	if (c->used + need > room) {
		if (page_flush(w, c) < 0)
			goto io;
		delta = 0;
		need = 4 + (dlen > TDAT_TYPE_LEN_MAX_DATA * 4 ? 4 : 0) + dlen;
	}
	if (!c->used)
		c->page_ts = r->ts;
	p = c->page + TDAT_PAGE_HDR + c->used;
	if (delta >> TDAT_DELTA_BITS) {
		put_u32(p, TDAT_TYPE_TIME_EXTEND |
			   (uint32_t)(delta & ((1u << TDAT_DELTA_BITS) - 1)) << 5);
		put_u32(p + 4, (uint32_t)(delta >> TDAT_DELTA_BITS));
		p += 8;
		delta = 0;
	}
	if (dlen > TDAT_TYPE_LEN_MAX_DATA * 4) {
		put_u32(p, (uint32_t)delta << 5);
		put_u32(p + 4, dlen + 4);
		p += 8;
	} else {
		put_u32(p, dlen / 4 | (uint32_t)delta << 5);
		p += 4;
	}
	memcpy(p, r->data, r->size);
	c->used += need;
	c->page_events++;
	c->last_ts = r->ts;

	bit_set(w->types, *(const uint16_t *)r->data);
	memcpy(&pid, (const unsigned char *)r->data + 4, sizeof(pid));
	if (pid > 0 && (unsigned)pid < PID_LIMIT)
		bit_set(w->pids, (unsigned)pid);
	w->events++;
	return 0;
io:
	snprintf(err, errlen, "cannot write %s: %s", w->path, strerror(errno));
	return -1;
}

void tdat_writer_set_offset(struct kt_tdat_writer *w, long long ns)
{
	w->offset = ns;
}

unsigned long long tdat_writer_events(const struct kt_tdat_writer *w)
{
	return w->events;
}

/* ---- assembling the file ---------------------------------------------------------------- */

static void put_u16v(struct out *o, uint16_t v)
{
	put(o, &v, sizeof(v));
}

static void put_u32v(struct out *o, uint32_t v)
{
	put(o, &v, sizeof(v));
}

static void put_u64v(struct out *o, uint64_t v)
{
	put(o, &v, sizeof(v));
}

static void put_str0(struct out *o, const char *s)
{
	put(o, s, strlen(s) + 1);
}

/* A file's contents, with a u64 size in front (or a u32 one with small): copied through, and
 * the size written over its place after. An unreadable file is written empty: a reader copes
 * with a missing kallsyms, not with a broken layout. */
static void put_file(struct out *o, const char *path, bool small)
{
	off_t at = ftello(o->f), end;
	unsigned long long len;

	if (small)
		put_u32v(o, 0);
	else
		put_u64v(o, 0);
	len = copy_file(path, o);
	end = ftello(o->f);
	if (at < 0 || end < 0 || fseeko(o->f, at, SEEK_SET) < 0)
		goto fail;
	if (small)
		put_u32v(o, (uint32_t)len);
	else
		put_u64v(o, len);
	if (fseeko(o->f, end, SEEK_SET) == 0)
		return;
fail:
	if (!o->failed) {
		o->failed = true;
		o->err = errno;
	}
}

struct fmt {
	char *system, *path;
};

static int fmt_cmp(const void *a, const void *b)
{
	const struct fmt *x = a, *y = b;

	return strcmp(x->system, y->system);
}

/* The "ID:" line of the event's format; 0 when it has none. */
static int format_id(struct kt_tdat_writer *w, const char *system, const char *event)
{
	char path[4096], *text, *line;
	int id = 0;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", w->meta.tracing_dir, system,
		 event);
	text = file_read_all(path, NULL);
	line = text ? strstr(text, "\nID: ") : NULL;
	if (line)
		id = atoi(line + 5);
	free(text);
	return id;
}

/* The formats of the event ids seen, from events/<system>/<event>/{id,format}. */
static struct fmt *formats_used(struct kt_tdat_writer *w, size_t *n)
{
	char path[4096], idbuf[32];
	struct dirent *sd, *ed;
	struct fmt *list = NULL, *grown;
	DIR *sdir, *edir;
	int id;

	*n = 0;
	snprintf(path, sizeof(path), "%s/events", w->meta.tracing_dir);
	sdir = opendir(path);
	if (!sdir)
		return NULL;
	while ((sd = readdir(sdir))) {
		if (sd->d_name[0] == '.' || sd->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", w->meta.tracing_dir, sd->d_name);
		edir = opendir(path);
		if (!edir)
			continue;
		while ((ed = readdir(edir))) {
			if (ed->d_name[0] == '.' || ed->d_type != DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", w->meta.tracing_dir,
				 sd->d_name, ed->d_name);
			if (file_read_small(path, idbuf, sizeof(idbuf)) > 0)
				id = atoi(idbuf);
			else /* ftrace's own (kernel_stack, ...): only their format says */
				id = format_id(w, sd->d_name, ed->d_name);
			if (id <= 0 || id > 65535 || !bit_test(w->types, (unsigned)id))
				continue;
			grown = realloc(list, (*n + 1) * sizeof(*list));
			if (!grown)
				break;
			list = grown;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
				 w->meta.tracing_dir, sd->d_name, ed->d_name);
			list[*n].system = strdup(sd->d_name);
			list[*n].path = strdup(path);
			(*n)++;
		}
		closedir(edir);
	}
	closedir(sdir);
	if (*n) /* a recording of no event (a profile's alone) has no format to sort */
		qsort(list, *n, sizeof(*list), fmt_cmp);
	return list;
}

static void put_formats(struct kt_tdat_writer *w, struct out *o)
{
	size_t n, i, j, nftrace = 0, nsys = 0;
	struct fmt *f = formats_used(w, &n);

	for (i = 0; i < n; i++) {
		if (!strcmp(f[i].system, "ftrace"))
			nftrace++;
		else if (!i || strcmp(f[i].system, f[i - 1].system))
			nsys++;
	}
	put_u32v(o, (uint32_t)nftrace);
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].system, "ftrace"))
			put_file(o, f[i].path, false);
	put_u32v(o, (uint32_t)nsys);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(f[j].system, f[i].system); j++)
			;
		if (!strcmp(f[i].system, "ftrace"))
			continue;
		put_str0(o, f[i].system);
		put_u32v(o, (uint32_t)(j - i));
		for (; i < j; i++)
			put_file(o, f[i].path, false);
	}
	for (i = 0; i < n; i++) {
		free(f[i].system);
		free(f[i].path);
	}
	free(f);
}

/* "pid comm" lines: ktop's own names for the pids seen, then the kernel's saved_cmdlines
 * for the pids ktop could not name. A memory stream grows as it is written: no capacity is
 * kept by hand, and out of memory loses names, never writes past a buffer. */
static void put_cmdlines(struct kt_tdat_writer *w, struct out *o)
{
	char path[4096], *saved, *line, *save = NULL, *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const char *name;
	unsigned pid;
	int p;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", w->meta.tracing_dir);
	saved = file_read_all(path, NULL);
	for (pid = 1; m && pid < PID_LIMIT; pid++) {
		if (!bit_test(w->pids, pid))
			continue;
		name = w->meta.comm ? w->meta.comm(w->meta.comm_ctx, (int)pid) : NULL;
		if (name)
			fprintf(m, "%u %.15s\n", pid, name);
		else
			w->pids[pid / 8] &= (unsigned char)~(1u << (pid % 8)); /* unnamed */
	}
	for (line = saved && m ? strtok_r(saved, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		p = atoi(line);
		if (p > 0 && (unsigned)p < PID_LIMIT && !bit_test(w->pids, (unsigned)p))
			fprintf(m, "%s\n", line);
	}
	if (m && fclose(m) != 0)
		len = 0;
	put_u64v(o, buf ? len : 0);
	put(o, buf, buf ? len : 0);
	free(buf);
	free(saved);
}

static void put_option(struct out *o, uint16_t id, const void *data, uint32_t size)
{
	put_u16v(o, id);
	put_u32v(o, size);
	put(o, data, size);
}

static void put_option_str(struct out *o, uint16_t id, const char *s)
{
	put_option(o, id, s, (uint32_t)strlen(s) + 1);
}

static void put_options(struct kt_tdat_writer *w, struct out *o,
			const struct kt_cpu_stats *stats)
{
	char buf[1024];
	struct utsname u;
	uint32_t ncpus = (uint32_t)w->meta.ncpus;
	int i;

	put(o, "options  ", 10);
	if (w->meta.uname) {
		put_option_str(o, TDAT_OPT_UNAME, w->meta.uname);
	} else if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version, u.machine);
		put_option_str(o, TDAT_OPT_UNAME, buf);
	}
	/* trace-cmd writes the trace_clock file, the clock in use in brackets */
	snprintf(buf, sizeof(buf), "[%s]\n", w->meta.clock ? w->meta.clock : "mono");
	put_option_str(o, TDAT_OPT_TRACECLOCK, buf);
	put_option(o, TDAT_OPT_CPUCOUNT, &ncpus, sizeof(ncpus));
	put_option_str(o, TDAT_OPT_VERSION, PACKAGE_STRING);
	if (w->stacks)
		put_option_str(o, TDAT_OPT_KTOP_STACKS, w->stacks);
	if (w->offset) { /* libtracecmd reads it with strtoll(, 0) */
		snprintf(buf, sizeof(buf), "%lld", w->offset);
		put_option_str(o, TDAT_OPT_OFFSET, buf);
	}
	for (i = 0; stats && i < w->meta.ncpus; i++) {
		snprintf(buf, sizeof(buf),
			 "CPU: %d\nentries: %llu\noverrun: %llu\ncommit overrun: %llu\n"
			 "bytes: %llu\ndropped events: %llu\nread events: %llu\n",
			 i, (unsigned long long)stats[i].entries,
			 (unsigned long long)stats[i].overrun,
			 (unsigned long long)stats[i].commit_overrun,
			 (unsigned long long)stats[i].bytes,
			 (unsigned long long)stats[i].dropped_events,
			 (unsigned long long)stats[i].read_events);
		put_option_str(o, TDAT_OPT_CPUSTAT, buf);
	}
	put_u16v(o, TDAT_OPT_DONE);
}

/* Appends c's pages to out_fd. Each piece's room in the temporary file is given back before
 * the piece is written out: a full disk holds the pages once, not twice. */
static int copy_cpu(struct kt_tdat_writer *w, struct cpu_out *c, int out_fd)
{
	unsigned char buf[65536];
	off_t pos = 0;
	ssize_t n;
	size_t len;

	while ((unsigned long long)pos < c->bytes) {
		len = c->bytes - (unsigned long long)pos < sizeof(buf) ?
			      (size_t)(c->bytes - (unsigned long long)pos) : sizeof(buf);
		n = pread(c->fd, buf, len, pos);
		if (n <= 0)
			return -1;
		/* where punching holes is not supported the copy needs room of its own */
		(void)fallocate(c->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, pos, n);
		if (write_all(out_fd, buf, (size_t)n) < 0)
			return -1;
		pos += n;
	}
	return 0;
}
int tdat_writer_close(struct kt_tdat_writer *w, const struct kt_cpu_stats *stats, char *err,
		      size_t errlen)
{
	struct out o = { 0 };
	char path[4096];
	unsigned long long off;
	long pos;
	int i, fd;
	int ret = 0;
	unsigned char endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	for (i = 0; i < w->meta.ncpus && !w->failed; i++)
		page_flush(w, &w->cpus[i]);
	ret = w->failed ? 1 : 0;
	errno = 0;
	fd = w->out.fd;
	if (lseek(fd, 0, SEEK_SET) < 0)
		goto io;
	o.f = fdopen(fd, "w");
	if (!o.f)
		goto io;
	w->out.fd = -1; /* o.f's now */
	put(&o, TDAT_MAGIC, TDAT_MAGIC_LEN);
	put(&o, "6", 2);
	put(&o, &endian, 1);
	put(&o, (unsigned char[]){ sizeof(long) }, 1);
	put_u32v(&o, w->page_size);
	put_str0(&o, "header_page");
	snprintf(path, sizeof(path), "%s/events/header_page", w->meta.tracing_dir);
	put_file(&o, path, false);
	put_str0(&o, "header_event");
	snprintf(path, sizeof(path), "%s/events/header_event", w->meta.tracing_dir);
	put_file(&o, path, false);
	put_formats(w, &o);
	put_file(&o, w->meta.kallsyms ? w->meta.kallsyms : "/proc/kallsyms", true);
	snprintf(path, sizeof(path), "%s/printk_formats", w->meta.tracing_dir);
	put_file(&o, path, true);
	put_cmdlines(w, &o);
	put_u32v(&o, (uint32_t)w->meta.ncpus);
	put_options(w, &o, stats);
	put(&o, "flyrecord", 10);
	pos = ftell(o.f);
	if (pos < 0)
		goto io;
	off = ((unsigned long long)pos + 16ull * (unsigned)w->meta.ncpus + 8 + w->page_size - 1) /
	      w->page_size * w->page_size;
	for (i = 0; i < w->meta.ncpus; i++) {
		put_u64v(&o, off);
		put_u64v(&o, w->cpus[i].bytes);
		off += w->cpus[i].bytes;
	}
	/* libtracecmd reads a trace clock here whenever the file has the trace clock option.
	 * Ours is in the option already (a second one would be parsed, and leaked, again), so
	 * its size is 0 here, written rather than left to whatever follows the table. */
	put_u64v(&o, 0);
	pos = ftell(o.f);
	if (pos < 0)
		goto io;
	while (pos++ % (long)w->page_size)
		put(&o, "", 1);
	if (o.failed || fflush(o.f) != 0)
		goto io;
	for (i = 0; i < w->meta.ncpus; i++)
		if (copy_cpu(w, &w->cpus[i], fd) < 0)
			goto io;
	/* an older, longer file's end goes, and the room reserved past ours */
	if (ftruncate(fd, (off_t)off) < 0)
		goto io;
	if (w->reserved > (off_t)off)
		(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
				w->reserved - (off_t)off);
	if (fclose(o.f) != 0) {
		o.f = NULL;
		goto io;
	}
	o.f = NULL;
	if (outfile_commit(&w->out, w->path) < 0)
		goto io;
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s; the file holds the first %llu events",
			 w->path, strerror(w->failed), w->events);
	tdat_writer_abort(w);
	return ret;
io:
	i = o.err ? o.err : errno ? errno : w->failed ? w->failed : EIO;
	snprintf(err, errlen, "cannot write %s: %s; the file could not be finished%s", w->path,
		 strerror(i), w->out.tmp ? ": the one there is left as it was" : " and was removed");
	if (o.f)
		fclose(o.f);
	tdat_writer_abort(w); /* a file trace-cmd cannot read is worse than none */
	return -1;
}
