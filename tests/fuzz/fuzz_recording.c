// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for reading recordings: the bytes go through ktop's structure check
 * and, when it passes, through libtracecmd exactly as ktop -i reads a file (index thread,
 * paged store, decoding every record to text). A crash, a sanitizer report or a hang here
 * is a crash of ktop -i on a bad file.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "record/recording.h"
#include "record/tdat_check.h"

#define FUZZ_MAX_RECORDS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_all(struct kt_recording *rec, struct kt_store *st)
{
	struct kt_decoder *d = decoder_new_offline(recording_tep(rec));
	char buf[1024];
	struct kt_rec r;
	uint64_t seq, end;

	if (!d)
		return;
	store_lock(st);
	end = store_end(st);
	for (seq = 0; seq < end && seq < FUZZ_MAX_RECORDS; seq++) {
		if (!store_get(st, seq, &r))
			continue;
		decoder_format_name(d, &r, buf, sizeof(buf));
		decoder_format_info(d, &r, buf, sizeof(buf));
		decoder_format_json(d, &r, buf, sizeof(buf));
		decoder_comm(d, decoder_rec_pid(&r), r.ts);
	}
	/* and backwards, through the checkpoints */
	while (seq-- > 0)
		store_get(st, seq, &r);
	store_unlock(st);
	decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kt_tdat_info info;
	struct kt_recording *rec;
	struct kt_store *st;
	char err[512], path[64];
	int fd;

	if (tdat_check_mem(data, size, "fuzz", &info, err, sizeof(err)) < 0)
		return 0;
	tdat_info_free(&info);
	fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rec = recording_open(path, err, sizeof(err));
	if (rec) {
		st = store_new(8u << 20);
		if (st && recording_attach(rec, st, -1, err, sizeof(err)) == 0) {
			recording_wait_indexed(rec);
			walk_all(rec, st);
		}
		recording_close(rec);
		store_free(st);
	}
	close(fd);
	return 0;
}
