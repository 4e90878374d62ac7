/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The self-shipping agent, the viewer's side (docs/remote.md "An agent that ships itself").
 * Where push applies, the remote command is a POSIX shell (ssh -T HOST sh, or --via CMD
 * --push): the viewer writes it a one-line script that runs the host's ktop when it is this
 * version, else asks for the static agent (ktop-agent), which it writes to a writable
 * place that allows exec, checks, runs as `--agent` and which unlinks itself at once
 * (src/remote/pushed.c). Only then does the viewer send its hello.
 */
#ifndef KTOP_REMOTE_PUSH_H
#define KTOP_REMOTE_PUSH_H

#include <stdbool.h>
#include <stddef.h>

enum kt_push {
	KT_PUSH_AUTO,  /* -H: the host's ktop if it is this version, else push; --via: never */
	KT_PUSH_FORCE, /* --push: always send the agent (-H and --via) */
	KT_PUSH_NEVER, /* --no-push: ssh HOST ktop --agent, as before */
};

/* Set once from the options, before any remote is spawned. */
void push_set_mode(enum kt_push mode);
/* Whether a remote of this kind (-H when host, else --via) starts a shell for push. */
bool push_applies(bool host);
/* The dialogue on a freshly started shell: to its stdin, from its stdout (non-blocking).
 * name labels messages. Returns 0 once an agent (the host's or the one sent) waits for the
 * hello, or -1 with one line in err. */
int push_agent(int to, int from, const char *name, char *err, size_t errlen);

#endif
