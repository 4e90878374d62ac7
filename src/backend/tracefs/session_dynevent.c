// SPDX-License-Identifier: GPL-2.0-or-later
/* Dynamic events (kprobes, uprobes) written to the top level's dynamic_events, with the
 * kernel's own reason when one is rejected (session.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "session_local.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"

int session_append_top_file(const char *file, const char *line)
{
	char *path = tracefs_get_tracing_file(file);
	int ret, e;

	if (!path)
		return -1;
	ret = file_write_str(path, line, true);
	e = errno;
	tracefs_put_tracing_file(path);
	errno = e;
	return ret;
}

int session_dynevent_command(const char *kind_file, const char *cmd, char *err, size_t errlen)
{
	const char *file = tracefs_file_exists(NULL, "dynamic_events") ? "dynamic_events" :
									  kind_file;
	char *before, *after, *kmsg = NULL;
	int e;

	/* The top-level error_log is shared: it is compared, never cleared. */
	before = tracefs_error_all(NULL);
	if (session_append_top_file(file, cmd) == 0) {
		free(before);
		log_debug("session: %s: %s", file, cmd);
		return 0;
	}
	e = errno;
	after = tracefs_error_all(NULL);
	if (after && (!before || strcmp(before, after)))
		kmsg = session_error_last(NULL);
	/* Only the entry our command caused: its "Command:" line quotes it. */
	if (kmsg && !strstr(kmsg, "Command:")) {
		free(kmsg);
		kmsg = NULL;
	}
	if (kmsg)
		str_seterr(err, errlen, "%s", kmsg);
	else
		str_seterr(err, errlen, "%s: %s%s", file, strerror(e), session_errno_hint(e));
	log_debug("session: %s: '%s' rejected: %s", file, cmd, strerror(e));
	free(kmsg);
	free(before);
	free(after);
	errno = e;
	return -1;
}
