// SPDX-License-Identifier: GPL-2.0-or-later
/* Where tracefs is, mounting it when it is not (session.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "session_local.h"
#include "util/log.h"
#include "util/strutil.h"

#define TRACEFS_PATH "/sys/kernel/tracing"
#define DEBUGFS_PATH "/sys/kernel/debug"

int session_mounted_tracing_dir(char *buf, size_t len)
{
	char dev[256], dir[PATH_MAX], type[64];
	char debugfs[PATH_MAX] = "";
	int found = 0;
	FILE *f;

	f = fopen("/proc/mounts", "re");
	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "tracefs")) {
			/* The canonical place wins over a second mount elsewhere. */
			if (!found || !strcmp(dir, TRACEFS_PATH))
				snprintf(buf, len, "%s", dir);
			found = 1;
		} else if (!strcmp(type, "debugfs") && !debugfs[0]) {
			if (snprintf(debugfs, sizeof(debugfs), "%s/tracing", dir) >=
			    (int)sizeof(debugfs))
				debugfs[0] = '\0';
		}
	}
	fclose(f);
	if (found)
		return 0;
	if (debugfs[0] && access(debugfs, F_OK) == 0) {
		/* Old kernels: tracefs auto-mounted inside debugfs. */
		snprintf(buf, len, "%s", debugfs);
		return 0;
	}
	return -1;
}

static int tracefs_in_kernel(void)
{
	char line[128];
	int found = 0;
	FILE *f;

	f = fopen("/proc/filesystems", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\ttracefs\n"))
			found = 1;
	fclose(f);
	return found;
}

const char *session_tracing_dir(char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	const char *dir;
	int e;

	if (session_mounted_tracing_dir(path, sizeof(path)) < 0) {
		if (tracefs_in_kernel() == 0) {
			str_seterr(err, errlen,
			       "this kernel has no tracefs (it was built without CONFIG_TRACING; "
			       "boot a kernel with tracing support)");
			return NULL;
		}
		if (mount("nodev", TRACEFS_PATH, "tracefs", 0, NULL) < 0) {
			e = errno;
			if (mount("nodev", DEBUGFS_PATH, "debugfs", 0, NULL) < 0 ||
			    session_mounted_tracing_dir(path, sizeof(path)) < 0) {
				str_seterr(err, errlen, "cannot mount tracefs at %s: %s%s",
				       TRACEFS_PATH, strerror(e), session_errno_hint(e));
				return NULL;
			}
		}
		log_debug("session: mounted tracefs");
		if (session_mounted_tracing_dir(path, sizeof(path)) < 0) {
			str_seterr(err, errlen, "mounted tracefs at %s but cannot find it in "
			       "/proc/mounts", TRACEFS_PATH);
			return NULL;
		}
	}
	/* Asked before libtracefs is: its failure paths leak, and the user wants the cause. */
	if (faccessat(AT_FDCWD, path, R_OK | W_OK | X_OK, AT_EACCESS) < 0) {
		e = errno;
		if ((e == EACCES || e == EPERM) && stat(path, &st) == 0)
			str_seterr(err, errlen, "cannot use tracefs at %s: %s (its owner is uid "
				   "%u, mode %04o, and no capability but CAP_DAC_OVERRIDE opens "
				   "it: run ktop as root)", path, strerror(e), (unsigned)st.st_uid,
				   (unsigned)(st.st_mode & 07777));
		else
			str_seterr(err, errlen, "cannot use tracefs at %s: %s", path, strerror(e));
		return NULL;
	}
	dir = tracefs_tracing_dir();
	if (!dir) {
		e = errno ? errno : ENOENT;
		str_seterr(err, errlen, "cannot find the tracefs mount point: %s%s", strerror(e),
		       session_errno_hint(e));
		return NULL;
	}
	return dir;
}
