/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-file reads and writes of the small text files procfs, sysfs and tracefs are made of.
 * Each returns -1 with errno as the failing call left it. */
#ifndef KTOP_FILEIO_H
#define KTOP_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* Up to len - 1 bytes of path into buf, NUL-terminated. Returns the bytes read. */
int file_read_small(const char *path, char *buf, size_t len);
/* file_read_small() with leading and trailing white space removed. Returns the length. */
int file_read_trimmed(const char *path, char *buf, size_t len);
/* All of path, malloc'd and NUL-terminated (procfs and tracefs files report size 0, so this
 * reads until EOF); *len (may be NULL) gets its length. */
char *file_read_all(const char *path, size_t *len);
/* Writes s to path in one write(): truncating it, or appending (append: never O_TRUNC, which
 * on tracefs's dynamic_events would delete every user's events). Returns 0. */
int file_write_str(const char *path, const char *s, bool append);

#endif
