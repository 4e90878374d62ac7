// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat structure check. It walks the sections the way a reader would, but reads
 * only sizes, names and the few options it reports, skipping over contents: a 1 GB recording
 * is checked with a few dozen small reads. Version 6 is checked to the per-CPU data; of
 * version 7 the header, the chain of section headers (their contents may be compressed) and
 * the per-CPU data of every buffer its BUFFER options name: on disk as v6's, or compressed
 * (zstd), every chunk unpacked and its pages checked. Either version's instances (BUFFER
 * options with a name) are checked whole.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "backend/ingest/loss.h"
#include "backend/ingest/ringpage.h"
#include "tdat.h"
#include "tdat_check.h"

#define MAX_COUNT 100000u /* events in a system, systems, options: far beyond any kernel */
#define MAX_CPUS 8192
#define TDAT_CHUNK_MAX (64u << 20) /* a compressed chunk unpacked: trace-cmd's are 10 pages */

struct src {
	const unsigned char *mem; /* whole file in memory, or NULL: read fd */
	int fd;
	unsigned long long size, off;
	const char *name;
	const char *section; /* what is being read, for the message */
	const char *buffer; /* the instance whose data is checked (v7's BUFFER option), or "" */
	char *err;
	size_t errlen;
	bool failed;
};

static int fail(struct src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct src *s, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (s->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(s->err, s->errlen, "%s: %s", s->name, what);
	s->failed = true;
	return -1;
}

static int truncated(struct src *s, unsigned long long need)
{
	return fail(s, "truncated in %s at offset %llu (needs %llu bytes, the file has %llu)",
		    s->section, s->off, need, s->size > s->off ? s->size - s->off : 0);
}

/* n bytes at the current offset into buf, advancing. */
static int get(struct src *s, void *buf, size_t n)
{
	ssize_t got;

	if (s->failed)
		return -1;
	if (s->off > s->size || n > s->size - s->off)
		return truncated(s, n);
	if (s->mem) {
		memcpy(buf, s->mem + s->off, n);
	} else {
		got = pread(s->fd, buf, n, (off_t)s->off);
		if (got < 0)
			return fail(s, "cannot read %s at offset %llu: %s", s->section, s->off,
				    strerror(errno));
		if ((size_t)got != n)
			return truncated(s, n);
	}
	s->off += n;
	return 0;
}

static int skip(struct src *s, unsigned long long n)
{
	if (s->failed)
		return -1;
	if (s->off > s->size || n > s->size - s->off)
		return truncated(s, n);
	s->off += n;
	return 0;
}

static uint64_t get_u64(struct src *s)
{
	uint64_t v = 0;

	get(s, &v, sizeof(v));
	return v;
}

static uint32_t get_u32(struct src *s)
{
	uint32_t v = 0;

	get(s, &v, sizeof(v));
	return v;
}

static uint16_t get_u16(struct src *s)
{
	uint16_t v = 0;

	get(s, &v, sizeof(v));
	return v;
}

/* A NUL-terminated string of at most len - 1 bytes. */
static int get_str(struct src *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (get(s, &buf[i], 1) < 0)
			return -1;
		if (!buf[i])
			return 0;
	}
	buf[len - 1] = '\0';
	return fail(s, "corrupt %s at offset %llu: a name longer than %zu bytes", s->section,
		    s->off - len, len - 1);
}

/* A u64 (or u32) size, then that many bytes, skipped. */
static int sized_blob(struct src *s, bool small)
{
	unsigned long long start = s->off;
	uint64_t n = small ? get_u32(s) : get_u64(s);

	if (s->failed)
		return -1;
	if (n > s->size - s->off) {
		s->off = start;
		return fail(s, "truncated in %s at offset %llu (its size says %llu bytes, the "
			       "file has %llu after it)",
			    s->section, start, (unsigned long long)n, s->size - start - (small ? 4 : 8));
	}
	return skip(s, n);
}

static int expect_tag(struct src *s, const char *tag)
{
	char buf[32];
	size_t n = strlen(tag) + 1;
	unsigned long long at = s->off;

	if (get(s, buf, n) < 0)
		return -1;
	if (memcmp(buf, tag, n))
		return fail(s, "corrupt file: no \"%s\" section at offset %llu", tag, at);
	return 0;
}

