/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "stop when" recipe and --trigger at start-up: --stop-when 'SYS:EV [if FILTER]' enables
 * the event and puts a traceoff:1 trigger with that condition on it in ktop's instance, so
 * the kernel itself stops the capture at the matching event (which is still recorded: the
 * trigger runs after the record is written). The front ends poll stopwhen_check() and, once
 * the capture is drained, stopwhen_locate() finds that event in the store. */
#ifndef KTOP_STOPWHEN_H
#define KTOP_STOPWHEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/tracefs/triggers.h"

struct kt_app;
struct tep_event;

struct kt_stopwhen {
	struct kt_trigger trig; /* SYS:EV:traceoff:1 [if FILTER] */
	char desc[KT_TRIGGER_MAX + 200]; /* "sched:sched_process_exit if comm == \"foo\"" */
	bool fired;
	bool located;		/* seq and ts below are the matching event's */
	uint64_t seq;
	unsigned long long ts;
};

/* The event of t's parsed format, for ktop's check of a trigger's condition; NULL without
 * one (the kernel alone checks it then). */
struct tep_event *stopwhen_format(struct kt_app *app, const struct kt_trigger *t);
/* Adds the --trigger triggers and arms --stop-when (app->opts), after the -e events. Returns
 * 0, or -1 with the one-line reason (bad event, trigger or condition; the kernel's error). */
int stopwhen_start(struct kt_app *app, char *err, size_t errlen);
/* Arms the stop on "SYS:EV [if FILTER]" (one at a time). Returns 0, or -1 with one line. */
int stopwhen_arm(struct kt_app *app, const char *spec, char *err, size_t errlen);
/* Forgets the stop (its trigger already removed); when it had fired, capture goes on again. */
void stopwhen_disarm(struct kt_app *app);
/* True once the stop trigger has fired (its count reached 0); cheap (one tracefs read). */
bool stopwhen_check(struct kt_app *app);
/* Finds the last record of the stop event in the store (the capture is stopped or has
 * stopped itself), into app->stop. Returns true when found. */
bool stopwhen_locate(struct kt_app *app);

#endif
