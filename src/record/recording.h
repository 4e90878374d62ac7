/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording (trace.dat) as a record source: the same struct kt_store every pane reads in
 * live mode, filled from the file instead of the kernel. Reading goes through libtracecmd.
 *
 * The file is never read into memory whole. A background thread indexes it once (k-way
 * merge of the CPUs, a checkpoint of every CPU's file offset every RECORDING_CHECKPOINT
 * records, event counts per type) and grows the store's span as it goes, so the first
 * screen shows at once. The store is paged (store_set_pager): a record outside the window
 * it holds is read from the nearest checkpoint on, in the same merge order, so a sequence
 * number names the same record whichever way it is reached.
 */
#ifndef KTOP_RECORDING_H
#define KTOP_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tdat_check.h"

struct kt_store;
struct tep_handle;
struct kt_recording;
struct kt_tdat_meta;

struct kt_recording_info {
	struct kt_tdat_info file;   /* host, kernel, clock, version, the kernel's loss counters */
	char buffer[128];	    /* the instance buffer shown ("" the top-level one) */
	int ncpus;
	bool indexed;		    /* the index reached the end of the file */
	uint64_t records;	    /* indexed so far, loss markers included */
	uint64_t events;	    /* of which events */
	uint64_t lost_marked;	    /* events the pages said were lost */
	uint64_t lost_unknown;	    /* pages that said events were lost without a count */
	uint64_t corrupt;	    /* records a corrupt page gave, left out */
	char corrupt_page[256];	    /* "PATH: corrupt page at offset ...": its CPU ends there */
	unsigned long long first_ts, last_ts;
};

/* Checks and opens path. NULL with "PATH: what is wrong" in err. */
struct kt_recording *recording_open(const char *path, char *err, size_t errlen);
/* Pages st from the recording and starts indexing; wake_fd gets a byte as the index grows
 * (-1: none). Returns 0, or -1 with err filled. */
int recording_attach(struct kt_recording *rec, struct kt_store *st, int wake_fd, char *err,
		     size_t errlen);
/* --from, --to: only the records from..to (trace timestamps, both included) are shown and
 * counted, as if the file held no others. Call before recording_attach(). */
void recording_set_window(struct kt_recording *rec, uint64_t from, uint64_t to);
/* The file's first timestamp (of the buffer shown): what relative times count from. */
uint64_t recording_start(struct kt_recording *rec);
/* What the writer needs to write the file's records again (-i FILE -o PART): its formats,
 * task names and kallsyms copied out once, its host, clock and CPU count. Returns 0, or -1
 * with a one-line reason in err. */
int recording_record_meta(struct kt_recording *rec, struct kt_tdat_meta *meta, char *err,
			  size_t errlen);
/* Waits until the index reaches the end (batch mode prints only complete files). */
void recording_wait_indexed(struct kt_recording *rec);
/* The event formats, printk formats, kallsyms and task names of the file. Owned by rec. */
struct tep_handle *recording_tep(struct kt_recording *rec);
/* A consistent copy of the figures (takes the store lock). */
void recording_info(struct kt_recording *rec, struct kt_recording_info *out);
/* The profile the file keeps (ktop -b --profile -o; batch_profile.h's text), or NULL. Owned
 * by rec. */
const char *recording_stacks(struct kt_recording *rec);
/* Events of type id indexed so far. */
uint64_t recording_type_count(struct kt_recording *rec, int id);
/* What the user chose to see, as live ktop chooses what the kernel records: events of a
 * hidden type are left out of the store's sequence, and so are records that do not match
 * their event's filter (libtraceevent's syntax, the kernel's: "prev_pid == 0 && ..."). Either
 * change indexes the file again from the start. Loss markers always stay. */
bool recording_hidden(struct kt_recording *rec, int id);
void recording_set_hidden(struct kt_recording *rec, int id, bool hidden);
/* The filter of event id, or NULL. */
const char *recording_filter(struct kt_recording *rec, int id);
/* Sets (expr NULL or "": clears) the filter of event id. Returns 0, or -1 with the parser's
 * message in err, the previous filter kept. */
int recording_set_filter(struct kt_recording *rec, int id, const char *expr, char *err,
			 size_t errlen);
/* Stops the index thread, detaches from the store, closes the file. Safe on NULL. */
void recording_close(struct kt_recording *rec);
/* Tests: the index holds after its first screen while the file gate names exists (the
 * string is kept, not copied). Call before recording_attach(). */
void recording_hold_index(struct kt_recording *rec, const char *gate);

#endif
