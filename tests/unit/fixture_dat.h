/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lab's trace.dat recordings (tests/fixtures/lab/), read with libtracecmd, for the
 * call-tree tests and benchmark. */
#ifndef KTOP_TESTS_FIXTURE_DAT_H
#define KTOP_TESTS_FIXTURE_DAT_H

#include <stddef.h>

struct tep_handle;
struct tep_record;
struct tracecmd_input;

struct fixture_dat {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct tep_record **recs; /* every record, in time order over the CPUs */
	size_t n, cap;
};

/* Opens path and reads every record. Returns 0, or -1 (with a message on stderr). */
int fixture_dat_open(struct fixture_dat *f, const char *path);
void fixture_dat_close(struct fixture_dat *f);

#endif
