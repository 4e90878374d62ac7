// SPDX-License-Identifier: GPL-2.0-or-later
/* The explorer's recording keys (w, A). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app/app.h"
#include "app/app_recorder.h"
#include "record/recorder.h"
#include "ui/screen.h"
#include "ui/ui_record.h"
#include "ui/view.h"

static void default_name(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "ktop-%Y%m%d-%H%M%S.dat", &tm);
}

bool ui_record_key(struct kt_ui *ui, struct kt_app *app, struct kt_ui_record *r, int key)
{
	char name[64];
	char err[512];

	if (key == 'w') {
		default_name(name, sizeof(name));
		ui_prompt_open(ui, NULL, UI_PROMPT_WRITE, "Write the stored events to: ", name);
		return true;
	}
	if (key != 'A')
		return false;
	if (r->live) {
		unsigned long long n = recorder_events(r->live);
		char path[4096];

		snprintf(path, sizeof(path), "%s", recorder_path(r->live));
		if (!ui_record_stop(r, err, sizeof(err)))
			ui_message(ui, true, "%s", err);
		else
			ui_message(ui, false, "recorded %llu events to %s", n, path);
		return true;
	}
	default_name(name, sizeof(name));
	ui_prompt_open(ui, NULL, UI_PROMPT_RECORD, "Record from now on to: ", name);
	return true;
}

void ui_record_prompt(struct kt_ui *ui, struct kt_app *app, struct kt_ui_record *r, int id,
		      const char *text)
{
	struct kt_recorder_from src;
	struct kt_recorder *rc;
	unsigned long long events, missed;
	uint64_t from;
	char err[512];

	if (!*text) {
		ui_message(ui, true, "no file name: nothing written");
		return;
	}
	store_lock(app->store);
	from = id == UI_PROMPT_WRITE ? store_first(app->store) : store_end(app->store);
	store_unlock(app->store);
	rc = NULL;
	if (app_recorder_from(app, &src, err, sizeof(err)) == 0)
		rc = recorder_start(&src, text, from, err, sizeof(err));
	if (!rc) {
		ui_message(ui, true, "%s", err);
		return;
	}
	if (id == UI_PROMPT_RECORD) {
		r->live = rc;
		ui_message(ui, false, "recording to %s (A stops)", text);
		return;
	}
	/* a page that cannot be written stops it: finishing says what the file holds */
	recorder_pump(rc, err, sizeof(err));
	events = recorder_events(rc);
	missed = recorder_missed(rc);
	if (recorder_finish(rc, err, sizeof(err)) != 0)
		ui_message(ui, true, "%s", err);
	else
		ui_message(ui, false, "wrote %llu events to %s%s", events, text,
			   missed ? " (some were evicted while writing)" : "");
}

void ui_record_pump(struct kt_ui *ui, struct kt_ui_record *r)
{
	char err[512];

	/* The disk is full, or the file cannot be written: the file gets what was written
	 * before, and the capture goes on. */
	if (r->live && recorder_pump(r->live, err, sizeof(err)) < 0) {
		recorder_finish(r->live, err, sizeof(err));
		r->live = NULL;
		ui_message(ui, true, "recording stopped: %s", err);
	}
}

bool ui_record_stop(struct kt_ui_record *r, char *err, unsigned errlen)
{
	int ret;

	if (!r->live)
		return true;
	ret = recorder_finish(r->live, err, errlen);
	r->live = NULL;
	return ret == 0;
}

const char *ui_record_state(const struct kt_ui_record *r)
{
	return r->live ? "REC" : NULL;
}
