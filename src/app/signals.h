/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every exit path goes through the normal teardown: SIGINT, SIGTERM, SIGHUP (the SSH
 * connection dropped), SIGQUIT and SIGPIPE only record the signal and wake the main loop.
 * Crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) restore the terminal and leave the
 * kernel state to the guard process. */
#ifndef KTOP_SIGNALS_H
#define KTOP_SIGNALS_H

#include <signal.h>

/* Installs the handlers; wake_fd gets one byte per signal (-1: none). */
void signals_install(int wake_fd);
/* The terminating signal received, or 0. */
int signals_pending(void);
/* After curses has installed its SIGWINCH handler: also wake the main loop on a resize, so
 * a resize that lands outside poll() is not left waiting for the next key or tick. */
void signals_watch_resize(void);
/* Bytes written to the terminal on a crash before dying (curses' reset sequence). */
void signals_set_crash_reset(const char *seq);

#endif
