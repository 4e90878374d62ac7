// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Performance counters: event names as perf spells them against sysfs fixture trees shaped
 * like a real Intel and AMD PMU and a PMU-less VM (tests/unit/fixtures/pmu); scaling,
 * rates and derived ratios from group reads laid out byte for byte as the kernel returns
 * them; and the unavailable path, through perf_event_open itself.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/perf/pmu.h"
#include "backend/perf/pmu_sysfs.h"
#include "check_main.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

#define INTEL FIXTURES "/pmu/intel"
#define AMD FIXTURES "/pmu/amd"
#define VM FIXTURES "/pmu/vm"
#define TRACING FIXTURES "/pmu/tracing"
#define NSEC 1000000000ULL

/* Groups of the default set (pmu.c): software, cycles+instructions, cache, branches,
 * stalled cycles. */
enum { G_SW, G_IPC, G_CACHE, G_BRANCH, G_STALL };

static void ck_close(double got, double want)
{
	ck_assert_msg(fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1),
		      "got %.12g, want %.12g", got, want);
}

/* ---- sysfs formats and aliases ----------------------------------------------------------- */

static uint64_t apply(const char *format, uint64_t value)
{
	struct kt_pmu_attr a;
	char err[256] = "";

	pmu_attr_init(&a);
	ck_assert_msg(pmu_sysfs_format_apply(format, value, &a, err, sizeof(err)) == 0, "%s: %s",
		      format, err);
	return a.config | a.config1 | a.config2;
}

