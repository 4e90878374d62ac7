/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The debug log: written only with -v, to a file, because nothing may be printed while curses
 * owns the screen. Library messages (libtracefs, libtraceevent, libbpf) are routed here too. */
#ifndef KTOP_LOG_H
#define KTOP_LOG_H

#include <stdarg.h>

/* Opens the log file (path NULL: ktop-<pid>.log in the current directory) at the given
 * verbosity; level 0 means no log at all. Returns 0 or -1 with errno set. */
int log_open(int level, const char *path);
void log_close(void);
int log_level(void);
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_vdebug(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