static void parse_uname(struct kt_tdat_info *info, const char *u)
{
	char sys[64], host[65], rel[128];

	if (sscanf(u, "%63s %64s %127s", sys, host, rel) == 3) {
		snprintf(info->host, sizeof(info->host), "%s", host);
		snprintf(info->kernel, sizeof(info->kernel), "%s", rel);
	}
}

static void parse_clock(struct kt_tdat_info *info, const char *text)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b && b - a - 1 < (long)sizeof(info->clock))
		snprintf(info->clock, sizeof(info->clock), "%.*s", (int)(b - a - 1), a + 1);
}

static void parse_cpustat(struct kt_tdat_info *info, const char *text)
{
	struct kt_cpu_stats st;

	if (loss_parse_stats(text, &st) == 0) {
		info->kernel_lost += loss_total(&st);
		info->have_stats = true;
	}
}

static int buffer_v6(struct src *s, struct kt_tdat_info *info, uint32_t size);
static int buffer_v7(struct src *s, struct kt_tdat_info *info, uint32_t size);

/* v6 options: id u16, size u32, data; DONE ends them (v7's plain options sections too). */
static int options_v6(struct src *s, struct kt_tdat_info *info)
{
	char data[4096];
	unsigned n;
	uint16_t id;
	uint32_t size;

	s->section = "options";
	for (n = 0; n < MAX_COUNT; n++) {
		id = get_u16(s);
		if (s->failed)
			return -1;
		if (id == TDAT_OPT_DONE)
			return 0;
		size = get_u32(s);
		if (s->failed)
			return -1;
		if (size > s->size - s->off)
			return fail(s, "truncated in option %u at offset %llu (its size says %u "
				       "bytes, the file has %llu after it)",
				    id, s->off - 6, size, s->size - s->off);
		if ((id == TDAT_OPT_UNAME || id == TDAT_OPT_TRACECLOCK ||
		     id == TDAT_OPT_CPUSTAT) && size < sizeof(data)) {
			if (get(s, data, size) < 0)
				return -1;
			data[size] = '\0';
			if (id == TDAT_OPT_UNAME)
				parse_uname(info, data);
			else if (id == TDAT_OPT_TRACECLOCK)
				parse_clock(info, data);
			else
				parse_cpustat(info, data);
		} else if (id == TDAT_OPT_BUFFER) {
			if ((info->version == 7 ? buffer_v7 : buffer_v6)(s, info, size) < 0)
				return -1;
		} else if (id == TDAT_OPT_KTOP_STACKS && !info->stacks) {
			info->stacks = malloc((size_t)size + 1);
			if (!info->stacks)
				return fail(s, "out of memory for the profile's %u bytes", size);
			if (get(s, info->stacks, size) < 0)
				return -1;
			info->stacks[size] = '\0';
		} else if (skip(s, size) < 0) {
			return -1;
		}
	}
	return fail(s, "corrupt options at offset %llu: more than %u of them", s->off, MAX_COUNT);
}

/* Every page header of one CPU's data, the first max of them: libtracecmd trusts a page's
 * commit size and would read past the page with a corrupt one, so a page that claims more
 * than a page holds ends the check here. One small read per page. */
static int pages(struct src *s, const struct kt_tdat_info *info, int cpu, uint64_t off,
		 uint64_t size, uint64_t max)
{
	size_t hdr = ringpage_header_size(info->long_size);
	unsigned char h[16];
	char why[128];
	uint64_t p, n;

	for (p = off, n = 0; p < off + size && n < max; p += info->page_size, n++) {
		s->off = p;
		if (get(s, h, hdr) < 0)
			return -1;
		if (ringpage_check(h, info->page_size, info->long_size,
				   __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, why, sizeof(why)) < 0)
			return fail(s, "corrupt page at offset %llu in %s%sCPU %d's data: %s",
				    (unsigned long long)p, s->buffer, *s->buffer ? "'s " : "", cpu,
				    why);
	}
	return 0;
}

