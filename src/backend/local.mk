# Kernel access and data: no curses here.
src_libktop_a_SOURCES += \
	src/backend/tracefs/session.c src/backend/tracefs/session.h src/backend/tracefs/session_local.h \
	src/backend/tracefs/session_mount.c src/backend/tracefs/session_stale.c \
	src/backend/tracefs/session_events.c src/backend/tracefs/session_filter.c \
	src/backend/tracefs/session_dynevent.c \
	src/backend/tracefs/catalog.c src/backend/tracefs/catalog.h \
	src/backend/ingest/loss.c src/backend/ingest/loss.h \
	src/backend/ingest/store.c src/backend/ingest/store.h \
	src/backend/ingest/decode.c src/backend/ingest/decode.h \
	src/backend/ingest/evtext.c src/backend/ingest/evtext.h src/backend/ingest/evtext_local.h \
	src/backend/ingest/evtext_sys.c \
	src/backend/ingest/selftask.c src/backend/ingest/selftask.h \
	src/backend/perf/comms.c src/backend/perf/comms.h \
	src/backend/perf/taskwatch.c src/backend/perf/taskwatch.h \
	src/backend/perf/perfring.c src/backend/perf/perfring.h \
	src/backend/ingest/reader.c src/backend/ingest/reader.h \
	src/backend/ingest/ringmap.c src/backend/ingest/ringmap.h src/backend/ingest/trace_mmap.h \
	src/backend/ingest/ringpage.c src/backend/ingest/ringpage.h \
	src/backend/ingest/selfstat.c src/backend/ingest/selfstat.h \
	src/backend/tracefs/guard.c src/backend/tracefs/guard.h \
	src/backend/tracefs/triggers.c src/backend/tracefs/triggers.h \
	src/backend/tracefs/doctor.c src/backend/tracefs/doctor.h \
	src/backend/tracefs/privs.c src/backend/tracefs/privs.h
# Performance counters (perf_event_open) and the sysfs PMU descriptions they are named by.
src_libktop_a_SOURCES += \
	src/backend/perf/pmu.c src/backend/perf/pmu.h src/backend/perf/pmu_local.h \
	src/backend/perf/pmu_count.c src/backend/perf/pmu_print.c \
	src/backend/perf/pmu_idle.c src/backend/perf/pmu_idle.h \
	src/backend/perf/pmu_snap.c src/backend/perf/pmu_snap.h \
	src/backend/perf/pmu_names.c src/backend/perf/pmu_names.h \
	src/backend/perf/pmu_reason.c src/backend/perf/pmu_reason.h \
	src/backend/perf/pmu_sysfs.c src/backend/perf/pmu_sysfs.h
# Tracers, function lists, process scoping and dynamic probes (issue #4); event filters
# checked against the formats before the kernel sees them.
src_libktop_a_SOURCES += \
	src/backend/tracefs/tracers.c src/backend/tracefs/tracers.h \
	src/backend/tracefs/toplevel.c src/backend/tracefs/toplevel.h \
	src/backend/tracefs/scope.c src/backend/tracefs/scope.h \
	src/backend/tracefs/cgroup.c src/backend/tracefs/cgroup.h \
	src/backend/tracefs/probes.c src/backend/tracefs/probes.h \
	src/backend/symbols/symlist.c src/backend/symbols/symlist.h \
	src/backend/symbols/ksyms.c src/backend/symbols/ksyms.h \
	src/backend/symbols/elfsyms.c src/backend/symbols/elfsyms.h \
	src/backend/symbols/probenames.c src/backend/symbols/probenames.h \
	src/backend/symbols/procmaps.c src/backend/symbols/procmaps.h \
	src/backend/tracefs/owner.c src/backend/tracefs/owner.h \
	src/backend/tracefs/usdt.c src/backend/tracefs/usdt.h \
	src/backend/tracefs/filtercheck.c src/backend/tracefs/filtercheck.h
