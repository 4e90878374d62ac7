/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flight recorder in the explorer: armed at start by --arm, or by the arm action, whose
 * prompt takes conditions as --arm does ("syscall>100ms,comm=x; event:sched:sched_process_exec"),
 * and disarmed by it again. Incidents go under --incidents (default ./ktop-incidents); the
 * incidents pane (view_incidents.c) lists them. Its problem lines go to the status line. */
#ifndef KTOP_UI_ARM_H
#define KTOP_UI_ARM_H

struct kt_ui;
struct kt_flightrec;
struct kt_incident_rows;

/* --arm's conditions, armed as the explorer starts (a refusal on the status line). */
void ui_arm_start(struct kt_ui *ui);
/* The arm action: disarms when armed, else prompts for conditions. */
void ui_arm_key(struct kt_ui *ui);
/* The prompt's conditions accepted. */
void ui_arm_prompt(struct kt_ui *ui, const char *text);
/* Once per tick and on new records: what fired, incidents written. */
void ui_arm_poll(struct kt_ui *ui);
/* Disarms: an incident still waiting for its --post is written with what it has. */
void ui_arm_stop(struct kt_ui *ui);
/* Disarms and forgets the incidents listed (the explorer is closing). */
void ui_arm_end(struct kt_ui *ui);
/* The armed recorder, NULL when disarmed. */
struct kt_flightrec *ui_flightrec(struct kt_ui *ui);
/* The incidents written since the explorer started, armed or not since: NULL when none. */
const struct kt_incident_rows *ui_incident_rows(struct kt_ui *ui);
/* The arm action's keys, for a hint ("^A"). */
const char *ui_arm_keys(struct kt_ui *ui);

#endif
