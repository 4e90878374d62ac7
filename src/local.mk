# The program and the top of src/: everything but main() lives in libktop.a, so the tests
# link the same objects as ktop.
src_libktop_a_SOURCES += \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/log.c src/util/log.h \
	src/util/strutil.c src/util/strutil.h \
	src/util/textout.c src/util/textout.h \
	src/util/testhooks.h \
	src/util/lockorder.c src/util/lockorder.h \
	src/util/json.c src/util/json.h \
	src/util/clock.c src/util/clock.h \
	src/util/timerange.c src/util/timerange.h \
	src/util/fileio.c src/util/fileio.h \
	src/util/piddead.c src/util/piddead.h \
	src/app/options.c src/app/options.h \
	src/app/options_check.c \
	src/app/app.c src/app/app.h \
	src/app/app_recorder.c src/app/app_recorder.h \
	src/source/histsrc.h \
	src/source/storehist.c src/source/storehist.h \
	src/source/storelat.c src/source/storelat.h \
	src/source/ovsrc.c src/source/ovsrc.h \
	src/app/histhosts.c src/app/histhosts.h \
	src/source/countersrc.h \
	src/source/profsrc.h \
	src/app/signals.c src/app/signals.h \
	src/batch/batch.c src/batch/batch.h \
	src/batch/batch_print.c src/batch/batch_print.h \
	src/batch/batch_tree.c src/batch/batch_tree.h \
	src/batch/batch_profile.c src/batch/batch_profile.h \
	src/batch/batch_offcpu.c src/batch/batch_offcpu.h \
	src/batch/batch_top.c src/batch/batch_top.h \
	src/batch/batch_remote.c src/batch/batch_remote.h \
	src/batch/batch_hostsum.c src/batch/batch_hostsum.h \
	src/batch/batch_snaps.c src/batch/batch_snaps.h \
	src/app/stopwhen.c src/app/stopwhen.h \
	src/app/armspec.c src/app/armspec.h \
	src/batch/flightrec.c src/batch/flightrec.h \
	src/batch/incident_rows.c src/batch/incident_rows.h \
	src/batch/chrome.c src/batch/chrome.h \
	src/ui/ktoprc.c src/ui/ktoprc.h

ktop_SOURCES = src/main.c
ktop_LDADD = $(KTOP_LIBS)

# ktop-agent (src/agent/agent_main.c): ktop --agent linked statically, which ktop -H sends to a
# host without ktop (src/remote/push.c). The sanitizers do not link statically: a sanitizer
# build compiles libktop's sources a second time, without them, for the agent alone.
AM_CPPFLAGS += -DKTOP_PKGLIBEXECDIR='"$(pkglibexecdir)"'
KTOP_AGENT_CFLAGS = $(KTOP_WARN_CFLAGS) $(AX_PTHREAD_FLAGS) $(TRACEFS_CFLAGS) \
	$(TRACEEVENT_CFLAGS) $(LIBBPF_CFLAGS) $(LIBELF_CFLAGS) $(ZSTD_CFLAGS) $(NCURSESW_CFLAGS) \
	$(TRACECMD_CFLAGS)
if STATIC_AGENT
pkglibexec_PROGRAMS = ktop-agent
ktop_agent_SOURCES = src/agent/agent_main.c
ktop_agent_CFLAGS = $(KTOP_AGENT_CFLAGS)
ktop_agent_LDFLAGS = -static $(AX_PTHREAD_FLAGS)
if SANITIZERS
noinst_LIBRARIES += src/libktop_agent.a
src_libktop_agent_a_SOURCES = $(src_libktop_a_SOURCES)
nodist_src_libktop_agent_a_SOURCES = $(nodist_src_libktop_a_SOURCES)
src_libktop_agent_a_CFLAGS = $(KTOP_AGENT_CFLAGS)
ktop_agent_LDADD = src/libktop_agent.a $(KTOP_AGENT_LIBS)
else
ktop_agent_LDADD = src/libktop.a $(KTOP_AGENT_LIBS)
endif
else
EXTRA_DIST += src/agent/agent_main.c
endif
