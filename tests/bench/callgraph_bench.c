// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Call-tree builder throughput: replays the records of a lab recording (a real
 * function_graph capture, tests/fixtures/lab/) through callgraph_feed over and over, with a
 * bounded node pool, and prints funcgraph records per second and the memory it held.
 *
 *   callgraph_bench FILE.dat [MILLION-RECORDS] [POOL-NODES]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "backend/callgraph/callgraph.h"
#include "../unit/fixture_dat.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct fixture_dat f;
	struct kt_callgraph *cg;
	struct kt_cg_stats st;
	struct rusage ru;
	double want, t0, secs;
	size_t pool, fed = 0, rounds = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE.dat [MILLION-RECORDS] [POOL-NODES]\n", argv[0]);
		return 2;
	}
	want = argc > 2 ? atof(argv[2]) * 1e6 : 20e6;
	pool = argc > 3 ? (size_t)atol(argv[3]) : 100000;
	if (fixture_dat_open(&f, argv[1]))
		return 1;
	cg = callgraph_new(pool);
	if (callgraph_set_tep(cg, f.tep)) {
		fprintf(stderr, "%s: no funcgraph_entry/funcgraph_exit formats\n", argv[1]);
		return 1;
	}
	t0 = now();
	while ((double)fed < want) {
		for (size_t i = 0; i < f.n; i++)
			fed += callgraph_feed(cg, f.recs[i]);
		rounds++;
	}
	secs = now() - t0;
	callgraph_stats(cg, &st);
	getrusage(RUSAGE_SELF, &ru);
	printf("callgraph: %.2f M funcgraph records/s (%zu records, %zu replays of %zu, %.2f s); "
	       "pool %zu nodes, %llu in use, %llu trees evicted; max RSS %ld MB\n",
	       (double)fed / secs / 1e6, fed, rounds, f.n, secs, pool,
	       (unsigned long long)st.nodes, (unsigned long long)st.evicted_trees,
	       ru.ru_maxrss / 1024);
	callgraph_free(cg);
	fixture_dat_close(&f);
	return 0;
}
