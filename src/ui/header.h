/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The header lines: instance, tracer, enabled events, events received and lost (both exact:
 * together what the kernel wrote), event rate, store evictions kept apart, store memory,
 * ktop's own cost, and the PAUSED / FOLLOW state. Several remote hosts add a third line:
 * each host's label, its clock offset with its uncertainty, ENDED or how far behind. */
#ifndef KTOP_UI_HEADER_H
#define KTOP_UI_HEADER_H

#include <stdbool.h>

#include "ui/crt.h"

struct kt_app;

struct kt_header {
	char *tracer;	 /* source_tracer(), refreshed on the tick */
	int enabled;	 /* source_enabled_count(), likewise */
	bool sampled;
	char range[64];	 /* the marked time range, "" none (range.c) */
};

#define KT_HEADER_LINES 2

/* The lines the header takes for app: KT_HEADER_LINES, one more with several hosts. */
int header_lines(const struct kt_app *app);

/* Re-reads the slow figures (tracefs files): once per tick and after changes. */
void header_refresh(struct kt_header *h, struct kt_app *app);
void header_free(struct kt_header *h);
/* Draws lines rows of w cells; state is the focused stream's word ("FOLLOW"), may be NULL. */
void header_draw(struct kt_header *h, WINDOW *win, int w, int lines, struct kt_app *app,
		 const char *state, bool paused);

/* Human-readable figures, exposed for the tests: "999", "12.3k", "4.0M". */
char *header_fmt_count(double v, char *buf, size_t len);
/* Bytes: "512B", "12.3M", "1.0G". */
char *header_fmt_bytes(double v, char *buf, size_t len);

#endif
