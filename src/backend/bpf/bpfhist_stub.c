// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop configured with --disable-bpf: every histogram says why it cannot be. Nothing else
 * is called, since no histogram ever opens. */
#include "config.h"

#include <stdio.h>

#include "bpfhist.h"

struct kt_bpfhist *bpfhist_open(const struct kt_hist_spec *spec, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: this ktop was built without BPF (configure --disable-bpf)",
		 spec->text);
	return NULL;
}

void bpfhist_free(struct kt_bpfhist *h)
{
	(void)h;
}

int bpfhist_read(struct kt_bpfhist *h, char *err, size_t errlen)
{
	(void)h;
	snprintf(err, errlen, "built without BPF");
	return -1;
}

const struct kt_hist_spec *bpfhist_spec(const struct kt_bpfhist *h)
{
	(void)h;
	return NULL;
}

uint64_t bpfhist_missed(const struct kt_bpfhist *h)
{
	(void)h;
	return 0;
}

const char *bpfhist_variant(const struct kt_bpfhist *h)
{
	(void)h;
	return "none";
}

size_t bpfhist_rows(const struct kt_bpfhist *h, const struct kt_hist_row **rows)
{
	(void)h;
	*rows = NULL;
	return 0;
}

const struct kt_hist_row *bpfhist_total(const struct kt_bpfhist *h)
{
	(void)h;
	return NULL;
}
