/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The agent's side of request 25 (KT_REQ_TRIGGER): the explorer's triggers on the agent's
 * events, through its own app's source as a local explorer's go (triggers.h). */
#ifndef KTOP_REMOTE_AGENTTRIG_H
#define KTOP_REMOTE_AGENTTRIG_H

#include <stddef.h>

struct kt_app;

/* Runs operation op ("add", "remove", "list", "spent", "tracing") with its argument, as
 * proto.h's KT_REQ_TRIGGER says. Returns 0 with the reply in text, or -1 with the one-line
 * reason. */
int agent_trigger(struct kt_app *app, const char *op, const char *arg, char *text, size_t len);

#endif
