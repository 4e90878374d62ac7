// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "strutil.h"

int file_read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	return (int)n;
}

int file_read_trimmed(const char *path, char *buf, size_t len)
{
	char *t;
	size_t n;

	if (file_read_small(path, buf, len) < 0)
		return -1;
	t = str_trim(buf);
	n = strlen(t);
	memmove(buf, t, n + 1);
	return (int)n;
}

char *file_read_all(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf, *grown;
	ssize_t got;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0) {
				e = errno;
				free(buf);
				close(fd);
				errno = e;
				return NULL;
			}
			break;
		}
		n += (size_t)got;
		if (n + 1 == cap) {
			cap *= 2;
			grown = realloc(buf, cap);
			if (!grown)
				free(buf);
			buf = grown;
		}
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int file_write_str(const char *path, const char *s, bool append)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}
