// SPDX-License-Identifier: GPL-2.0-or-later
/* Workloads of known CPU shape for the profile's tests, built with frame pointers.
 *
 *   profwork split SECS       spends 70% of its CPU time in hot_seventy and 30% in
 *                             hot_thirty (slices of 4.9 and 2.1 ms of thread CPU time, so
 *                             the shares hold on a loaded machine), for SECS seconds of CPU.
 *                             The 7 ms cycle is far from a multiple of 99 Hz's 10.1 ms
 *                             period: samples sweep its phases quickly and evenly (a 10 ms
 *                             cycle would take 100 samples to sweep them once).
 *   profwork short N MS       runs N processes one after another, each named "profpre"
 *                             burning MS ms of CPU in before_exec_burn, then a fresh exec of
 *                             this file (at another load address) named "profshort" that
 *                             burns MS ms of CPU in short_lived_burn and exits
 *   profwork deep SECS        recurses 60 deep through eight functions chosen at random
 *                             at every level, spinning briefly at the bottom: almost every
 *                             sample is a stack never seen before (for --memory's bound)
 *   profwork phases FILE      spins in phase_before until FILE exists, then in phase_after
 *                             until killed (a hot function that changes when a test says)
 *   profwork jit SECS         copies a counting loop into anonymous executable memory,
 *                             writes /tmp/perf-PID.map naming it "jitted_loop" (as a JIT
 *                             does) and runs it for SECS seconds of CPU (x86-64)
 *   profwork wakechain ROUNDS MS THREADS [GAP_MS]
 *                             a chain of wakeups through pipes, ROUNDS times: thread
 *                             "wc-waiter" blocks in waiter_wait reading a pipe that
 *                             "wc-waker" writes from waker_work after MS ms of its CPU
 *                             there; with THREADS 3, "wc-waker" itself first blocks in
 *                             waker_wait until "wc-kicker" writes from kicker_work after
 *                             MS ms of CPU there. Prints its pid, waits for $WORKLOAD_GO
 *                             (as tests/helpers/workload does), then at the end
 *                             waiter_ns=<the CLOCK_MONOTONIC time waiter_wait's reads took>
 *                             and waker_ns=<waker_wait's, 3 threads>; GAP_MS: the waiter
 *                             sleeps that long before each round (a lighter load)
 *
 * Each but wakechain prints "ready" on stdout before it starts. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Kept whole and under their own names: no inlining, no ".constprop" clones. */
#if defined(__GNUC__) && !defined(__clang__)
#define KEEP __attribute__((noinline, noclone))
#else
#define KEEP __attribute__((noinline))
#endif

static volatile uint64_t sink;

/* This thread's CPU time. On x86-64 the system call is made right here, inlined into the
 * function that spins: through libc (built without frame pointers) a sample taken in the
 * call would lose its caller's frame and count for main. */
