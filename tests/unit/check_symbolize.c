// SPDX-License-Identifier: GPL-2.0-or-later
/* The symbolizer on real files: this test binary's own functions through /proc/self/maps,
 * the same file through side-band mappings of a process that is not there (one that
 * exited), fork and exec, a JIT map, kallsyms, and the frames nothing names. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/symbols/elfsyms.h"
#include "backend/symbols/symbolize.h"
#include "backend/symbols/usernames.h"
#include "check_main.h"

/* No pid is this high (pid_max is at most 4194304): a process only the side band knows. */
#define GONE_PID 0x7ffffff0

__attribute__((noinline)) static int symbolize_target_one(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static int symbolize_target_two(int x)
{
	return x * 5 + 2;
}

static struct kt_symbolizer *new_sym(void)
{
	char err[256] = "";
	struct kt_symbolizer *sym = symbolizer_new(err, sizeof(err));

	ck_assert_msg(sym, "%s", err);
	return sym;
}

static const char *user(struct kt_symbolizer *sym, int pid, uint64_t addr,
			enum kt_frame_kind *kind)
{
	static char buf[512];
	struct kt_frame f;

	symbolizer_user(sym, pid, addr, &f, buf, sizeof(buf));
	ck_assert_ptr_eq(f.name, buf);
	*kind = f.kind;
	return f.name;
}

START_TEST(test_own_functions_via_proc_maps)
{
	struct kt_symbolizer *sym = new_sym();
	enum kt_frame_kind kind;
	struct kt_symstats st;

	/* inside the functions, not at their first byte: a return address never is */
	ck_assert_str_eq(user(sym, getpid(), (uint64_t)(uintptr_t)symbolize_target_one + 2, &kind),
			 "symbolize_target_one");
	ck_assert_int_eq(kind, KT_FRAME_USER);
	ck_assert_str_eq(user(sym, getpid(), (uint64_t)(uintptr_t)symbolize_target_two + 1, &kind),
			 "symbolize_target_two");
	symbolizer_stats(sym, &st);
	ck_assert_uint_eq(st.resolved, 2);
	ck_assert_uint_eq(st.unresolved, 0);
	ck_assert_uint_ge(st.files, 1);
	ck_assert_int_eq(symbolize_target_one(1) + symbolize_target_two(1), 11);
	symbolizer_free(sym);
}
END_TEST

/* The executable mapping of this binary that holds addr, from /proc/self/maps. */
static void own_mapping(uint64_t addr, uint64_t *start, uint64_t *end, uint64_t *pgoff,
			char *path, size_t len)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "re");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		int at = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &o, &at) < 3 || !at)
			continue;
		if (addr >= s && addr < e) {
			*start = s;
			*end = e;
			*pgoff = o;
			snprintf(path, len, "%.*s", (int)strcspn(line + at, "\n"), line + at);
			fclose(f);
			return;
		}
	}
	fclose(f);
	ck_abort_msg("no mapping holds %" PRIx64, addr);
}

