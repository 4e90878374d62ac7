/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guard: a small child process, forked before any thread exists, that waits for ktop to
 * die by any means (kill -9 included) and then removes ktop's instance and probe group if
 * they are still there. A clean exit removes them first and the guard finds nothing. */
#ifndef KTOP_GUARD_H
#define KTOP_GUARD_H

/* Forks the guard for the current pid. Returns 0, or -1 (ktop then relies on the next
 * start's stale clean-up). */
int guard_start(void);
/* Tells the guard ktop is done, so it removes whatever is left of ktop-<pid> now, and reaps
 * it if it exits within ~200 ms (where init does not reap, an orphaned guard would stay a
 * zombie). Registered with atexit() by guard_start(); call it earlier only after
 * session_close(). */
void guard_stop(void);

#endif
