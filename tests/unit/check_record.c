// SPDX-License-Identifier: GPL-2.0-or-later
/* Recordings without a kernel: trace.dat files written from synthetic sched_switch records
 * with the fixture formats, read back through libtracecmd into a paged store. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "backend/tracefs/triggers.h"
#include "util/fileio.h"
#include "record/tdat.h"
#include "record/recording.h"
#include "record/tdat_check.h"
#include "record/tdat_write.h"
#include "check_main.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif
#ifndef CORPUS
#define CORPUS "tests/fuzz/corpus/recording"
#endif

#define NREC 60000 /* several checkpoints and many store chunks' worth */

static char dir[] = "/tmp/ktop-check-record-XXXXXX";
static char path[256];
static char err_buf[512];

static int switch_id(void)
{
	static int id;
	char buf[32] = "";
	FILE *f;

	if (id)
		return id;
	f = fopen(FIXTURES "/tracing/events/sched/sched_switch/id", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	id = atoi(buf);
	return id;
}

/* Record i: pid i + 1, on CPU i % 2; every 5000 records a 200 ms gap, which the page
 * encodes with a time extension. */
static void make_rec(unsigned char *raw, struct kt_rec *r, int i)
{
	unsigned short type = (unsigned short)switch_id();
	int pid = i + 1;

	memset(raw, 0, 64);
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &pid, 4);
	snprintf((char *)raw + 8, 16, "task%d", i % 1000);
	memcpy(raw + 24, &pid, 4);
	memset(r, 0, sizeof(*r));
	r->seq = (uint64_t)i;
	r->ts = 1000000000ull + (uint64_t)i * 1000 + (uint64_t)(i / 5000) * 200000000ull;
	r->cpu = (uint32_t)(i % 2);
	r->data = raw;
	r->size = 64;
}

static const char *no_comm(void *ctx, int pid)
{
	return NULL;
}