/* A compressed chunk's pages, decompressed: each checked as a page on disk. */
static int chunk_pages(struct src *s, const struct kt_tdat_info *info, int cpu,
		       unsigned long long at, const unsigned char *out, uint32_t size)
{
	char why[128];

	for (uint32_t p = 0; p < size; p += info->page_size)
		if (ringpage_check(out + p, info->page_size, info->long_size,
				   __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, why, sizeof(why)) < 0)
			return fail(s, "corrupt page %u of the compressed chunk at offset %llu in "
				       "%s%sCPU %d's data: %s",
				    p / info->page_size, at, s->buffer, *s->buffer ? "'s " : "", cpu,
				    why);
	return 0;
}

/*
 * One CPU's zstd-compressed data (v7): a u32 count of chunks, each a u32 compressed size, a
 * u32 size, then the zstd frame. libtracecmd trusts both sizes and every page it unpacks, so
 * each chunk is unpacked here within its stated size, which must be whole pages (and at
 * most TDAT_CHUNK_MAX), to exactly that size, and all its pages checked: the whole data,
 * as libtracecmd will unpack it anyway.
 */
static int pages_zstd(struct src *s, const struct kt_tdat_info *info, int cpu, uint64_t off)
{
	unsigned char *z = NULL, *out = NULL;
	unsigned long long at;
	uint32_t n, i, zsize = 0, size = 0;
	size_t got;
	int ret = -1;

	s->off = off;
	n = get_u32(s);
	for (i = 0; i < n && !s->failed; i++) {
		at = s->off;
		zsize = get_u32(s);
		size = get_u32(s);
		if (s->failed)
			break;
		if (!size || size % info->page_size || size > TDAT_CHUNK_MAX ||
		    zsize > s->size - s->off) {
			fail(s, "corrupt compressed chunk at offset %llu in %s%sCPU %d's data: it "
				"says %u bytes packed in %u; a chunk holds whole %u-byte pages, at "
				"most %u MiB, and the file has %llu bytes after it",
			     at, s->buffer, *s->buffer ? "'s " : "", cpu, size, zsize,
			     info->page_size, TDAT_CHUNK_MAX >> 20, s->size - s->off);
			break;
		}
		free(z);
		free(out);
		z = malloc(zsize ? zsize : 1);
		out = malloc(size);
		if (!z || !out) {
			fail(s, "out of memory for a compressed chunk of %u bytes", size);
			break;
		}
		if (get(s, z, zsize) < 0)
			break;
		got = ZSTD_decompress(out, size, z, zsize);
		if (ZSTD_isError(got) || got != size) {
			fail(s, "corrupt compressed chunk at offset %llu in %s%sCPU %d's data: it "
				"says it unpacks to %u bytes, zstd says: %s",
			     at, s->buffer, *s->buffer ? "'s " : "", cpu, size,
			     ZSTD_isError(got) ? ZSTD_getErrorName(got) : "fewer");
			break;
		}
		if (chunk_pages(s, info, cpu, at, out, size) < 0)
			break;
	}
	if (!s->failed)
		ret = 0;
	free(z);
	free(out);
	return ret;
}

/* One CPU's data, as the file's compression has it: on disk, its first max pages checked
 * (the reader checks the rest as it goes: tdat_check_page), or compressed, all of it. */
static int cpu_data(struct src *s, const struct kt_tdat_info *info, int cpu, uint64_t off,
		    uint64_t size, uint64_t max)
{
	if (info->version == 7 && !strcmp(info->compression, "zstd"))
		return pages_zstd(s, info, cpu, off);
	if (info->version == 7 && strcmp(info->compression, "none"))
		return fail(s, "compressed with %s: ktop reads trace.dat files compressed with "
			       "zstd (trace-cmd convert --compression zstd)", info->compression);
	return pages(s, info, cpu, off, size, max);
}

/* One CPU's data: inside the file, in whole pages. */
static int cpu_extent(struct src *s, const struct kt_tdat_info *info, int cpu, uint64_t off,
		      uint64_t size)
{
	if (off > s->size || size > s->size - off)
		return fail(s, "truncated: CPU %d's data is at offset %llu, %llu bytes, the "
			       "file has %llu",
			    cpu, (unsigned long long)off, (unsigned long long)size, s->size);
	if (size && (off % info->page_size || size % info->page_size))
		return fail(s, "corrupt per-CPU data: CPU %d's data (offset %llu, %llu "
			       "bytes) is not in whole %u-byte pages",
			    cpu, (unsigned long long)off, (unsigned long long)size,
			    info->page_size);
	return 0;
}

