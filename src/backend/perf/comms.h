/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task names as they were when an event happened. A pid's name changes on exec and
 * prctl(PR_SET_NAME); /proc and saved_cmdlines only know the name now, or the name at some
 * past context switch. The kernel's task:task_rename event (it fires on exec too) says
 * exactly when and to what: when the user enables it, the reader feeds every one here, in
 * time order, and the decoder asks for the name at a row's timestamp. It is not enabled
 * behind the user's back: its records would share the ring buffer, and the kernel's loss
 * counts could no longer be told apart from the user's own events. */
#ifndef KTOP_COMMS_H
#define KTOP_COMMS_H

#include <stdbool.h>
#include <stdint.h>

#define KT_COMM_LEN 16

/* Where task_rename keeps its fields, from the event's format. */
struct kt_rename_layout {
	int id;			   /* the event's type id */
	int pid, oldcomm, newcomm; /* offsets */
	int size;		   /* the smallest record that holds all three */
};

struct kt_comms;

struct kt_comms *comms_new(void);
void comms_free(struct kt_comms *c);

/* Parses the text of events/task/task_rename/format. Returns 0, or -1 when a field is
 * missing or not where it can be read. */
int comms_parse_format(const char *format, struct kt_rename_layout *out);

/* Records one task_rename record (raw data as stored). Thread-safe. */
void comms_note(struct kt_comms *c, const struct kt_rename_layout *l, uint64_t ts,
		const void *data, uint32_t size);

/* Records that pid was named comm from ts on (the old name unknown). Thread-safe. */
void comms_set(struct kt_comms *c, int pid, uint64_t ts, const char *comm);

/* The name pid had at ts according to the renames seen: false when none tells. */
bool comms_at(struct kt_comms *c, int pid, uint64_t ts, char out[KT_COMM_LEN]);

#endif
