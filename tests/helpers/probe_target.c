// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A target for the uprobe tests: calls functions a known number of times with known
 * arguments and return values.
 *
 *   probe_target N [GO_FILE]
 *
 * prints its pid, waits until GO_FILE exists (when given), then calls
 * ktop_probe_target(i, "ktop-probe-arg") for i = 0..N-1, which returns i * 3 + 7, and the
 * shared-library function atoi("4242") N times through a pointer the compiler cannot see
 * through, then prints the sum of all returns and exits.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TARGET_STRING "ktop-probe-arg"

/* Not inlined, not cloned, kept in .symtab: what the uprobe is set on. */
__attribute__((noinline, noclone, used)) int ktop_probe_target(int n, const char *s);

__attribute__((noinline, noclone, used)) int ktop_probe_target(int n, const char *s)
{
	/* the string is read, so the call has an effect the optimizer must keep */
	__asm__ volatile("" : : "r"(s) : "memory");
	return n * 3 + 7;
}

int main(int argc, char **argv)
{
	int (*volatile lib_atoi)(const char *) = atoi;
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long sum = 0;
	int n, i;

	if (argc < 2) {
		fprintf(stderr, "usage: probe_target N [GO_FILE]\n");
		return 2;
	}
	n = atoi(argv[1]);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	while (argc > 2 && access(argv[2], F_OK) != 0)
		nanosleep(&ts, NULL);
	for (i = 0; i < n; i++)
		sum += ktop_probe_target(i, TARGET_STRING);
	for (i = 0; i < n; i++)
		sum += lib_atoi("4242");
	printf("%ld\n", sum);
	return 0;
}
