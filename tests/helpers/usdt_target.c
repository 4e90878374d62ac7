// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A target for the USDT tests: one semaphore-guarded probe (<sys/sdt.h>), fired a known
 * number of times with known arguments.
 *
 *   usdt_target N [GO_FILE]
 *
 * prints its pid, waits until GO_FILE exists (when given), then for i = 0..N-1 fires
 * ktop_test:hit(i * 7 - 3, 1000000000000 + i, "ktop-usdt-<i>") when its semaphore says a
 * tracer is attached (KTOP_TEST_HIT_ENABLED()), and prints how many times the guard was
 * open and the semaphore's value at the end. Last, ktop_test:twice (no semaphore) fires at
 * its two sites, with 1 and 2 (usdt_twice.c, in libktop_usdt_twice.so).
 */
#include "config.h"

#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

/* what dtrace -h would generate: the semaphore the kernel counts up (ref_ctr_offset) */
__extension__ unsigned short ktop_test_hit_semaphore __attribute__((unused))
	__attribute__((section(".probes")));
#define KTOP_TEST_HIT_ENABLED() __builtin_expect(ktop_test_hit_semaphore, 0)

/* usdt_twice.c, a shared library: ktop_test:twice, without a semaphore */
void ktop_usdt_twice(void);

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	char text[32];
	int n, i, open = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: usdt_target N [GO_FILE]\n");
		return 2;
	}
	n = atoi(argv[1]);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	while (argc > 2 && access(argv[2], F_OK) != 0)
		nanosleep(&ts, NULL);
	for (i = 0; i < n; i++) {
		int a = i * 7 - 3;
		long b = 1000000000000L + i;

		snprintf(text, sizeof(text), "ktop-usdt-%d", i);
		if (KTOP_TEST_HIT_ENABLED()) {
			open++;
			STAP_PROBE3(ktop_test, hit, a, b, text);
		}
	}
	ktop_usdt_twice();
	printf("guard %d semaphore %u\n", open, (unsigned)ktop_test_hit_semaphore);
	return 0;
}
