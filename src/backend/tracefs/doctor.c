// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop --doctor: probes what this kernel and these privileges allow, reading files and
 * loading throwaway BPF programs and perf counters that are closed at once. It creates no
 * instance and writes no tracefs file; when tracefs is not mounted it looks through a mount
 * in a private mount namespace that vanishes with the process. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "catalog.h"
#include "doctor.h"
#include "privs.h"
#include "util/json.h"
#include "util/strutil.h"
#include "util/fileio.h"
#include "session.h"
#include "tracers.h"

struct doctor {
	FILE *out;
	int json;
	int nlines;
	char tracing[PATH_MAX]; /* "" when tracefs is not mounted */
	char no_tracefs[256];	/* why tracefs cannot be read, "" when it can */
	bool root, sys_admin, bpf_cap, perfmon;
	bool bpf_denied;	/* no CAP_BPF and unprivileged BPF disabled */
	int unpriv_bpf;		/* kernel.unprivileged_bpf_disabled, -1 unknown */
};

static void report(struct doctor *d, bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* One line: "ok   name: detail" or "no   name: reason (way out)". */
static void report(struct doctor *d, bool ok, const char *name, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (d->json) {
		fputs(d->nlines ? ",\n  " : "{\n  ", d->out);
		json_string(d->out, name);
		fprintf(d->out, ": {\"ok\": %s, \"detail\": ", ok ? "true" : "false");
		json_string(d->out, detail);
		fputc('}', d->out);
	} else {
		fprintf(d->out, "%-5s%s: %s\n", ok ? "ok" : "no", name, detail);
	}
	d->nlines++;
}

static bool tracing_file(struct doctor *d, const char *name, char *path, size_t len)
{
	if (!d->tracing[0])
		return false;
	return snprintf(path, len, "%s/%s", d->tracing, name) < (int)len;
}

static bool tracing_exists(struct doctor *d, const char *name)
{
	char path[PATH_MAX];

	return tracing_file(d, name, path, sizeof(path)) && access(path, F_OK) == 0;
}

/* ---- privileges ------------------------------------------------------------------------ */

static void check_privileges(struct doctor *d)
{
	struct kt_privs pv;

	privs_read(&pv);
	d->root = pv.root;
	d->sys_admin = pv.sys_admin;
	d->bpf_cap = pv.bpf;
	d->perfmon = pv.perfmon;

	if (d->root)
		report(d, true, "root", "running as root (euid 0)");
	else
		report(d, false, "root", "euid %d: tracefs is root's, no capability but "
		       "CAP_DAC_OVERRIDE opens it (run ktop as root, e.g. with sudo)",
		       (int)geteuid());
	report(d, d->sys_admin, "cap_sys_admin", "%s", d->sys_admin
	       ? "CAP_SYS_ADMIN in CapEff: tracefs may be mounted"
	       : "CAP_SYS_ADMIN missing from CapEff: tracefs cannot be mounted if it is not "
		 "(run ktop as root or with CAP_SYS_ADMIN)");
	report(d, d->bpf_cap || d->sys_admin, "cap_bpf", "%s", d->bpf_cap
	       ? "CAP_BPF in CapEff: BPF programs and maps may be loaded"
	       : d->sys_admin ? "CAP_BPF missing, CAP_SYS_ADMIN stands in for it"
			      : "CAP_BPF missing from CapEff (run ktop as root or with CAP_BPF)");
	report(d, d->perfmon || d->sys_admin, "cap_perfmon", "%s", d->perfmon
	       ? "CAP_PERFMON in CapEff: perf counters of any task and CPU"
	       : d->sys_admin ? "CAP_PERFMON missing, CAP_SYS_ADMIN stands in for it"
			      : "CAP_PERFMON missing from CapEff (run ktop as root or with "
				"CAP_PERFMON)");
}

static void check_lockdown(struct doctor *d)
{
	char buf[256], *sel, *end;

	if (file_read_trimmed("/sys/kernel/security/lockdown", buf, sizeof(buf)) < 0) {
		report(d, true, "lockdown", "no lockdown (no /sys/kernel/security/lockdown)");
		return;
	}
	sel = strchr(buf, '[');
	end = sel ? strchr(sel, ']') : NULL;
	if (!sel || !end) {
		report(d, true, "lockdown", "%s", buf);
		return;
	}
	*end = '\0';
	sel++;
	if (!strcmp(sel, "none"))
		report(d, true, "lockdown", "none");
	else if (!strcmp(sel, "integrity"))
		report(d, false, "lockdown",
		       "integrity: kprobes and BPF writes to user memory are refused "
		       "(boot with lockdown=none or disable secure boot)");
	else
		report(d, false, "lockdown",
		       "%s: tracefs, BPF and perf reads of kernel memory are refused "
		       "(boot with lockdown=none or disable secure boot)", sel);
}

/* ---- tracefs --------------------------------------------------------------------------- */

static bool tracefs_known(void)
{
	char line[128];
	bool found = false;
	FILE *f;

	f = fopen("/proc/filesystems", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\ttracefs\n"))
			found = true;
	fclose(f);
	return found;
}

/* Returns true when tracefs is mounted or ktop could mount it. */
static bool check_tracefs(struct doctor *d)
{
	int e;

	if (session_mounted_tracing_dir(d->tracing, sizeof(d->tracing)) == 0) {
		if (access(d->tracing, R_OK | X_OK) < 0) {
			e = errno;
			snprintf(d->no_tracefs, sizeof(d->no_tracefs), "cannot read tracefs: %s%s",
				 strerror(e), e == EACCES || e == EPERM
				 ? " (run ktop as root or with CAP_SYS_ADMIN)" : "");
			report(d, false, "tracefs", "mounted at %s, but %s", d->tracing,
			       d->no_tracefs);
			return false;
		}
		report(d, true, "tracefs", "mounted at %s", d->tracing);
		return true;
	}
	d->tracing[0] = '\0';
	snprintf(d->no_tracefs, sizeof(d->no_tracefs), "tracefs not mounted");
	if (!tracefs_known()) {
		report(d, false, "tracefs", "this kernel has no tracefs (built without "
		       "CONFIG_TRACING; boot a kernel with tracing support)");
		return false;
	}
	if (!d->sys_admin) {
		report(d, false, "tracefs", "not mounted, and mounting needs CAP_SYS_ADMIN (run "
		       "ktop as root, or mount -t tracefs nodev /sys/kernel/tracing)");
		return false;
	}
	/* Look inside through a mount in a private mount namespace of this process only: the
	 * machine's mounts stay as they are. */
	if (unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		snprintf(d->tracing, sizeof(d->tracing), "/sys/kernel/tracing");
		d->no_tracefs[0] = '\0';
		report(d, true, "tracefs", "not mounted yet; mountable (ktop mounts it at "
		       "/sys/kernel/tracing when it starts; probed through a private mount)");
		return true;
	}
	snprintf(d->no_tracefs, sizeof(d->no_tracefs), "tracefs not mounted yet (ktop mounts "
		 "it at start)");
	report(d, true, "tracefs", "not mounted yet; mountable (ktop mounts it at "
	       "/sys/kernel/tracing when it starts)");
	return true;
}

/* Reports name as unknown when tracefs cannot be read; returns whether it can. */
static bool need_tracefs(struct doctor *d, const char *name)
{
	if (!d->no_tracefs[0])
		return true;
	report(d, false, name, "%s", d->no_tracefs);
	return false;
}

/* Returns the number of tracepoints. */
static int check_tracepoints(struct doctor *d)
{
	char path[PATH_MAX];
	struct kt_catalog *cat;
	int nev, nsys = 0;
	size_t i;

	if (!need_tracefs(d, "tracepoints") ||
	    !tracing_file(d, "available_events", path, sizeof(path)))
		return 0;
	cat = catalog_load_file(path);
	if (!cat) {
		report(d, false, "tracepoints", "cannot read %s: %s%s", path, strerror(errno),
		       errno == EACCES || errno == EPERM
		       ? " (run ktop as root or with CAP_SYS_ADMIN)" : "");
		return 0;
	}
	/* sorted by system: each system starts where the one before differs */
	for (i = 0; i < cat->count; i++)
		if (!i || strcmp(cat->events[i].system, cat->events[i - 1].system))
			nsys++;
	nev = (int)cat->count;
	catalog_free(cat);
	if (nev)
		report(d, true, "tracepoints", "%d tracepoints in %d systems", nev, nsys);
	else
		report(d, false, "tracepoints", "no tracepoints in available_events (kernel "
		       "built without CONFIG_EVENT_TRACING?)");
	return nev;
}

/* The tracepoints --hist lock-contention times; the kernel has them from Linux 5.19. */
static void check_lock_events(struct doctor *d)
{
	if (!need_tracefs(d, "lock_contention"))
		return;
	if (tracing_exists(d, "events/lock/contention_begin") &&
	    tracing_exists(d, "events/lock/contention_end"))
		report(d, true, "lock_contention", "lock:contention_begin/contention_end present "
		       "(--hist lock-contention)");
	else
		report(d, false, "lock_contention", "no lock:contention_begin/contention_end "
		       "tracepoints (Linux 5.19 added them): --hist lock-contention cannot run");
}

static void check_instances(struct doctor *d)
{
	char path[PATH_MAX], names[512] = "";
	struct dirent *de;
	size_t off = 0;
	int n = 0;
	DIR *dir;

	if (!need_tracefs(d, "instances") || !tracing_file(d, "instances", path, sizeof(path)))
		return;
	dir = opendir(path);
	if (!dir) {
		report(d, false, "instances", "cannot open %s: %s (ktop needs instances: kernel "
		       "2.6.36 or later)", path, strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		if (off < sizeof(names) - 1)
			off += snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "",
					de->d_name);
	}
	closedir(dir);
	if (off >= sizeof(names))
		strcpy(names + sizeof(names) - 4, "...");
	if (access(path, W_OK) < 0)
		report(d, false, "instances", "%s is not writable (run ktop as root or with "
		       "CAP_SYS_ADMIN)", path);
	else if (n)
		report(d, true, "instances", "supported; %d existing: %s", n, names);
	else
		report(d, true, "instances", "supported; none existing");
}

static void check_tracers(struct doctor *d)
{
	char path[PATH_MAX], *tracers, buf[64];
	bool have_function, have_graph, function_refused = false;
	int e;

	if (!need_tracefs(d, "tracers")) {
		need_tracefs(d, "function");
		need_tracefs(d, "function_graph");
		return;
	}
	tracers = tracers_read_available(d->tracing);
	if (!tracers)
		report(d, false, "tracers", "cannot read available_tracers: %s", strerror(errno));
	else
		report(d, true, "tracers", "available_tracers: %s", str_trim(tracers));
	have_function = tracers && str_has_word(tracers, "function");
	have_graph = tracers && str_has_word(tracers, "function_graph");
	free(tracers);

	if (!have_function) {
		report(d, false, "function", "not in available_tracers (kernel built without "
		       "CONFIG_FUNCTION_TRACER)");
	} else if (tracing_file(d, "available_filter_functions", path, sizeof(path))) {
		/* Reading is harmless; a refusal here means every function hook is refused. */
		e = file_read_small(path, buf, sizeof(buf)) < 0 ? errno : 0;
		if (!e)
			report(d, true, "function", "function tracer available "
			       "(available_filter_functions readable)");
		else if (e == EPERM)
			report(d, false, "function", "function tracer refused (EPERM on "
			       "available_filter_functions): this kernel forbids function hooks");
		else
			report(d, false, "function", "available_filter_functions: %s%s",
			       strerror(e), e == EACCES
			       ? " (run ktop as root or with CAP_SYS_ADMIN)" : "");
		function_refused = e != 0;
	}
	if (!have_graph)
		report(d, false, "function_graph", "not in available_tracers "
		       "(CONFIG_FUNCTION_GRAPH_TRACER not set)");
	else if (function_refused)
		report(d, false, "function_graph", "in available_tracers, but function hooks are "
		       "refused (see function)");
	else
		report(d, true, "function_graph", "in available_tracers");
}

static void check_dynamic(struct doctor *d)
{
	char path[PATH_MAX];
	static const char *const names[] = { "kprobe_events", "uprobe_events", "dynamic_events",
					     "hist_triggers", "synthetic_events" };
	size_t i;

	if (d->no_tracefs[0]) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			need_tracefs(d, names[i]);
		return;
	}
	if (tracing_exists(d, "kprobe_events"))
		report(d, true, "kprobe_events", "kprobe_events present");
	else
		report(d, false, "kprobe_events", "kernel built without CONFIG_KPROBE_EVENTS "
		       "(no kprobe_events file)");
	if (tracing_exists(d, "uprobe_events"))
		report(d, true, "uprobe_events", "uprobe_events present");
	else
		report(d, false, "uprobe_events", "kernel built without CONFIG_UPROBE_EVENTS "
		       "(no uprobe_events file)");
	if (tracing_exists(d, "dynamic_events"))
		report(d, true, "dynamic_events", "dynamic_events present");
	else
		report(d, false, "dynamic_events", "no dynamic_events: kernel older than 5.2 or "
		       "without probe events");
	if (tracing_file(d, "events/sched/sched_switch/hist", path, sizeof(path)) &&
	    access(path, F_OK) == 0)
		report(d, true, "hist_triggers", "events/*/hist present");
	else
		report(d, false, "hist_triggers", "no events/sched/sched_switch/hist: "
		       "CONFIG_HIST_TRIGGERS not set");
	if (tracing_exists(d, "synthetic_events"))
		report(d, true, "synthetic_events", "synthetic_events present");
	else
		report(d, false, "synthetic_events", "CONFIG_SYNTH_EVENTS not set "
		       "(no synthetic_events file)");
}

/* ---- BPF ------------------------------------------------------------------------------- */

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static const char *bpf_way_out(struct doctor *d, int e)
{
	if (e == EPERM || e == EACCES)
		return d->root || d->bpf_cap ? "" : " (run ktop as root or with CAP_BPF)";
	return "";
}

static void probe_prog_type(struct doctor *d, const char *name, enum bpf_prog_type type,
			    const char *what)
{
	int ret = libbpf_probe_bpf_prog_type(type, NULL);

	if (ret == 1)
		report(d, true, name, "%s programs load", what);
	else if (ret == 0)
		report(d, false, name, "%s programs not supported by this kernel", what);
	else
		report(d, false, name, "%s programs: %s%s", what, strerror(-ret),
		       bpf_way_out(d, -ret));
}

/* Loads "r0 = 0; exit" as a BPF_PROG_TYPE_TRACING program bound to a BTF type. Returns 0,
 * or the errno of the load. */
static int load_tracing(struct btf *btf, const char *target, int kind,
			enum bpf_attach_type attach)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int id, fd;

	id = btf__find_by_name_kind(btf, target, kind);
	if (id < 0)
		return ENOENT;
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach,
			    .attach_btf_id = (__u32)id);

		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "ktop_doctor", "GPL", insns, 2, &opts);
	}
	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