START_TEST(test_side_band_of_a_gone_process)
{
	struct kt_symbolizer *sym = new_sym();
	uint64_t fn = (uint64_t)(uintptr_t)symbolize_target_one, start, end, pgoff;
	/* the same file, mapped elsewhere in the gone process */
	uint64_t base = 0x400000000000ULL;
	enum kt_frame_kind kind;
	char path[PATH_MAX], want[PATH_MAX + 32];
	struct kt_symstats st;

	own_mapping(fn, &start, &end, &pgoff, path, sizeof(path));
	symbolizer_mmap(sym, GONE_PID, base, end - start, pgoff, path);
	ck_assert_str_eq(user(sym, GONE_PID, base + (fn - start) + 2, &kind),
			 "symbolize_target_one");
	ck_assert_int_eq(kind, KT_FRAME_USER);

	/* a fork's child has its parent's mappings until it execs */
	symbolizer_fork(sym, GONE_PID, GONE_PID + 1);
	ck_assert_str_eq(user(sym, GONE_PID + 1, base + (fn - start) + 2, &kind),
			 "symbolize_target_one");
	symbolizer_exec(sym, GONE_PID + 1);
	snprintf(want, sizeof(want), "0x%" PRIx64, base + (fn - start) + 2);
	ck_assert_str_eq(user(sym, GONE_PID + 1, base + (fn - start) + 2, &kind), want);
	ck_assert_int_eq(kind, KT_FRAME_UNRESOLVED);

	/* an exited process is forgotten at the second reap after its exit, not the first */
	symbolizer_fork(sym, GONE_PID, GONE_PID + 2);
	symbolizer_exit(sym, GONE_PID + 2);
	symbolizer_reap(sym);
	ck_assert_str_eq(user(sym, GONE_PID + 2, base + (fn - start) + 2, &kind),
			 "symbolize_target_one");
	symbolizer_reap(sym);
	snprintf(want, sizeof(want), "0x%" PRIx64, base + (fn - start) + 2);
	ck_assert_str_eq(user(sym, GONE_PID + 2, base + (fn - start) + 2, &kind), want);
	/* the parent, which did not exit, keeps its mappings */
	ck_assert_str_eq(user(sym, GONE_PID, base + (fn - start) + 2, &kind),
			 "symbolize_target_one");

	/* an address in the file but in no function: the file and the offset */
	symbolizer_mmap(sym, GONE_PID, base + 0x10000000, 0x1000, 0x7fff0000, path);
	snprintf(want, sizeof(want), "[%s+0x7fff0010]", strrchr(path, '/') + 1);
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x10000010, &kind), want);
	ck_assert_int_eq(kind, KT_FRAME_UNRESOLVED);

	/* in no mapping at all: the address */
	ck_assert_str_eq(user(sym, GONE_PID, 0x10, &kind), "0x10");
	ck_assert_int_eq(kind, KT_FRAME_UNRESOLVED);
	symbolizer_stats(sym, &st);
	ck_assert_uint_eq(st.unresolved, 4);
	symbolizer_free(sym);
}
END_TEST

/* A side-band record as the kernel writes it: header, then body (len bytes). */
static const struct perf_event_header *record(uint32_t type, uint16_t misc, const void *body,
					      size_t len)
{
	static uint64_t buf[(PATH_MAX + 128) / 8];
	struct perf_event_header h = { type, misc, (uint16_t)(sizeof(h) + ((len + 7) & ~7u)) };

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &h, sizeof(h));
	memcpy((char *)buf + sizeof(h), body, len);
	return (const struct perf_event_header *)buf;
}

/* FORK or EXIT of a process: pid, ppid, tid, ptid, time. */
static const struct perf_event_header *task_record(uint32_t type, uint32_t pid, uint32_t ppid)
{
	uint32_t ids[6] = { pid, ppid, pid, ppid, 0, 0 };

	return record(type, 0, ids, sizeof(ids));
}

/* Raw side-band records (symbolizer_record) as the event stacks' reader replays them: an
 * MMAP2 names a process's frames, a fork copies them, an exec clears them; exits are kept
 * until more processes than asked for exited after them (symbolizer_forget_exited). */
START_TEST(test_records)
{
	struct kt_symbolizer *sym = new_sym();
	uint64_t fn = (uint64_t)(uintptr_t)symbolize_target_two, start, end, pgoff, at;
	uint64_t base = 0x600000000000ULL;
	char path[PATH_MAX], body[PATH_MAX + 64] = "", want[64];
	const struct perf_event_header *h;
	enum kt_frame_kind kind;
	uint32_t ids[2] = { GONE_PID + 10, GONE_PID + 10 };
	uint64_t v[3];

	own_mapping(fn, &start, &end, &pgoff, path, sizeof(path));
	at = base + (fn - start) + 1;
	v[0] = base;
	v[1] = end - start;
	v[2] = pgoff;
	/* pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, filename */
	memcpy(body, ids, 8);
	memcpy(body + 8, v, 24);
	snprintf(body + 64, sizeof(body) - 64, "%s", path);
	h = record(PERF_RECORD_MMAP2, 0, body, 64 + strlen(path) + 1);
	ck_assert(symbolizer_remaps(h));
	symbolizer_record(sym, h);
	ck_assert_str_eq(user(sym, GONE_PID + 10, at, &kind), "symbolize_target_two");
	/* a new process: remaps; a thread's fork does not */
	h = task_record(PERF_RECORD_FORK, GONE_PID + 11, GONE_PID + 10);
	ck_assert(symbolizer_remaps(h));
	symbolizer_record(sym, h);
	ck_assert_str_eq(user(sym, GONE_PID + 11, at, &kind), "symbolize_target_two");
	ck_assert(!symbolizer_remaps(task_record(PERF_RECORD_FORK, GONE_PID + 10, GONE_PID + 10)));
	h = task_record(PERF_RECORD_FORK, GONE_PID + 12, GONE_PID + 10);
	symbolizer_record(sym, h);
	/* an exec (COMM with the exec flag) clears the mappings; a rename does not */
	memcpy(body, (uint32_t[2]){ GONE_PID + 11, GONE_PID + 11 }, 8);
	snprintf(body + 8, 16, "renamed");
	ck_assert(!symbolizer_remaps(record(PERF_RECORD_COMM, 0, body, 24)));
	symbolizer_record(sym, record(PERF_RECORD_COMM, 0, body, 24));
	ck_assert_str_eq(user(sym, GONE_PID + 11, at, &kind), "symbolize_target_two");
	h = record(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, body, 24);
	ck_assert(symbolizer_remaps(h));
	symbolizer_record(sym, h);
	snprintf(want, sizeof(want), "0x%" PRIx64, at);
	ck_assert_str_eq(user(sym, GONE_PID + 11, at, &kind), want);
	/* exits: the last one kept, then it too once another exits */
	symbolizer_record(sym, task_record(PERF_RECORD_EXIT, GONE_PID + 10, 1));
	symbolizer_forget_exited(sym, 1);
	ck_assert_str_eq(user(sym, GONE_PID + 10, at, &kind), "symbolize_target_two");
	symbolizer_record(sym, task_record(PERF_RECORD_EXIT, GONE_PID + 12, GONE_PID + 10));
	symbolizer_forget_exited(sym, 1);
	ck_assert_str_eq(user(sym, GONE_PID + 10, at, &kind), want);
	ck_assert_str_eq(user(sym, GONE_PID + 12, at, &kind), "symbolize_target_two");
	symbolizer_free(sym);
}
END_TEST

