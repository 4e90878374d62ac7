/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening the path a recording is written to. ktop runs as root and the path is often in a
 * directory other users write (/tmp), so what is already there is not trusted: a symbolic
 * link, a device or FIFO, or another user's file in a sticky directory is refused, an
 * existing file of one's own is replaced only when asked (--force), and then by renaming a
 * new file over it once the new one is complete: a failed write leaves it as it was. The file
 * written is always one ktop created, mode 0600 (recordings hold kernel addresses). */
#ifndef KTOP_OUTFILE_H
#define KTOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <sys/types.h>

struct kt_outfile {
	int fd;		 /* the file being written, created by ktop; the caller may take it (-1) */
	char *tmp;	 /* its name when it replaces path at outfile_commit(); NULL: it is path */
	dev_t dev;	 /* the file's identity: only this file is ever removed */
	ino_t ino;
	bool pending;	 /* created and not yet committed: outfile_discard() removes it */
};

/* Opens path for writing. replace: an existing regular file of one's own may be replaced.
 * Returns 0, or -1 with a one-line reason naming path in err. */
int outfile_open(struct kt_outfile *of, const char *path, bool replace, char *err,
		 size_t errlen);
/* The file is complete: it takes path's place (when it replaces one) and is kept. Returns 0,
 * or -1 with errno (the new file is then removed). */
int outfile_commit(struct kt_outfile *of, const char *path);
/* Closes the fd (unless taken) and removes the file unless committed, if its name still
 * names the file ktop created. */
void outfile_discard(struct kt_outfile *of, const char *path);

#endif
