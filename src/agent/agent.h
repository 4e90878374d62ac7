/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktop --agent: no screen, the remote protocol (proto.h) on stdin/stdout. After the viewer's
 * hello it opens its kernel state exactly as a local ktop does (guard, stale clean-up,
 * instance ktop-<pid>, probe group ktop_<pid>: app_open), answers control requests, and
 * streams every CPU's ring-buffer pages as the kernel wrote them, the task names of the pids
 * in them and the kernel's loss counters. When stdin closes, stdout breaks, or on SIGTERM,
 * SIGHUP, SIGINT or SIGPIPE, or after a minute's silence of a viewer that pinged (a serial
 * line, which never closes), it drains the kernel's buffers into its output queue and removes
 * everything (within 2 s, whatever the link), then sends the queue and END: within 30 s
 * after the viewer's own end, within a second after a signal, else it is dropped. The guard
 * cleans up after kill -9.
 */
#ifndef KTOP_REMOTE_AGENT_H
#define KTOP_REMOTE_AGENT_H

#include "app/options.h"

/* Runs the agent on fds 0 and 1 until the viewer goes. Returns the exit code. */
int agent_run(const struct kt_options *opts);

#endif