START_TEST(test_format_ranges)
{
	struct kt_pmu_attr a;
	char err[256];

	ck_assert_uint_eq(apply("config:0-7", 0x3c), 0x3c);
	ck_assert_uint_eq(apply("config:8-15", 0x41), 0x4100);
	ck_assert_uint_eq(apply("config:24-31\n", 0x2), 0x2000000);
	ck_assert_uint_eq(apply("config:21", 1), 1u << 21);
	/* AMD: the low 8 bits of a 12-bit event select, then the high 4 at 32-35 */
	ck_assert_uint_eq(apply("config:0-7,32-35", 0x1d6), 0x1000000d6ULL);
	ck_assert_uint_eq(apply("config:0-7,32-35,59-60", 0x3fff), 0x1800000f000000ffULL);
	ck_assert_uint_eq(apply("config:0-63", 0xffffffffffffffffULL), 0xffffffffffffffffULL);

	/* which word */
	pmu_attr_init(&a);
	ck_assert_int_eq(pmu_sysfs_format_apply("config1:0-15", 3, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(a.config1, 3);
	ck_assert_uint_eq(a.config, 0);
	ck_assert_int_eq(pmu_sysfs_format_apply("config2:4-7", 0xf, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(a.config2, 0xf0);

	/* a later term replaces the field's bits, it does not OR into them */
	pmu_attr_init(&a);
	pmu_sysfs_format_apply("config:8-15", 0xff, &a, err, sizeof(err));
	pmu_sysfs_format_apply("config:8-15", 0x01, &a, err, sizeof(err));
	ck_assert_uint_eq(a.config, 0x100);

	/* too wide for the field, and nothing half-applied */
	pmu_attr_init(&a);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:0-7", 0x100, &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "8 bits"));
	ck_assert_uint_eq(a.config, 0);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:0-7,32-35", 0x1000, &a, err,
						sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:0", 2, &a, err, sizeof(err)), -1);

	/* malformed */
	ck_assert_int_eq(pmu_sysfs_format_apply("config", 1, &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:", 1, &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:8-4", 1, &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:0-64", 1, &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config:0-7x", 1, &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_format_apply("config3:0-7", 1, &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "config3"));
	ck_assert_int_eq(pmu_sysfs_format_apply("foo:0-7", 1, &a, err, sizeof(err)), -1);
	ck_assert_uint_eq(a.config, 0);
}
END_TEST

static struct kt_pmu_attr encode(const char *root, const char *pmu, const char *terms)
{
	struct kt_pmu_attr a;
	char err[512] = "";

	pmu_attr_init(&a);
	ck_assert_msg(pmu_sysfs_encode(root, pmu, terms, &a, err, sizeof(err)) == 0,
		      "%s/%s/: %s", pmu, terms, err);
	return a;
}

START_TEST(test_intel_terms_and_aliases)
{
	struct kt_pmu_attr a;
	char err[512];

	a = encode(INTEL, "cpu", "event=0x3c,umask=0x1");
	ck_assert_uint_eq(a.type, 4);
	ck_assert_str_eq(a.pmu, "cpu");
	ck_assert_uint_eq(a.config, 0x13c);

	/* an alias, as perf reads it from cpu/events/cache-misses */
	a = encode(INTEL, "cpu", "cache-misses");
	ck_assert_uint_eq(a.config, 0x412e);
	/* terms after an alias override its own */
	a = encode(INTEL, "cpu", "cache-misses,umask=0x4f");
	ck_assert_uint_eq(a.config, 0x4f2e);
	/* cmask, inv and edge: bits 24-31, 23, 18; a bare flag term means 1 */
	a = encode(INTEL, "cpu", "event=0xa3,umask=0x14,cmask=20,inv,edge");
	ck_assert_uint_eq(a.config, 0xa3ULL | 0x14ULL << 8 | 20ULL << 24 | 1ULL << 23 | 1ULL << 18);
	/* config1 terms: the load-latency threshold of mem-loads */
	a = encode(INTEL, "cpu", "mem-loads");
	ck_assert_uint_eq(a.config, 0x1cd);
	ck_assert_uint_eq(a.config1, 3);
	a = encode(INTEL, "cpu", "mem-loads,ldlat=64");
	ck_assert_uint_eq(a.config1, 64);
	a = encode(INTEL, "cpu", "event=0xb7,umask=0x1,offcore_rsp=0x10003c0091");
	ck_assert_uint_eq(a.config1, 0x10003c0091ULL);
	/* in_tx: a bit above 31 */
	a = encode(INTEL, "cpu", "tx-start");
	ck_assert_uint_eq(a.config, 0x3cULL | 1ULL << 32);
	/* raw config words, decimal values */
	a = encode(INTEL, "cpu", "config=0x1234,config1=7");
	ck_assert_uint_eq(a.config, 0x1234);
	ck_assert_uint_eq(a.config1, 7);
	a = encode(INTEL, "cpu", "event=60");
	ck_assert_uint_eq(a.config, 60);
	/* the RAPL counter carries its scale and unit */
	a = encode(INTEL, "power", "energy-pkg");
	ck_assert_uint_eq(a.type, 11);
	ck_assert_uint_eq(a.config, 2);
	ck_assert_str_eq(a.unit, "Joules");
	ck_assert(a.scale > 2.3e-10 && a.scale < 2.4e-10);

	/* errors name the term and where to look */
	pmu_attr_init(&a);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "event=0x3c,bogus=1", &a, err,
					  sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "bogus"));
	ck_assert_ptr_nonnull(strstr(err, "format"));
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "event=0x100", &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "event"));
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "needs-value", &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "offcore_rsp"));
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "event=zz", &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "event=-1", &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "config", &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "", &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "cpu", "../../etc", &a, err, sizeof(err)), -1);
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "nosuch", "event=1", &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "nosuch"));
	ck_assert_int_eq(pmu_sysfs_encode(INTEL, "..", "event=1", &a, err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_amd_terms)
{
	struct kt_pmu_attr a;
	char err[256];

	/* Zen's 12-bit event select: 0x1d6 -> 0xd6 at bits 0-7, 0x1 at 32-35 */
	a = encode(AMD, "cpu", "event=0x1d6,umask=0x1");
	ck_assert_uint_eq(a.type, 4);
	ck_assert_uint_eq(a.config, 0x1000001d6ULL);
	a = encode(AMD, "cpu", "branch-instructions");
	ck_assert_uint_eq(a.config, 0xc2);
	a = encode(AMD, "amd_df", "dram_channel_data_controller_0");
	ck_assert_uint_eq(a.type, 13);
	ck_assert_uint_eq(a.config, 0x3807);
	a = encode(AMD, "amd_df", "event=0x1fff");
	ck_assert_uint_eq(a.config, 0xffULL | 0xfULL << 32 | 0x1ULL << 59);
	pmu_attr_init(&a);
	ck_assert_int_eq(pmu_sysfs_encode(AMD, "cpu", "event=0x1000", &a, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "12 bits"));
	a = encode(AMD, "amd_l3", "event=0x4,umask=0xff");
	ck_assert_uint_eq(a.config, 0xff04);
}
END_TEST

START_TEST(test_find_alias)
{
	char pmu[64];

	/* cpu first, although aaa_pmu sorts before it and has the same alias */
	ck_assert_int_eq(pmu_sysfs_find_alias(INTEL, "shared-ev", pmu, sizeof(pmu)), 0);
	ck_assert_str_eq(pmu, "cpu");
	ck_assert_int_eq(pmu_sysfs_find_alias(INTEL, "only-aaa", pmu, sizeof(pmu)), 0);
	ck_assert_str_eq(pmu, "aaa_pmu");
	ck_assert_int_eq(pmu_sysfs_find_alias(INTEL, "energy-pkg", pmu, sizeof(pmu)), 0);
	ck_assert_str_eq(pmu, "power");
	ck_assert_int_eq(pmu_sysfs_find_alias(VM, "tsc", pmu, sizeof(pmu)), 0);
	ck_assert_str_eq(pmu, "msr");
	ck_assert_int_eq(pmu_sysfs_find_alias(INTEL, "nothing-like-it", pmu, sizeof(pmu)), -1);
	ck_assert_int_eq(pmu_sysfs_find_alias(INTEL, "../cpu", pmu, sizeof(pmu)), -1);
	ck_assert(pmu_sysfs_exists(INTEL, "cpu"));
	ck_assert(!pmu_sysfs_exists(VM, "cpu"));
}
END_TEST

/* ---- event specs as perf spells them ----------------------------------------------------- */

static struct kt_pmu_attr resolve(const char *root, const char *spec, enum kt_pmu_role *role)
{
	struct kt_pmu_attr a;
	enum kt_pmu_role r;
	char err[512] = "";

	ck_assert_msg(pmu_resolve(root, TRACING, spec, &a, role ? role : &r, err,
				  sizeof(err)) == 0, "%s: %s", spec, err);
	return a;
}

static void resolve_fails(const char *root, const char *spec, const char *want)
{
	struct kt_pmu_attr a;
	enum kt_pmu_role r;
	char err[512] = "";

	ck_assert_msg(pmu_resolve(root, TRACING, spec, &a, &r, err, sizeof(err)) == -1,
		      "%s resolved", spec);
	ck_assert_msg(strstr(err, want) != NULL, "%s: '%s' lacks '%s'", spec, err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(test_resolve_specs)
{
	struct kt_pmu_attr a;
	enum kt_pmu_role role;

	a = resolve(INTEL, "cycles", &role);
	ck_assert_uint_eq(a.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_int_eq(role, KT_PMU_ROLE_CYCLES);
	a = resolve(INTEL, " instructions ", &role);
	ck_assert_int_eq(role, KT_PMU_ROLE_INSTRUCTIONS);
	/* the generic name wins over cpu/events/cache-misses, as in perf */
	a = resolve(INTEL, "cache-misses", &role);
	ck_assert_uint_eq(a.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_MISSES);
	a = resolve(INTEL, "cs", NULL);
	ck_assert_uint_eq(a.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	a = resolve(INTEL, "minor-faults", NULL);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	a = resolve(INTEL, "major-faults", NULL);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);

	/* modifiers */
	a = resolve(INTEL, "cycles:u", NULL);
	ck_assert(!a.exclude_user && a.exclude_kernel && a.exclude_hv);
	a = resolve(INTEL, "cs:k", NULL);
	ck_assert(a.exclude_user && !a.exclude_kernel);
	a = resolve(INTEL, "cpu/cache-misses/u", NULL);
	ck_assert_uint_eq(a.type, 4);
	ck_assert_uint_eq(a.config, 0x412e);
	ck_assert(!a.exclude_user && a.exclude_kernel);
	a = resolve(INTEL, "cpu/event=0x3c,umask=0x1/", NULL);
	ck_assert_uint_eq(a.config, 0x13c);
	ck_assert(!a.exclude_user && !a.exclude_kernel);

	/* hardware cache events */
	a = resolve(INTEL, "L1-dcache-load-misses", NULL);
	ck_assert_uint_eq(a.type, PERF_TYPE_HW_CACHE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_L1D |
					    PERF_COUNT_HW_CACHE_OP_READ << 8 |
					    PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	a = resolve(INTEL, "LLC-stores", NULL);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_WRITE << 8);
	a = resolve(INTEL, "dTLB-prefetch-misses", NULL);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_DTLB |
					    PERF_COUNT_HW_CACHE_OP_PREFETCH << 8 |
					    PERF_COUNT_HW_CACHE_RESULT_MISS << 16);

	/* raw codes */
	a = resolve(INTEL, "r1a8", NULL);
	ck_assert_uint_eq(a.type, PERF_TYPE_RAW);
	ck_assert_uint_eq(a.config, 0x1a8);
	a = resolve(INTEL, "r01C2", NULL);
	ck_assert_uint_eq(a.config, 0x1c2);

	/* a bare sysfs alias, from whichever PMU has it */
	a = resolve(INTEL, "mem-loads", NULL);
	ck_assert_uint_eq(a.type, 4);
	ck_assert_uint_eq(a.config1, 3);
	a = resolve(INTEL, "energy-pkg", NULL);
	ck_assert_uint_eq(a.type, 11);
	ck_assert_str_eq(a.unit, "Joules");
	a = resolve(VM, "tsc", NULL);
	ck_assert_uint_eq(a.type, 9);
	ck_assert_str_eq(a.pmu, "msr");
	a = resolve(VM, "msr/tsc/", NULL);
	ck_assert_uint_eq(a.type, 9);
	ck_assert_uint_eq(a.config, 0);
	a = resolve(AMD, "cpu/event=0x1d6/", NULL);
	ck_assert_uint_eq(a.config, 0x1000000d6ULL);

	/* tracepoint counts take the id from tracefs */
	a = resolve(INTEL, "sched:sched_switch", NULL);
	ck_assert_uint_eq(a.type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_eq(a.config, 372);

	resolve_fails(INTEL, "", "empty");
	resolve_fails(INTEL, "bogus", "unknown event 'bogus'");
	resolve_fails(INTEL, "rxyz", "unknown event");
	resolve_fails(INTEL, "sched:nosuch", "no tracepoint sched:nosuch");
	resolve_fails(INTEL, "a:b:c", "system:event");
	resolve_fails(INTEL, "sched:", "system:event");
	resolve_fails(INTEL, "..:y", "bad tracepoint");
	resolve_fails(INTEL, "../x:y", "pmu/terms/");
	resolve_fails(INTEL, "cpu/", "pmu/terms/");
	resolve_fails(INTEL, "/event=1/", "pmu/terms/");
	resolve_fails(INTEL, "cpu//", "no terms");
	resolve_fails(INTEL, "cpu/event=1/x", "modifier");
	resolve_fails(INTEL, "nosuchpmu/event=1/", "nosuchpmu");
	resolve_fails(INTEL, "cpu/event=0x1ff/", "8 bits");
	resolve_fails(VM, "cpu/event=0x3c/", "no PMU named 'cpu'");
}
END_TEST

START_TEST(test_tracepoint_without_tracefs)
{
	struct kt_pmu_attr a;
	enum kt_pmu_role r;
	char err[256];

	ck_assert_int_eq(pmu_resolve(INTEL, NULL, "sched:sched_switch", &a, &r, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "tracefs"));
}
END_TEST

/* ---- scaling, rates and ratios from recorded group reads --------------------------------- */

/* A group read exactly as read(2) returns it for PERF_FORMAT_GROUP |
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING (no PERF_FORMAT_ID):
 *   struct read_format { u64 nr; u64 time_enabled; u64 time_running; u64 value[nr]; };
 * native-endian. Returns its length in bytes. */
static size_t group_read(unsigned char *buf, uint64_t enabled, uint64_t running, int nr, ...)
{
	uint64_t w;
	size_t off = 0;
	va_list ap;
	int i;

	w = (uint64_t)nr;
	memcpy(buf + off, &w, 8);
	off += 8;
	memcpy(buf + off, &enabled, 8);
	off += 8;
	memcpy(buf + off, &running, 8);
	off += 8;
	va_start(ap, nr);
	for (i = 0; i < nr; i++) {
		w = va_arg(ap, uint64_t);
		memcpy(buf + off, &w, 8);
		off += 8;
	}
	va_end(ap);
	return off;
}

static struct kt_pmu *two_cpu_set(void)
{
	static const int cpus[] = { 0, 1 };
	struct kt_pmu_config cfg = { .sysfs_root = VM, .cpus = cpus, .ncpus = 2 };
	char err[256] = "";
	struct kt_pmu *p = pmu_new(&cfg, err, sizeof(err));

	ck_assert_msg(p != NULL, "pmu_new: %s", err);
	return p;
}

static const struct kt_pmu_counter *by_name(const struct kt_pmu *p, const char *name)
{
	size_t i;

	for (i = 0; i < pmu_ncounters(p); i++)
		if (!strcmp(pmu_counter(p, i)->name, name))
			return pmu_counter(p, i);
	ck_abort_msg("no counter %s", name);
	return NULL;
}

#define FEED(p, slot, group, ...)                                                       \
	do {                                                                            \
		unsigned char b_[128];                                                  \
		size_t n_ = group_read(b_, __VA_ARGS__);                                \
		ck_assert_int_eq(pmu_feed(p, slot, group, b_, n_), 0);                  \
	} while (0)

START_TEST(test_scale)
{
	double share;

	ck_close(pmu_scale(1000, 100, 100, &share), 1000);
	ck_close(share, 1.0);
	ck_close(pmu_scale(1000, 100, 50, &share), 2000);
	ck_close(share, 0.5);
	ck_close(pmu_scale(3, 3 * NSEC, NSEC, &share), 9);
	ck_close(share, 1.0 / 3);
	/* never ran: nothing to scale, and it must not pass for a zero count upstream */
	ck_close(pmu_scale(0, 100, 0, &share), 0);
	ck_close(share, 0);
	/* not enabled yet (a sleeping thread): the value stands */
	ck_close(pmu_scale(0, 0, 0, &share), 0);
	ck_close(share, 1.0);
	/* running can exceed enabled by rounding in the kernel: no scaling below 1 */
	ck_close(pmu_scale(500, 100, 101, &share), 500);
	ck_close(share, 1.0);
	/* big counts keep their precision */
	ck_close(pmu_scale(1ULL << 52, 2 * NSEC, NSEC, NULL), (double)(1ULL << 53));
}
END_TEST

START_TEST(test_group_reads_scaled)
{
	struct kt_pmu *p = two_cpu_set();
	const struct kt_pmu_counter *cyc, *ins, *cs;
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];

	ck_assert_int_eq(pmu_nslots(p), 2);
	pmu_set_start(p, 10 * NSEC);

	/* cpu0 ran the IPC group half the time (multiplexed), cpu1 all of it */
	FEED(p, 0, G_IPC, NSEC, NSEC / 2, 2, (uint64_t)1000, (uint64_t)3000);
	FEED(p, 1, G_IPC, NSEC, NSEC, 2, (uint64_t)2000, (uint64_t)2000);
	/* software group: cpu-clock task-clock cs migrations minor major */
	FEED(p, 0, G_SW, NSEC, NSEC, 6, (uint64_t)NSEC, (uint64_t)NSEC, (uint64_t)100,
	     (uint64_t)3, (uint64_t)500, (uint64_t)1);
	FEED(p, 1, G_SW, NSEC, NSEC, 6, (uint64_t)NSEC, (uint64_t)NSEC, (uint64_t)300,
	     (uint64_t)5, (uint64_t)700, (uint64_t)0);
	pmu_update(p, 11 * NSEC);

	cyc = by_name(p, "cycles");
	ins = by_name(p, "instructions");
	cs = by_name(p, "context-switches");
	ck_assert_int_eq(pmu_samples(p), 1);
	ck_close(pmu_interval(p), 1.0);
	ck_assert(cyc->available && cyc->counted);
	ck_assert_uint_eq(cyc->raw, 3000);
	ck_close(cyc->slots[0].scaled, 2000); /* 1000 * 1 s / 0.5 s */
	ck_close(cyc->slots[1].scaled, 2000);
	ck_close(cyc->value, 4000);
	ck_close(ins->value, 3000 * 2 + 2000);
	ck_close(cyc->share_total, 0.75);
	ck_close(cyc->share, 0.75);
	ck_close(cyc->rate, 4000);
	ck_close(cyc->slots[0].rate, 2000);
	ck_close(cs->value, 400);
	ck_close(cs->rate, 400);
	ck_close(cs->share, 1.0);
	ck_close(by_name(p, "minor-faults")->value, 1200);
	ck_close(by_name(p, "major-faults")->value, 1);

	pmu_ratios(p, r);
	ck_assert_str_eq(r[0].name, "IPC");
	ck_close(r[0].value, 8000.0 / 4000.0);
	ck_close(r[0].rate_value, 2.0);

	/* Second read, 2 s later: cpu0's group ran the whole interval this time. */
	FEED(p, 0, G_IPC, 3 * NSEC, 5 * NSEC / 2, 2, (uint64_t)5000, (uint64_t)7000);
	FEED(p, 1, G_IPC, 3 * NSEC, 3 * NSEC, 2, (uint64_t)4000, (uint64_t)10000);
	FEED(p, 0, G_SW, 3 * NSEC, 3 * NSEC, 6, (uint64_t)(3 * NSEC), (uint64_t)(3 * NSEC),
	     (uint64_t)300, (uint64_t)3, (uint64_t)500, (uint64_t)1);
	FEED(p, 1, G_SW, 3 * NSEC, 3 * NSEC, 6, (uint64_t)(3 * NSEC), (uint64_t)(3 * NSEC),
	     (uint64_t)500, (uint64_t)5, (uint64_t)700, (uint64_t)0);
	pmu_update(p, 13 * NSEC);
	ck_close(pmu_interval(p), 2.0);
	/* cumulative: cpu0 5000 * 3/2.5 = 6000, cpu1 4000 */
	ck_close(cyc->value, 10000);
	/* interval: cpu0 4000 counted in 2 s of 2 s running, cpu1 2000: 6000 / 2 s */
	ck_close(cyc->rate, 3000);
	ck_close(cyc->share, 1.0);
	ck_close(cyc->share_total, (2.5 + 3.0) / 6.0);
	ck_close(cs->rate, (200 + 200) / 2.0);
	/* IPC over the interval: (4000 + 8000) / (4000 + 2000) */
	pmu_ratios(p, r);
	ck_close(r[0].rate_value, 2.0);
	ck_close(r[0].value, (7000 * 1.2 + 10000) / 10000.0);
	pmu_free(p);
}
END_TEST

START_TEST(test_ratios_and_not_counted)
{
	struct kt_pmu *p = two_cpu_set();
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	const struct kt_pmu_counter *br;

	pmu_set_start(p, 0);
	/* cache: references, misses */
	FEED(p, 0, G_CACHE, NSEC, NSEC, 2, (uint64_t)1000, (uint64_t)50);
	FEED(p, 1, G_CACHE, NSEC, NSEC / 4, 2, (uint64_t)250, (uint64_t)25);
	/* branches: cpu0 never got a counter (multiplexed out), cpu1 counted */
	FEED(p, 0, G_BRANCH, NSEC, 0, 2, (uint64_t)0, (uint64_t)0);
	FEED(p, 1, G_BRANCH, NSEC, NSEC, 2, (uint64_t)10000, (uint64_t)200);
	pmu_update(p, NSEC);

	br = by_name(p, "branches");
	ck_assert(br->counted);
	ck_close(br->value, 10000); /* cpu0 contributes nothing, not a fake zero rate */
	ck_assert(isnan(br->slots[0].rate));
	ck_close(br->slots[1].rate, 10000);
	ck_close(br->share, 0.5);

	pmu_ratios(p, r);
	/* IPC: cycles and instructions were never fed */
	ck_assert(isnan(r[0].value));
	ck_assert_ptr_nonnull(strstr(r[0].why, "cycles"));
	/* cache-miss-rate: (50 + 100) / (1000 + 1000) */
	ck_assert_str_eq(r[1].name, "cache-miss-rate");
	ck_assert_str_eq(r[1].unit, "%");
	ck_close(r[1].value, 7.5);
	ck_close(r[2].value, 2.0);
	pmu_free(p);

	/* A group that never ran anywhere is not counted: no value, no ratio. */
	p = two_cpu_set();
	pmu_set_start(p, 0);
	FEED(p, 0, G_IPC, NSEC, 0, 2, (uint64_t)0, (uint64_t)0);
	FEED(p, 1, G_IPC, NSEC, 0, 2, (uint64_t)0, (uint64_t)0);
	pmu_update(p, NSEC);
	ck_assert(!by_name(p, "cycles")->counted);
	ck_assert(isnan(by_name(p, "cycles")->rate));
	ck_close(by_name(p, "cycles")->share, 0);
	pmu_ratios(p, r);
	ck_assert(isnan(r[0].value));
	ck_assert_ptr_nonnull(strstr(r[0].why, "counted"));
	pmu_free(p);
}
END_TEST

START_TEST(test_feed_rejects_mismatch)
{
	struct kt_pmu *p = two_cpu_set();
	unsigned char b[128];
	size_t n;

	/* the IPC group has two members: a three-value read is someone else's */
	n = group_read(b, 1, 1, 3, (uint64_t)1, (uint64_t)2, (uint64_t)3);
	ck_assert_int_eq(pmu_feed(p, 0, G_IPC, b, n), -1);
	n = group_read(b, 1, 1, 2, (uint64_t)1, (uint64_t)2);
	ck_assert_int_eq(pmu_feed(p, 0, G_IPC, b, n - 8), -1); /* short read */
	ck_assert_int_eq(pmu_feed(p, 0, G_IPC, b, 16), -1);
	ck_assert_int_eq(pmu_feed(p, 2, G_IPC, b, n), -1);	 /* no such slot */
	ck_assert_int_eq(pmu_feed(p, 0, 99, b, n), -1);		 /* no such group */
	ck_assert_int_eq(pmu_feed(p, 0, G_IPC, b, n), 0);
	pmu_free(p);
}
END_TEST

START_TEST(test_counter_going_backwards)
{
	struct kt_pmu *p = two_cpu_set();
	const struct kt_pmu_counter *cs;

	pmu_set_start(p, 0);
	FEED(p, 0, G_SW, NSEC, NSEC, 6, (uint64_t)1, (uint64_t)1, (uint64_t)100, (uint64_t)0,
	     (uint64_t)0, (uint64_t)0);
	pmu_update(p, NSEC);
	/* never a negative or huge rate, whatever the buffer says */
	FEED(p, 0, G_SW, 2 * NSEC, 2 * NSEC, 6, (uint64_t)1, (uint64_t)1, (uint64_t)50,
	     (uint64_t)0, (uint64_t)0, (uint64_t)0);
	pmu_update(p, 2 * NSEC);
	cs = by_name(p, "context-switches");
	ck_close(cs->rate, 0);
	pmu_free(p);
}
END_TEST

/* ---- what cannot be counted ---------------------------------------------------------------- */

START_TEST(test_reasons)
{
	struct kt_pmu_attr a;
	char buf[512];

	pmu_attr_init(&a);
	a.type = PERF_TYPE_HARDWARE;
	/* This machine's case: a VM without a PMU driver. */
	pmu_reason(ENOENT, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "no PMU driver"));
	ck_assert_ptr_nonnull(strstr(buf, "software counters still work"));
	/* A PMU that lacks one generic event. */
	pmu_reason(ENOENT, &a, INTEL, false, buf, sizeof(buf));
	ck_assert_ptr_null(strstr(buf, "no PMU driver"));
	ck_assert_ptr_nonnull(strstr(buf, "no such event"));
	pmu_reason(ENOENT, &a, AMD, false, buf, sizeof(buf));
	ck_assert_ptr_null(strstr(buf, "no PMU driver"));
	pmu_reason(EACCES, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "not permitted"));
	ck_assert_ptr_nonnull(strstr(buf, "CAP_PERFMON"));
	pmu_reason(EPERM, &a, VM, true, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "EPERM"));
	pmu_reason(EOPNOTSUPP, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "EOPNOTSUPP"));
	pmu_reason(EINVAL, &a, VM, true, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "-p"));
	a.exclude_kernel = true;
	pmu_reason(EINVAL, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "modifier"));
	pmu_reason(EMFILE, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "ulimit -n"));
	pmu_reason(EBUSY, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "EBUSY"));
	pmu_reason(ENOSYS, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "CONFIG_PERF_EVENTS"));
	pmu_attr_init(&a);
	a.type = PERF_TYPE_TRACEPOINT;
	pmu_reason(ENOENT, &a, VM, false, buf, sizeof(buf));
	ck_assert_ptr_null(strstr(buf, "no PMU driver"));
	pmu_attr_init(&a);
	a.type = 4242;
	snprintf(a.pmu, sizeof(a.pmu), "bogus");
	pmu_reason(ENOENT, &a, INTEL, false, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "bogus"));
	ck_assert_ptr_null(strchr(buf, '\n'));
}
END_TEST

