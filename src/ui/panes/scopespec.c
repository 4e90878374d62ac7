// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopespec.h"
#include "util/xalloc.h"

#define SYNTAX "use pid=PID[,PID...] [children], comm=NAME [children], cgroup=PATH, or empty " \
	       "for all"

static int parse_pids(const char *list, struct kt_scopespec *out, char *err,
		      size_t errlen)
{
	const char *p = list;

	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > 0x3fffffff || (*end && *end != ',')) {
			snprintf(err, errlen, "bad pid \"%.*s\": %s", (int)strcspn(p, ","), p,
				 SYNTAX);
			return -1;
		}
		out->pids = xreallocarray(out->pids, out->n + 1, sizeof(*out->pids));
		out->pids[out->n++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	if (!out->n) {
		snprintf(err, errlen, "pid= names no pid: %s", SYNTAX);
		return -1;
	}
	if (out->n == 1)
		snprintf(out->desc, sizeof(out->desc), "pid %d", (int)out->pids[0]);
	else
		snprintf(out->desc, sizeof(out->desc), "pid %d +%zu", (int)out->pids[0],
			 out->n - 1);
	return 0;
}

static int parse_comm(const char *name, struct kt_scopespec *out, char *err,
		      size_t errlen)
{
	if (!*name || strlen(name) > 15) {
		snprintf(err, errlen, "comm= wants a name of 1 to 15 characters: %s", SYNTAX);
		return -1;
	}
	snprintf(out->comm, sizeof(out->comm), "%s", name);
	snprintf(out->desc, sizeof(out->desc), "comm %s", name);
	return 0;
}

int scopespec_parse(const char *text, struct kt_scopespec *out, char *err,
		    size_t errlen)
{
	char buf[512], *word, *save = NULL, *what = NULL;
	int ret = 0;

	*out = (struct kt_scopespec){ 0 };
	snprintf(buf, sizeof(buf), "%s", text);
	for (word = strtok_r(buf, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(word, "children")) {
			out->children = true;
		} else if (!what && (!strncmp(word, "pid=", 4) || !strncmp(word, "comm=", 5) ||
				     !strncmp(word, "cgroup=", 7))) {
			what = word;
		} else {
			snprintf(err, errlen, "unexpected \"%s\": %s", word, SYNTAX);
			return -1;
		}
	}
	if (!what) {
		if (out->children) {
			snprintf(err, errlen, "children of what? %s", SYNTAX);
			return -1;
		}
		return 0; /* empty: all processes */
	}
	if (what[1] == 'g') {
		if (out->children || !what[7]) {
			snprintf(err, errlen, "cgroup= takes a path and no more (its tasks' children "
				 "are in it): %s", SYNTAX);
			return -1;
		}
		snprintf(out->cgroup, sizeof(out->cgroup), "%s", what + 7);
		return 0;
	}
	ret = what[0] == 'p' ? parse_pids(what + 4, out, err, errlen)
			     : parse_comm(what + 5, out, err, errlen);
	if (ret < 0) {
		scopespec_free(out);
		return -1;
	}
	if (out->children && strlen(out->desc) + 10 < sizeof(out->desc))
		strcat(out->desc, " +children");
	return 0;
}

void scopespec_free(struct kt_scopespec *s)
{
	free(s->pids);
	s->pids = NULL;
	s->n = 0;
}

void scopespec_request(const struct kt_scopespec *s, char *kind, size_t kindlen, char **arg)
{
	size_t n = 0;

	*arg = NULL;
	if (s->cgroup[0]) {
		snprintf(kind, kindlen, "cgroup");
		*arg = xstrdup(s->cgroup);
		return;
	}
	snprintf(kind, kindlen, "%s%s", s->comm[0] ? "comm" : s->n ? "pid" : "",
		 (s->comm[0] || s->n) && s->children ? "+children" : "");
	if (s->comm[0]) {
		*arg = xstrdup(s->comm);
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		*arg = xrealloc(*arg, n + 16);
		n += (size_t)snprintf(*arg + n, 16, "%s%d", i ? "," : "", (int)s->pids[i]);
	}
	if (!*arg)
		*arg = xstrdup("");
}
