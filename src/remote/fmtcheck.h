/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An agent's event formats parsed first in a child process: libtraceevent 1.7's parser
 * dereferences NULL on some malformed declarations (found by fuzz_remote), and no byte from
 * an agent is trusted (docs/security.md). One child per agent, started at its first format
 * and again after a crash; it holds no descriptor of the viewer's but its socket.
 */
#ifndef KTOP_REMOTE_FMTCHECK_H
#define KTOP_REMOTE_FMTCHECK_H

#include <stdbool.h>
#include <stddef.h>

struct kt_fmtcheck;

struct kt_fmtcheck *fmtcheck_new(void);
/* True when the child parsed text as an event format of system and lived. */
bool fmtcheck_ok(struct kt_fmtcheck *c, const char *system, const char *text, size_t n);
void fmtcheck_free(struct kt_fmtcheck *c);

#endif
