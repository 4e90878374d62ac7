/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The structure of a trace.dat checked before libtracecmd sees it: every section's size
 * against the file's, so that a truncated, corrupt or foreign file gets a one-line reason
 * naming the section and offset, and libtracecmd is only handed files it can walk. Also
 * collects what the header line shows (host, kernel, clock) and the kernel's loss counters,
 * which libtracecmd 3.1 has no public getters for. */
#ifndef KTOP_TDAT_CHECK_H
#define KTOP_TDAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_tdat_info {
	unsigned version;	/* 6 or 7 */
	unsigned page_size;
	unsigned long_size;	/* of the recording machine: 4 or 8 */
	unsigned long long file_size;
	int ncpus;		/* 0 when the file does not say in plain text (v7 compressed) */
	char compression[32];	/* v7: "zstd", "none" */
	char host[65];		/* from the uname option, "" when absent */
	char kernel[128];
	char clock[32];
	uint64_t kernel_lost;	/* overrun + commit overrun + dropped events of all CPUs */
	bool have_stats;
	char *stacks;		/* ktop's profile option (TDAT_OPT_KTOP_STACKS), malloc'd and
				 * NUL-terminated; NULL when the file has none */
	/* v6, and v7 when not compressed: each CPU's data, the first TDAT_CHECK_PAGES pages
	 * of which are checked; the reader checks the rest as it goes (tdat_check_page).
	 * malloc'd, ncpus entries; NULL when the pages are not on disk as such. */
	struct kt_tdat_cpu { uint64_t off, size; } *cpus;
};

/* Pages per CPU checked up front: enough for libtracecmd's start and the first screen,
 * few enough that a 1 GB file opens at once. */
#define TDAT_CHECK_PAGES 64

/* Checks path; fills *info. Returns 0, or -1 with err holding "PATH: what is wrong". */
int tdat_check(const char *path, struct kt_tdat_info *info, char *err, size_t errlen);
/* Frees what tdat_check() allocated in info. */
void tdat_info_free(struct kt_tdat_info *info);
/* Checks the header of the page at file offset off (fd open on the file). Returns 0, or -1
 * with "PATH: corrupt page at offset ..." in err. */
int tdat_check_page(int fd, const char *path, const struct kt_tdat_info *info, uint64_t off,
		    int cpu, char *err, size_t errlen);
/* The same on a buffer (the fuzz target). name: what to call it in err. */
int tdat_check_mem(const unsigned char *buf, size_t len, const char *name,
		   struct kt_tdat_info *info, char *err, size_t errlen);

#endif
