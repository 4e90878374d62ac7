/* SPDX-License-Identifier: GPL-2.0-or-later */
/* USDT probes (user statically defined tracepoints, <sys/sdt.h>): the ELF notes of a binary,
 * a shared library or every object a running process has mapped, and their translation into
 * uprobe definitions (probes.h) that the kernel runs as uprobe events in ktop's group.
 *
 * A note (section .note.stapsdt, owner "stapsdt", type 3) holds the probe's address, the
 * link-time address of .stapsdt.base, the semaphore's address (0: none), then
 * "provider\0name\0args\0". The address is moved by the difference between .stapsdt.base's
 * address and the note's base (prelink, as libbpf does), then turned into a file offset
 * through its PT_LOAD segment; so is the semaphore (as written), which the kernel counts up
 * while the probe is enabled (uprobe_events' "PATH:0xOFFSET(0xREF_CTR_OFFSET)").
 *
 * A definition is written as the user types it:
 *
 *   [NAME=]PATH:PROVIDER:PROBE [[ANAME=]argN[:TYPE]...] [pid=PID]
 *
 * Every argument of the note becomes a fetcharg named argN (or ANAME), typed by its size and
 * sign (-4@%edi: arg1=%di:s32); argN:TYPE changes the type (string and ustring read the char
 * pointer the program passes: arg2:string is +0(%r12):string); well-known probes whose
 * arguments are documented char pointers (python's function__entry: file, function) are read
 * as strings unless typed otherwise. Without NAME= the event is
 * named PROBE (PROBE_2, ... for the further sites of a probe with several). */
#ifndef KTOP_USDT_H
#define KTOP_USDT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* One probe site. Strings are malloc'd; free the list with usdt_list_free(). */
struct kt_usdt_note {
	char *path;	     /* the canonical path of the file it is in */
	char *provider;
	char *name;
	uint64_t pc;	     /* the probe's address, adjusted for prelink */
	uint64_t base;	     /* the note's .stapsdt.base address */
	uint64_t semaphore;  /* the semaphore's address, 0 when there is none */
	uint64_t offset;     /* the file offset of pc, for uprobe_events */
	uint64_t sema_offset; /* the file offset of the semaphore, 0 when there is none */
	uint64_t delta;	     /* pc - offset: what maps an address to the offset uprobes read
			      * relative to the probe (@+OFFSET) */
	char *args;	     /* the argument specs, space-separated: "8@%rbp 8@%r12 -4@%eax" */
};

struct kt_usdt_list {
	struct kt_usdt_note *v;
	size_t n;
};

/* Appends path's probes to l (which may already hold some; start from {0}). Returns 0 (also
 * when the file has none), or -1 with a one-line reason in err ("no such file: ...",
 * "... is not an ELF file ..."). */
int usdt_read_file(const char *path, struct kt_usdt_list *l, char *err, size_t errlen);
/* The probes of every ELF file process pid has mapped executable (/proc/PID/maps): the
 * program and its shared libraries. Returns 0, or -1 with err ("no process 123 (it is not
 * running; ...)"). */
int usdt_read_pid(pid_t pid, struct kt_usdt_list *l, char *err, size_t errlen);
void usdt_list_free(struct kt_usdt_list *l);

/* Prints the probes of a file (or of process pid when spec is a number), one line each:
 *   PATH:PROVIDER:PROBE  0xOFFSET  semaphore 0xOFFSET|-  ARGS
 * Returns an exit code (0; 1 with err when the file or process cannot be read or has no
 * probes). */
int usdt_print(FILE *out, const char *spec, char *err, size_t errlen);

/* Resolves a symbol's address for an argument spec that names one (8@counter(%rip)):
 * returns 0 with the address, or -1. */
typedef int (*kt_usdt_symfn)(const char *name, uint64_t *addr, void *ctx);

/* One argument spec of x86-64 as gcc writes it ("-4@%edi", "8@-16(%rbp)", "-4@$5",
 * "8@counter+8(%rip)") as a uprobe fetcharg with its type: "%di:s32", "-16(%bp):u64",
 * "\5:s32", "@+0x4010:u64". type replaces the type the size and sign give (NULL: keep it);
 * "string" and "ustring" dereference the value. delta is the note's. Pure but for symfn.
 * Returns 0, or -1 with a one-line reason naming the spec:
 *   "argument 2 '8@(%rbx,%rax,8)': indexed addressing has no uprobe fetcharg (probe it
 *    with --uprobe PATH:0x4f20a1 and fetchargs of your own)" */
int usdt_fetcharg(const char *spec, int argn, const char *type, uint64_t delta,
		  kt_usdt_symfn symfn, void *ctx, char *out, size_t outlen, char *err,
		  size_t errlen);

/* A definition split up, strings malloc'd; free with usdt_def_free(). */
struct kt_usdt_def {
	char *name;	/* NAME=, or NULL */
	char *path;	/* as written */
	char *provider;
	char *probe;
	char *args;	/* the [ANAME=]argN[:TYPE] tokens, space-separated, or "" */
	pid_t pid;	/* pid=, 0 for every process */
};

/* Parses a definition without reading any file. Returns 0 (def filled when not NULL), or -1
 * with a one-line reason in err:
 *   "USDT target is PATH:PROVIDER:PROBE, as in /usr/bin/python3.11:python:function__entry" */
int usdt_parse(const char *text, struct kt_usdt_def *def, char *err, size_t errlen);
void usdt_def_free(struct kt_usdt_def *def);

/* Turns a definition into one uprobe definition per site of the probe (probes.h's syntax,
 * "NAME=PATH:0xOFFSET(0xREF) arg1=%bp:u64 arg2=+0(%r12):string ... [pid=PID]"), reading
 * PATH's notes. Returns how many (>= 1) in *defs (a malloc'd array of malloc'd strings;
 * free with usdt_defs_free), or -1 with a one-line reason in err:
 *   "no USDT probe 'python:functon__entry' in /usr/bin/python3.11 (ktop --list-usdt
 *    /usr/bin/python3.11 lists its 9)"
 *   "/usr/bin/bash has no USDT probes (no .note.stapsdt section)" */
int usdt_uprobe_defs(const char *text, char ***defs, char *err, size_t errlen);
void usdt_defs_free(char **defs, int n);

#endif
