// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hist_floor - loads tests/bench/hist_floor.bpf.o, the floor of the histogram bench, or
 * hist_hooks*.bpf.o, its hooks alone.
 *
 *   hist_floor OBJECT
 *
 * Loads and attaches the object's two programs, prints "attached" and waits for SIGINT or
 * SIGTERM; then prints "count=<n>", the syscalls its floor_slots map holds (summed over the
 * CPUs), so the bench can see the programs ran. Exit status 1 when it cannot load or attach.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "src/probes/hist.h"


static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The syscalls counted in every bucket on every CPU. */
static unsigned long long floor_count(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "floor_slots");
	int ncpus = libbpf_num_possible_cpus(), fd, c;
	unsigned long long total = 0, *v;
	unsigned int s;

	if (!map || ncpus <= 0)
		return 0;
	fd = bpf_map__fd(map);
	v = calloc((size_t)ncpus, sizeof(*v));
	if (!v)
		return 0;
	for (s = 0; s < KT_HIST_SLOTS; s++)
		if (bpf_map_lookup_elem(fd, &s, v) == 0)
			for (c = 0; c < ncpus; c++)
				total += v[c];
	free(v);
	return total;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[2] = { NULL, NULL };
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct sigaction sa;
	sigset_t block, old;
	int n = 0, ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: hist_floor OBJECT\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "hist_floor: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "hist_floor: cannot load %s: %s\n", argv[1], strerror(errno));
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		if (n == 2)
			break;
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			fprintf(stderr, "hist_floor: cannot attach %s: %s\n",
				bpf_program__name(prog), strerror(errno));
			goto out;
		}
		n++;
	}
	/* blocked until sigsuspend, so a signal cannot slip in between the test and the wait */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("attached\n");
	fflush(stdout);
	while (!stop)
		sigsuspend(&old);
	printf("count=%llu\n", floor_count(obj));
	ret = 0;
out:
	while (n > 0)
		bpf_link__destroy(links[--n]);
	bpf_object__close(obj);
	return ret;
}
