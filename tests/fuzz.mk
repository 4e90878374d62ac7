# The parsers' fuzz targets: one libFuzzer binary per parser of user input, tests/fuzz/fuzz_NAME
# from tests/fuzz/fuzz_NAME.c and the sources the parser needs. Like the reader's target
# (tests/record.mk) they are built by clang, not linked with libktop.a: gcc's objects link,
# but without clang's coverage the fuzzer would be blind.
# make check runs each through tests/fuzz/fuzz_parser.sh for KTOP_FUZZ_SECS (default 20)
# from its seeds in tests/fuzz/corpus/NAME and its libFuzzer dictionary tests/fuzz/NAME.dict,
# which names the test.
FUZZ_FILTER_SRCS = tests/fuzz/fuzz_filter.c src/backend/tracefs/filtercheck.c
# probes.c and what it needs (session*.c: session.c clears triggers before an instance goes)
FUZZ_PROBES_LIB = src/backend/tracefs/probes.c src/backend/tracefs/session.c src/backend/tracefs/session_mount.c \
	src/backend/tracefs/session_stale.c src/backend/tracefs/session_events.c src/backend/tracefs/session_filter.c \
	src/backend/tracefs/session_dynevent.c src/backend/tracefs/toplevel.c src/backend/tracefs/owner.c \
	src/backend/symbols/procmaps.c src/backend/tracefs/tracers.c src/backend/symbols/elfsyms.c src/backend/symbols/ksyms.c src/backend/symbols/symlist.c src/backend/tracefs/triggers.c \
	src/backend/tracefs/filtercheck.c src/util/clock.c src/util/fileio.c src/util/log.c src/util/piddead.c src/util/strutil.c \
	src/util/xalloc.c
FUZZ_PROBE_SRCS = tests/fuzz/fuzz_probe.c $(FUZZ_PROBES_LIB)
FUZZ_HISTSPEC_SRCS = tests/fuzz/fuzz_histspec.c src/backend/bpf/histspec.c src/backend/tracefs/usdt.c \
	src/backend/symbols/elfsyms.c src/backend/symbols/procmaps.c src/backend/symbols/symlist.c src/util/strutil.c
FUZZ_USDT_SRCS = tests/fuzz/fuzz_usdt.c $(FUZZ_PROBES_LIB) src/backend/tracefs/usdt.c
FUZZ_KTOPRC_SRCS = tests/fuzz/fuzz_ktoprc.c src/ui/ktoprc.c src/ui/theme.c src/util/strutil.c
FUZZ_THEME_SRCS = tests/fuzz/fuzz_theme.c src/ui/theme.c src/util/strutil.c
FUZZ_ROWFILTER_SRCS = tests/fuzz/fuzz_rowfilter.c src/ui/panes/rowfilter.c
FUZZ_FOLDED_SRCS = tests/fuzz/fuzz_folded.c src/backend/stacks/folded.c src/backend/stacks/stacks.c \
	src/util/json.c
# the remote protocol's frames and messages, as either side reads them from the pipe
FUZZ_FRAME_SRCS = tests/fuzz/fuzz_frame.c src/remote/frame.c src/remote/msg.c \
	src/remote/histrows.c src/remote/counterrows.c src/backend/perf/pmu_snap.c \
	src/remote/profrows.c \
	src/backend/tracefs/probeprint.c src/util/json.c $(FUZZ_PROBES_LIB)
FUZZ_PARSER_TESTS = tests/fuzz/frame.dict tests/fuzz/filter.dict tests/fuzz/probe.dict tests/fuzz/histspec.dict \
	tests/fuzz/ktoprc.dict tests/fuzz/theme.dict tests/fuzz/rowfilter.dict tests/fuzz/usdt.dict \
	tests/fuzz/folded.dict
TEST_EXTENSIONS += .dict
DICT_LOG_COMPILER = bash $(top_srcdir)/tests/fuzz/fuzz_parser.sh
TESTS += $(FUZZ_PARSER_TESTS)
EXTRA_DIST += $(FUZZ_PARSER_TESTS) tests/fuzz/fuzz_parser.sh tests/fuzz/fuzz_parser.h \
	tests/fuzz/fuzz_filter.c tests/fuzz/fuzz_probe.c tests/fuzz/fuzz_histspec.c \
	tests/fuzz/fuzz_ktoprc.c tests/fuzz/fuzz_theme.c tests/fuzz/fuzz_rowfilter.c \
	tests/fuzz/fuzz_usdt.c tests/fuzz/fuzz_folded.c tests/fuzz/fuzz_frame.c tests/fuzz/corpus
FUZZ_PARSER_BINS = tests/fuzz/fuzz_filter tests/fuzz/fuzz_probe tests/fuzz/fuzz_histspec \
	tests/fuzz/fuzz_ktoprc tests/fuzz/fuzz_theme tests/fuzz/fuzz_rowfilter tests/fuzz/fuzz_usdt \
	tests/fuzz/fuzz_folded tests/fuzz/fuzz_frame
