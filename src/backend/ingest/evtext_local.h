/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What evtext.c and evtext_sys.c share (evtext.h). */
#ifndef KTOP_BACKEND_EVTEXT_LOCAL_H
#define KTOP_BACKEND_EVTEXT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include "evtext.h"

struct kt_rec;
struct tep_event;

#define EVTEXT_SYS_ARGS 6
#define EVTEXT_SYS_NR 1024 /* syscall numbers whose argument types are cached */

/* A syscall's arguments as its syscalls:sys_enter_NAME format declares them. */
struct evtext_sys_args {
	bool read;  /* looked up (found or not) */
	int n;	    /* -1: no format; every raw argument is shown */
	char kind[EVTEXT_SYS_ARGS]; /* 'p' pointer, 'i' int, 'l' long, 'u' unsigned */
};

struct kt_evtext {
	struct kt_decoder *d; /* the decoder the cache is of */
	struct evtext_sys_args sys[EVTEXT_SYS_NR];
};

/* A number field of r (bounds checked). Returns 0, or -1 without it. */
int evtext_num(struct tep_event *ev, const struct kt_rec *r, const char *name,
	       unsigned long long *v);

/* evtext_sys.c: "read(3, 0x7ffd5d9e1b20, 4096)" for a raw_syscalls:sys_enter or a
 * syscalls:sys_enter_NAME record, "futex(...) = -110 ETIMEDOUT" for the exits. Return 0, or
 * -1 when ev is none of them. */
int evtext_sys_enter(struct kt_evtext *x, struct tep_event *ev, const struct kt_rec *r,
		     char *buf, size_t len);
int evtext_sys_exit(struct tep_event *ev, const struct kt_rec *r, char *buf, size_t len);

#endif