/* The per-CPU data: offsets and sizes inside the file, on page boundaries. */
static int flyrecord(struct src *s, struct kt_tdat_info *info)
{
	unsigned long long table = s->off;
	uint64_t off, size;
	int cpu;

	s->section = "the per-CPU data offsets";
	for (cpu = 0; cpu < info->ncpus; cpu++) {
		off = get_u64(s);
		size = get_u64(s);
		if (s->failed || cpu_extent(s, info, cpu, off, size) < 0)
			return -1;
	}
	/* libtracecmd then reads the trace clock's text, a u64 size first, and allocates that
	 * size plus one before it reads: a corrupt size is a 4 GiB (or a wrapped 0-byte)
	 * buffer. trace-cmd and ktop always write it here. */
	s->section = "the trace clock";
	size = get_u64(s);
	if (s->failed)
		return -1;
	if (size > s->size - s->off)
		return fail(s, "corrupt trace clock at offset %llu: its size says %llu bytes, the "
			       "file has %llu after it",
			    s->off - 8, (unsigned long long)size, s->size - s->off);
	info->cpus = calloc((size_t)info->ncpus + 1, sizeof(*info->cpus));
	if (!info->cpus)
		return fail(s, "out of memory");
	for (cpu = 0; cpu < info->ncpus; cpu++) {
		s->off = table + 16ull * (unsigned)cpu;
		off = get_u64(s);
		size = get_u64(s);
		info->cpus[cpu].off = off;
		info->cpus[cpu].size = size;
		if (pages(s, info, cpu, off, size, TDAT_CHECK_PAGES) < 0)
			return -1;
	}
	return 0;
}

/* The header page format must describe the page layout the data check assumes (and that
 * libtracecmd's reader takes from it): u64 timestamp at 0, the commit word at 8, data after. */
static int header_page(struct src *s, struct kt_tdat_info *info)
{
	unsigned long long at = s->off;
	uint64_t len = get_u64(s);
	char text[1024], name[64], *line, *save = NULL;
	unsigned off, size, want = 8 + info->long_size;
	int seen = 0;

	if (s->failed)
		return -1;
	if (len > s->size - s->off)
		return fail(s, "truncated in the header page at offset %llu (its size says %llu "
			       "bytes, the file has %llu after it)",
			    at, (unsigned long long)len, s->size - s->off);
	if (len >= sizeof(text))
		return fail(s, "corrupt header page at offset %llu: %llu bytes", at,
			    (unsigned long long)len);
	if (get(s, text, len) < 0)
		return -1;
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " field: %*s %63[^;]; offset:%u; size:%u;", name, &off, &size) != 3)
			continue;
		if (!strcmp(name, "timestamp") && off == 0 && size == 8)
			seen |= 1;
		else if (!strcmp(name, "commit") && off == 8 && size == info->long_size)
			seen |= 2;
		else if (!strcmp(name, "data") && off == want)
			seen |= 4;
	}
	if (seen != 7)
		return fail(s, "corrupt header page at offset %llu: not the ring-buffer page "
			       "layout (timestamp, commit, data)", at);
	return 0;
}