if HAVE_FUZZER
check_DATA += $(FUZZ_PARSER_BINS)
CLEANFILES += $(FUZZ_PARSER_BINS)
# Every prerequisite but the shared header is a source to compile.
FUZZ_PARSER_LINK = $(AM_V_CCLD)$(MKDIR_P) tests/fuzz && \
	srcs= && for f in $^; do case $$f in *.c) srcs="$$srcs $$f";; esac; done && \
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/src -I$(top_srcdir) -I$(top_builddir) \
	-DKTOP_FIXTURES='"$(abs_top_srcdir)/tests/unit/fixtures"' \
	-DKTOP_PKGLIBEXECDIR='"$(pkglibexecdir)"' \
	$(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS) $(LIBELF_CFLAGS) \
	$(ZSTD_CFLAGS) -o $@ $$srcs $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(LIBELF_LIBS) \
	$(ZSTD_LIBS) -pthread
$(FUZZ_PARSER_BINS): tests/fuzz/fuzz_parser.h
tests/fuzz/fuzz_filter: $(FUZZ_FILTER_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_probe: $(FUZZ_PROBE_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_histspec: $(FUZZ_HISTSPEC_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_usdt: $(FUZZ_USDT_SRCS)
	$(FUZZ_PARSER_LINK)
# ktoprc names the explorer's actions from their table (src/ui/action.c), whose handlers
# reach the whole screen: the parser is compiled for coverage, the rest comes from the
# library ktop links.
tests/fuzz/fuzz_ktoprc: $(FUZZ_KTOPRC_SRCS) src/libktop.a
	$(FUZZ_PARSER_LINK) $(KTOP_LIBS)
tests/fuzz/fuzz_theme: $(FUZZ_THEME_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_rowfilter: $(FUZZ_ROWFILTER_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_folded: $(FUZZ_FOLDED_SRCS)
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_frame: $(FUZZ_FRAME_SRCS)
	$(FUZZ_PARSER_LINK)
endif
# event triggers (--trigger, --stop-when, the picker's prompt)
FUZZ_TRIGGER_SRCS = tests/fuzz/fuzz_trigger.c $(FUZZ_PROBES_LIB)
FUZZ_PARSER_TESTS += tests/fuzz/trigger.dict
EXTRA_DIST += tests/fuzz/fuzz_trigger.c
FUZZ_PARSER_BINS += tests/fuzz/fuzz_trigger
if HAVE_FUZZER
tests/fuzz/fuzz_trigger: $(FUZZ_TRIGGER_SRCS)
	$(FUZZ_PARSER_LINK)
endif
# The viewer's whole remote state machine as a hostile agent drives it (issue 36): frames of
# any type in any order through client.c into the pages' decoder, the viewer's requests
# between them.
FUZZ_REMOTE_SRCS = tests/fuzz/fuzz_remote.c $(FUZZ_REMOTE_LIB)
FUZZ_REMOTE_LIB = src/remote/client.c src/remote/pages.c \
	src/remote/fmtcheck.c \
	src/remote/recq.c src/backend/ingest/ringpage.c src/backend/tracefs/catalog.c src/remote/frame.c \
	src/remote/msg.c src/remote/histrows.c src/remote/counterrows.c src/backend/perf/pmu_snap.c \
	src/remote/profrows.c src/remote/ovrows.c src/backend/tracefs/probeprint.c src/util/json.c \
	src/remote/push.c $(FUZZ_PROBES_LIB)
FUZZ_PARSER_TESTS += tests/fuzz/remote.dict
EXTRA_DIST += tests/fuzz/remote.dict tests/fuzz/fuzz_remote.c
FUZZ_PARSER_BINS += tests/fuzz/fuzz_remote
if HAVE_FUZZER
tests/fuzz/fuzz_remote: $(FUZZ_REMOTE_SRCS) tests/fuzz/fuzz_parser.h
	$(FUZZ_PARSER_LINK)
endif
# The agent's reading of its viewer's frames, all of it before a kernel call
# (src/agent/agentreq.c): hello first, then requests, pings and anything else (issue 36).
FUZZ_AGENT_SRCS = tests/fuzz/fuzz_agent.c src/agent/agentreq.c src/remote/frame.c \
	src/remote/msg.c src/remote/histrows.c src/remote/counterrows.c src/backend/perf/pmu_snap.c \
	src/remote/profrows.c src/backend/tracefs/probeprint.c src/util/json.c $(FUZZ_PROBES_LIB)
# The mirror's file names: a name from an agent stays inside the mirror directory (issue 36).
FUZZ_MIRROR_SRCS = tests/fuzz/fuzz_mirror.c src/remote/mirror.c $(FUZZ_REMOTE_LIB)
FUZZ_PARSER_TESTS += tests/fuzz/agent.dict tests/fuzz/mirror.dict
EXTRA_DIST += tests/fuzz/agent.dict tests/fuzz/fuzz_agent.c tests/fuzz/mirror.dict \
	tests/fuzz/fuzz_mirror.c
FUZZ_PARSER_BINS += tests/fuzz/fuzz_agent tests/fuzz/fuzz_mirror
if HAVE_FUZZER
tests/fuzz/fuzz_agent: $(FUZZ_AGENT_SRCS) tests/fuzz/fuzz_parser.h
	$(FUZZ_PARSER_LINK)
tests/fuzz/fuzz_mirror: $(FUZZ_MIRROR_SRCS) tests/fuzz/fuzz_parser.h
	$(FUZZ_PARSER_LINK)
endif
