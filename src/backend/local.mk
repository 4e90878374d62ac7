# Kernel access and data: no curses here.
src_libktop_a_SOURCES += \
	src/backend/session.c src/backend/session.h \
	src/backend/catalog.c src/backend/catalog.h \
	src/backend/loss.c src/backend/loss.h \
	src/backend/store.c src/backend/store.h \
	src/backend/decode.c src/backend/decode.h \
	src/backend/comms.c src/backend/comms.h \
	src/backend/taskwatch.c src/backend/taskwatch.h \
	src/backend/perfring.c src/backend/perfring.h \
	src/backend/reader.c src/backend/reader.h \
	src/backend/selfstat.c src/backend/selfstat.h \
	src/backend/guard.c src/backend/guard.h \
	src/backend/triggers.c src/backend/triggers.h \
	src/backend/doctor.c src/backend/doctor.h \
	src/backend/privs.c src/backend/privs.h
# Performance counters (perf_event_open) and the sysfs PMU descriptions they are named by.
src_libktop_a_SOURCES += \
	src/backend/pmu.c src/backend/pmu.h \
	src/backend/pmu_sysfs.c src/backend/pmu_sysfs.h
# Tracers, function lists, process scoping and dynamic probes (issue #4).
src_libktop_a_SOURCES += \
	src/backend/tracers.c src/backend/tracers.h \
	src/backend/toplevel.c src/backend/toplevel.h \
	src/backend/scope.c src/backend/scope.h \
	src/backend/cgroup.c src/backend/cgroup.h \
	src/backend/probes.c src/backend/probes.h \
	src/backend/symlist.c src/backend/symlist.h \
	src/backend/ksyms.c src/backend/ksyms.h \
	src/backend/elfsyms.c src/backend/elfsyms.h \
	src/backend/usdt.c src/backend/usdt.h
# function_graph call trees.
src_libktop_a_SOURCES += src/backend/callgraph.c src/backend/callgraph.h
# Profiles: stacks aggregated for folded output and the flame graph pane.
src_libktop_a_SOURCES += src/backend/stacks.c src/backend/stacks.h \
	src/backend/stackwin.c src/backend/stackwin.h \
	src/backend/symbolize.c src/backend/symbolize.h \
	src/backend/profile.c src/backend/profile.h \
	src/backend/folded.c src/backend/folded.h
# Stacks on events: the stacktrace trigger, a row's stack, event stacks as a stack tree.
src_libktop_a_SOURCES += \
	src/backend/evstack.c src/backend/evstack.h \
	src/backend/evstacks.c src/backend/evstacks.h