static int check_v6(struct src *s, struct kt_tdat_info *info)
{
	char name[256], tag[10];
	uint32_t i, j, n, m;

	s->section = "the header page";
	if (expect_tag(s, "header_page") < 0 || header_page(s, info) < 0)
		return -1;
	s->section = "the event header";
	if (expect_tag(s, "header_event") < 0 || sized_blob(s, false) < 0)
		return -1;
	s->section = "the ftrace event formats";
	n = get_u32(s);
	if (n > MAX_COUNT)
		return fail(s, "corrupt ftrace event formats at offset %llu: %u formats",
			    s->off - 4, n);
	for (i = 0; i < n; i++)
		if (sized_blob(s, false) < 0)
			return -1;
	s->section = "the event formats";
	n = get_u32(s);
	if (n > MAX_COUNT)
		return fail(s, "corrupt event formats at offset %llu: %u systems", s->off - 4, n);
	for (i = 0; i < n && !s->failed; i++) {
		get_str(s, name, sizeof(name));
		m = get_u32(s);
		if (m > MAX_COUNT)
			return fail(s, "corrupt event formats at offset %llu: %u events in %s",
				    s->off - 4, m, name);
		for (j = 0; j < m; j++)
			if (sized_blob(s, false) < 0)
				return -1;
	}
	s->section = "kallsyms";
	sized_blob(s, true);
	s->section = "the printk formats";
	sized_blob(s, true);
	s->section = "the task names";
	sized_blob(s, false);
	s->section = "the CPU count";
	info->ncpus = (int)get_u32(s);
	if (s->failed)
		return -1;
	if (info->ncpus < 0 || info->ncpus > MAX_CPUS)
		return fail(s, "corrupt CPU count at offset %llu: %d", s->off - 4, info->ncpus);
	for (;;) {
		s->section = "the data section tag";
		if (get(s, tag, sizeof(tag)) < 0)
			return -1;
		if (!memcmp(tag, "options  ", 10)) {
			if (options_v6(s, info) < 0)
				return -1;
			continue;
		}
		if (!memcmp(tag, "flyrecord", 10))
			return flyrecord(s, info);
		if (!memcmp(tag, "latency  ", 10))
			return fail(s, "a latency-tracer trace (text, no events to explore)");
		return fail(s, "corrupt file: no options or flyrecord section at offset %llu",
			    s->off - 10);
	}
}

/* One CPU's data of a buffer: compressed (v7), or on disk in whole pages inside the file. */
static int buffer_data(struct src *s, const struct kt_tdat_info *info, int cpu,
		   const struct kt_tdat_cpu *c, uint64_t max)
{
	if (info->version == 7 && strcmp(info->compression, "none"))
		return cpu_data(s, info, cpu, c->off, c->size, max);
	if (cpu_extent(s, info, cpu, c->off, c->size) < 0)
		return -1;
	return cpu_data(s, info, cpu, c->off, c->size, max);
}

/* An instance's buffer (a BUFFER option with a name): all its data checked now, since the
 * reader checks later pages of the top-level buffer's alone. */
static int instance_data(struct src *s, const struct kt_tdat_info *info, const char *name,
		       const struct kt_tdat_cpu *cpus, uint32_t n)
{
	char buffer[300];
	int ret = 0;

	snprintf(buffer, sizeof(buffer), "instance %s", name);
	s->buffer = buffer;
	for (uint32_t i = 0; i < n && !ret; i++)
		ret = buffer_data(s, info, (int)i, &cpus[i], UINT64_MAX);
	s->buffer = "";
	return ret;
}

/* v6's BUFFER option: where an instance's data is (a "flyrecord" tag, then each CPU's data
 * offset and size, as the top level's), and its name. Checked as v7's instances are. */
static int buffer_v6(struct src *s, struct kt_tdat_info *info, uint32_t size)
{
	unsigned long long end = s->off + size;
	struct kt_tdat_cpu *cpus;
	char name[256];
	uint64_t at;
	int cpu, ret;

	s->section = "the buffer option";
	at = get_u64(s);
	if (get_str(s, name, sizeof(name)) < 0)
		return -1;
	if (at > s->size)
		return fail(s, "truncated: instance %s's data is said to be at offset %llu, the "
			       "file has %llu", name, (unsigned long long)at, s->size);
	s->off = at;
	s->section = "an instance's per-CPU data offsets";
	if (expect_tag(s, "flyrecord") < 0)
		return -1;
	cpus = calloc((size_t)info->ncpus + 1, sizeof(*cpus));
	if (!cpus)
		return fail(s, "out of memory");
	for (cpu = 0; cpu < info->ncpus; cpu++) {
		cpus[cpu].off = get_u64(s);
		cpus[cpu].size = get_u64(s);
	}
	ret = s->failed ? -1 : instance_data(s, info, name, cpus, (uint32_t)info->ncpus);
	free(cpus);
	s->off = end;
	s->section = "options";
	return ret;
}

