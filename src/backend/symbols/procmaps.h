/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Another process's mappings (/proc/PID/maps) and the files behind them. The path a maps
 * line names is the process's own: in another mount namespace it may name, on this host, a
 * FIFO, a device or another file altogether, chosen by whoever owns that namespace. So a
 * mapped file is opened as the process sees it (/proc/PID/map_files/START-END: the very
 * file mapped; or /proc/PID/root/PATH), regular files only, never blocking; never the host's
 * PATH. */
#ifndef KTOP_PROCMAPS_H
#define KTOP_PROCMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct kt_procmap {
	uint64_t start, end, off;
	bool exec;	  /* mapped executable */
	const char *path; /* "" for anonymous memory; " (deleted)" cut off */
	bool deleted;	  /* the file was removed since it was mapped */
};

/* Calls fn for each line of /proc/PID/maps (m valid during the call) until fn returns
 * non-zero, and returns that; 0 at the end; -1 when the process is gone. */
int procmaps_each(pid_t pid, int (*fn)(const struct kt_procmap *m, void *ctx), void *ctx);
/* The file m maps in pid, read-only: through map_files, else through the process's root;
 * -1 unless it is a regular file. */
int procmaps_open(pid_t pid, const struct kt_procmap *m);
/* path as pid names it, reachable from here (buf, of len bytes): itself when pid shares
 * ktop's mount namespace, else under /proc/PID/root. */
void procmaps_reach(pid_t pid, const char *path, char *buf, size_t len);
/* path (a name another process gave) opened read-only if it is a regular file: no FIFO
 * waited on, no device opened, no terminal taken. -1 otherwise. */
int procmaps_open_regular(const char *path);

#endif
