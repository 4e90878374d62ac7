# Profiles and flame graphs (issue #15): the stack tree they share.
check_PROGRAMS += tests/unit/check_stacks
tests_unit_check_stacks_SOURCES = tests/unit/check_stacks.c
tests_unit_check_stacks_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_stacks_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_stacks
check_PROGRAMS += tests/unit/check_symbolize
tests_unit_check_symbolize_SOURCES = tests/unit/check_symbolize.c
tests_unit_check_symbolize_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_symbolize_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_symbolize
# Stacks on events (--stack, the stream's Enter, the picker's ^K, --folded).
LIVE_TESTS += tests/live/evstacks_batch.sh
TERM_TESTS += tests/term/evstacks_stream.sh
check_PROGRAMS += tests/unit/check_evstacks
tests_unit_check_evstacks_SOURCES = tests/unit/check_evstacks.c
tests_unit_check_evstacks_CFLAGS = $(UNIT_CFLAGS) -DFIXTURES='"$(abs_top_srcdir)/tests/unit/fixtures"'
tests_unit_check_evstacks_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_evstacks
