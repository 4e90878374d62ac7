// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rusage - the CPU time a command really ran, for make bench.
 *
 *   rusage FILE COMMAND [ARG...]
 *
 * Runs COMMAND (stdin, stdout and stderr its own) and writes to FILE one line:
 *
 *   cpu_us=<user + system microseconds> maxrss_kb=<peak resident size>
 *
 * from wait4(), so every thread of COMMAND and every child it waited for is counted. It
 * exits with COMMAND's status (128 + the signal that ended it).
 *
 * Why not perf stat's task-clock: on a virtual machine task-clock counts the time the host
 * took the vCPU away (steal) while the task was on it. Here that was 1.1 s of a 1.7 s
 * task-clock in one 7 s run, and it moved the bench's CPU-per-event ratios by 30 % from one
 * run to the next. The scheduler's runtime, which rusage reports, leaves steal out
 * (CONFIG_PARAVIRT_TIME_ACCOUNTING), and it is the same figure on bare metal.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	long long us;
	FILE *out;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: rusage FILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rusage: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "rusage: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "rusage: wait4: %s\n", strerror(errno));
			return 2;
		}
	}
	us = (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
	     (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	out = fopen(argv[1], "w");
	if (!out || fprintf(out, "cpu_us=%lld maxrss_kb=%ld\n", us, ru.ru_maxrss) < 0 ||
	    fclose(out) == EOF) {
		fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
