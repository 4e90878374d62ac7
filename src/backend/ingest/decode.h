/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding stored records with libtraceevent. Event formats are parsed lazily, only for
 * events that are enabled or seen, because parsing all ~2,300 takes ~160 ms. Single-threaded:
 * used by the UI thread or by batch mode, never by the reader. */
#ifndef KTOP_DECODE_H
#define KTOP_DECODE_H

#include <stdbool.h>
#include <stddef.h>

struct kt_rec;
struct tep_handle;
struct tep_event;

struct kt_decoder;

/* tracing_dir: the tracefs mount. Parses the page header only. */
struct kt_decoder *decoder_new(const char *tracing_dir, char *err, size_t errlen);
/* Decodes a recording's records with its tep (formats, printk formats, kallsyms, task
 * names), which stays the caller's. */
struct kt_decoder *decoder_new_offline(struct tep_handle *tep);
void decoder_free(struct kt_decoder *d);

/* A borrowed tep (decoder_new_offline) that lacks a format asks fn once per event, on the
 * thread of the decoder_load that missed it: a remote source fetches it from its agent. fn
 * returns 0 when the format is now in the tep. */
typedef int (*kt_format_loader)(void *ctx, const char *system, const char *event);
void decoder_set_loader(struct kt_decoder *d, kt_format_loader fn, void *ctx);
/* Makes sure the format of system:event is parsed. Returns 0, or -1 when it has no format. */
int decoder_load(struct kt_decoder *d, const char *system, const char *event);
/* The event of a record, loading its format on first sight; NULL when unknown. */
struct tep_event *decoder_event(struct kt_decoder *d, const struct kt_rec *r);
struct tep_handle *decoder_tep(struct kt_decoder *d);
/* The same, with kernel function names (/proc/kallsyms, ~1 s to parse) loaded first: for
 * what turns addresses into names, such as call trees. */
struct tep_handle *decoder_tep_with_symbols(struct kt_decoder *d);

/* The common_type and common_pid of a raw record (no format needed). */
int decoder_rec_type(const struct kt_rec *r);
int decoder_rec_pid(const struct kt_rec *r);

struct kt_comms;
/* Task names at a given time come from comms (the task_rename history) when it knows. */
void decoder_set_comms(struct kt_decoder *d, struct kt_comms *comms);

/* The task name of pid at ts: the rename history first, then /proc/<pid>/comm (cached for a
 * second), then saved_cmdlines; "<...>" when unknown. The string lives as long as d. */
const char *decoder_comm(struct kt_decoder *d, int pid, unsigned long long ts);

/* The event's fields as the kernel prints them (its print fmt), into buf. A loss marker
 * prints as "*** lost N events ***". Returns buf. */
char *decoder_format_info(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len);
/* "system:event" of a record into buf ("lost" for markers). Returns buf. */
char *decoder_format_name(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len);
/* Seconds.microseconds of ts relative to base (0: absolute). */
char *decoder_format_ts(unsigned long long ts, unsigned long long base, char *buf, size_t len);

/* One JSON object for the record (no newline): ts, cpu, pid, comm, event, and its fields by
 * name with their numeric or string values. Returns buf (truncated at len). */
char *decoder_format_json(struct kt_decoder *d, const struct kt_rec *r, char *buf, size_t len);
/* Only its fields, as one JSON object: {"name":value,...}. Returns buf. */
char *decoder_format_json_fields(struct kt_decoder *d, const struct kt_rec *r, char *buf,
				 size_t len);

#endif
