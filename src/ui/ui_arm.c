// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flight recorder in the explorer (ui_arm.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "batch/flightrec.h"
#include "ui/action.h"
#include "ui/screen.h"
#include "ui/ui_arm.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define ARM_DEFAULT_DIR "ktop-incidents"

static const char *arm_dir(const struct kt_ui *ui)
{
	return ui->app->opts->incidents_dir ? ui->app->opts->incidents_dir : ARM_DEFAULT_DIR;
}

/* The recorder's problem lines and quota removals: on the status line, as errors. */
static void arm_say(void *ctx, const char *line)
{
	ui_message(ctx, true, "%s", line);
}

static void arm(struct kt_ui *ui, const char *const *conds, size_t n)
{
	char err[1024], all[512];

	ui->fr = flightrec_start(ui->app, conds, n, arm_dir(ui), err, sizeof(err));
	if (!ui->fr) {
		ui_message(ui, true, "arm: %s", err);
		return;
	}
	flightrec_set_say(ui->fr, arm_say, ui);
	if (!ui->incident_rows)
		ui->incident_rows = incident_rows_new();
	flightrec_set_rows(ui->fr, ui->incident_rows);
	flightrec_conds(ui->fr, all, sizeof(all));
	ui_message(ui, false, "armed: %s; incidents to %s", all, arm_dir(ui));
	ui_broadcast(ui, KT_EV_EVENTS); /* the default context events may have come on */
	ui->header_dirty = true;
}

void ui_arm_start(struct kt_ui *ui)
{
	if (ui->app->opts->n_arms)
		arm(ui, ui->app->opts->arms, ui->app->opts->n_arms);
}

void ui_arm_key(struct kt_ui *ui)
{
	size_t n;

	if (!ui->fr) {
		ui_prompt_open(ui, NULL, UI_PROMPT_ARM,
			       "Arm (syscall>100ms,comm=NAME; offcpu>DUR; event:SYS:EV if F): ", "");
		return;
	}
	ui_arm_stop(ui);
	n = incident_rows_count(ui->incident_rows);
	ui_message(ui, false, "disarmed; %zu incident%s in %s", n, n == 1 ? "" : "s",
		   arm_dir(ui));
}

/* "a; b" -> {"a", "b"}, blanks around each taken off, empty ones dropped. */
void ui_arm_prompt(struct kt_ui *ui, const char *text)
{
	char *buf = xstrdup(text), *save = NULL, *c, *end;
	const char *conds[16];
	size_t n = 0;

	for (c = strtok_r(buf, ";", &save); c && n < 16; c = strtok_r(NULL, ";", &save)) {
		while (*c == ' ')
			c++;
		for (end = c + strlen(c); end > c && end[-1] == ' ';)
			*--end = '\0';
		if (*c)
			conds[n++] = c;
	}
	if (n)
		arm(ui, conds, n);
	else
		ui_message(ui, true, "arm: no condition given (e.g. syscall>100ms,comm=NAME)");
	free(buf);
}

void ui_arm_poll(struct kt_ui *ui)
{
	size_t n;

	if (!ui->fr)
		return;
	n = incident_rows_count(ui->incident_rows);
	flightrec_poll(ui->fr, NULL);
	if (incident_rows_count(ui->incident_rows) != n) {
		const struct kt_fr_row *r =
			incident_rows_get(ui->incident_rows,
					  incident_rows_count(ui->incident_rows) - 1);

		ui_message(ui, false, "incident %u: %s by %s/%d -> %s", r->n, r->what, r->comm,
			   r->tid, r->path);
	}
}

void ui_arm_stop(struct kt_ui *ui)
{
	if (!ui->fr)
		return;
	flightrec_flush(ui->fr, NULL);
	flightrec_finish(ui->fr);
	ui->fr = NULL;
}

void ui_arm_end(struct kt_ui *ui)
{
	ui_arm_stop(ui);
	incident_rows_free(ui->incident_rows);
	ui->incident_rows = NULL;
}

const struct kt_incident_rows *ui_incident_rows(struct kt_ui *ui)
{
	return ui->incident_rows;
}

struct kt_flightrec *ui_flightrec(struct kt_ui *ui)
{
	return ui->fr;
}

const char *ui_arm_keys(struct kt_ui *ui)
{
	const struct kt_action *a = action_find("arm");

	return a ? a->keys : "arm";
}