/* Later mappings replace the parts of earlier ones they cover, and only those. Files that
 * are not there name their frames by file and offset. */
/* /proc/PID/maps read before a library was mapped (an exec's first moments, as the off-CPU
 * profile of a task released by exec may catch it): the next pass reads it again, not never. */
START_TEST(test_mapped_after_proc_was_read)
{
	struct kt_symbolizer *sym = new_sym();
	uint64_t fn = (uint64_t)(uintptr_t)symbolize_target_one + 2, start, end, pgoff, late;
	char path[PATH_MAX];
	enum kt_frame_kind kind;
	void *at;
	int fd;

	ck_assert_str_eq(user(sym, getpid(), fn, &kind), "symbolize_target_one");
	/* the same text mapped again, where nothing was when /proc was read */
	own_mapping(fn, &start, &end, &pgoff, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	at = mmap(NULL, end - start, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, (off_t)pgoff);
	ck_assert_ptr_ne(at, MAP_FAILED);
	close(fd);
	late = (uint64_t)(uintptr_t)at + (fn - start);
	/* within a pass /proc is not read again for every address it lacks */
	ck_assert_str_eq(user(sym, getpid(), fn, &kind), "symbolize_target_one");
	symbolizer_next_pass(sym);
	ck_assert_str_eq(user(sym, getpid(), late, &kind), "symbolize_target_one");
	ck_assert_int_eq(kind, KT_FRAME_USER);
	ck_assert_int_eq(munmap(at, end - start), 0);
	symbolizer_free(sym);
}
END_TEST

START_TEST(test_mappings_replace)
{
	struct kt_symbolizer *sym = new_sym();
	uint64_t base = 0x500000000000ULL;
	enum kt_frame_kind kind;
	struct kt_symstats st;

	symbolizer_mmap(sym, GONE_PID, base, 0x3000, 0x5000, "/nonexistent/liba.so");
	symbolizer_mmap(sym, GONE_PID, base + 0x1000, 0x1000, 0, "//anon");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x10, &kind), "[liba.so+0x5010]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x1010, &kind), "0x500000001010");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2010, &kind), "[liba.so+0x7010]");
	symbolizer_mmap(sym, GONE_PID, base + 0x2800, 0x1000, 0, "/nonexistent/libb.so");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2010, &kind), "[liba.so+0x7010]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2900, &kind), "[libb.so+0x100]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x3100, &kind), "[libb.so+0x900]");
	/* one over the middle of another splits it in two */
	symbolizer_mmap(sym, GONE_PID, base + 0x2900, 0x100, 0, "/nonexistent/libc.so");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2810, &kind), "[libb.so+0x10]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2980, &kind), "[libc.so+0x80]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2a10, &kind), "[libb.so+0x210]");
	ck_assert_int_eq(kind, KT_FRAME_UNRESOLVED);
	/* and one over several, whole and in part */
	symbolizer_mmap(sym, GONE_PID, base + 0x800, 0x2400, 0x100000, "/nonexistent/libd.so");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x7f0, &kind), "[liba.so+0x57f0]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2980, &kind), "[libd.so+0x102180]");
	ck_assert_str_eq(user(sym, GONE_PID, base + 0x2c10, &kind), "[libb.so+0x410]");
	symbolizer_stats(sym, &st);
	ck_assert_uint_eq(st.unresolved, 12);
	ck_assert_uint_eq(st.resolved, 0);
	symbolizer_free(sym);
}
END_TEST

