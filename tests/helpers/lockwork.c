// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lockwork - kernel lock contention on demand, for the lock-contention histogram test.
 *
 *   lockwork THREADS N   THREADS threads each map and unmap 16 pages N times
 *
 * mmap(2) and munmap(2) take the process's mmap_lock for writing, so threads of one process
 * doing them at once on more than one CPU wait for each other in the kernel: each wait is a
 * lock:contention_begin and a lock:contention_end of the waiting thread. (A pthread mutex
 * would not do: its waits are futexes, not kernel lock contention.)
 *
 * Prints its pid and flushes, then waits until the file named by $WORKLOAD_GO exists
 * (polled every 10 ms), starts the threads, joins them and exits 0 (1 when a call fails,
 * 2 on a bad command line).
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64
#define PAGES 16

static unsigned long iterations;

static void *churn(void *arg)
{
	size_t len = PAGES * (size_t)sysconf(_SC_PAGESIZE);
	unsigned long i;
	void *p;

	(void)arg;
	for (i = 0; i < iterations; i++) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			 -1, 0);
		if (p == MAP_FAILED || munmap(p, len) < 0) {
			perror("lockwork: mmap/munmap");
			return (void *)1;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *go = getenv("WORKLOAD_GO");
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	pthread_t t[MAX_THREADS];
	unsigned long n;
	void *r;
	int rc = 0;
	char *end;

	if (argc != 3 || (n = strtoul(argv[1], &end, 10)) == 0 || *end || n > MAX_THREADS ||
	    (iterations = strtoul(argv[2], &end, 10)) == 0 || *end) {
		fputs("usage: lockwork THREADS(1-64) N\n", stderr);
		return 2;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	while (go && access(go, F_OK) != 0)
		nanosleep(&ts, NULL);
	for (unsigned long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, churn, NULL)) {
			fputs("lockwork: cannot start a thread\n", stderr);
			return 1;
		}
	for (unsigned long i = 0; i < n; i++)
		if (pthread_join(t[i], &r) || r)
			rc = 1;
	return rc;
}
