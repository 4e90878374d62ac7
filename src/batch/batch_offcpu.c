// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode's off-CPU profile (batch_offcpu.h). The BPF programs add in the kernel; each -d
 * the counts are read into a stack tree, whose frames are named while their processes are
 * still there to be read, and the tree is printed once at the end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/tracefs/cgroup.h"
#include "backend/bpf/offcpu.h"
#include "backend/tracefs/privs.h"
#include "backend/stacks/stacks.h"
#include "backend/symbols/symbolize.h"
#include "batch_offcpu.h"
#include "util/clock.h"
#include "util/json.h"
#include "app/options.h"
#include "app/signals.h"

struct run {
	const struct kt_options *o;
	FILE *out;
	struct kt_offcpu *oc;
	struct kt_stacks *st;
	int wake[2];
};

/* -p, --comm, --cgroup as the programs filter. Returns 0, or an exit code with the reason on
 * stderr. */
static int scope_of(const struct kt_options *o, struct kt_offcpu_scope *s, struct kt_cgroup *cg)
{
	char err[512], proc[64];

	memset(s, 0, sizeof(*s));
	s->comm = o->comm;
	s->via = o->off_cpu_via;
	s->wakers = o->wakers;
	if (o->n_pids) {
		snprintf(proc, sizeof(proc), "/proc/%d", (int)o->pids[0]);
		if (access(proc, F_OK) < 0) {
			fprintf(stderr, "ktop: -p %d: no such process\n", (int)o->pids[0]);
			return KT_EXIT_USAGE;
		}
		s->tgid = (unsigned int)o->pids[0];
	}
	if (!o->cgroup)
		return 0;
	if (cgroup_resolve(o->cgroup, cg, err, sizeof(err)) < 0) {
		fprintf(stderr, "ktop: %s\n", err);
		return KT_EXIT_USAGE;
	}
	if (!cg->v2) {
		fprintf(stderr, "ktop: --off-cpu filters by cgroup v2 ids only, and %s is a v1 "
			"cgroup: give its path below the cgroup v2 mount\n", cg->dir);
		return KT_EXIT_USAGE;
	}
	s->cgroup_id = cg->id;
	s->cgroup_level = cg->level;
	return 0;
}

static void poll_once(struct run *r)
{
	char err[256];

	if (offcpu_poll(r->oc, r->st, err, sizeof(err)) < 0)
		fprintf(stderr, "ktop: %s\n", err);
}

/* Polls every -d until --duration's end or a signal, then once more. */
static void capture(struct run *r)
{
	unsigned long long now, deadline = 0;
	struct pollfd pfd = { .fd = r->wake[0], .events = POLLIN };
	char buf[64];
	int timeout;

	if (r->o->duration > 0)
		deadline = clock_mono_ns() + (unsigned long long)(r->o->duration * 1e9);
	for (;;) {
		now = clock_mono_ns();
		if (signals_pending() || (deadline && now >= deadline))
			break;
		timeout = (int)r->o->delay_ms;
		if (deadline && (deadline - now) / 1000000ull < (unsigned long long)timeout)
			timeout = (int)((deadline - now) / 1000000ull) + 1;
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			break;
		while (read(r->wake[0], buf, sizeof(buf)) > 0)
			;
		poll_once(r);
	}
	poll_once(r);
}

void batch_offcpu_counts(const struct kt_offcpu *oc, const struct kt_stacks *st, FILE *out)
{
	struct kt_offcpu_stats s;
	struct kt_symstats sy;

	offcpu_stats(oc, &s);
	symbolizer_stats(offcpu_symbolizer(oc), &sy);
	fprintf(out,
		"via=%s unit=%s total=%llu stretches=%llu stacks=%zu lost_kernel_stacks=%llu "
		"lost_user_stacks=%llu dropped=%llu dropped_ns=%llu starts_dropped=%llu "
		"unended=%llu missed=%llu frames_unresolved=%llu frames_resolved=%llu",
		offcpu_variant(oc), stacks_unit_name(KT_STACK_NSEC), (unsigned long long)s.ns,
		(unsigned long long)s.stretches, stacks_leaves(st),
		(unsigned long long)s.lost_kstacks, (unsigned long long)s.lost_ustacks,
		(unsigned long long)s.dropped, (unsigned long long)s.dropped_ns,
		(unsigned long long)s.starts_dropped, (unsigned long long)s.unended,
		(unsigned long long)s.missed, (unsigned long long)sy.unresolved,
		(unsigned long long)sy.resolved);
	if (offcpu_wakers(oc))
		fputs(" wakers=1", out);
}

