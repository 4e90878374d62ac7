/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --user-stacks over an agent (KT_REQ_USER_STACKS): the user frames of the event stacks in
 * the agent's pages are addresses in its machine's processes, which only its machine can
 * name. The agent names them here, with the same symbolizer a local ktop uses (mappings from
 * /proc and from perf's side band, so a process that exited is still named, and the ELF
 * symbols of its files), and sends each frame's name once, before the page that holds it
 * (KT_MSG_UNAMES); the viewer keeps them (usernames.h). A frame no mapping holds yet (a
 * process caught in its exec) is tried again after the next passes. Reader thread only,
 * once made. (No proto.h here: its struct kt_frame is not stacks.h's.)
 */
#ifndef KTOP_REMOTE_AGENTUSTACK_H
#define KTOP_REMOTE_AGENTUSTACK_H

#include <stddef.h>
#include <stdint.h>

struct kt_decoder;
struct kt_session;
struct kt_symbolizer;
struct kt_agentustack;

/* Called with each frame's name to send. */
typedef void (*kt_uname_fn)(void *ctx, int pid, uint64_t addr, uint8_t kind, const char *name);

/* The instance's userstacktrace option on (evstack_user), the user_stack record's layout
 * from d (its format loaded there), and a symbolizer that has read every running process's
 * mappings. NULL with one line in err (the option off again). */
struct kt_agentustack *agentustack_new(struct kt_session *s, struct kt_decoder *d, char *err,
				       size_t errlen);
/* Its symbolizer, for the reader's page sink (reader.h: the side band feeds it). */
struct kt_symbolizer *agentustack_symbolizer(struct kt_agentustack *u);
/* One record of a page (its data, size bytes): when it is a user_stack, each of its frames
 * not named to the viewer lately goes to fn. */
void agentustack_record(struct kt_agentustack *u, const void *rec, size_t size, kt_uname_fn fn,
			void *ctx);
/* A pass of the reader ended (the side band fed again: every mapping its pages needed has
 * come): the frames that had no name are tried again (fn gets those named now), and the
 * mappings of processes long gone are let go. */
void agentustack_pass(struct kt_agentustack *u, kt_uname_fn fn, void *ctx);
/* Safe on NULL. */
void agentustack_free(struct kt_agentustack *u);

#endif
