/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The names ktop gives what it leaves in the kernel's shared state (its tracefs instance,
 * its probe group, its saved top-level state): the prefix and its pid. tracefs is one for
 * every pid namespace, and a pid means nothing outside its own: a ktop outside the initial
 * pid namespace (a container's) adds that namespace's inode, "ktop-4026532301_7", so that
 * two namespaces' ktops never take each other's names, and each judges only the names of
 * its own namespace (a pid it cannot see is not a dead one). */
#ifndef KTOP_OWNER_H
#define KTOP_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* prefix, this namespace's tag, pid (a pid of this namespace) into buf. */
void owner_name(char *buf, size_t len, const char *prefix, pid_t pid);
/* When name starts with prefix, this namespace's tag and a pid: the pid in *pid, and where
 * the digits end. NULL for any other name, another namespace's included. */
const char *owner_parse(const char *name, const char *prefix, pid_t *pid);

#endif
