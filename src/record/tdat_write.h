/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing trace-cmd's trace.dat (version 6, trace-cmd.dat(5)) from stored records, so that
 * trace-cmd report, KernelShark and ktop -i read what ktop captured. libtracecmd 3.1 has no
 * public writer, so this writes the documented format itself: header page and event
 * headers, the formats of the events the records use, kallsyms, printk formats, task names,
 * options (uname, clock, CPU count, per-CPU loss counters), then per-CPU ring-buffer pages.
 *
 * Records are re-encoded into pages as the kernel lays them out; a loss marker becomes the
 * "missed events" flag and count of the page that follows the gap, exactly where the kernel
 * put it. Records go to one temporary file per CPU while the capture runs (memory stays
 * flat), and the file is assembled by tdat_writer_close(), each temporary file's room given
 * back as its pages are copied. */
#ifndef KTOP_TDAT_WRITE_H
#define KTOP_TDAT_WRITE_H

#include <stdbool.h>
#include <stddef.h>

struct kt_rec;
struct kt_cpu_stats;

struct kt_tdat_meta {
	const char *tracing_dir; /* header_page, event formats, printk_formats, saved_cmdlines */
	const char *kallsyms;	 /* NULL: /proc/kallsyms */
	const char *uname;	 /* "sysname host release version machine"; NULL: this one's */
	int ncpus;
	const char *clock;	 /* the trace clock the timestamps are in ("mono") */
	/* The name of pid, or NULL when unknown (then saved_cmdlines is asked). */
	const char *(*comm)(void *ctx, int pid);
	void *comm_ctx;
	bool replace; /* an existing regular file of one's own may be replaced (--force) */
};

struct kt_tdat_writer;

/* Creates the writer for path: the file is created at once (outfile.h says what is refused),
 * so an unwritable path fails here, and the room its sections before the pages need is
 * allocated (kallsyms alone is megabytes): a disk that fills during the capture still takes
 * them. An existing file (meta->replace) is replaced only at tdat_writer_close(). The
 * temporary files are made in path's directory. NULL with a one-line reason in err. */
struct kt_tdat_writer *tdat_writer_open(const char *path, const struct kt_tdat_meta *meta,
					char *err, size_t errlen);
/* Adds one record (an event or a loss marker); records must come in time order per CPU.
 * Returns 0, or -1 with err filled: a page could not be written (a full disk, an I/O error).
 * From then on nothing more is added (every call returns -1 again), and the file will hold
 * the pages written before; the events of the pages being filled are dropped. */
int tdat_writer_add(struct kt_tdat_writer *w, const struct kt_rec *r, char *err, size_t errlen);
/* Keeps text (a copy) to be written as ktop's profile option (TDAT_OPT_KTOP_STACKS).
 * Returns 0, or -1 out of memory. */
int tdat_writer_set_stacks(struct kt_tdat_writer *w, const char *text);
/* ns trace-cmd report adds to every timestamp (the OFFSET option): another machine's
 * records put onto this one's clock. 0, the default, writes no option. */
void tdat_writer_set_offset(struct kt_tdat_writer *w, long long ns);
/* Events the file will hold so far (loss markers not counted). */
unsigned long long tdat_writer_events(const struct kt_tdat_writer *w);
/* Writes the file and frees w. stats: ncpus per-CPU kernel loss counters, or NULL. Returns
 * 0; 1 when a page could not be written (tdat_writer_add() said so, or the last pages here):
 * the file holds the pages written before, and err says why it stopped; -1 with err filled
 * when the file itself could not be written: it is removed. */
int tdat_writer_close(struct kt_tdat_writer *w, const struct kt_cpu_stats *stats, char *err,
		      size_t errlen);
/* Frees w without writing anything (the file goes if the writer created it). Safe on NULL. */
void tdat_writer_abort(struct kt_tdat_writer *w);

#endif
