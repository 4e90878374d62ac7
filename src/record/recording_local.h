/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of an open recording (struct kt_recording) and what its files share; for
 * recording*.c only. recording.c opens, attaches and closes it and applies the user's
 * choices, recording_walk.c is the merge over one libtracecmd handle, recording_index.c the
 * index thread, recording_pager.c the pager and the tail it reads ahead of the index. */
#ifndef KTOP_RECORDING_LOCAL_H
#define KTOP_RECORDING_LOCAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recording.h"
#include "tdat_open.h"

struct kbuffer;
struct tep_event_filter;
struct tep_record;
struct tracecmd_input;

#define RECORDING_CHECKPOINT 16384 /* records between checkpoints */
#define RECORDING_PUBLISH 65536	   /* records indexed between updates of the span */
#define RECORDING_FIRST_PUBLISH 4096 /* ... but the first screen's worth goes at once */
#define RECORDING_FILL_AHEAD 16384 /* records the pager reads past the one asked for */
#define RECORDING_TAIL_PAGES 8	   /* pages per CPU the tail starts with (End's screen) */
#define RECORDING_TAIL_MAX_PAGES 4096 /* ... and grows to: each growth reads it all again */
#define RECORDING_DROP_EVERY 65536 /* records read between releases of the file's pages */

/* One libtracecmd handle and the merge state over its CPUs. */
struct walk {
	struct tracecmd_input *top, *h; /* h: the buffer read (top or one instance) */
	struct tep_record **peek;	/* each CPU's next record, NULL when done */
	int ncpus;
	uint64_t seq;			/* sequence number of the next step */
	struct tep_event_filter *filter; /* the user's filters, built on this handle's tep */
	const bool *hidden;		/* event ids the user hid (the recording's) */
	unsigned page_size;		/* the file's (libtracecmd does not tell) */
	struct kt_recording *rec;	/* for the page checks */
	struct kbuffer *kbuf;		/* parses a page ahead of libtracecmd */
	unsigned char *page;
	uint64_t *sound;		/* per CPU: the last page this walk checked ahead */
	uint64_t from, to;		/* --from, --to: the records outside are left out */
};

struct user_filter {
	int id;
	char *expr;
};

struct checkpoint {
	uint64_t seq;
	unsigned long long *offs; /* ncpus file offsets of each CPU's next record; 0: done */
};

struct kt_recording {
	char *path;
	struct kt_tdat_file file; /* checked, with what tdat_check() found */
	int buffer; /* -1: the top-level buffer, else the instance index */
	char buffer_name[128];
	struct walk pager, index;
	struct kt_store *store;
	int wake_fd;
	uint64_t pager_dropped_at; /* the pager's position when it last dropped file pages */
	int fd;			   /* the file, for the page checks */
	bool check_pages;	   /* pages on disk (v6, v7 plain), top-level buffer: checked first */
	uint64_t *checked;	   /* per CPU: pages up to this offset are sound (atomics) */
	char corrupt[256];	   /* the first corrupt page met (under the store lock) */

	/* under the store lock */
	struct checkpoint *cps;
	size_t ncps, cap;
	struct kt_recording_info info;
	/* The tail, read before the index reaches it (recording.h): its records numbered
	 * provisionally up to est, the estimated total, which stays put once there is a tail. */
	uint64_t est;		  /* 0: none */
	struct checkpoint *tcps;  /* the tail's checkpoints, provisional numbers, oldest first */
	size_t ntcps;
	uint64_t tail_first;	  /* provisional number of its first record */
	unsigned tail_pages;	  /* it starts this many pages back from each CPU's last: 0 none */
	bool tail_stuck;	  /* it cannot grow back before the index is done */
	uint64_t *first_page, *last_page; /* per CPU of the buffer shown; last 0: no data */
	const char *gate;	  /* tests: the index holds while this file exists */
	const char *start_gate;	  /* tests: ... and does not begin while this one exists */
	/* recording_record_meta(): the file's formats as a tracing directory, removed at close */
	char mirror[4096], kallsyms[4200], uname[256];

	uint64_t *type_counts; /* 65536, relaxed atomics */
	bool *hidden;	       /* 65536: event ids left out */
	struct user_filter *filters;
	size_t nfilters;
	pthread_t thread;
	bool started;
	bool stop;		/* atomic */
	bool done;
	pthread_mutex_t done_lock;
	pthread_cond_t done_cond;
};

/* Checkpoints taken since the last publish, handed over under the store lock. */
struct pending {
	struct checkpoint *cps;
	size_t n, cap;
};

/* recording_walk.c */
/* Opens the file and the buffer to show: the top-level one when it has data, else the
 * first instance that has (trace-cmd extract -B writes the instance as a buffer of its
 * own). buffer: -2 to choose, else the one chosen before. */
int walk_open(struct walk *w, const char *path, int *buffer, char *name, size_t namelen);
void walk_close(struct walk *w);
/* The CPU whose next record goes first, or -1 at the end. */
int walk_next_cpu(const struct walk *w);
/* A record a corrupt page cannot have produced: the common fields are there and it fits
 * in its page. Others are left out (and counted), never handed on. */
bool record_sane(const struct walk *w, const struct tep_record *r);
/* Whether r lies in the walk's window (--from, --to): outside it, neither r nor its loss
 * marker is shown. */
bool walk_in_window(const struct walk *w, const struct tep_record *r);
/* Whether the user's choices keep the record: its event not hidden, its filter matched. */
bool walk_shows(const struct walk *w, const struct tep_record *r);
/* Records one step takes: the record if shown, and its loss marker (always: a loss is a
 * fact about the buffer, whatever is shown). */
unsigned step_records(const struct walk *w, const struct tep_record *r);
/* Moves cpu on to its next record; a corrupt page ends the CPU for every walk alike. */
void walk_advance(struct walk *w, int cpu);
/* Puts the walk where checkpoint cp was taken. */
void walk_restore(struct walk *w, const struct checkpoint *cp);
/* Adds the walk's position to p (the index's and the tail's checkpoints); out of memory,
 * none is added. */
void take_checkpoint(struct pending *p, const struct walk *w);
void free_checkpoints(struct checkpoint *cps, size_t n);

/* recording_index.c */
/* Starts the index thread from the index walk's position. Returns 0, or -1 with err. */
int recording_index_start(struct kt_recording *rec, char *err, size_t errlen);

/* recording_pager.c */
/* Forgets the tail and the estimate. Lock held. */
void recording_tail_free(struct kt_recording *rec);
/* The index is through: the tail's provisional numbers become the real ones, total - est
 * away, and a browser holding them moves as much. Lock held. */
void recording_tail_settle(struct kt_recording *rec, uint64_t total);
/* The store's pager (store_set_pager): refills the window around seq, under the store lock. */
void recording_pager(void *ctx, struct kt_store *st, uint64_t seq);

#endif
