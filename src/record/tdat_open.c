// SPDX-License-Identifier: GPL-2.0-or-later
/* A trace.dat checked, then opened by libtracecmd in a child first (tdat_open.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "tdat_open.h"

/*
 * libtracecmd 3.1 crashes in its own clean-up when it refuses some corrupt files that pass
 * the structure check (tracecmd_open_fd frees a half-built handle), so it opens the file
 * once in a child first: a refusal or a crash there is a one-line error here.
 */
static int open_in_child(const char *path, char *err, size_t errlen)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 0; /* no child: go ahead, the structure check passed */
	if (pid == 0)
		_exit(tracecmd_open(path, TDAT_OPEN_FLAGS) ? 0 : 1);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s: corrupt: libtracecmd crashes reading it (signal %d)",
			 path, WTERMSIG(status));
	else
		snprintf(err, errlen, "%s: corrupt: libtracecmd cannot read its formats or data",
			 path);
	return -1;
}

int tdat_open_check(const char *path, struct kt_tdat_file *f, char *err, size_t errlen)
{
	struct stat sb;

	f->dev = 0;
	f->ino = 0;
	if (tdat_check(path, &f->info, err, errlen) < 0)
		return -1;
	if (stat(path, &sb) == 0) {
		f->dev = sb.st_dev;
		f->ino = sb.st_ino;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	if (open_in_child(path, err, errlen) < 0) {
		tdat_info_free(&f->info);
		return -1;
	}
	return 0;
}

/*
 * libtracecmd maps the per-CPU data and never unmaps what it has read, so reading a 1 GB
 * file through would leave 1 GB resident (clean page cache, but counted against ktop). The
 * mappings are read-only: dropping their pages is safe at any time.
 */
void tdat_drop_pages(const struct kt_tdat_file *f)
{
	unsigned long start, end, ino;
	unsigned maj, min;
	char line[512];
	FILE *m = fopen("/proc/self/maps", "re");

	if (!m)
		return;
	while (fgets(line, sizeof(line), m))
		if (sscanf(line, "%lx-%lx %*s %*s %x:%x %lu", &start, &end, &maj, &min, &ino) == 5 &&
		    ino == (unsigned long)f->ino && makedev(maj, min) == f->dev)
			madvise((void *)start, end - start, MADV_DONTNEED);
	fclose(m);
}
