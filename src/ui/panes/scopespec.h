/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scope typed in the tracer pane: "pid=1234,5678 [children]", "comm=NAME [children]",
 * "cgroup=PATH" or "" (all processes), its syntax checked and put as the scope request's
 * arguments (source_set_scope), which the source checks where its kernel is. */
#ifndef KTOP_UI_SCOPESPEC_H
#define KTOP_UI_SCOPESPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kt_scopespec {
	pid_t *pids; /* malloc'd; NULL with n == 0: clear the scope */
	size_t n;
	bool children;
	char cgroup[4096]; /* cgroup=PATH as typed; "": a pid scope */
	char comm[16];	   /* comm=NAME as typed (a comm scope) */
	char desc[64]; /* for the header and the pane: "pid 1234", "comm bash (2 pids)" */
};

/* Parses text (a comm's pids stay NULL: its source's machine resolves it). Returns 0, or -1
 * with a one-line err naming the cause and the way out. */
int scopespec_parse(const char *text, struct kt_scopespec *out, char *err,
		    size_t errlen);
/* The scope request's kind and argument for it (source.h's set_scope: "pid+children" and
 * "1234,5678", "comm" and "bash", "cgroup" and the path, "" and "" for all processes);
 * *arg is malloc'd. */
void scopespec_request(const struct kt_scopespec *s, char *kind, size_t kindlen, char **arg);
void scopespec_free(struct kt_scopespec *s);

#endif
