// SPDX-License-Identifier: GPL-2.0-or-later
/* The histogram pane's data (histsrc.h): the source's histograms, or BPF's here. */
#include "config.h"

#include <stdlib.h>

#include "app.h"
#include "backend/bpfhist.h"
#include "histsrc.h"
#include "xalloc.h"

/* One of this machine's, owned by the app (app_hist_close), read by app_tick. */
struct local_hist {
	struct kt_histsrc base;
	struct kt_app *app;
	struct kt_bpfhist *h;
};

#define LH(h) ((struct local_hist *)(h))

static bool local_update(struct kt_histsrc *h)
{
	(void)h; /* app_tick read the map just before the pane's tick */
	return true;
}

static size_t local_rows(struct kt_histsrc *h, const struct kt_hist_row **rows)
{
	return bpfhist_rows(LH(h)->h, rows);
}

static const struct kt_hist_row *local_total(struct kt_histsrc *h)
{
	return bpfhist_total(LH(h)->h);
}

static const char *local_variant(struct kt_histsrc *h)
{
	return bpfhist_variant(LH(h)->h);
}

static uint64_t local_missed(struct kt_histsrc *h)
{
	return bpfhist_missed(LH(h)->h);
}

static void local_close(struct kt_histsrc *h)
{
	app_hist_close(LH(h)->app, LH(h)->h);
	free(h);
}

static const struct kt_histsrc_ops local_ops = {
	.update = local_update,
	.rows = local_rows,
	.total = local_total,
	.variant = local_variant,
	.missed = local_missed,
	.close = local_close,
};

struct kt_histsrc *histsrc_open(struct kt_app *app, const char *text, char *err,
				size_t errlen)
{
	struct local_hist *lh;
	struct kt_bpfhist *h;

	if (source_has_hists(app->source))
		return source_hist_open(app->source, text, err, errlen);
	h = app_hist_open(app, text, err, errlen);
	if (!h)
		return NULL;
	lh = xcalloc(1, sizeof(*lh));
	lh->base.ops = &local_ops;
	lh->base.spec = *bpfhist_spec(h);
	lh->app = app;
	lh->h = h;
	return &lh->base;
}

void histsrc_close(struct kt_histsrc *h)
{
	if (h)
		h->ops->close(h);
}