static void check_bpf(struct doctor *d)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet_print);
	bool have_btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	static const char *const names[] = { "bpf_tracepoint", "bpf_raw_tracepoint",
					     "bpf_perf_event", "bpf_kprobe", "bpf_tracing",
					     "bpf_fentry" };
	int ret, tp_btf = -1, fentry = -1;
	struct btf *btf;
	bool kprobe_pmu;
	char buf[32];
	size_t i;

	if (have_btf)
		report(d, true, "btf", "/sys/kernel/btf/vmlinux present (CO-RE, tp_btf)");
	else
		report(d, false, "btf", "no /sys/kernel/btf/vmlinux: CONFIG_DEBUG_INFO_BTF not "
		       "set (tp_btf and CO-RE programs cannot load)");

	d->unpriv_bpf = -1;
	if (file_read_trimmed("/proc/sys/kernel/unprivileged_bpf_disabled", buf, sizeof(buf)) >= 0)
		d->unpriv_bpf = atoi(buf);
	d->bpf_denied = !d->root && !d->bpf_cap && !d->sys_admin && d->unpriv_bpf != 0;
	if (d->bpf_denied) {
		/* A refused load says nothing about the kernel: do not pretend it does. */
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			report(d, false, names[i], "not probed: loading BPF needs CAP_BPF "
			       "(kernel.unprivileged_bpf_disabled=%d; run ktop as root or with "
			       "CAP_BPF)", d->unpriv_bpf);
		libbpf_set_print(old);
		return;
	}

	probe_prog_type(d, "bpf_tracepoint", BPF_PROG_TYPE_TRACEPOINT, "tracepoint");
	probe_prog_type(d, "bpf_raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_tracepoint");
	probe_prog_type(d, "bpf_perf_event", BPF_PROG_TYPE_PERF_EVENT, "perf_event");

	/* The program type can exist without any kprobe to attach it to. */
	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_KPROBE, NULL);
	kprobe_pmu = access("/sys/bus/event_source/devices/kprobe", F_OK) == 0 ||
		     tracing_exists(d, "kprobe_events");
	if (ret == 1 && kprobe_pmu)
		report(d, true, "bpf_kprobe", "kprobe programs load and attach");
	else if (ret == 1)
		report(d, false, "bpf_kprobe", "kprobe programs load but cannot attach: no kprobe "
		       "PMU or kprobe_events (kernel built without CONFIG_KPROBES)");
	else if (ret == 0)
		report(d, false, "bpf_kprobe", "kprobe programs not supported by this kernel");
	else
		report(d, false, "bpf_kprobe", "kprobe programs: %s%s", strerror(-ret),
		       bpf_way_out(d, -ret));

	/* libbpf's own probe of BPF_PROG_TYPE_TRACING loads without an attach target and so
	 * always fails; load real tp_btf and fentry programs instead. */
	btf = have_btf ? btf__load_vmlinux_btf() : NULL;
	if (btf) {
		tp_btf = load_tracing(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF,
				      BPF_TRACE_RAW_TP);
		fentry = load_tracing(btf, "do_nanosleep", BTF_KIND_FUNC, BPF_TRACE_FENTRY);
		if (fentry == ENOENT)
			fentry = load_tracing(btf, "schedule", BTF_KIND_FUNC, BPF_TRACE_FENTRY);
		btf__free(btf);
	}
	if (!btf)
		report(d, false, "bpf_tracing", "tracing programs (tp_btf, fentry) need BTF: "
		       "CONFIG_DEBUG_INFO_BTF not set");
	else if (tp_btf == 0)
		report(d, true, "bpf_tracing", "tracing programs load (tp_btf on sched_switch)");
	else
		report(d, false, "bpf_tracing", "tp_btf program refused: %s%s", strerror(tp_btf),
		       bpf_way_out(d, tp_btf));
	if (btf && fentry == 0)
		report(d, true, "bpf_fentry", "fentry programs load");
	else if (btf && fentry == EPERM && (d->root || d->bpf_cap))
		report(d, false, "bpf_fentry", "fentry refused (EPERM at load): this kernel "
		       "forbids function hooks (use tracepoints or tp_btf)");
	else if (btf)
		report(d, false, "bpf_fentry", "fentry refused: %s%s", strerror(fentry),
		       bpf_way_out(d, fentry));
	else
		report(d, false, "bpf_fentry", "fentry programs need BTF: CONFIG_DEBUG_INFO_BTF "
		       "not set");
	libbpf_set_print(old);
}

