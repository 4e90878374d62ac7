/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote kernel's tracefs files the viewer received (header_page, formats, kallsyms,
 * printk formats), mirrored in a private temporary directory in tracefs's own layout, so
 * that what reads a local tracing directory (the trace.dat writer) reads the remote one's.
 */
#ifndef KTOP_REMOTE_MIRROR_H
#define KTOP_REMOTE_MIRROR_H

#include <stddef.h>

struct kt_hello;
struct kt_mirror;
struct kt_tdat_meta;

/* Makes the directory, ktop-remote-PID-XXXXXX under $TMPDIR (else /tmp), after removing
 * those a killed viewer left. NULL with one line in err. */
struct kt_mirror *mirror_new(char *err, size_t errlen);
const char *mirror_dir(const struct kt_mirror *m);
/* Writes n bytes at rel ("events/sched/sched_switch/format"), making its directories;
 * rel must not climb out ("..") nor be absolute. Returns 0, or -1 with errno. */
int mirror_put(struct kt_mirror *m, const char *rel, const void *p, size_t n);
/* An event's format where tracefs has it (events/SYS/NAME/format), and its id, the
 * format's "ID:" line, beside it (events/SYS/NAME/id): what the trace.dat writer reads of
 * an event. Returns 0, or -1 with errno and in rel the file that could not be written. */
int mirror_put_format(struct kt_mirror *m, const char *sys, const char *name, const void *text,
		      size_t n, char *rel, size_t rellen);
/* What the trace.dat writer reads of the kernel whose files m holds (-o, w and A over an
 * agent), hello its agent's: the directory, its kallsyms there (none came: none in the
 * file, not this machine's), its uname and CPUs; uname and kallsyms are written into the
 * caller's buffers, which meta then points at. The rest of meta is left as it is. */
void mirror_tdat_meta(const struct kt_mirror *m, const struct kt_hello *hello, char *uname,
		      size_t unamelen, char *kallsyms, size_t kallsymslen,
		      struct kt_tdat_meta *meta);
/* Removes the directory and everything in it, and frees m. Safe on NULL. */
void mirror_free(struct kt_mirror *m);

#endif
