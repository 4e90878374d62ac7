/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The explorer's overview on the agent's machine (KT_REQ_OVERVIEW_LIVE): opened as local
 * --top opens it (overview.h: the BPF object, or /proc), read with the agent's machine's
 * system strip every tick of the viewer's and sent as an OVROWS frame (ovrows.h), until
 * KT_REQ_OVERVIEW_CLOSE. Its BPF programs are the agent's fds: they go with agentov_free
 * or with the agent, however it ends. Main thread only.
 */
#ifndef KTOP_REMOTE_AGENTOV_H
#define KTOP_REMOTE_AGENTOV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_wbuf;
struct kt_agentov;

/* Opens it for request id (via: "", "tp_btf", "raw_tp" or "proc", as --top=VIA; a named
 * BPF variant the kernel refuses is refused), its first tick one period from now. NULL
 * with the one line local --top would say; else reply says where its figures come from. */
struct kt_agentov *agentov_open(uint32_t id, const char *via, unsigned long long period_ns,
				char *reply, size_t len);
uint32_t agentov_id(const struct kt_agentov *a);
/* "on" or "off": its syscall hooks. 0, or -1 with one line. */
int agentov_syscalls(struct kt_agentov *a, const char *arg, char *err, size_t errlen);
/* When its next tick is due; at or past it, agentov_encode reads the tick. */
unsigned long long agentov_due(const struct kt_agentov *a);
/* The tick read (the overview, the system strip) into b as an OVROWS payload, the next
 * due one period after now. */
void agentov_encode(struct kt_agentov *a, unsigned long long now, struct kt_wbuf *b);
void agentov_free(struct kt_agentov *a); /* NULL is fine */

#endif
