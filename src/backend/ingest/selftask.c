// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop's own threads (selftask.h), from /proc/self/task. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>

#include "util/clock.h"
#include "selftask.h"

#define SELF_MAX 64		     /* threads remembered; ktop has a handful */
#define SELF_RELIST_NS 1000000000ULL /* a tid not in the list relists at most this often */

static int tids[SELF_MAX];
static int ntids;
static unsigned long long listed_at; /* 0: never */

static void relist(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	listed_at = clock_mono_ns();
	if (!d)
		return;
	ntids = 0;
	while ((e = readdir(d)) && ntids < SELF_MAX)
		if (e->d_name[0] != '.')
			tids[ntids++] = atoi(e->d_name);
	closedir(d);
}

static bool listed(int tid)
{
	int i;

	for (i = 0; i < ntids; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

bool selftask_is_own(int tid)
{
	if (tid <= 0)
		return false;
	if (listed(tid))
		return true;
	if (listed_at && clock_mono_ns() - listed_at < SELF_RELIST_NS)
		return false;
	relist();
	return listed(tid);
}
