/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explorer's recording keys. Live: w writes what the store holds to a trace.dat, A keeps
 * writing everything captured from now on until A again (or the exit). Their actions
 * (action.c: write, record) call here, on a live capture only. */
#ifndef KTOP_UI_RECORD_H
#define KTOP_UI_RECORD_H

#include <stdbool.h>

struct kt_app;
struct kt_ui;
struct kt_recorder;

struct kt_ui_record {
	struct kt_recorder *live; /* A: writing on, NULL while off */
};

/* Handles the recording keys: w or A. Returns true when the key was taken. */
bool ui_record_key(struct kt_ui *ui, struct kt_app *app, struct kt_ui_record *r, int key);
/* A file name was entered at the prompt id (UI_PROMPT_WRITE or _RECORD, screen.h). */
void ui_record_prompt(struct kt_ui *ui, struct kt_app *app, struct kt_ui_record *r, int id,
		      const char *text);
/* New records arrived: A writes them. */
void ui_record_pump(struct kt_ui *ui, struct kt_ui_record *r);
/* Finishes A's file (the explorer is closing). Returns false with err when it failed. */
bool ui_record_stop(struct kt_ui_record *r, char *err, unsigned errlen);
/* "REC" while A writes, else NULL. */
const char *ui_record_state(const struct kt_ui_record *r);

#endif
