// SPDX-License-Identifier: GPL-2.0-or-later
/* make bench: the time the symbolizer takes to name user stacks and fold them into a
 * stack tree, everything included (kallsyms, the processes' maps, the ELF files' symbols).
 * Reads one stack a line on stdin, "PID ADDR ADDR ..." (hex, leaf first, as perf script
 * -F pid,ip lists a callchain), the processes still running; prints
 * "stacks=N frames=F unresolved=U seconds=S". */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/stacks/stacks.h"
#include "backend/symbols/symbolize.h"

#define MAX_FRAMES 256
#define NAME_LEN 256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	static char names[MAX_FRAMES][NAME_LEN], line[1 << 16];
	struct kt_frame frames[MAX_FRAMES];
	uint64_t addrs[MAX_FRAMES], nframes = 0;
	struct kt_symbolizer *sym;
	struct kt_stacks *st;
	struct kt_symstats ss;
	size_t nstacks = 0;
	char err[256];
	double t0;

	t0 = now();
	sym = symbolizer_new(err, sizeof(err));
	st = stacks_new(KT_STACK_SAMPLES);
	if (!sym || !st) {
		fprintf(stderr, "symbolize_bench: %s\n", sym ? "out of memory" : err);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *end;
		int pid = (int)strtol(p, &end, 10);
		size_t n = 0, i, k = 1;

		if (end == p)
			continue;
		for (p = end; n < MAX_FRAMES - 1; p = end) {
			addrs[n] = strtoull(p, &end, 16);
			if (end == p)
				break;
			n++;
		}
		snprintf(names[0], NAME_LEN, "pid-%d", pid);
		frames[0] = (struct kt_frame){ names[0], KT_FRAME_TASK };
		/* root first; return addresses named by their call, as the profile does */
		for (i = n; i-- > 0; k++)
			symbolizer_user(sym, pid, i ? addrs[i] - 1 : addrs[i], &frames[k], names[k],
					NAME_LEN);
		if (stacks_add(st, frames, k, 1) < 0)
			return 1;
		nstacks++;
		nframes += n;
	}
	symbolizer_stats(sym, &ss);
	printf("stacks=%zu frames=%" PRIu64 " unresolved=%" PRIu64 " files=%zu seconds=%.3f\n",
	       nstacks, nframes, ss.unresolved, ss.files, now() - t0);
	stacks_free(st);
	symbolizer_free(sym);
	return 0;
}
