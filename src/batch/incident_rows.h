/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The incidents written, as the explorer lists them: a ring of the last KT_FR_ROWS, owned by
 * whoever shows them (the explorer's, src/ui/ui_arm.c), so that they outlive the armed
 * recorder that wrote them: disarming leaves the incidents on disk and in the list. */
#ifndef KTOP_INCIDENT_ROWS_H
#define KTOP_INCIDENT_ROWS_H

#include <stddef.h>

/* One incident written. */
struct kt_fr_row {
	unsigned int n;
	unsigned long long fired, from, to; /* trace clock */
	char cond[160];			    /* the --arm text */
	char what[128];			    /* "syscall clock_nanosleep took 120.3 ms" */
	char value[32];			    /* "120.312 ms", "ENOENT", "event" */
	char comm[16];
	int pid, tid;
	unsigned int cpu;
	unsigned long long lost;	    /* kernel loss in the window (markers' events) */
	char path[4096];		    /* its directory */
};

#define KT_FR_ROWS 1024
struct kt_incident_rows;

struct kt_incident_rows *incident_rows_new(void);
/* The row to fill for a new incident, zeroed (the oldest goes past KT_FR_ROWS). */
struct kt_fr_row *incident_rows_add(struct kt_incident_rows *rows);
/* How many it holds; the i-th, oldest first. 0 on NULL. */
size_t incident_rows_count(const struct kt_incident_rows *rows);
const struct kt_fr_row *incident_rows_get(const struct kt_incident_rows *rows, size_t i);
void incident_rows_free(struct kt_incident_rows *rows);

#endif
