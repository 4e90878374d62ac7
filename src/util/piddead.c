// SPDX-License-Identifier: GPL-2.0-or-later
/* A leftover's owner gone or not (piddead.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "piddead.h"

bool pid_is_dead(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool dead = false;

	if (pid == getpid())
		return false;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		return access(path, F_OK) < 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
			dead = true;
	}
	fclose(f);
	return dead;
}
