/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether the process that owns a leftover (a tracefs instance, a probe group, a remote
 * mirror directory named after its pid) is gone, so the leftover may be removed. */
#ifndef KTOP_PIDDEAD_H
#define KTOP_PIDDEAD_H

#include <stdbool.h>
#include <sys/types.h>

/* No such process, or a zombie: a killed ktop whose parent has not reaped it yet holds no
 * file any more. Never this process; a pid of another user (EPERM) is alive. */
bool pid_is_dead(pid_t pid);

#endif
