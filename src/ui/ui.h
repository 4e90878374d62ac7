/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive front end. */
#ifndef KTOP_UI_H
#define KTOP_UI_H

struct kt_app;

/* Runs the full-screen explorer until q or a terminating signal. Returns an exit code. */
int ui_run(struct kt_app *app);

#endif