static inline __attribute__((always_inline)) double cpu_ms(void)
{
	struct timespec ts;
#if defined(__x86_64__)
	long ret = SYS_clock_gettime;

	__asm__ volatile("syscall"
			 : "+a"(ret)
			 : "D"((long)CLOCK_THREAD_CPUTIME_ID), "S"(&ts)
			 : "rcx", "r11", "memory");
#else
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
#endif
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Spins until ms of this thread's CPU time passed; the clock is read every 16384 rounds so
 * almost all the time is spent here, not in the vDSO. Each function's constant differs, so
 * the compiler cannot fold them into one. */
#define SPIN_BODY(ms, k)                                                     \
	do {                                                                 \
		double end = cpu_ms() + (ms);                                \
		uint64_t x = sink;                                           \
		do {                                                         \
			for (int i = 0; i < 16384; i++)                      \
				x = x * 6364136223846793005ULL + (k);        \
			sink = x;                                            \
		} while (cpu_ms() < end);                                    \
	} while (0)

KEEP static void hot_seventy(double ms)
{
	SPIN_BODY(ms, 1442695040888963407ULL);
}

KEEP static void hot_thirty(double ms)
{
	SPIN_BODY(ms, 1442695040888963409ULL);
}

KEEP static void short_lived_burn(double ms)
{
	SPIN_BODY(ms, 1442695040888963411ULL);
}

KEEP static void before_exec_burn(double ms)
{
	SPIN_BODY(ms, 1442695040888963413ULL);
}

KEEP static void phase_before(double ms)
{
	SPIN_BODY(ms, 1442695040888963415ULL);
}

KEEP static void phase_after(double ms)
{
	SPIN_BODY(ms, 1442695040888963417ULL);
}

/* The file is looked for every 50 ms of CPU: almost every sample is in the phase's function. */
static __attribute__((noreturn)) void phases(const char *file)
{
	while (access(file, F_OK) < 0)
		phase_before(50);
	for (;;)
		phase_after(50);
}

/* Counts its rounds rather than reading the clock: main itself spends nothing. */
static int split(double secs)
{
	for (long n = (long)(secs * 1e3 / 7); n > 0; n--) {
		hot_seventy(4.9);
		hot_thirty(2.1);
	}
	return 0;
}

typedef void deep_fn(unsigned depth, uint64_t r);
static deep_fn *const deep_fns[8];

/* One level: the next function by the top bits of r. The work after the call keeps the
 * compiler from making it a jump, which would leave no frame. */
#define DEEP(name)                                                            \
	KEEP static void name(unsigned depth, uint64_t r)                     \
	{                                                                     \
		if (!depth) {                                                 \
			for (int i = 0; i < 20000; i++)                       \
				sink = sink * 3 + (uint64_t)i;                \
			return;                                               \
		}                                                             \
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;      \
		deep_fns[r >> 61](depth - 1, r);                              \
		sink += depth;                                                \
	}
DEEP(deep0) DEEP(deep1) DEEP(deep2) DEEP(deep3) DEEP(deep4) DEEP(deep5) DEEP(deep6) DEEP(deep7)
static deep_fn *const deep_fns[8] = { deep0, deep1, deep2, deep3, deep4, deep5, deep6, deep7 };

static int deep(double secs)
{
	double end = cpu_ms() + secs * 1e3;
	uint64_t r = 1;

	while (cpu_ms() < end)
		for (int i = 0; i < 100; i++)
			deep0(60, r++);
	return 0;
}

static int run_short(const char *self, int n, const char *ms)
{
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return 1;
		if (pid == 0) {
			prctl(PR_SET_NAME, "profpre");
			before_exec_burn(atof(ms));
			execl("/proc/self/exe", self, "burn", ms, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	return 0;
}

static int jit(double secs)
{
#if defined(__x86_64__)
	/* mov rax, rdi; 1: dec rax; jnz 1b; ret */
	static const unsigned char code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb,
					      0xc3 };
	uint64_t (*fn)(uint64_t);
	char path[64];
	double end;
	FILE *f;
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jitted_loop\n", (unsigned long)(uintptr_t)mem, sizeof(code));
	fclose(f);
	fn = (uint64_t (*)(uint64_t))(uintptr_t)mem;
	printf("ready\n");
	fflush(stdout);
	end = cpu_ms() + secs * 1e3;
	while (cpu_ms() < end)
		sink += fn(1000000);
	return 0;
#else
	(void)secs;
	fprintf(stderr, "profwork: jit is x86-64 code\n");
	return 2;
#endif
}

/* read(2) or write(2) of one byte made right here, so the function that calls it is the
 * innermost user frame of the stacks taken in it (libc has no frame pointers). */
static inline __attribute__((always_inline)) long rw1(long nr, int fd, char *c)
{
#if defined(__x86_64__)
	long ret = nr;

	__asm__ volatile("syscall"
			 : "+a"(ret)
			 : "D"((long)fd), "S"(c), "d"(1L)
			 : "rcx", "r11", "memory");
	return ret;
#else
	return syscall(nr, fd, c, 1);
#endif
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

struct chain {
	int rounds;
	double ms;
	int ack[2], kick[2], wake[2]; /* waiter -> first, kicker -> waker, waker -> waiter */
	uint64_t waker_ns;
	bool three;
};

/* Blocks reading fd; the time the read took is added to *ns. */
KEEP static int waiter_wait(int fd, uint64_t *ns)
{
	uint64_t t0 = mono_ns();
	char c;
	long r = rw1(SYS_read, fd, &c);

	*ns += mono_ns() - t0;
	return r == 1 ? 0 : -1;
}

/* waiter_wait's twin, told apart by its sink (else one body may serve both names) */
KEEP static int waker_wait(int fd, uint64_t *ns)
{
	uint64_t t0 = mono_ns();
	char c;
	long r = rw1(SYS_read, fd, &c);

	*ns += mono_ns() - t0;
	sink++;
	return r == 1 ? 0 : -1;
}

/* MS ms of this thread's CPU, then the write that wakes the next one. */
KEEP static int waker_work(double ms, int fd)
{
	char c = 'w';

	SPIN_BODY(ms, 1442695040888963419ULL);
	return rw1(SYS_write, fd, &c) == 1 ? 0 : -1;
}

KEEP static int kicker_work(double ms, int fd)
{
	char c = 'k';

	SPIN_BODY(ms, 1442695040888963421ULL);
	return rw1(SYS_write, fd, &c) == 1 ? 0 : -1;
}

static void *kicker(void *arg)
{
	struct chain *ch = arg;
	uint64_t ns = 0;

	prctl(PR_SET_NAME, "wc-kicker");
	for (int i = 0; i < ch->rounds; i++)
		if (waker_wait(ch->ack[0], &ns) < 0 || kicker_work(ch->ms, ch->kick[1]) < 0)
			break;
	return NULL;
}

static void *waker(void *arg)
{
	struct chain *ch = arg;
	int from = ch->three ? ch->kick[0] : ch->ack[0];

	prctl(PR_SET_NAME, "wc-waker");
	for (int i = 0; i < ch->rounds; i++)
		if (waker_wait(from, &ch->waker_ns) < 0 || waker_work(ch->ms, ch->wake[1]) < 0)
			break;
	return NULL;
}

static void wait_go(void)
{
	const char *go = getenv("WORKLOAD_GO");
	const struct timespec tick = { .tv_nsec = 10000000L };

	while (go && access(go, F_OK) < 0)
		nanosleep(&tick, NULL);
}

/* The waiter is this thread: each round it lets the chain's first thread go, then blocks
 * until the chain's last one wakes it. */
static int wakechain(int rounds, double ms, int threads, double gap_ms)
{
	const struct timespec gap = { .tv_sec = (time_t)(gap_ms / 1e3),
				      .tv_nsec = (long)((gap_ms - (double)(long)(gap_ms / 1e3) * 1e3) *
							1e6) };
	struct chain ch = { .rounds = rounds, .ms = ms, .three = threads == 3 };
	pthread_t t[2];
	uint64_t waiter_ns = 0;
	char c = 'a';
	int i, n = 0;

	if ((threads != 2 && threads != 3) || rounds < 1 || ms <= 0 || pipe(ch.ack) < 0 ||
	    pipe(ch.kick) < 0 || pipe(ch.wake) < 0)
		return 2;
	prctl(PR_SET_NAME, "wc-waiter");
	printf("%d\n", (int)getpid());
	fflush(stdout);
	wait_go();
	if (pthread_create(&t[n++], NULL, waker, &ch) ||
	    (ch.three && pthread_create(&t[n++], NULL, kicker, &ch)))
		return 1;
	for (i = 0; i < rounds; i++)
		if ((gap_ms > 0 && nanosleep(&gap, NULL) < 0) || rw1(SYS_write, ch.ack[1], &c) != 1 ||
		    waiter_wait(ch.wake[0], &waiter_ns) < 0)
			return 1;
	while (n)
		pthread_join(t[--n], NULL);
	printf("waiter_ns=%llu\nwaker_ns=%llu\n", (unsigned long long)waiter_ns,
	       (unsigned long long)ch.waker_ns);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "split")) {
		printf("ready\n");
		fflush(stdout);
		return split(atof(argv[2]));
	}
	if (argc == 4 && !strcmp(argv[1], "short")) {
		printf("ready\n");
		fflush(stdout);
		return run_short(argv[0], atoi(argv[2]), argv[3]);
	}
	if (argc == 3 && !strcmp(argv[1], "burn")) {
		prctl(PR_SET_NAME, "profshort");
		short_lived_burn(atof(argv[2]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "deep")) {
		printf("ready\n");
		fflush(stdout);
		return deep(atof(argv[2]));
	}
	if (argc == 3 && !strcmp(argv[1], "phases")) {
		printf("ready\n");
		fflush(stdout);
		phases(argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "jit"))
		return jit(atof(argv[2]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "wakechain"))
		return wakechain(atoi(argv[2]), atof(argv[3]), atoi(argv[4]),
				 argc == 6 ? atof(argv[5]) : 0);
	fprintf(stderr, "usage: profwork split SECS | short N MS | deep SECS | jit SECS | "
		"wakechain ROUNDS MS THREADS [GAP_MS]\n");
	return 2;
}