/* NREC records, with a loss of 7 events on CPU 1 before record 30001. */
static void write_fixture(void)
{
	struct kt_tdat_meta meta = { .tracing_dir = FIXTURES "/tracing", .kallsyms = "/nonexistent",
				     .ncpus = 2, .clock = "mono", .comm = no_comm };
	struct kt_tdat_writer *w;
	unsigned char raw[64];
	struct kt_rec r, lost = { .cpu = 1, .flags = KT_REC_LOST, .lost = 7 };
	char err[256] = "";
	int i;

	w = tdat_writer_open(path, &meta, err, sizeof(err));
	ck_assert_msg(w != NULL, "%s", err);
	for (i = 0; i < NREC; i++) {
		make_rec(raw, &r, i);
		if (i == 30001) {
			lost.ts = r.ts;
			ck_assert_int_eq(tdat_writer_add(w, &lost, err, sizeof(err)), 0);
		}
		ck_assert_msg(tdat_writer_add(w, &r, err, sizeof(err)) == 0, "%s", err);
	}
	ck_assert_int_eq(tdat_writer_events(w), NREC);
	ck_assert_msg(tdat_writer_close(w, NULL, err, sizeof(err)) == 0, "%s", err);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fixture.dat", dir);
	write_fixture();
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

/* Checks the store's record at, numbered seq from the file's start, against what was
 * written: NREC events plus one marker. */
static void check_rec_at(struct kt_store *st, uint64_t at, uint64_t seq)
{
	unsigned char raw[64];
	struct kt_rec got, want;
	int i = (int)(seq > 30001 ? seq - 1 : seq);

	ck_assert_msg(store_get(st, at, &got), "record %llu missing", (unsigned long long)at);
	if (seq == 30001) {
		ck_assert_uint_eq(got.flags, KT_REC_LOST);
		ck_assert_int_eq(got.lost, 7);
		ck_assert_uint_eq(got.cpu, 1);
		return;
	}
	make_rec(raw, &want, i);
	ck_assert_uint_eq(got.flags, 0);
	ck_assert_uint_eq(got.ts, want.ts);
	ck_assert_uint_eq(got.cpu, want.cpu);
	ck_assert_uint_eq(got.size, 64);
	ck_assert_msg(!memcmp(got.data, raw, 64), "record %llu differs", (unsigned long long)seq);
}

static void check_rec(struct kt_store *st, uint64_t seq)
{
	check_rec_at(st, seq, seq);
}

START_TEST(test_round_trip_paged)
{
	struct kt_store *st = store_new(8u << 20); /* far less than the file */
	struct kt_recording_info info;
	struct kt_recording *rec;
	char err[256] = "";
	uint64_t seq;

	rec = recording_open(path, err, sizeof(err));
	ck_assert_msg(rec != NULL, "%s", err);
	ck_assert_int_eq(recording_attach(rec, st, -1, err, sizeof(err)), 0);
	recording_wait_indexed(rec);
	recording_info(rec, &info);
	ck_assert(info.indexed);
	ck_assert_uint_eq(info.events, NREC);
	ck_assert_uint_eq(info.records, NREC + 1);
	ck_assert_uint_eq(info.lost_marked, 7);
	ck_assert_int_eq(info.ncpus, 2);
	ck_assert_str_eq(info.file.clock, "mono");
	ck_assert_uint_eq(info.file.version, 6);
	store_lock(st);
	ck_assert_uint_eq(store_first(st), 0);
	ck_assert_uint_eq(store_end(st), NREC + 1);
	/* forwards, backwards, and jumps: every way reaches the same records */
	for (seq = 0; seq < NREC + 1; seq++)
		check_rec(st, seq);
	for (seq = NREC + 1; seq-- > 0;)
		if (seq % 7 == 0 || seq > NREC - 100)
			check_rec(st, seq);
	for (seq = 0; seq < 50; seq++)
		check_rec(st, (seq * 7919) % (NREC + 1));
	ck_assert(!store_get(st, NREC + 1, &(struct kt_rec){ 0 }));
	store_unlock(st);
	recording_close(rec);
	store_free(st);
}
END_TEST

/* The tail before the index: the index held after its first records, the records up to
 * the estimated end are the file's last ones, numbered provisionally; scrolling back grows
 * the tail; once the index is through, the shift the store reports maps each provisional
 * number to the real one. */
START_TEST(test_tail_before_index)
{
	struct kt_store *st = store_new(8u << 20);
	struct kt_recording *rec;
	char err[256] = "", gate[300];
	uint64_t est = 0, k, from, end = 0;
	int64_t by;
	FILE *f;

	snprintf(gate, sizeof(gate), "%s/gate", dir);
	f = fopen(gate, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	rec = recording_open(path, err, sizeof(err));
	ck_assert_msg(rec != NULL, "%s", err);
	recording_hold_index(rec, gate);
	ck_assert_int_eq(recording_attach(rec, st, -1, err, sizeof(err)), 0);
	for (k = 0; k < 5000 && !end; k++) { /* the first records, then the gate holds */
		usleep(2000);
		store_lock(st);
		end = store_end(st);
		est = store_browse_end(st);
		store_unlock(st);
	}
	ck_assert_uint_gt(end, 0);
	ck_assert_uint_lt(end, NREC / 2);
	store_lock(st);
	ck_assert(store_estimated(st));
	ck_assert_uint_gt(est, end + 5000);
	/* End, then up record by record: each the file's record as many from its end */
	for (k = 1; k <= 5000; k++)
		check_rec_at(st, est - k, NREC + 1 - k);
	ck_assert_uint_eq(store_shift(st, &from, &by), 0);
	ck_assert_uint_le(store_end(st), est - 5000); /* the index's numbers stop short */
	store_unlock(st);
	unlink(gate);
	recording_wait_indexed(rec);
	store_lock(st);
	ck_assert(!store_estimated(st));
	ck_assert_uint_eq(store_end(st), NREC + 1);
	ck_assert_uint_eq(store_browse_end(st), NREC + 1);
	ck_assert_uint_eq(store_shift(st, &from, &by), 1);
	ck_assert_uint_le(from, est - 5000);
	ck_assert_int_eq(by, (int64_t)(NREC + 1) - (int64_t)est);
	for (k = 1; k <= 5000; k += 97)
		check_rec(st, (uint64_t)((int64_t)(est - k) + by));
	check_rec(st, 0);
	store_unlock(st);
	recording_close(rec);
	store_free(st);
}
END_TEST

START_TEST(test_decoded_like_live)
{
	struct kt_store *st = store_new(8u << 20);
	struct kt_recording *rec;
	struct kt_decoder *d;
	struct kt_rec r;
	char err[256] = "", name[64], info[256];

	rec = recording_open(path, err, sizeof(err));
	ck_assert_msg(rec != NULL, "%s", err);
	ck_assert_int_eq(recording_attach(rec, st, -1, err, sizeof(err)), 0);
	recording_wait_indexed(rec);
	d = decoder_new_offline(recording_tep(rec));
	store_lock(st);
	ck_assert(store_get(st, 3, &r));
	ck_assert_str_eq(decoder_format_name(d, &r, name, sizeof(name)), "sched:sched_switch");
	decoder_format_info(d, &r, info, sizeof(info));
	ck_assert_msg(strstr(info, "prev_comm=task3 prev_pid=4 "), "info: %s", info);
	ck_assert(store_get(st, 30001, &r));
	decoder_format_info(d, &r, info, sizeof(info));
	ck_assert_str_eq(info, "*** CPU 1: lost 7 events ***");
	store_unlock(st);
	ck_assert_uint_eq(recording_type_count(rec, switch_id()), NREC);
	decoder_free(d);
	recording_close(rec);
	store_free(st);
}
END_TEST

/* Every truncation of the file's head is refused with a reason, or (past the head) opens. */
START_TEST(test_truncations_refused)
{
	struct kt_tdat_info info;
	unsigned char *buf = malloc(1 << 16);
	char err[512];
	size_t len, n;
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	ck_assert_uint_gt(len, 4096);
	for (n = 0; n < 4096; n++) {
		err[0] = '\0';
		ck_assert_int_eq(tdat_check_mem(buf, n, "x.dat", &info, err, sizeof(err)), -1);
		ck_assert_msg(!strncmp(err, "x.dat: ", 7) && !strchr(err, '\n'), "%zu: %s", n, err);
	}
	free(buf);
}
END_TEST

/* A small file (one record per CPU) with the given uname; returns its bytes (malloc'd). */
static unsigned char *write_small(const char *file, const char *uname, size_t *len)
{
	struct kt_tdat_meta meta = { .tracing_dir = FIXTURES "/tracing", .kallsyms = "/nonexistent",
				     .uname = uname, .ncpus = 2, .clock = "mono", .comm = no_comm };
	struct kt_tdat_writer *w = tdat_writer_open(file, &meta, err_buf, sizeof(err_buf));
	unsigned char raw[64], *buf = malloc(1 << 16);
	struct kt_rec r;
	FILE *f;
	int i;

	ck_assert_msg(w != NULL, "%s", err_buf);
	for (i = 0; i < 2; i++) {
		make_rec(raw, &r, i);
		ck_assert_msg(tdat_writer_add(w, &r, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
	}
	ck_assert_msg(tdat_writer_close(w, NULL, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
	f = fopen(file, "rb");
	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

/* Where the per-CPU table ends: libtracecmd reads a trace clock size (u64) there. */
static size_t table_end(const unsigned char *buf, size_t len)
{
	const unsigned char *fly = memmem(buf, len, "flyrecord", 10);

	ck_assert_ptr_nonnull(fly);
	return (size_t)(fly - buf) + 10 + 2 * 16;
}

/* A per-CPU table that ends 4 bytes before a page boundary: the trace clock size after it is
 * written (0), not read out of the first CPU's data (refused as corrupt, and a 4 GiB
 * allocation in libtracecmd). */
START_TEST(test_table_at_page_end)
{
	char file[300], uname[5000];
	struct kt_tdat_info info;
	unsigned char *buf;
	uint64_t clock_size;
	size_t len, end, pad;

	snprintf(file, sizeof(file), "%s/page-end.dat", dir);
	buf = write_small(file, "u", &len);
	end = table_end(buf, len);
	free(buf);
	unlink(file);
	pad = (4096 + 4092 - end % 4096) % 4096;
	memset(uname, 'u', pad + 1);
	uname[pad + 1] = '\0';
	buf = write_small(file, uname, &len);
	end = table_end(buf, len);
	ck_assert_uint_eq(end % 4096, 4092);
	memcpy(&clock_size, buf + end, 8);
	ck_assert_uint_eq(clock_size, 0);
	ck_assert_msg(tdat_check(file, &info, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
	ck_assert_int_eq(info.ncpus, 2);
	ck_assert_uint_eq(info.cpus[0].off % 4096, 0);
	ck_assert_uint_ge(info.cpus[0].off, end + 8);
	tdat_info_free(&info);
	free(buf);
	unlink(file);
}
END_TEST

/* Names longer than the 15 bytes of a comm, but for pid 7, which has none. */
static const char *long_comm(void *ctx, int pid)
{
	static char name[64];

	snprintf(name, sizeof(name), "task-%d-with-a-long-name", pid);
	return pid == 7 ? NULL : name;
}

/* The saved_cmdlines section of a file naming 3000 pids (70 KiB of lines, the buffer grown
 * many times): every name, cut to 15 bytes, exactly the size its u64 says; the fixture's
 * line for pid 1234 is not added, ktop named that pid. */
START_TEST(test_cmdlines_section)
{
	struct kt_tdat_meta meta = { .tracing_dir = FIXTURES "/tracing", .kallsyms = "/nonexistent",
				     .ncpus = 2, .clock = "mono", .comm = long_comm };
	char file[300], *want = NULL, *got, *at;
	size_t wantlen = 0, len;
	unsigned char raw[64];
	struct kt_tdat_writer *w;
	struct kt_rec r;
	uint64_t size;
	FILE *m = open_memstream(&want, &wantlen);
	int i;

	snprintf(file, sizeof(file), "%s/names.dat", dir);
	w = tdat_writer_open(file, &meta, err_buf, sizeof(err_buf));
	ck_assert_msg(w != NULL, "%s", err_buf);
	for (i = 0; i < 3000; i++) {
		make_rec(raw, &r, i);
		ck_assert_msg(tdat_writer_add(w, &r, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
		if (i + 1 != 7)
			fprintf(m, "%d %.15s\n", i + 1, long_comm(NULL, i + 1));
	}
	fclose(m);
	ck_assert_msg(tdat_writer_close(w, NULL, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
	got = file_read_all(file, &len);
	ck_assert_ptr_nonnull(got);
	want[wantlen] = '\0';
	ck_assert_str_eq(want + wantlen - 21, "3000 task-3000-with-\n");
	at = memmem(got, len, want, wantlen);
	ck_assert_msg(at && at - got >= 8, "the names are not in the file");
	memcpy(&size, at - 8, 8);
	ck_assert_uint_eq(size, wantlen);
	free(got);
	free(want);
	unlink(file);
}
END_TEST

/* name in dir, with its contents ("" when it cannot be read). */
static const char *contents(const char *name, char *buf, size_t len)
{
	char file[300];

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	if (file_read_small(file, buf, len) < 0)
		buf[0] = '\0';
	return buf;
}

static void put_text(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static struct kt_tdat_writer *open_in_dir(const char *name, bool replace)
{
	struct kt_tdat_meta meta = { .tracing_dir = FIXTURES "/tracing", .kallsyms = "/nonexistent",
				     .ncpus = 2, .clock = "mono", .comm = no_comm,
				     .replace = replace };
	char file[300];

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	err_buf[0] = '\0';
	return tdat_writer_open(file, &meta, err_buf, sizeof(err_buf));
}

/* err_buf is "cannot write DIR/name: why..." */
static void assert_refused(const char *name, const char *why)
{
	char want[400];

	snprintf(want, sizeof(want), "cannot write %s/%s: %s", dir, name, why);
	ck_assert_msg(!strncmp(err_buf, want, strlen(want)) && !strchr(err_buf, '\n'),
		      "%s: %s", name, err_buf);
}

/* What a path already names is not trusted: links, FIFOs and existing files are refused
 * (an existing one of one's own is replaced when asked, only once the new one is whole),
 * new files are 0600, and nothing ktop did not create is removed. */
START_TEST(test_output_path)
{
	struct kt_tdat_writer *w;
	char file[300], old[300], buf[64];
	struct dirent **names;
	struct stat sb;
	bool replace;

	snprintf(file, sizeof(file), "%s/own.dat", dir);
	put_text(file, "old");
	snprintf(old, sizeof(old), "%s/fifo.dat", dir);
	ck_assert_int_eq(mkfifo(old, 0600), 0);
	snprintf(old, sizeof(old), "%s/link.dat", dir);
	ck_assert_int_eq(symlink("own.dat", old), 0);
	snprintf(old, sizeof(old), "%s/dangling.dat", dir);
	ck_assert_int_eq(symlink("nowhere.dat", old), 0);
	for (int k = 0; k < 2; k++) {
		replace = k;
		ck_assert_ptr_null(open_in_dir("fifo.dat", replace));
		assert_refused("fifo.dat", "it is a FIFO, not a regular file: name a new file");
		ck_assert_ptr_null(open_in_dir("link.dat", replace));
		assert_refused("link.dat", "it is a symbolic link");
		ck_assert_ptr_null(open_in_dir("dangling.dat", replace));
		assert_refused("dangling.dat", "it is a symbolic link");
	}
	ck_assert_int_eq(access(file, F_OK), 0);
	snprintf(old, sizeof(old), "%s/nowhere.dat", dir);
	ck_assert_int_ne(access(old, F_OK), 0); /* the dangling link created nothing */
	ck_assert_ptr_null(open_in_dir("own.dat", false));
	assert_refused("own.dat", "it exists: name a new file, or run ktop with --force");
	ck_assert_str_eq(contents("own.dat", buf, sizeof(buf)), "old");

	/* replaced when asked, by a whole new file; an abandoned one leaves it as it was */
	w = open_in_dir("own.dat", true);
	ck_assert_msg(w != NULL, "%s", err_buf);
	tdat_writer_abort(w);
	ck_assert_str_eq(contents("own.dat", buf, sizeof(buf)), "old");
	w = open_in_dir("own.dat", true);
	ck_assert_msg(w != NULL, "%s", err_buf);
	ck_assert_str_eq(contents("own.dat", buf, sizeof(buf)), "old");
	ck_assert_int_eq(tdat_writer_close(w, NULL, err_buf, sizeof(err_buf)), 0);
	ck_assert_int_eq(memcmp(contents("own.dat", buf, sizeof(buf)), TDAT_MAGIC, 3), 0);
	ck_assert_int_eq(stat(file, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);

	/* a new file is 0600; abandoned, it goes, unless another file took its name */
	w = open_in_dir("new.dat", false);
	ck_assert_msg(w != NULL, "%s", err_buf);
	snprintf(file, sizeof(file), "%s/new.dat", dir);
	ck_assert_int_eq(stat(file, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	tdat_writer_abort(w);
	ck_assert_int_ne(access(file, F_OK), 0);
	w = open_in_dir("new.dat", false);
	ck_assert_msg(w != NULL, "%s", err_buf);
	snprintf(old, sizeof(old), "%s/theirs.dat", dir);
	put_text(old, "theirs");
	ck_assert_int_eq(rename(old, file), 0);
	tdat_writer_abort(w);
	ck_assert_str_eq(contents("new.dat", buf, sizeof(buf)), "theirs");

	/* no file beside them was left (the fixture's is the setup's) */
	for (const char *const *n = (const char *const[]){ "own.dat", "new.dat", "fifo.dat",
							   "link.dat", "dangling.dat", NULL };
	     *n; n++) {
		snprintf(file, sizeof(file), "%s/%s", dir, *n);
		ck_assert_int_eq(unlink(file), 0);
	}
	ck_assert_int_eq(scandir(dir, &names, NULL, NULL), 3);
	for (int k = 0; k < 3; k++)
		free(names[k]);
	free(names);
}
END_TEST

/* A page whose event lengths lead back to an earlier event (found by the fuzzer): libtracecmd
 * read its events around forever, and the index never ended. CPU 0 ends there instead, the
 * page named, and the pager reads every record the index numbered. */
START_TEST(test_page_leading_back)
{
	struct kt_store *st = store_new(8u << 20);
	struct kt_recording_info info;
	struct kt_recording *rec;
	struct kt_rec r;
	uint64_t seq;

	rec = recording_open(CORPUS "/event-length-leads-back.dat", err_buf, sizeof(err_buf));
	ck_assert_msg(rec != NULL, "%s", err_buf);
	ck_assert_msg(recording_attach(rec, st, -1, err_buf, sizeof(err_buf)) == 0, "%s", err_buf);
	recording_wait_indexed(rec);
	recording_info(rec, &info);
	ck_assert(info.indexed);
	ck_assert_msg(strstr(info.corrupt_page, "event-length-leads-back.dat: corrupt page at "
				"offset 12288 in CPU 0's data: the event after offset 15816 is "
				"at 14284, not past it"),
		      "%s", info.corrupt_page);
	store_lock(st);
	ck_assert_uint_eq(store_end(st), info.records);
	for (seq = info.records; seq-- > 0;) /* backwards: through the checkpoints */
		ck_assert_msg(store_get(st, seq, &r), "record %llu missing",
			      (unsigned long long)seq);
	store_unlock(st);
	recording_close(rec);
	store_free(st);
}
END_TEST

/* The recording as the app's event source (source.h): what it can do, the line it refuses
 * the rest with (the one the explorer shows), and its figures in the live ones' places. */
START_TEST(test_recording_source)
{
	static const struct {
		unsigned int cap;
		const char *why;
	} refused[] = {
		{ KT_CAP_LIVE, "a recording does not change: nothing to pause" },
		{ KT_CAP_CLEAR, "a recording is read-only: nothing to clear (e hides events)" },
		{ KT_CAP_COUNTERS, "counters need a live kernel: a recording has none" },
		{ KT_CAP_PROBES,
		  "probes need a live kernel: a recording holds the events its probes made" },
		{ KT_CAP_TRACER,
		  "tracers need a live kernel: a recording's tracer ran when it was made" },
		{ KT_CAP_WRITE,
		  "w, A: this is a recording; ktop -i FILE --from A --to B -o PART writes a part" },
		{ KT_CAP_TRIGGERS, "triggers act in a live kernel: a recording has none" },
		{ KT_CAP_STACKS, "stack triggers act in a live kernel: a recording has none" },
		{ KT_CAP_EVENTS, "a recording is read, not captured: this needs a live kernel" },
		{ KT_CAP_SELF,
		  "a recording does not say which threads were ktop's (F comm=NAME narrows rows)" },
	};
	struct kt_options o = { .input_path = path, .memory_bytes = 8u << 20 };
	struct kt_trigger t = { 0 };
	struct kt_source_desc d;
	struct kt_app app;
	char err[256] = "";
	size_t i;

	ck_assert_msg(app_open_recording(&app, &o, err, sizeof(err)) == KT_EXIT_OK, "%s", err);
	/* histograms of its stored events (storehist.h) */
	ck_assert(app_can(&app, KT_CAP_SEEK | KT_CAP_HIDE | KT_CAP_HIST));
	ck_assert_ptr_null(app_refusal(&app, KT_CAP_SEEK | KT_CAP_HIDE | KT_CAP_HIST));
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ck_assert(!app_can(&app, refused[i].cap));
		ck_assert_str_eq(app_refusal(&app, refused[i].cap), refused[i].why);
	}
	/* with what it has, the first it lacks is named */
	ck_assert_str_eq(app_refusal(&app, KT_CAP_SEEK | KT_CAP_COUNTERS), refused[2].why);
	/* what needs a kernel is refused with that line, and nothing happens */
	ck_assert_int_eq(source_enable(app.source, "sched", "sched_switch", true, err,
				       sizeof(err)), -1);
	ck_assert_str_eq(err, refused[8].why);
	ck_assert_int_eq(source_trigger_add(app.source, NULL, &t, err, sizeof(err)), -1);
	ck_assert_str_eq(err, refused[6].why);
	ck_assert_int_eq(source_list_clear(app.source, KT_FTRACE_FILTER, err, sizeof(err)), -1);
	ck_assert_str_eq(err, refused[4].why);
	/* and so are the app's control calls, before they touch anything */
	ck_assert_int_eq(app_set_events(&app, "sched:sched_switch", true, err, sizeof(err)), -1);
	ck_assert_str_eq(err, refused[8].why);
	ck_assert_int_eq(app_set_tracer(&app, "function", err, sizeof(err)), -1);
	ck_assert_str_eq(err, refused[4].why);
	ck_assert_int_eq(app_probe_create(&app, KT_PROBE_KPROBE, "vfs_read", false, NULL, 0, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, refused[3].why);
	ck_assert_ptr_null(app_hist_open(&app, "syscall-latency", err, sizeof(err)));
	ck_assert_str_eq(err, "syscall-latency: BPF histograms run in a live kernel; a recording "
			      "counts field: histograms from its events (H)");
	ck_assert_int_eq(app_pmu_open(&app, err, sizeof(err)), -1);
	ck_assert_str_eq(err, refused[2].why);
	ck_assert_int_eq(source_enabled_count(app.source), 0);
	ck_assert_ptr_null(source_tracer(app.source));
	ck_assert_ptr_null(source_kept_stacks(app.source)); /* written without --profile */
	/* what it is, for the header and the summary */
	source_wait_complete(app.source);
	source_describe(app.source, &d);
	ck_assert_str_eq(d.name, "fixture.dat");
	ck_assert(d.complete);
	ck_assert_uint_eq(d.events, NREC);
	ck_assert_uint_eq(source_type_count(app.source, switch_id()), NREC);
	app_tick(&app);
	ck_assert_uint_eq(app.rstats.events, NREC);
	ck_assert_uint_eq(app.rstats.missed, 7);
	/* what the user chooses to see */
	ck_assert_int_eq(source_type_set_filter(app.source, switch_id(), "== 1",
						err, sizeof(err)), -1);
	ck_assert_str_eq(err, "expected a field name, not '=='");
	/* text that crashes libtraceevent's parser is stopped before it, with one line */
	ck_assert_int_eq(source_type_set_filter(app.source, switch_id(), "prev_pid == 1 )",
						err, sizeof(err)), -1);
	ck_assert_msg(err[0] && !strchr(err, '\n'), "[%s]", err);
	ck_assert_ptr_null(source_type_filter(app.source, switch_id()));
	ck_assert(!source_type_hidden(app.source, switch_id()));
	source_type_set_hidden(app.source, switch_id(), true);
	ck_assert(source_type_hidden(app.source, switch_id()));
	app_close(&app);
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("core"), *bad = tcase_create("corrupt");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_trip_paged);
	tcase_add_test(tc, test_tail_before_index);
	tcase_add_test(tc, test_decoded_like_live);
	tcase_add_test(tc, test_truncations_refused);
	tcase_add_test(tc, test_table_at_page_end);
	tcase_add_test(tc, test_recording_source);
	tcase_add_test(tc, test_output_path);
	tcase_add_test(tc, test_cmdlines_section);
	suite_add_tcase(s, tc);
	tcase_set_timeout(bad, 60); /* a file read around forever fails here */
	tcase_add_test(bad, test_page_leading_back);
	suite_add_tcase(s, bad);
	return s;
}

int main(void)
{
	return check_run(record_suite());
}