/* The real perf_event_open on whatever runs the tests: an event of a PMU type no kernel has
 * (the fixture's bogus/ghost, type 4242) and an unknown name must come back unavailable
 * with a reason, never as a zero, while the set itself opens. Counting the test's own
 * thread, so no privilege is needed for the call itself. */
START_TEST(test_unavailable_opened_for_real)
{
	static const char *const specs[] = { "bogus/ghost/", "no-such-event", "task-clock" };
	pid_t self = getpid();
	struct kt_pmu_config cfg = { .sysfs_root = INTEL, .tids = &self, .ntids = 1,
				     .events = specs, .nevents = 3, .no_defaults = true };
	const struct kt_pmu_counter *ghost, *unk, *tc;
	char err[256] = "", *text = NULL;
	size_t len = 0;
	struct kt_pmu *p;
	FILE *out;
	int n;

	p = pmu_new(&cfg, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert(pmu_per_task(p));
	n = pmu_open(p, err, sizeof(err));
	ck_assert_msg(n >= 0, "%s", err);
	ghost = pmu_counter(p, 0);
	unk = pmu_counter(p, 1);
	tc = pmu_counter(p, 2);
	ck_assert(!ghost->available);
	ck_assert_int_ne(ghost->err, 0);
	ck_assert_msg(ghost->reason[0] != '\0', "no reason");
	ck_assert_ptr_null(strchr(ghost->reason, '\n'));
	ck_assert(!unk->available && !unk->resolved);
	ck_assert_ptr_nonnull(strstr(unk->reason, "unknown event"));
	/* task-clock of oneself opens wherever perf_event_open is allowed at all */
	ck_assert_int_eq(n, tc->available ? 1 : 0);
	if (!tc->available)
		ck_assert(tc->reason[0]);
	pmu_read(p);
	pmu_read(p);
	ck_assert(!ghost->counted);
	ck_assert_uint_eq(ghost->raw, 0);

	out = open_memstream(&text, &len);
	pmu_write_json(p, out);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "{\"pmu\":{\"target\":\"pid\""));
	ck_assert_ptr_nonnull(strstr(text, "\"name\":\"bogus/ghost/\",\"available\":false,"
					   "\"reason\":\""));
	ck_assert_ptr_nonnull(strstr(text, "\"name\":\"no-such-event\",\"available\":false,"
					   "\"reason\":\"unknown event"));
	ck_assert_ptr_nonnull(strstr(text, "\"derived\":[{\"name\":\"IPC\",\"value\":null"));
	ck_assert_int_eq(text[strlen(text) - 1], '\n');
	ck_assert_ptr_eq(strchr(text, '\n'), text + strlen(text) - 1); /* one line */
	free(text);

	text = NULL;
	out = open_memstream(&text, &len);
	pmu_write_text(p, out);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "bogus/ghost/"));
	ck_assert_ptr_nonnull(strstr(text, " n/a  "));
	free(text);
	pmu_free(p);
}
END_TEST

