/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stack records printed where they come, for a stream kept in no store (an agent's, which
 * batch mode prints as it arrives): the frames of an ftrace kernel_stack or user_stack
 * record itself, named by the decoder's kallsyms (evstack.c). Apart from evstack.h, whose
 * frame types the remote protocol's names would clash with.
 */
#ifndef KTOP_EVSTACK_RECORD_H
#define KTOP_EVSTACK_RECORD_H

#include <stdbool.h>
#include <stdio.h>

struct kt_decoder;
struct kt_rec;
struct kt_store;
struct kt_symbolizer;

/* Tells the store which record types are stacks: ftrace's kernel_stack and user_stack as
 * the decoder knows them (the live kernel's formats, a recording's, an agent's). */
void evstack_setup(struct kt_store *st, struct kt_decoder *d);

/* Whether r is a kernel_stack or user_stack record. */
bool evstack_is_record(struct kt_decoder *d, const struct kt_rec *r);
/* Prints r's frames, innermost first: " => do_syscall_64+0x82/0x190" lines, or with json
 * the JSON array evstack_write_json writes (user frames named by sym, as addresses when it is
 * NULL). Returns false, and prints nothing, when r is no stack record. */
bool evstack_record_print(struct kt_decoder *d, struct kt_symbolizer *sym, const struct kt_rec *r,
			  bool json, FILE *out);

#endif