START_TEST(test_jit_map)
{
	struct kt_symbolizer *sym = new_sym();
	enum kt_frame_kind kind;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", GONE_PID);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "7f0000001000 100 LazyCompile:*fib /app.js:3\n");
	fclose(f);
	symbolizer_mmap(sym, GONE_PID, 0x7f0000000000ULL, 0x10000, 0, "//anon");
	ck_assert_str_eq(user(sym, GONE_PID, 0x7f0000001080ULL, &kind),
			 "LazyCompile:*fib /app.js:3");
	ck_assert_int_eq(kind, KT_FRAME_JIT);
	ck_assert_str_eq(user(sym, GONE_PID, 0x7f0000001100ULL, &kind), "0x7f0000001100");
	ck_assert_int_eq(kind, KT_FRAME_UNRESOLVED);

	/* what the JIT appends later is read when an address misses */
	f = fopen(path, "a");
	fprintf(f, "7f0000002000 40 Interpreted:loop\n");
	fclose(f);
	ck_assert_str_eq(user(sym, GONE_PID, 0x7f0000002010ULL, &kind), "Interpreted:loop");
	unlink(path);
	symbolizer_free(sym);
}
END_TEST

/* The vDSO is in no file: its functions are named from ktop's own copy, by the name perf
 * shows of the aliases at one address (the global __vdso_clock_gettime, not the weak
 * clock_gettime). */
START_TEST(test_vdso)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	uint64_t addr, start, end, pgoff;
	struct kt_symbolizer *sym;
	enum kt_frame_kind kind;
	char path[PATH_MAX];
	Elf *elf;

	if (!base)
		return; /* no vDSO on this machine */
	ck_assert_int_ne(elf_version(EV_CURRENT), EV_NONE);
	own_mapping(base, &start, &end, &pgoff, path, sizeof(path));
	ck_assert_str_eq(path, "[vdso]");
	elf = elf_memory((char *)base, end - start);
	ck_assert_ptr_nonnull(elf);
	if (elfsyms_address(elf, "__vdso_clock_gettime", &addr) < 0) {
		elf_end(elf);
		return; /* an architecture whose vDSO names it otherwise */
	}
	elf_end(elf);
	sym = new_sym();
	ck_assert_str_eq(user(sym, getpid(), base + addr + 1, &kind), "__vdso_clock_gettime");
	ck_assert_int_eq(kind, KT_FRAME_USER);
	symbolizer_free(sym);
}
END_TEST

/* The first text symbol of kallsyms with a non-zero address and a name ending the line. */
static int kallsyms_pick(uint64_t *addr, char *name, size_t len, int want_module)
{
	char line[512], n[256], mod[64];
	FILE *f = fopen("/proc/kallsyms", "re");
	int found = 0;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t;
		int k = sscanf(line, "%llx %c %255s [%63[^]]]", &a, &t, n, mod);

		if (k < 3 || !a || (t != 't' && t != 'T') || (want_module != (k == 4)))
			continue;
		if (strcmp(n, "schedule") && !want_module)
			continue;
		*addr = a;
		if (want_module)
			snprintf(name, len, "%s [%s]", n, mod);
		else
			snprintf(name, len, "%s", n);
		found = 1;
	}
	fclose(f);
	return found;
}

/* Another machine's frames (a remote agent's --user-stacks): named only by what it said of
 * them, this machine's /proc never read for their pid; the same pid and address on another
 * host is another frame; the table forgets the oldest past its bound. */
