/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the probe editor completes from, read on this machine: the kernel functions a kprobe
 * can take, a directory's entries, an ELF file's functions, a file's USDT probes. The live
 * source reads them for its editor (source_names), an agent for a remote one's (request 29,
 * KT_REQ_NAMES). */
#ifndef KTOP_SYMBOLS_PROBENAMES_H
#define KTOP_SYMBOLS_PROBENAMES_H

#include <stddef.h>

/* Runs what ("ksyms"; "dir" arg a directory; "elf" or "usdt" arg a path or a name $PATH or
 * the library directories resolve; "usdt" arg a pid: the notes of the files it maps, each
 * "PATH:PROVIDER:PROBE") as proto.h's KT_REQ_NAMES says. Returns 0 with *lines the
 * names one a line (malloc'd: an agent's snapshot before the reply) and the reply in text ("elf"
 * and a file's "usdt": the file's canonical path; else how many), or -1 with the one-line reason. */
int probe_names(const char *what, const char *arg, char **lines, char *text, size_t len);

/* The lines of text (probe_names's, or an agent's copy of them) as a NULL-terminated array,
 * each malloc'd; text is freed. NULL text: an empty array. */
char **probe_names_split(char *text);

#endif
