/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A readable name for a task's cgroup, as the overview's cgroup column shows it: a
 * container's short id ("docker:3f2a1b4c5d6e", "podman:...", "k8s:POD/CONTAINER" for
 * kubepods), a systemd unit ("nginx.service", "session-3.scope"), else the path's last
 * component, "/" for the root. No kernel access in cgname_readable.
 */
#ifndef KTOP_BACKEND_CGNAME_H
#define KTOP_BACKEND_CGNAME_H

#include <stddef.h>

/* The readable name of cgroup path (as /proc/PID/cgroup gives it) into out. */
void cgname_readable(const char *path, char *out, size_t len);
/* The readable name of pid's cgroup: its cgroup v2 line, else the name=systemd one, else
 * any. "?" when /proc/PID/cgroup cannot be read. */
void cgname_of_pid(int pid, char *out, size_t len);

#endif
