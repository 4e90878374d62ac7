/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The agent's side of request 29 (KT_REQ_NAMES): what the probe editor completes from, read
 * on the agent's machine as a local editor reads it on its own: the kernel functions a
 * kprobe can take, a directory's entries, an ELF file's functions, a file's USDT probes. */
#ifndef KTOP_REMOTE_AGENTNAMES_H
#define KTOP_REMOTE_AGENTNAMES_H

#include <stddef.h>

/* Runs what ("ksyms"; "dir" arg a directory; "elf" or "usdt" arg a path or a name $PATH or
 * the library directories resolve; "usdt" arg a pid: the notes of the files it maps, each
 * "PATH:PROVIDER:PROBE") as proto.h's KT_REQ_NAMES says. Returns 0 with *lines the
 * names one a line (malloc'd, for the snapshot before the reply) and the reply in text ("elf"
 * and a file's "usdt": the file's canonical path; else how many), or -1 with the one-line reason. */
int agent_names(const char *what, const char *arg, char **lines, char *text, size_t len);

#endif
