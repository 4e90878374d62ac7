# The program and the top of src/: everything but main() lives in libktop.a, so the tests
# link the same objects as ktop.
src_libktop_a_SOURCES += \
	src/xalloc.c src/xalloc.h \
	src/log.c src/log.h \
	src/strutil.c src/strutil.h \
	src/textout.c src/textout.h \
	src/testhooks.h \
	src/json.c src/json.h \
	src/clock.c src/clock.h \
	src/timerange.c src/timerange.h \
	src/fileio.c src/fileio.h \
	src/piddead.c src/piddead.h \
	src/options.c src/options.h \
	src/options_check.c \
	src/app.c src/app.h \
	src/app_recorder.c src/app_recorder.h \
	src/histsrc.h \
	src/storehist.c src/storehist.h \
	src/ovsrc.c src/ovsrc.h \
	src/histhosts.c src/histhosts.h \
	src/countersrc.h \
	src/profsrc.h \
	src/signals.c src/signals.h \
	src/batch.c src/batch.h \
	src/batch_print.c src/batch_print.h \
	src/batch_tree.c src/batch_tree.h \
	src/batch_profile.c src/batch_profile.h \
	src/batch_offcpu.c src/batch_offcpu.h \
	src/batch_top.c src/batch_top.h \
	src/batch_remote.c src/batch_remote.h \
	src/stopwhen.c src/stopwhen.h \
	src/armspec.c src/armspec.h \
	src/flightrec.c src/flightrec.h \
	src/chrome.c src/chrome.h \
	src/ktoprc.c src/ktoprc.h

ktop_SOURCES = src/main.c
ktop_LDADD = $(KTOP_LIBS)

# ktop-agent (src/agent_main.c): ktop --agent linked statically, which ktop -H sends to a
# host without ktop (src/remote/push.c). The sanitizers do not link statically: a sanitizer
# build compiles libktop's sources a second time, without them, for the agent alone.
AM_CPPFLAGS += -DKTOP_PKGLIBEXECDIR='"$(pkglibexecdir)"'
KTOP_AGENT_CFLAGS = $(KTOP_WARN_CFLAGS) $(AX_PTHREAD_FLAGS) $(TRACEFS_CFLAGS) \
	$(TRACEEVENT_CFLAGS) $(LIBBPF_CFLAGS) $(LIBELF_CFLAGS) $(ZSTD_CFLAGS) $(NCURSESW_CFLAGS) \
	$(TRACECMD_CFLAGS)
if STATIC_AGENT
pkglibexec_PROGRAMS = ktop-agent
ktop_agent_SOURCES = src/agent_main.c
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
EXTRA_DIST += src/agent_main.c
endif
