// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload - a load generator whose system calls are known exactly, for the live tests
 * and the benchmarks.
 *
 *   workload count N [NAME]        exactly N getppid() calls, nothing in between
 *   workload rate R SECONDS [NAME] getppid() at about R calls/s (0: flat out) for SECONDS,
 *                                  pinned to CPU $WORKLOAD_CPU (default 0; "any": not
 *                                  pinned); prints calls=<n>, then cpu_us=<the CPU time
 *                                  they took (getrusage): on a VM, time the host took the
 *                                  CPU away is not in it, so calls per CPU second is the
 *                                  cost of a call whatever the host does>
 *   workload sleep MS N [NAME]     N nanosleep()s of MS milliseconds; then prints
 *                                  nivcsw=<its involuntary context switches (getrusage)>
 *   workload pipe N [NAME]         N ping-pong round trips between two processes
 *   workload block MS N [NAME]     N blocking reads of a pipe, each answered MS milliseconds
 *                                  after the reader is off the CPU (so each keeps it off
 *                                  for MS ms at least); then prints blocked_ns=<the
 *                                  CLOCK_MONOTONIC time its reads took, summed: every
 *                                  stretch off the CPU inside them lies within it> and
 *                                  nivcsw= as sleep does
 *   workload names NAME...         for each NAME in turn: renames itself NAME, then one
 *                                  getppid() (a task whose rows carry several names)
 *   workload touch NPAGES [NAME]   writes one byte to each of NPAGES new anonymous pages
 *                                  (no huge pages): at least NPAGES minor faults; prints
 *                                  its pid, then faults=<its own getrusage count>
 *   workload forks N [NAME]        N children in turn, each forked, exiting at once and
 *                                  reaped: a fork and an exit record each in perf's side
 *                                  band
 *   workload tasks P T [NAME]      P processes (itself and P-1 children) of T threads each,
 *                                  all asleep until the first is killed (the children die
 *                                  with it); prints ready once every thread is there (the
 *                                  overview's bench: 1,000 processes, 10,000 threads)
 *   workload spikes SLOW_MS N PERIOD_MS [NAME]
 *                                  N periods of PERIOD_MS of 1 ms nanosleep()s, but for one
 *                                  of SLOW_MS that ends 300 ms before the period does;
 *                                  prints slow=<start> <end> (CLOCK_MONOTONIC ns) for each
 *                                  slow one as it returns, and late=<start> <end> for each
 *                                  1 ms one that took over 50 ms (a loaded machine)
 *
 * Every other mode first sets its comm to NAME (default "ktop-wl", at most 15 bytes kept;
 * block once its child is forked). count, sleep, block, pipe and forks then print their pid on
 * stdout (pipe: "<parent> <child>"; block: the reader's only) and
 * flush it, so that a test can filter on common_pid. Every mode then waits, if the
 * environment names a file in WORKLOAD_GO, until that file exists (polled every 10 ms),
 * and only then starts the measured part. Exit status 0 on success, 1 on a failing
 * system call, 2 on a bad command line.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_NAME "ktop-wl"
#define NSEC_PER_SEC 1000000000LL

static void usage(FILE *out)
{
	fputs("usage: workload count N [NAME]\n"
	      "       workload rate R SECONDS [NAME]   (R calls/s, 0 = as fast as possible)\n"
	      "       workload sleep MS N [NAME]\n"
	      "       workload pipe N [NAME]\n"
	      "       workload block MS N [NAME]\n"
	      "       workload names NAME...\n"
	      "       workload touch NPAGES [NAME]\n"
	      "       workload forks N [NAME]\n"
	      "       workload tasks P T [NAME]\n"
	      "       workload spikes SLOW_MS N PERIOD_MS [NAME]\n"
	      "env: WORKLOAD_GO=FILE waits for FILE before starting; "
	      "WORKLOAD_CPU=N pins rate (default 0, any: not pinned)\n", out);
}

static _Noreturn void bad_usage(const char *why)
{
	fprintf(stderr, "workload: %s\n", why);
	usage(stderr);
	exit(2);
}

/* A whole non-negative decimal number, or exit 2. */
static unsigned long long parse_count(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		goto bad;
	return v;
bad:
	fprintf(stderr, "workload: %s must be a non-negative integer, got '%s'\n", what,
		s ? s : "");
	usage(stderr);
	exit(2);
}

/* A positive finite number of seconds, or exit 2. */
static double parse_seconds(const char *s)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e6)
		bad_usage("SECONDS must be a positive number");
	return v;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(long long t_ns)
{
	struct timespec ts = { .tv_sec = t_ns / NSEC_PER_SEC, .tv_nsec = t_ns % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void set_name(const char *name)
{
	if (prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0) < 0) {
		perror("workload: prctl(PR_SET_NAME)");
		exit(1);
	}
}

static void print_pid_line(pid_t a, pid_t b)
{
	if (b > 0)
		printf("%d %d\n", (int)a, (int)b);
	else
		printf("%d\n", (int)a);
	if (fflush(stdout) == EOF) {
		perror("workload: stdout");
		exit(1);
	}
}

/* Blocks until $WORKLOAD_GO exists, if it is set. */
static void wait_for_go(void)
{
	const char *go = getenv("WORKLOAD_GO");
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };

	if (!go || !*go)
		return;
	while (access(go, F_OK) != 0)
		nanosleep(&tick, NULL);
}

static int do_count(unsigned long long n)
{
	unsigned long long i;

	print_pid_line(getpid(), 0);
	wait_for_go();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int do_names(char **names, int n)
{
	int i;

	print_pid_line(getpid(), 0);
	wait_for_go();
	for (i = 0; i < n; i++) {
		set_name(names[i]);
		syscall(SYS_getppid);
	}
	return 0;
}

static int pin_cpu(void)
{
	const char *env = getenv("WORKLOAD_CPU");
	unsigned long long cpu = 0;
	cpu_set_t set;

	if (env && !strcmp(env, "any"))
		return 0; /* the scheduler's choice: it shares the CPUs like everyone else */
	if (env && *env)
		cpu = parse_count(env, "WORKLOAD_CPU");
	if (cpu >= CPU_SETSIZE) {
		fprintf(stderr, "workload: WORKLOAD_CPU=%llu is out of range\n", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr, "workload: sched_setaffinity(cpu %llu): %s\n", cpu,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Calls come in batches between clock reads: 1000 flat out, or about a millisecond's
 * worth when paced, so that a slow rate is still smooth and a fast one costs one vDSO
 * clock read per thousand system calls.
 */
static long long cpu_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
	       (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

static int do_rate(unsigned long long rate, double seconds)
{
	unsigned long long calls = 0, batch, i;
	long long start, end, now, due, cpu0;

	if (pin_cpu() < 0)
		return 1;
	wait_for_go();

	if (rate == 0)
		batch = 1000;
	else if (rate / 1000 == 0)
		batch = 1;
	else if (rate / 1000 > 1000)
		batch = 1000;
	else
		batch = rate / 1000;

	cpu0 = cpu_us();
	start = now_ns();
	end = start + (long long)(seconds * NSEC_PER_SEC);
	for (;;) {
		for (i = 0; i < batch; i++)
			syscall(SYS_getppid);
		calls += batch;
		now = now_ns();
		if (now >= end)
			break;
		if (rate) {
			/* when the next call is due: start + calls / rate seconds */
			due = start + (long long)((double)calls * NSEC_PER_SEC / (double)rate);
			if (due > now)
				sleep_until(due < end ? due : end);
			if (due >= end)
				break;
		}
	}
	printf("calls=%llu\ncpu_us=%lld\n", calls, cpu_us() - cpu0);
	return fflush(stdout) == EOF ? 1 : 0;
}

/* sleep and block end with their involuntary context switches: 0, or 1 if stdout fails. */
static int print_nivcsw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 1;
	printf("nivcsw=%ld\n", ru.ru_nivcsw);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int do_sleep(unsigned long long ms, unsigned long long n)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000),
			       .tv_nsec = (long)(ms % 1000) * 1000000L };
	unsigned long long i;

	print_pid_line(getpid(), 0);
	wait_for_go();
	for (i = 0; i < n; i++) {
		struct timespec left = ts;

		/* restart after a signal with what is left, so each sleep counts once */
		while (nanosleep(&left, &left) < 0 && errno == EINTR)
			;
	}
	return print_nivcsw();
}

/* the clock bpf_ktime_get_ns() reads */
static unsigned long long monotonic_ns(void);

static void sleep_ns(unsigned long long ns)
{
	struct timespec left = { .tv_sec = (time_t)(ns / NSEC_PER_SEC),
				 .tv_nsec = (long)(ns % NSEC_PER_SEC) };

	while (nanosleep(&left, &left) < 0 && errno == EINTR)
		;
}

#define SPIKE_TAIL_MS 300ull

/* 1 ms sleeps until ms have passed since start; one that took over 50 ms is said. */
static void fast_sleeps(unsigned long long start, unsigned long long ms)
{
	unsigned long long t0, t1;

	while ((t0 = monotonic_ns()) < start + ms * 1000000ull) {
		sleep_ns(1000000ull);
		t1 = monotonic_ns();
		if (t1 - t0 > 50000000ull)
			printf("late=%llu %llu\n", t0, t1);
	}
}

/* Fast 1 ms sleeps with one slow sleep in each period, SPIKE_TAIL_MS of fast ones after it
 * (a window after the last one too): the flight recorder's spikes. */
static int do_spikes(unsigned long long slow_ms, unsigned long long n,
		     unsigned long long period_ms)
{
	unsigned long long start, t0, t1;

	print_pid_line(getpid(), 0);
	wait_for_go();
	for (unsigned long long i = 0; i < n; i++) {
		start = monotonic_ns();
		fast_sleeps(start, period_ms - slow_ms - SPIKE_TAIL_MS);
		t0 = monotonic_ns();
		sleep_ns(slow_ms * 1000000ull);
		t1 = monotonic_ns();
		printf("slow=%llu %llu\n", t0, t1);
		if (fflush(stdout))
			return 1;
		fast_sleeps(t1, SPIKE_TAIL_MS);
	}
	return 0;
}

static unsigned long long monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static int xread1(int fd)
{
	char c;
	ssize_t r;

	do
		r = read(fd, &c, 1);
	while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : -1;
}

static int xwrite1(int fd)
{
	const char c = 'x';
	ssize_t r;

	do
		r = write(fd, &c, 1);
	while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : -1;
}

/* Two pipes, then a child (stdout flushed first, so it does not inherit buffered output):
 * fork()'s result, or -1 with the reason on stderr. */
static pid_t fork_with_pipes(int a[2], int b[2])
{
	pid_t child;

	if (pipe(a) < 0 || pipe(b) < 0) {
		perror("workload: pipe");
		return -1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0)
		perror("workload: fork");
	return child;
}

/*
 * Until pid is off the CPU, blocked in read(2): /proc/PID/syscall names the system call
 * only of a task the kernel has switched out ("running" otherwise). 0, or -1 if it cannot
 * be read.
 */
static int wait_blocked_in_read(pid_t pid)
{
	const struct timespec poll = { .tv_nsec = 1000000L };
	char path[64];
	long nr;
	FILE *f;
	int got;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return -1;
		got = fscanf(f, "%ld", &nr);
		fclose(f);
		if (got == 1 && nr == SYS_read)
			return 0;
		nanosleep(&poll, NULL);
	}
}

/*
 * block: this process reads a byte N times; a child (named wl-waker) answers each read MS
 * ms after seeing this process off the CPU in it, and is told by a byte back that the read
 * returned, so the next read it waits for is the next one. Sleeping in a timer instead
 * does not keep a task off the CPU for the whole sleep: on a loaded machine it may still
 * be on it, stalled, when the timer fires.
 */
static int do_block(unsigned long long ms, unsigned long long n, const char *name)
{
	const struct timespec delay = { .tv_sec = (time_t)(ms / 1000),
					.tv_nsec = (long)(ms % 1000) * 1000000L };
	pid_t reader = getpid(), child;
	int down[2], up[2];
	unsigned long long i, blocked = 0;

	child = fork_with_pipes(down, up);
	if (child < 0)
		return 1;
	if (child == 0) {
		set_name("wl-waker");
		close(down[0]);
		close(up[1]);
		for (i = 0; i < n; i++) {
			if (wait_blocked_in_read(reader) < 0) {
				perror("workload: /proc/PID/syscall");
				_exit(1);
			}
			nanosleep(&delay, NULL);
			if (xwrite1(down[1]) < 0 || xread1(up[0]) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(down[1]);
	close(up[0]);
	/* named once the child exists: the child's first run is not counted as NAME's */
	set_name(name);
	print_pid_line(reader, 0);
	wait_for_go();
	/* no wait for the child at the end: its exit would wake this process once more; a
	 * child that fails closes the pipe, and the read here fails */
	for (i = 0; i < n; i++) {
		unsigned long long t0 = monotonic_ns();
		int r = xread1(down[0]);

		blocked += monotonic_ns() - t0;
		if (r < 0 || xwrite1(up[1]) < 0) {
			fprintf(stderr, "workload: the waker failed after %llu reads\n", i);
			return 1;
		}
	}
	printf("blocked_ns=%llu\n", blocked);
	return print_nivcsw();
}

static int do_pipe(unsigned long long n)
{
	int to_child[2], to_parent[2], status, ret = 0;
	unsigned long long i;
	pid_t child;

	/* the child inherits the comm */
	child = fork_with_pipes(to_child, to_parent);
	if (child < 0)
		return 1;
	if (child == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		for (i = 0; i < n; i++)
			if (xread1(to_child[0]) < 0 || xwrite1(to_parent[1]) < 0)
				_exit(1);
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	print_pid_line(getpid(), child);
	wait_for_go();
	for (i = 0; i < n; i++) {
		if (xwrite1(to_child[1]) < 0 || xread1(to_parent[0]) < 0) {
			fprintf(stderr, "workload: ping-pong broke after %llu round trips\n", i);
			ret = 1;
			break;
		}
	}
	close(to_child[1]);
	close(to_parent[0]);
	if (ret)
		kill(child, SIGTERM);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			perror("workload: waitpid");
			return 1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ret = 1;
	return ret;
}

/* Each page's first write is one minor fault: anonymous memory has no fault-around, and
 * MADV_NOHUGEPAGE keeps a 2 MiB-aligned stretch from arriving in one huge-page fault. */
static int do_touch(unsigned long long npages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rusage before, after;
	unsigned long long i;
	size_t len;
	char *mem;

	if (page <= 0 || npages == 0 || npages > (1ULL << 40) / (unsigned long long)page) {
		fprintf(stderr, "workload: NPAGES must be between 1 and %llu\n",
			(1ULL << 40) / (unsigned long long)(page > 0 ? page : 4096));
		return 2;
	}
	len = (size_t)(npages * (unsigned long long)page);
	print_pid_line(getpid(), 0);
	wait_for_go();
	getrusage(RUSAGE_SELF, &before);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("workload: mmap");
		return 1;
	}
	madvise(mem, len, MADV_NOHUGEPAGE);
	for (i = 0; i < npages; i++)
		((volatile char *)mem)[i * (unsigned long long)page] = 1;
	getrusage(RUSAGE_SELF, &after);
	munmap(mem, len);
	printf("faults=%ld\n", after.ru_minflt - before.ru_minflt);
	return fflush(stdout) == EOF ? 1 : 0;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* T-1 more threads in this process, small stacks: 10,000 of them fit in any machine. */
static int start_threads(unsigned long long t)
{
	pthread_attr_t a;
	pthread_t th;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (unsigned long long i = 1; i < t; i++)
		if (pthread_create(&th, &a, sleeper, NULL)) {
			perror("workload: pthread_create");
			return 1;
		}
	pthread_attr_destroy(&a);
	return 0;
}

/* Each child tells the parent on the pipe once its threads are there. */
static int do_tasks(unsigned long long p, unsigned long long t)
{
	int fds[2];
	char c;

	if (pipe(fds) < 0) {
		perror("workload: pipe");
		return 1;
	}
	for (unsigned long long i = 1; i < p; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("workload: fork");
			return 1;
		}
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (start_threads(t))
				_exit(1);
			if (write(fds[1], "r", 1) != 1)
				_exit(1);
			sleeper(NULL);
		}
	}
	if (start_threads(t))
		return 1;
	for (unsigned long long i = 1; i < p; i++)
		if (read(fds[0], &c, 1) != 1) {
			fprintf(stderr, "workload: a child did not start its threads\n");
			return 1;
		}
	printf("ready\n");
	fflush(stdout);
	sleeper(NULL);
	return 0;
}

static int do_forks(unsigned long long n)
{
	unsigned long long i;
	pid_t child;
	int status;

	print_pid_line(getpid(), 0);
	wait_for_go();
	for (i = 0; i < n; i++) {
		child = fork();
		if (child < 0) {
			perror("workload: fork");
			return 1;
		}
		if (child == 0)
			_exit(0);
		while (waitpid(child, &status, 0) < 0)
			if (errno != EINTR) {
				perror("workload: waitpid");
				return 1;
			}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : NULL;
	const char *name = DEFAULT_NAME;

	if (!mode)
		bad_usage("no mode given");
	if (!strcmp(mode, "-h") || !strcmp(mode, "--help")) {
		usage(stdout);
		return 0;
	}

	if (!strcmp(mode, "count")) {
		unsigned long long n;

		if (argc < 3 || argc > 4)
			bad_usage("count takes N [NAME]");
		n = parse_count(argv[2], "N");
		if (argc == 4)
			name = argv[3];
		set_name(name);
		return do_count(n);
	}
	if (!strcmp(mode, "rate")) {
		unsigned long long rate;
		double secs;

		if (argc < 4 || argc > 5)
			bad_usage("rate takes R SECONDS [NAME]");
		rate = parse_count(argv[2], "R");
		secs = parse_seconds(argv[3]);
		if (argc == 5)
			name = argv[4];
		set_name(name);
		return do_rate(rate, secs);
	}
	if (!strcmp(mode, "sleep") || !strcmp(mode, "block")) {
		bool timer = !strcmp(mode, "sleep");
		unsigned long long ms, n;

		if (argc < 4 || argc > 5)
			bad_usage(timer ? "sleep takes MS N [NAME]" : "block takes MS N [NAME]");
		ms = parse_count(argv[2], "MS");
		n = parse_count(argv[3], "N");
		if (ms > (unsigned long long)INT_MAX)
			bad_usage("MS is too large");
		if (argc == 5)
			name = argv[4];
		if (!timer)
			return do_block(ms, n, name);
		set_name(name);
		return do_sleep(ms, n);
	}
	if (!strcmp(mode, "pipe")) {
		unsigned long long n;

		if (argc < 3 || argc > 4)
			bad_usage("pipe takes N [NAME]");
		n = parse_count(argv[2], "N");
		if (argc == 4)
			name = argv[3];
		set_name(name);
		return do_pipe(n);
	}
	if (!strcmp(mode, "names")) {
		if (argc < 3)
			bad_usage("names takes NAME...");
		return do_names(argv + 2, argc - 2);
	}
	if (!strcmp(mode, "touch")) {
		unsigned long long n;

		if (argc < 3 || argc > 4)
			bad_usage("touch takes NPAGES [NAME]");
		n = parse_count(argv[2], "NPAGES");
		if (argc == 4)
			name = argv[3];
		set_name(name);
		return do_touch(n);
	}
	if (!strcmp(mode, "forks")) {
		unsigned long long n;

		if (argc < 3 || argc > 4)
			bad_usage("forks takes N [NAME]");
		n = parse_count(argv[2], "N");
		if (argc == 4)
			name = argv[3];
		set_name(name);
		return do_forks(n);
	}
	if (!strcmp(mode, "tasks")) {
		unsigned long long p, t;

		if (argc < 4 || argc > 5)
			bad_usage("tasks takes P T [NAME]");
		p = parse_count(argv[2], "P");
		t = parse_count(argv[3], "T");
		if (argc == 5)
			name = argv[4];
		set_name(name);
		return do_tasks(p, t);
	}
	if (!strcmp(mode, "spikes")) {
		unsigned long long slow, n, period;

		if (argc < 5 || argc > 6)
			bad_usage("spikes takes SLOW_MS N PERIOD_MS [NAME]");
		slow = parse_count(argv[2], "SLOW_MS");
		n = parse_count(argv[3], "N");
		period = parse_count(argv[4], "PERIOD_MS");
		if (period <= slow + SPIKE_TAIL_MS || period > 3600000)
			bad_usage("PERIOD_MS must exceed SLOW_MS by over 300, at most an hour");
		if (argc == 6)
			name = argv[5];
		set_name(name);
		return do_spikes(slow, n, period);
	}
	fprintf(stderr, "workload: unknown mode '%s'\n", mode);
	usage(stderr);
	return 2;
}
