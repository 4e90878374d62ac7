# Kernel access and data: no curses here.
src_libktop_a_SOURCES += \
	src/backend/session.c src/backend/session.h src/backend/session_local.h \
	src/backend/session_mount.c src/backend/session_stale.c \
	src/backend/session_events.c src/backend/session_filter.c \
	src/backend/session_dynevent.c \
	src/backend/catalog.c src/backend/catalog.h \
	src/backend/loss.c src/backend/loss.h \
	src/backend/store.c src/backend/store.h \
	src/backend/decode.c src/backend/decode.h \
	src/backend/evtext.c src/backend/evtext.h src/backend/evtext_local.h \
	src/backend/evtext_sys.c \
	src/backend/selftask.c src/backend/selftask.h \
	src/backend/comms.c src/backend/comms.h \
	src/backend/taskwatch.c src/backend/taskwatch.h \
	src/backend/perfring.c src/backend/perfring.h \
	src/backend/reader.c src/backend/reader.h \
	src/backend/ringmap.c src/backend/ringmap.h src/backend/trace_mmap.h \
	src/backend/ringpage.c src/backend/ringpage.h \
	src/backend/selfstat.c src/backend/selfstat.h \
	src/backend/guard.c src/backend/guard.h \
	src/backend/triggers.c src/backend/triggers.h \
	src/backend/doctor.c src/backend/doctor.h \
	src/backend/privs.c src/backend/privs.h
# Performance counters (perf_event_open) and the sysfs PMU descriptions they are named by.
src_libktop_a_SOURCES += \
	src/backend/pmu.c src/backend/pmu.h src/backend/pmu_local.h \
	src/backend/pmu_count.c src/backend/pmu_print.c \
	src/backend/pmu_idle.c src/backend/pmu_idle.h \
	src/backend/pmu_snap.c src/backend/pmu_snap.h \
	src/backend/pmu_names.c src/backend/pmu_names.h \
	src/backend/pmu_reason.c src/backend/pmu_reason.h \
	src/backend/pmu_sysfs.c src/backend/pmu_sysfs.h
# Tracers, function lists, process scoping and dynamic probes (issue #4); event filters
# checked against the formats before the kernel sees them.
src_libktop_a_SOURCES += \
	src/backend/tracers.c src/backend/tracers.h \
	src/backend/toplevel.c src/backend/toplevel.h \
	src/backend/scope.c src/backend/scope.h \
	src/backend/cgroup.c src/backend/cgroup.h \
	src/backend/probes.c src/backend/probes.h \
	src/backend/symlist.c src/backend/symlist.h \
	src/backend/ksyms.c src/backend/ksyms.h \
	src/backend/elfsyms.c src/backend/elfsyms.h \
	src/backend/procmaps.c src/backend/procmaps.h \
	src/backend/owner.c src/backend/owner.h \
	src/backend/usdt.c src/backend/usdt.h \
	src/backend/filtercheck.c src/backend/filtercheck.h
# function_graph call trees.
src_libktop_a_SOURCES += src/backend/callgraph.c src/backend/callgraph.h
# Profiles: stacks aggregated for folded output and the flame graph pane.
src_libktop_a_SOURCES += src/backend/stacks.c src/backend/stacks.h \
	src/backend/wakers.c src/backend/wakers.h \
	src/backend/stackwin.c src/backend/stackwin.h \
	src/backend/symbolize.c src/backend/symbolize.h \
	src/backend/usernames.c src/backend/usernames.h \
	src/backend/profile.c src/backend/profile.h \
	src/backend/folded.c src/backend/folded.h
# Stacks on events: the stacktrace trigger, a row's stack, event stacks as a stack tree.
src_libktop_a_SOURCES += \
	src/backend/evstack.c src/backend/evstack.h src/backend/evstack_record.h \
	src/backend/evstacks.c src/backend/evstacks.h \
	src/backend/cpuslice.c src/backend/cpuslice.h \
	src/backend/timeindex.c src/backend/timeindex.h

# BPF histograms and the off-CPU profile: the loader and the table of kinds open the objects
# src/probes/local.mk builds; --disable-bpf builds the stubs instead.
if ENABLE_BPF
src_libktop_a_SOURCES += src/backend/bpfhist.c src/backend/bpfobj.c src/backend/bpfobj.h \
	src/backend/histkind.c src/backend/histkind.h src/backend/offcpu.c \
	src/backend/overview_bpf.c src/backend/armbpf.c
# BUILT_SOURCES covers make all/check; this covers "make ktop" (the lab's static build)
src/backend/bpfobj.$(OBJEXT): src/probes/objects.h
else
src_libktop_a_SOURCES += src/backend/bpfhist_stub.c src/backend/offcpu_stub.c \
	src/backend/overview_bpf_stub.c src/backend/armbpf_stub.c
endif
src_libktop_a_SOURCES += src/backend/armbpf.h src/backend/bpfhist.h src/backend/histspec.c src/backend/histspec.h \
	src/backend/offcpu.h
# Syscall names for by=syscall keys, from the C library's <sys/syscall.h> of this build.
src/backend/syscall_names.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) src/backend && \
	echo '#include <sys/syscall.h>' | $(CPP) -dM - | \
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/[\2] = "\1",/p' > $@.tmp && \
	test -s $@.tmp && mv -f $@.tmp $@
BUILT_SOURCES += src/backend/syscall_names.h
nodist_src_libktop_a_SOURCES += src/backend/syscall_names.h
CLEANFILES += src/backend/syscall_names.h
src/backend/histdata.$(OBJEXT): src/backend/syscall_names.h
src_libktop_a_SOURCES += src/backend/histdata.c src/backend/histdata.h
src_libktop_a_SOURCES += src/backend/histprint.c src/backend/histprint.h
src_libktop_a_SOURCES += src/backend/probeprint.c src/backend/probeprint.h
# The overview (issue 32): per-thread counters from one BPF object, or /proc; the system strip.
src_libktop_a_SOURCES += \
	src/backend/overview.c src/backend/overview.h src/backend/overview_local.h \
	src/backend/overview_proc.c src/backend/overview_fold.c \
	src/backend/cgname.c src/backend/cgname.h \
	src/backend/sysstrip.c src/backend/sysstrip.h