/* ---- sysctls and perf ------------------------------------------------------------------ */

static void check_sysctls(struct doctor *d)
{
	char buf[32];
	int v;

	if (file_read_trimmed("/proc/sys/kernel/unprivileged_bpf_disabled", buf, sizeof(buf)) < 0) {
		report(d, d->root || d->bpf_cap, "unprivileged_bpf_disabled",
		       "kernel.unprivileged_bpf_disabled unreadable: %s", strerror(errno));
	} else {
		v = atoi(buf);
		if (v == 0)
			report(d, true, "unprivileged_bpf_disabled",
			       "kernel.unprivileged_bpf_disabled=0: any user may load BPF");
		else if (d->root || d->bpf_cap || d->sys_admin)
			report(d, true, "unprivileged_bpf_disabled",
			       "kernel.unprivileged_bpf_disabled=%d: BPF needs CAP_BPF, which "
			       "ktop has", v);
		else
			report(d, false, "unprivileged_bpf_disabled",
			       "kernel.unprivileged_bpf_disabled=%d: BPF needs CAP_BPF (run ktop "
			       "as root)", v);
	}

	if (file_read_trimmed("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) < 0) {
		report(d, false, "perf_event_paranoid", "no /proc/sys/kernel/perf_event_paranoid: "
		       "kernel built without CONFIG_PERF_EVENTS");
		return;
	}
	v = atoi(buf);
	if (d->root || d->perfmon)
		report(d, true, "perf_event_paranoid", "kernel.perf_event_paranoid=%d: no limit "
		       "with CAP_PERFMON, which ktop has", v);
	else if (v <= 0)
		report(d, true, "perf_event_paranoid", "kernel.perf_event_paranoid=%d: per-CPU "
		       "counters allowed", v);
	else
		report(d, v <= 2, "perf_event_paranoid", "kernel.perf_event_paranoid=%d: %s", v,
		       v <= 2 ? "own tasks only (sysctl kernel.perf_event_paranoid=0, or "
				"run as root, for per-CPU counters)"
			      : "perf refused to users (sysctl kernel.perf_event_paranoid=2, "
				"or run ktop as root)");
}

static int perf_open(__u32 type, __u64 config)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 0;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		/* Counting only user space is what paranoid=2 allows. */
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void check_pmu(struct doctor *d)
{
	const char *base = "/sys/bus/event_source/devices";
	char names[512] = "";
	struct dirent *de;
	size_t off = 0;
	int ret;
	DIR *dir;

	dir = opendir(base);
	if (!dir) {
		report(d, false, "pmu_devices", "no %s: kernel built without CONFIG_PERF_EVENTS",
		       base);
	} else {
		while ((de = readdir(dir))) {
			if (de->d_name[0] == '.')
				continue;
			if (off < sizeof(names) - 1)
				off += snprintf(names + off, sizeof(names) - off, "%s%s",
						off ? " " : "", de->d_name);
		}
		closedir(dir);
		report(d, true, "pmu_devices", "%s", names[0] ? names : "(none)");
	}

	ret = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (ret == 0)
		report(d, true, "pmu_hardware", "hardware cycles counter opens");
	else if (ret == -ENOENT || ret == -ENODEV)
		report(d, false, "pmu_hardware", "no PMU driver, software events only (a VM "
		       "without a virtual PMU; run on bare metal or enable vPMU)");
	else if (ret == -EOPNOTSUPP)
		report(d, false, "pmu_hardware", "the PMU has no cycles counter usable here "
		       "(EOPNOTSUPP), software events only");
	else if (ret == -EACCES || ret == -EPERM)
		report(d, false, "pmu_hardware", "hardware counters refused: %s (run ktop as "
		       "root or lower kernel.perf_event_paranoid)", strerror(-ret));
	else
		report(d, false, "pmu_hardware", "hardware cycles counter: %s", strerror(-ret));

	ret = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	if (ret == 0)
		report(d, true, "perf_software", "software counters (cpu-clock) open");
	else
		report(d, false, "perf_software", "software cpu-clock counter: %s%s",
		       strerror(-ret), ret == -EACCES || ret == -EPERM
		       ? " (run ktop as root or lower kernel.perf_event_paranoid)" : "");
}

int doctor_run(FILE *out, int json)
{
	struct doctor d = { .out = out, .json = json };
	bool mounted;
	int ntp;

	check_privileges(&d);
	check_lockdown(&d);
	mounted = check_tracefs(&d);
	ntp = check_tracepoints(&d);
	check_lock_events(&d);
	check_instances(&d);
	check_tracers(&d);
	check_dynamic(&d);
	check_bpf(&d);
	check_sysctls(&d);
	check_pmu(&d);
	if (json)
		fputs(d.nlines ? "\n}\n" : "{}\n", out);
	fflush(out);
	return mounted && ntp > 0 && (d.root || d.sys_admin) ? 0 : 1;
}
