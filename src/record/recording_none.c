// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop built --without-libtracecmd (the kernel lab's static build: Debian ships no static
 * libtracecmd): it records, and says why it cannot read. */
#include "config.h"

#include <stdio.h>

#include "recording.h"

struct kt_recording *recording_open(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "%s: this ktop was built without libtracecmd and cannot read recordings "
		 "(rebuild with libtracecmd-dev installed)", path);
	return NULL;
}

int recording_attach(struct kt_recording *rec, struct kt_store *st, int wake_fd, char *err,
		     size_t errlen)
{
	return -1;
}

void recording_set_window(struct kt_recording *rec, uint64_t from, uint64_t to)
{
}

uint64_t recording_start(struct kt_recording *rec)
{
	return 0;
}

int recording_record_meta(struct kt_recording *rec, struct kt_tdat_meta *meta, char *err,
			  size_t errlen)
{
	return -1;
}

void recording_wait_indexed(struct kt_recording *rec)
{
}

struct tep_handle *recording_tep(struct kt_recording *rec)
{
	return NULL;
}

void recording_info(struct kt_recording *rec, struct kt_recording_info *out)
{
}

const char *recording_stacks(struct kt_recording *rec)
{
	return NULL;
}

uint64_t recording_type_count(struct kt_recording *rec, int id)
{
	return 0;
}

void recording_close(struct kt_recording *rec)
{
}

void recording_hold_index(struct kt_recording *rec, const char *gate)
{
}

bool recording_hidden(struct kt_recording *rec, int id)
{
	return false;
}

void recording_set_hidden(struct kt_recording *rec, int id, bool hidden)
{
}

const char *recording_filter(struct kt_recording *rec, int id)
{
	return NULL;
}

int recording_set_filter(struct kt_recording *rec, int id, const char *expr, char *err,
			 size_t errlen)
{
	return -1;
}