/*
 * v7's BUFFER option: the data section's offset, the buffer's name and clock, the page size,
 * the CPU count, then each CPU's id, data offset and size. The top-level buffer's (name "")
 * are the per-CPU data of info->cpus, checked once the sections are walked; an instance's
 * (trace-cmd record -B) are checked here.
 */
static int buffer_v7(struct src *s, struct kt_tdat_info *info, uint32_t size)
{
	unsigned long long end = s->off + size;
	char name[256], clock[64];
	struct kt_tdat_cpu *cpus;
	uint32_t psize, n, i, id;
	uint64_t off, len;
	int ret;

	s->section = "the buffer option";
	get_u64(s);
	if (get_str(s, name, sizeof(name)) < 0 || get_str(s, clock, sizeof(clock)) < 0)
		return -1;
	psize = get_u32(s);
	n = get_u32(s);
	if (s->failed)
		return -1;
	if (psize != info->page_size || n > MAX_CPUS || 20ull * n > end - s->off)
		return fail(s, "corrupt buffer option at offset %llu: %u CPUs of %u-byte "
			       "pages in %u bytes (the file's pages are %u bytes)",
			    end - size, n, psize, size, info->page_size);
	cpus = calloc((size_t)n + 1, sizeof(*cpus));
	if (!cpus)
		return fail(s, "out of memory");
	for (i = 0; i < n; i++) {
		id = get_u32(s);
		off = get_u64(s);
		len = get_u64(s);
		if (!s->failed && id >= n)
			fail(s, "corrupt buffer option: CPU %u of %u", id, n);
		if (s->failed) {
			free(cpus);
			return -1;
		}
		cpus[id].off = off;
		cpus[id].size = len;
	}
	if (!name[0] && !info->cpus) {
		info->cpus = cpus;
		info->ncpus = (int)n;
	} else {
		ret = instance_data(s, info, name[0] ? name : "\"\" (a second top level)", cpus, n);
		free(cpus);
		if (ret < 0)
			return -1;
	}
	if (end > s->size)
		return truncated(s, end - s->off);
	s->off = end;
	s->section = "options";
	return 0;
}

/* v7's top-level per-CPU data (buffer_v7): on disk, as v6's, its first pages; compressed,
 * all of it, and then none is left for the reader to check (its offsets are not pages'). */
static int cpus_v7(struct src *s, struct kt_tdat_info *info)
{
	bool packed = info->version == 7 && strcmp(info->compression, "none") != 0;
	int cpu;

	if (!info->cpus)
		return 0;
	s->section = "the per-CPU data";
	for (cpu = 0; cpu < info->ncpus; cpu++)
		if (buffer_data(s, info, cpu, &info->cpus[cpu], TDAT_CHECK_PAGES) < 0)
			return -1;
	if (packed) {
		free(info->cpus);
		info->cpus = NULL;
		info->ncpus = 0;
	}
	return 0;
}

/* v7: compression, then a chain of sections starting with the first options section. */
static int check_v7(struct src *s, struct kt_tdat_info *info)
{
	char cver[64];
	uint64_t off, size;
	uint16_t id, flags;
	unsigned n;

	s->section = "the compression header";
	if (get_str(s, info->compression, sizeof(info->compression)) < 0 ||
	    get_str(s, cver, sizeof(cver)) < 0)
		return -1;
	s->section = "the first options offset";
	off = get_u64(s);
	if (s->failed)
		return -1;
	for (n = 0; off && n < MAX_COUNT; n++) {
		if (off > s->size)
			return fail(s, "truncated: a section is said to be at offset %llu, the file "
				       "has %llu", (unsigned long long)off, s->size);
		s->off = off;
		s->section = "a section header";
		id = get_u16(s);
		flags = get_u16(s);
		get_u32(s); /* the section's description string */
		size = get_u64(s);
		if (s->failed)
			return -1;
		if (size > s->size - s->off)
			return fail(s, "truncated in section %u at offset %llu (its size says %llu "
				       "bytes, the file has %llu after it)",
				    id, (unsigned long long)off, (unsigned long long)size, s->size - s->off);
		if (id != TDAT_OPT_DONE || (flags & 1))
			break; /* compressed options: libtracecmd decompresses and walks them */
		/* plain options: walk to DONE, whose 8 bytes are the next section's offset */
		if (options_v6(s, info) < 0)
			return -1;
		s->section = "the next options offset";
		s->off -= 2;
		if (get_u16(s) != TDAT_OPT_DONE)
			return -1;
		get_u32(s);
		off = get_u64(s);
		if (s->failed)
			return -1;
	}
	return cpus_v7(s, info);
}

