/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scope typed in the tracer pane: "pid=1234,5678 [children]", "comm=NAME [children]",
 * "cgroup=PATH" or "" (all processes), resolved to the pids to write into set_event_pid (a
 * cgroup is resolved and followed by app_set_cgroup). */
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
	char desc[64]; /* for the header and the pane: "pid 1234", "comm bash (2 pids)" */
};

/* Parses text and checks it against /proc: every pid must exist, a comm must name at least
 * one running process. Returns 0, or -1 with a one-line err naming the cause and the way
 * out. */
int scopespec_parse(const char *text, struct kt_scopespec *out, char *err, size_t errlen);
void scopespec_free(struct kt_scopespec *s);

#endif
