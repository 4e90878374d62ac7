// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkrecording - writes a deterministic trace.dat without a kernel, with ktop's own writer:
 * sched_switch records in the formats of tests/unit/fixtures, so the bad-file goldens,
 * the fuzz seed, the terminal test and the big-file benchmark need no root.
 *
 *   mkrecording FIXTURES OUT N [NCPUS]
 *
 * Record i: CPU i % NCPUS, pid 1000 + i % 50 named "task<pid>", 10 us apart with a 150 ms
 * gap every 10000 records; a loss of 3 events on CPU 0 before record N/2.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ingest/store.h"
#include "record/tdat_write.h"

static const char *comm_of(void *ctx, int pid)
{
	static char buf[16];

	snprintf(buf, sizeof(buf), "task%d", pid);
	return buf;
}

int main(int argc, char **argv)
{
	char path[4096], idbuf[32] = "", err[512];
	struct kt_tdat_meta meta = { .kallsyms = "/nonexistent", .clock = "mono",
				     .uname = "Linux fixture 6.1.0-fixture #1 SMP x86_64",
				     .comm = comm_of };
	unsigned char raw[64];
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };
	struct kt_rec lost = { .flags = KT_REC_LOST, .lost = 3 };
	struct kt_tdat_writer *w;
	unsigned long long n, i;
	unsigned short type;
	int pid, prio = 120;
	FILE *f;

	if (argc < 4) {
		fputs("usage: mkrecording FIXTURES OUT N [NCPUS]\n", stderr);
		return 2;
	}
	meta.tracing_dir = argv[1];
	n = strtoull(argv[3], NULL, 10);
	meta.ncpus = argc > 4 ? atoi(argv[4]) : 2;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", argv[1]);
	f = fopen(path, "r");
	if (!f || !fgets(idbuf, sizeof(idbuf), f)) {
		perror(path);
		return 1;
	}
	fclose(f);
	type = (unsigned short)atoi(idbuf);
	w = tdat_writer_open(argv[2], &meta, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "mkrecording: %s\n", err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid = 1000 + (int)(i % 50);
		memset(raw, 0, sizeof(raw));
		memcpy(raw, &type, 2);
		memcpy(raw + 4, &pid, 4);
		snprintf((char *)raw + 8, 16, "task%d", pid);
		memcpy(raw + 24, &pid, 4);
		memcpy(raw + 28, &prio, 4);
		snprintf((char *)raw + 40, 16, "task%d", 1000 + (int)((i + 1) % 50));
		r.ts = 1000000000ull + i * 10000ull + (i / 10000) * 150000000ull;
		r.cpu = (uint32_t)(i % (unsigned)meta.ncpus);
		if (i == n / 2) {
			lost.ts = r.ts;
			if (tdat_writer_add(w, &lost, err, sizeof(err)) < 0)
				break;
		}
		if (tdat_writer_add(w, &r, err, sizeof(err)) < 0)
			break;
	}
	if (i < n || tdat_writer_close(w, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "mkrecording: %s\n", err);
		return 1;
	}
	return 0;
}