void batch_offcpu_json(const struct kt_offcpu *oc, const struct kt_stacks *st, bool quiet,
		       FILE *out)
{
	struct kt_offcpu_stats s;
	struct kt_symstats sy;

	offcpu_stats(oc, &s);
	symbolizer_stats(offcpu_symbolizer(oc), &sy);
	fputs("{\"offcpu\":{\"via\":", out);
	json_string(out, offcpu_variant(oc));
	if (offcpu_wakers(oc))
		fputs(",\"wakers\":true", out);
	fprintf(out,
		",\"unit\":\"%s\",\"total\":%llu,\"stretches\":%llu,\"lost_kernel_stacks\":%llu,"
		"\"lost_user_stacks\":%llu,\"dropped\":%llu,\"dropped_ns\":%llu,"
		"\"starts_dropped\":%llu,\"unended\":%llu,\"missed\":%llu,"
		"\"frames_unresolved\":%llu,\"frames_resolved\":%llu,\"stacks\":",
		stacks_unit_name(KT_STACK_NSEC), (unsigned long long)s.ns,
		(unsigned long long)s.stretches, (unsigned long long)s.lost_kstacks,
		(unsigned long long)s.lost_ustacks, (unsigned long long)s.dropped,
		(unsigned long long)s.dropped_ns, (unsigned long long)s.starts_dropped,
		(unsigned long long)s.unended, (unsigned long long)s.missed,
		(unsigned long long)sy.unresolved, (unsigned long long)sy.resolved);
	if (quiet)
		fputs("[]", out);
	else
		stacks_write_json(st, out);
	fputs("}}\n", out);
}

/* As batch_profile.c prints the on-CPU profile: text, a "# off-cpu:" line of counts, then
 * the folded stacks; --folded, the counts on stderr and the stacks alone; --json, one
 * object with its stacks. -q: the counts alone. */
static void print_profile(struct run *r)
{
	FILE *counts = r->o->folded ? stderr : r->out;

	if (r->o->json) {
		batch_offcpu_json(r->oc, r->st, r->o->quiet, r->out);
		return;
	}
	fputs(r->o->folded ? "ktop: off-cpu: " : "# off-cpu: ", counts);
	batch_offcpu_counts(r->oc, r->st, counts);
	fputc('\n', counts);
	if (!r->o->quiet)
		stacks_write_folded(r->st, r->out);
}

static int run_profile(struct run *r, const struct kt_offcpu_scope *scope)
{
	char err[1400];

	r->oc = offcpu_open(scope, err, sizeof(err));
	if (!r->oc) {
		fprintf(stderr, "ktop: %s\n", err);
		return KT_EXIT_FAILURE;
	}
	/* a fallback is no error, but says why the cheaper variants were refused */
	if (*offcpu_refused(r->oc))
		fprintf(stderr, "ktop: off-CPU profile via %s (%s)\n", offcpu_variant(r->oc),
			offcpu_refused(r->oc));
	capture(r);
	print_profile(r);
	fflush(r->out);
	return KT_EXIT_OK;
}

int batch_offcpu_run(const struct kt_options *o, FILE *out)
{
	struct run r = { .o = o, .out = out, .wake = { -1, -1 } };
	struct kt_offcpu_scope scope;
	struct kt_privs pv;
	struct kt_cgroup cg;
	char err[512];
	int ret;

	privs_read(&pv);
	if (privs_bpf_refusal(&pv, err, sizeof(err))) {
		fprintf(stderr, "ktop: off-CPU profile: %s\n", err);
		return KT_EXIT_NOPERM;
	}
	ret = scope_of(o, &scope, &cg);
	if (ret)
		return ret;
	r.st = stacks_new(KT_STACK_NSEC);
	if (!r.st) {
		fprintf(stderr, "ktop: off-CPU profile: out of memory\n");
		ret = KT_EXIT_FAILURE;
		goto out;
	}
	if (pipe2(r.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "ktop: cannot create a pipe: %s\n", strerror(errno));
		ret = KT_EXIT_FAILURE;
		goto out;
	}
	signals_install(r.wake[1]);
	ret = run_profile(&r, &scope);
out:
	offcpu_free(r.oc);
	stacks_free(r.st);
	if (r.wake[0] >= 0) {
		close(r.wake[0]);
		close(r.wake[1]);
	}
	return ret;
}