static int check(struct src *s, struct kt_tdat_info *info)
{
	unsigned char magic[TDAT_MAGIC_LEN], endian, lsize;
	char version[16];
	char *end;

	memset(info, 0, sizeof(*info));
	info->file_size = s->size;
	if (s->size == 0)
		return fail(s, "empty file, not a trace.dat");
	s->section = "the magic";
	if (s->size < TDAT_MAGIC_LEN)
		return fail(s, "not a trace.dat file (%llu bytes, too short for the trace-cmd "
			       "magic; ktop -i reads trace-cmd's trace.dat)", s->size);
	get(s, magic, sizeof(magic));
	if (s->failed)
		return -1;
	if (memcmp(magic, TDAT_MAGIC, TDAT_MAGIC_LEN))
		return fail(s, "not a trace.dat file (no trace-cmd magic at offset 0; ktop -i "
			       "reads trace-cmd's trace.dat)");
	s->section = "the version";
	if (get_str(s, version, sizeof(version)) < 0)
		return -1;
	info->version = (unsigned)strtoul(version, &end, 10);
	if (*end || (info->version != 6 && info->version != 7))
		return fail(s, "trace.dat version '%s' at offset 10: ktop reads versions 6 and 7",
			    version);
	s->section = "the file header";
	get(s, &endian, 1);
	get(s, &lsize, 1);
	info->page_size = get_u32(s);
	info->long_size = lsize;
	if (s->failed)
		return -1;
	if (endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		return fail(s, "recorded on a %s-endian machine: ktop reads only its own byte "
			       "order", endian ? "big" : "little");
	if (lsize != 4 && lsize != 8)
		return fail(s, "corrupt file header at offset %d: a long of %u bytes",
			    TDAT_MAGIC_LEN + (int)strlen(version) + 2, lsize);
	if (info->page_size < 1024 || info->page_size > (64u << 20) ||
	    (info->page_size & (info->page_size - 1)))
		return fail(s, "corrupt file header at offset %llu: a page size of %u bytes",
			    s->off - 4, info->page_size);
	if (info->version == 6)
		return check_v6(s, info);
	return check_v7(s, info);
}

void tdat_info_free(struct kt_tdat_info *info)
{
	free(info->cpus);
	info->cpus = NULL;
	free(info->stacks);
	info->stacks = NULL;
}

int tdat_check_page(int fd, const char *path, const struct kt_tdat_info *info, uint64_t off,
		    int cpu, char *err, size_t errlen)
{
	struct src s = { .fd = fd, .name = path, .err = err, .errlen = errlen,
			 .section = "a page", .buffer = "", .size = info->file_size };

	return pages(&s, info, cpu, off, info->page_size, 1);
}

int tdat_check_mem(const unsigned char *buf, size_t len, const char *name,
		   struct kt_tdat_info *info, char *err, size_t errlen)
{
	struct src s = { .mem = buf, .fd = -1, .size = len, .name = name, .err = err,
			 .errlen = errlen, .section = "the file", .buffer = "" };

	if (check(&s, info) < 0) {
		tdat_info_free(info);
		return -1;
	}
	return 0;
}

int tdat_check(const char *path, struct kt_tdat_info *info, char *err, size_t errlen)
{
	struct src s = { .fd = -1, .name = path, .err = err, .errlen = errlen,
			 .section = "the file", .buffer = "" };
	struct stat sb;
	int ret;

	memset(info, 0, sizeof(*info));
	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(s.fd, &sb) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(s.fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISDIR(sb.st_mode) ? "is a directory, not a trace.dat file" :
					       "not a regular file");
		close(s.fd);
		return -1;
	}
	s.size = (unsigned long long)sb.st_size;
	ret = check(&s, info);
	close(s.fd);
	if (ret < 0)
		tdat_info_free(info);
	return ret;
}