START_TEST(test_target_gone)
{
	/* no such thread (beyond pid_max): every slot is gone, which is an error */
	pid_t nobody = 0x3ffffff0;
	struct kt_pmu_config cfg = { .sysfs_root = VM, .tids = &nobody, .ntids = 1 };
	char err[256] = "";
	struct kt_pmu *p = pmu_new(&cfg, err, sizeof(err));

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(pmu_open(p, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "exited"));
	pmu_free(p);

	/* -p of a process that does not exist fails up front */
	cfg.tids = NULL;
	cfg.ntids = 0;
	cfg.pids = &nobody;
	cfg.npids = 1;
	p = pmu_new(&cfg, err, sizeof(err));
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(strstr(err, "no such process"));
}
END_TEST

START_TEST(test_default_set_shape)
{
	struct kt_pmu *p = two_cpu_set();
	char buf[64];
	size_t i;

	/* software first, then the hardware pairs; stalled cycles are optional */
	ck_assert_str_eq(pmu_counter(p, 0)->name, "cpu-clock");
	ck_assert(by_name(p, "stalled-cycles-frontend")->optional);
	ck_assert(!by_name(p, "cycles")->optional);
	ck_assert_int_eq(by_name(p, "cycles")->group, by_name(p, "instructions")->group);
	ck_assert_int_eq(by_name(p, "cache-references")->group,
			 by_name(p, "cache-misses")->group);
	ck_assert_int_eq(by_name(p, "branches")->group, by_name(p, "branch-misses")->group);
	ck_assert_int_ne(by_name(p, "cycles")->group, by_name(p, "cpu-clock")->group);
	for (i = 0; i < pmu_ncounters(p); i++)
		ck_assert(pmu_counter(p, i)->resolved);
	ck_assert_str_eq(pmu_slot_label(p, 1, buf, sizeof(buf)), "cpu1");
	ck_assert_str_eq(pmu_target_text(p, buf, sizeof(buf)), "system-wide, 2 CPUs");
	ck_assert_int_eq(pmu_samples(p), 0);
	pmu_free(p);
}
END_TEST

static Suite *pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = tcase_create("sysfs");

	tcase_add_test(tc, test_format_ranges);
	tcase_add_test(tc, test_intel_terms_and_aliases);
	tcase_add_test(tc, test_amd_terms);
	tcase_add_test(tc, test_find_alias);
	tcase_add_test(tc, test_resolve_specs);
	tcase_add_test(tc, test_tracepoint_without_tracefs);
	suite_add_tcase(s, tc);

	tc = tcase_create("counting");
	tcase_add_test(tc, test_scale);
	tcase_add_test(tc, test_group_reads_scaled);
	tcase_add_test(tc, test_ratios_and_not_counted);
	tcase_add_test(tc, test_feed_rejects_mismatch);
	tcase_add_test(tc, test_counter_going_backwards);
	tcase_add_test(tc, test_default_set_shape);
	suite_add_tcase(s, tc);

	tc = tcase_create("unavailable");
	tcase_add_test(tc, test_reasons);
	tcase_add_test(tc, test_unavailable_opened_for_real);
	tcase_add_test(tc, test_target_gone);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(pmu_suite());
}
