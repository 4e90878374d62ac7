// SPDX-License-Identifier: GPL-2.0-or-later
/* Names of ktop's kernel state, unique across pid namespaces (owner.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "owner.h"

#define PID_NS_INIT_INO 0xEFFFFFFCu /* the kernel's PROC_PID_INIT_INO */

/* "" in the initial pid namespace (the names ktop always had), else "<inode>_". */
static const char *ns_tag(void)
{
	static char tag[32];
	static bool done;
	struct stat sb;

	if (!done) {
		if (stat("/proc/self/ns/pid", &sb) == 0 && sb.st_ino != PID_NS_INIT_INO)
			snprintf(tag, sizeof(tag), "%llu_", (unsigned long long)sb.st_ino);
		done = true;
	}
	return tag;
}

void owner_name(char *buf, size_t len, const char *prefix, pid_t pid)
{
	snprintf(buf, len, "%s%s%d", prefix, ns_tag(), (int)pid);
}

const char *owner_parse(const char *name, const char *prefix, pid_t *pid)
{
	size_t plen = strlen(prefix), tlen = strlen(ns_tag());
	const char *digits = name + plen + tlen;
	char *end;
	long v;

	if (strncmp(name, prefix, plen) || strncmp(name + plen, ns_tag(), tlen) ||
	    !isdigit((unsigned char)*digits))
		return NULL;
	errno = 0;
	v = strtol(digits, &end, 10);
	if (errno || v <= 0 || v > INT_MAX)
		return NULL;
	*pid = (pid_t)v;
	return end;
}