# function_graph call trees.
src_libktop_a_SOURCES += src/backend/callgraph/callgraph.c src/backend/callgraph/callgraph.h
# Profiles: stacks aggregated for folded output and the flame graph pane.
src_libktop_a_SOURCES += src/backend/stacks/stacks.c src/backend/stacks/stacks.h \
	src/backend/stacks/wakers.c src/backend/stacks/wakers.h \
	src/backend/stacks/stackwin.c src/backend/stacks/stackwin.h \
	src/backend/symbols/symbolize.c src/backend/symbols/symbolize.h \
	src/backend/symbols/usernames.c src/backend/symbols/usernames.h \
	src/backend/perf/profile.c src/backend/perf/profile.h \
	src/backend/stacks/folded.c src/backend/stacks/folded.h
# Stacks on events: the stacktrace trigger, a row's stack, event stacks as a stack tree.
src_libktop_a_SOURCES += \
	src/backend/callgraph/evstack.c src/backend/callgraph/evstack.h src/backend/callgraph/evstack_record.h \
	src/backend/callgraph/evstacks.c src/backend/callgraph/evstacks.h \
	src/backend/callgraph/cpuslice.c src/backend/callgraph/cpuslice.h \
	src/backend/callgraph/timeindex.c src/backend/callgraph/timeindex.h \
	src/backend/callgraph/packlog.c src/backend/callgraph/packlog.h

# BPF histograms and the off-CPU profile: the loader and the table of kinds open the objects
# src/probes/local.mk builds; --disable-bpf builds the stubs instead.
if ENABLE_BPF
src_libktop_a_SOURCES += src/backend/bpf/bpfhist.c src/backend/bpf/bpfobj.c src/backend/bpf/bpfobj.h \
	src/backend/bpf/histkind.c src/backend/bpf/histkind.h src/backend/bpf/offcpu.c \
	src/backend/overview/overview_bpf.c src/backend/bpf/armbpf.c
# BUILT_SOURCES covers make all/check; this covers "make ktop" (the lab's static build)
src/backend/bpf/bpfobj.$(OBJEXT): src/probes/objects.h
else
src_libktop_a_SOURCES += src/backend/bpf/bpfhist_stub.c src/backend/bpf/offcpu_stub.c \
	src/backend/overview/overview_bpf_stub.c src/backend/bpf/armbpf_stub.c
endif
src_libktop_a_SOURCES += src/backend/bpf/armbpf.h src/backend/bpf/bpfhist.h src/backend/bpf/histspec.c src/backend/bpf/histspec.h \
	src/backend/bpf/offcpu.h
# Syscall names for by=syscall keys, from the C library's <sys/syscall.h> of this build.
src/backend/syscall_names.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) src/backend && \
	echo '#include <sys/syscall.h>' | $(CPP) -dM - | \
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/[\2] = "\1",/p' > $@.tmp && \
	test -s $@.tmp && mv -f $@.tmp $@
BUILT_SOURCES += src/backend/syscall_names.h
nodist_src_libktop_a_SOURCES += src/backend/syscall_names.h
CLEANFILES += src/backend/syscall_names.h
src/backend/bpf/histdata.$(OBJEXT): src/backend/syscall_names.h
src_libktop_a_SOURCES += src/backend/bpf/histdata.c src/backend/bpf/histdata.h
src_libktop_a_SOURCES += src/backend/bpf/histprint.c src/backend/bpf/histprint.h
src_libktop_a_SOURCES += src/backend/tracefs/probeprint.c src/backend/tracefs/probeprint.h
# The overview (issue 32): per-thread counters from one BPF object, or /proc; the system strip.
src_libktop_a_SOURCES += \
	src/backend/overview/overview.c src/backend/overview/overview.h src/backend/overview/overview_local.h \
	src/backend/overview/overview_proc.c src/backend/overview/overview_fold.c \
	src/backend/tracefs/cgname.c src/backend/tracefs/cgname.h \
	src/backend/overview/sysstrip.c src/backend/overview/sysstrip.h
