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
# The off-CPU profile (src/backend/offcpu.c, src/batch_offcpu.c): 5 sleeps of 200 ms are 1 s
# under the nanosleep path in every variant, no program left on any exit; its refusals
# (privilege, scope) in one line, and its tracepoint fallback where BTF cannot be read.
LIVE_TESTS += tests/live/offcpu_sleep.sh tests/live/offcpu_errors.sh
