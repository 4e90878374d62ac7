/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User frames named by someone else: a remote agent names the user frames of its event
 * stacks from its own machine's mappings and binaries (KT_MSG_UNAMES), and the viewer keeps
 * those names here, by (pid, address), for the stack pane, the flame pane and batch output.
 * Bounded: 4-way set associative, a new name takes the way given longest ago, so a long
 * session over many processes forgets its oldest frames (shown as addresses again) instead
 * of growing. One thread puts while another gets (a lock inside). (No stacks.h here: the remote protocol's files, whose
 * proto.h names another struct kt_frame, include this one.)
 */
#ifndef KTOP_USERNAMES_H
#define KTOP_USERNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_USERNAMES_SETS 8192
#define KT_USERNAMES_WAYS 4

struct kt_symbolizer;
struct kt_usernames;

struct kt_usernames *usernames_new(void);
/* Frees u and its symbolizer. Safe on NULL. */
void usernames_free(struct kt_usernames *u);
/* pid's frame at addr is name, of kind (enum kt_frame_kind's, stacks.h); a later name for
 * the same frame replaces it. */
void usernames_put(struct kt_usernames *u, int pid, uint64_t addr, uint8_t kind,
		   const char *name);
/* The name given for the frame into buf (NUL-terminated) and its kind; false when none was
 * or it was forgotten. */
bool usernames_get(struct kt_usernames *u, int pid, uint64_t addr, uint8_t *kind, char *buf,
		   size_t len);
/* A symbolizer that names user frames by u alone (symbolizer_new_given), for every reader of
 * stacks that takes one; u's. */
struct kt_symbolizer *usernames_symbolizer(struct kt_usernames *u);

#endif
