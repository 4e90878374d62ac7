# Recordings (trace.dat): unit tests without a kernel, live round trips against trace-cmd,
# the explorer on a recording, bad files, and the reader's fuzz target.
check_PROGRAMS += tests/unit/check_record
tests_unit_check_record_SOURCES = tests/unit/check_record.c
tests_unit_check_record_CFLAGS = $(UNIT_CFLAGS) -DFIXTURES='"$(abs_top_srcdir)/tests/unit/fixtures"' \
	-DCORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/recording"'
tests_unit_check_record_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_record
LIVE_TESTS += tests/live/record_roundtrip.sh tests/live/record_paths.sh
# the time axis's batch side (issue 33): --from/--to, -o of a range, --chrome-trace
LIVE_TESTS += tests/live/range_export.sh
EXTRA_DIST += tests/helpers/tdat_compare.py tests/lsan.supp
# libtraceevent's own small leaks parsing some formats (see the file).
AM_TESTS_ENVIRONMENT += LSAN_OPTIONS=suppressions=$(abs_top_srcdir)/tests/lsan.supp; \
	export LSAN_OPTIONS;
# A deterministic trace.dat without a kernel (fixture formats, ktop's writer).
check_PROGRAMS += tests/helpers/mkrecording
tests_helpers_mkrecording_SOURCES = tests/helpers/mkrecording.c
tests_helpers_mkrecording_LDADD = $(KTOP_LIBS)
AM_TESTS_ENVIRONMENT += KTOP_MKRECORDING=$(abs_top_builddir)/tests/helpers/mkrecording; \
	export KTOP_MKRECORDING;
RECORD_TESTS = tests/record/bad_files.sh tests/record/lab_fixtures.sh tests/record/tree_text.sh
RECORD_TESTS += tests/record/chrome_graph.sh
TESTS += $(RECORD_TESTS)
EXTRA_DIST += $(RECORD_TESTS) tests/record/bad_files.golden

# The reader's fuzz target: libFuzzer needs clang, so it is built by its own rule from the
# sources it exercises, not from libktop.a (gcc's sanitizer runtime differs from clang's).
FUZZ_RECORDING_SRCS = tests/fuzz/fuzz_recording.c \
	src/record/tdat_check.c src/record/tdat_open.c src/record/recording.c \
	src/record/recording_walk.c src/record/recording_index.c src/record/recording_pager.c \
	src/record/tdat_mirror.c \
	src/backend/ingest/store.c src/backend/ingest/decode.c src/backend/perf/comms.c src/backend/ingest/loss.c \
	src/util/fileio.c src/util/strutil.c src/util/json.c src/util/clock.c src/util/log.c src/util/xalloc.c \
	src/util/lockorder.c
# the page check tdat_check.c shares with the remote viewer
FUZZ_RECORDING_SRCS += src/backend/ingest/ringpage.c
EXTRA_DIST += tests/fuzz/fuzz_recording.c tests/fuzz/run-fuzzer.sh
RECORD_TESTS += tests/fuzz/fuzz_recording.sh
if HAVE_FUZZER
check_DATA = tests/fuzz/fuzz_recording
CLEANFILES += tests/fuzz/fuzz_recording
tests/fuzz/fuzz_recording: $(FUZZ_RECORDING_SRCS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)cd $(srcdir) && $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I src -I $(abs_top_builddir) \
		$(TRACECMD_CFLAGS) $(TRACEEVENT_CFLAGS) $(TRACEFS_CFLAGS) $(ZSTD_CFLAGS) \
		-o $(abs_top_builddir)/$@ $(FUZZ_RECORDING_SRCS) \
		$(TRACECMD_LIBS) $(TRACEEVENT_LIBS) $(TRACEFS_LIBS) $(ZSTD_LIBS) -pthread
endif
AM_TESTS_ENVIRONMENT += KTOP_FUZZER=$(abs_top_builddir)/tests/fuzz/fuzz_recording; \
	export KTOP_FUZZER;
# the failing inputs every fuzz target keeps (tests/fuzz/run-fuzzer.sh)
clean-local: clean-fuzz-artifacts
clean-fuzz-artifacts:
	-rm -rf tests/fuzz/artifacts
TERM_TESTS += tests/term/record_browse.sh tests/term/record_tail.sh \
	tests/term/record_first_screen.sh
TERM_TESTS += tests/term/range_browse.sh

# make bench also measures a 1 GB recording (tests/bench/recording.sh, from run.sh);
# make bench-recording alone.
EXTRA_DIST += tests/bench/recording.sh
bench-recording: tests/helpers/mkrecording$(EXEEXT)
	@$(MAKE) $(AM_MAKEFLAGS) ktop$(EXEEXT) && \
	KTOP='$(abs_top_builddir)/ktop$(EXEEXT)' \
	MKRECORDING='$(abs_top_builddir)/tests/helpers/mkrecording$(EXEEXT)' \
	FIXTURES='$(abs_top_srcdir)/tests/unit/fixtures/tracing' \
	bash '$(top_srcdir)/tests/bench/recording.sh'
.PHONY: bench-recording
