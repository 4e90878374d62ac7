// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "scopereq.h"
#include "util/xalloc.h"

int scopereq_from_options(const struct kt_options *o, struct kt_scopereq *q)
{
	size_t n = 0;

	if (o->n_pids) {
		q->kind = o->follow_children ? "pid+children" : "pid";
		q->opt = "-p";
		q->arg = NULL;
		for (size_t i = 0; i < o->n_pids; i++) {
			q->arg = xrealloc(q->arg, n + 16);
			n += (size_t)snprintf(q->arg + n, 16, "%s%d", i ? "," : "", (int)o->pids[i]);
		}
	} else if (o->comm) {
		*q = (struct kt_scopereq){ "comm", "--comm", xstrdup(o->comm) };
	} else if (o->cgroup) {
		*q = (struct kt_scopereq){ "cgroup", "--cgroup", xstrdup(o->cgroup) };
	} else {
		return 0;
	}
	return 1;
}

void scopereq_free(struct kt_scopereq *q)
{
	free(q->arg);
	q->arg = NULL;
}
