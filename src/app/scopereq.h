/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scope options (-p with --follow-children, --comm, --cgroup) as the scope request's
 * arguments (KT_REQ_SCOPE, proto.h), which batch mode and the explorer send each agent. */
#ifndef KTOP_REMOTE_SCOPEREQ_H
#define KTOP_REMOTE_SCOPEREQ_H

struct kt_options;

struct kt_scopereq {
	const char *kind; /* "pid", "pid+children", "comm" or "cgroup" */
	const char *opt;  /* the option, for a refusal: "-p", "--comm", "--cgroup" */
	char *arg;	  /* the pids comma-separated, the name or the path; malloc'd */
};

/* The options' scope into q. Returns 1, or 0 when they set none (q untouched). */
int scopereq_from_options(const struct kt_options *o, struct kt_scopereq *q);
void scopereq_free(struct kt_scopereq *q);

#endif
