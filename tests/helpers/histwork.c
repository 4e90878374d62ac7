// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * histwork - reads and writes of known sizes, for the BPF histogram tests.
 *
 *   histwork read SIZE:N [SIZE:N...]   N read()s of SIZE bytes from /dev/zero, per pair
 *   histwork write SIZE:N [SIZE:N...]  N write()s of SIZE bytes to /dev/null, per pair
 *
 * Prints its pid and flushes, then waits until the file named by $WORKLOAD_GO exists
 * (polled every 10 ms, with access(2), no read), then does exactly the calls asked and
 * exits 0 (1 on a failing or short call, 2 on a bad command line).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE (1 << 20)

static _Noreturn void usage(void)
{
	fputs("usage: histwork read|write SIZE:N [SIZE:N...]\n", stderr);
	exit(2);
}

static void wait_go(void)
{
	const char *go = getenv("WORKLOAD_GO");
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	while (go && access(go, F_OK) != 0)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static char buf[MAX_SIZE];
	unsigned long size, n, i;
	int fd, w, a;
	char *end;

	if (argc < 3)
		usage();
	w = !strcmp(argv[1], "write");
	if (!w && strcmp(argv[1], "read"))
		usage();
	for (a = 2; a < argc; a++) {
		size = strtoul(argv[a], &end, 10);
		if (*end != ':' || size == 0 || size > MAX_SIZE)
			usage();
		n = strtoul(end + 1, &end, 10);
		if (*end)
			usage();
	}
	fd = open(w ? "/dev/null" : "/dev/zero", w ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		perror("histwork: open");
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	wait_go();
	for (a = 2; a < argc; a++) {
		size = strtoul(argv[a], &end, 10);
		n = strtoul(end + 1, NULL, 10);
		for (i = 0; i < n; i++) {
			ssize_t r = w ? write(fd, buf, size) : read(fd, buf, size);

			if (r != (ssize_t)size) {
				fprintf(stderr, "histwork: %s %lu: %s\n", argv[1], size,
					r < 0 ? strerror(errno) : "short");
				return 1;
			}
		}
	}
	return 0;
}