START_TEST(test_given_names)
{
	struct kt_usernames *a = usernames_new(), *b = usernames_new();
	struct kt_symbolizer *sa = usernames_symbolizer(a), *sb = usernames_symbolizer(b);
	const size_t cap = (size_t)KT_USERNAMES_SETS * KT_USERNAMES_WAYS;
	struct kt_frame f;
	char buf[128], name[32];
	size_t kept = 0;
	uint8_t kind;

	usernames_put(a, getpid(), 0x401000, KT_FRAME_USER, "remote_main");
	usernames_put(b, getpid(), 0x401000, KT_FRAME_USER, "other_host_main");
	usernames_put(a, getpid(), 0x7f0000001000, KT_FRAME_UNRESOLVED, "[libx.so+0x1000]");
	symbolizer_user(sa, getpid(), 0x401000, &f, buf, sizeof(buf));
	ck_assert_str_eq(f.name, "remote_main");
	ck_assert_int_eq(f.kind, KT_FRAME_USER);
	symbolizer_user(sb, getpid(), 0x401000, &f, buf, sizeof(buf));
	ck_assert_str_eq(f.name, "other_host_main");
	symbolizer_user(sa, getpid(), 0x7f0000001000, &f, buf, sizeof(buf));
	ck_assert_str_eq(f.name, "[libx.so+0x1000]");
	ck_assert_int_eq(f.kind, KT_FRAME_UNRESOLVED);
	/* this process's own function, which /proc would name: not here, it is not ours */
	symbolizer_user(sa, getpid(), (uint64_t)(uintptr_t)&symbolize_target_one, &f, buf, sizeof(buf));
	ck_assert_int_eq(f.kind, KT_FRAME_UNRESOLVED);
	ck_assert(!strncmp(f.name, "0x", 2));
	/* a later name replaces the earlier */
	usernames_put(a, getpid(), 0x401000, KT_FRAME_USER, "renamed_main");
	symbolizer_user(sa, getpid(), 0x401000, &f, buf, sizeof(buf));
	ck_assert_str_eq(f.name, "renamed_main");
	/* bounded: past its capacity the oldest go, the newest stay */
	for (size_t i = 0; i < cap + cap / 2; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		usernames_put(b, 7, 0x1000 + i * 16, KT_FRAME_USER, name);
	}
	for (size_t i = 0; i < cap + cap / 2; i++)
		kept += usernames_get(b, 7, 0x1000 + i * 16, &kind, buf, sizeof(buf));
	ck_assert_uint_le(kept, cap);
	ck_assert_uint_ge(kept, cap / 2);
	ck_assert(usernames_get(b, 7, 0x1000 + (cap + cap / 2 - 1) * 16, &kind, buf, sizeof(buf)));
	snprintf(name, sizeof(name), "f%zu", cap + cap / 2 - 1);
	ck_assert_str_eq(buf, name);
	usernames_free(a);
	usernames_free(b);
}
END_TEST

START_TEST(test_kernel)
{
	struct kt_symbolizer *sym = new_sym();
	char buf[512], want[512];
	struct kt_frame f;
	uint64_t addr;

	if (symbolizer_kernel_hidden(sym)) {
		/* kptr_restrict (or not root): nothing can be named, and it is said */
		symbolizer_kernel(sym, 0xffffffff81000000ULL, &f, buf, sizeof(buf));
		ck_assert_int_eq(f.kind, KT_FRAME_UNRESOLVED);
		ck_assert_str_eq(f.name, "0xffffffff81000000");
		symbolizer_free(sym);
		return;
	}
	ck_assert(kallsyms_pick(&addr, want, sizeof(want), 0));
	symbolizer_kernel(sym, addr + 4, &f, buf, sizeof(buf));
	ck_assert_int_eq(f.kind, KT_FRAME_KERNEL);
	ck_assert_str_eq(f.name, "schedule");
	if (kallsyms_pick(&addr, want, sizeof(want), 1)) {
		symbolizer_kernel(sym, addr, &f, buf, sizeof(buf));
		ck_assert_str_eq(f.name, want);
	}
	symbolizer_kernel(sym, 0x10, &f, buf, sizeof(buf));
	ck_assert_int_eq(f.kind, KT_FRAME_UNRESOLVED);
	ck_assert_str_eq(f.name, "0x10");
	symbolizer_free(sym);
}
END_TEST

static Suite *symbolize_suite(void)
{
	Suite *s = suite_create("symbolize");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_own_functions_via_proc_maps);
	tcase_add_test(tc, test_side_band_of_a_gone_process);
	tcase_add_test(tc, test_records);
	tcase_add_test(tc, test_mapped_after_proc_was_read);
	tcase_add_test(tc, test_mappings_replace);
	tcase_add_test(tc, test_jit_map);
	tcase_add_test(tc, test_vdso);
	tcase_add_test(tc, test_kernel);
	tcase_add_test(tc, test_given_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(symbolize_suite());
}
