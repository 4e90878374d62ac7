// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop-agent: ktop --agent alone, linked statically (no curses, no libtracecmd), for the
 * viewer to send to a host that has no ktop (src/remote/push.c). Sent, it was written to a
 * file by the shell that runs it: it unlinks that file first, then moves itself into a
 * memfd, so that nothing named of it remains on the host while it runs or after. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "app/options.h"
#include "agent.h"

extern char **environ;

/* KTOP_PUSHED names the file this process runs from: gone at once, then the same bytes
 * from a memfd. If the kernel refuses the memfd, it runs on from the unlinked file. */
static void settle_pushed(char **argv)
{
	static char name[] = "ktop-agent";
	const char *path = getenv("KTOP_PUSHED");
	struct stat st;
	off_t off = 0;
	int exe, mfd;

	if (!path)
		return;
	unlink(path);
	unsetenv("KTOP_PUSHED");
	exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (exe < 0)
		return;
	mfd = memfd_create("ktop-agent", MFD_CLOEXEC);
	if (mfd >= 0 && fstat(exe, &st) == 0) {
		while (off < st.st_size && sendfile(mfd, exe, &off, (size_t)(st.st_size - off)) > 0)
			;
		if (off == st.st_size) {
			close(exe);
			argv[0] = name; /* not the path that is gone */
			fexecve(mfd, argv, environ);
		}
	}
	if (mfd >= 0)
		close(mfd);
	close(exe);
}

int main(int argc, char **argv)
{
	struct kt_options opts;
	char err[512];
	int ret;

	settle_pushed(argv);
	ret = options_parse(argc, argv, &opts, err, sizeof(err));
	if (ret > 0)
		return KT_EXIT_OK;
	if (ret < 0 || !opts.agent) {
		fprintf(stderr, "ktop-agent: %s (this is ktop's static agent: ktop-agent --agent, "
			"or ktop -H HOST --push sends it)\n", ret < 0 ? err : "not --agent");
		if (ret == 0)
			options_free(&opts);
		return KT_EXIT_USAGE;
	}
	if (opts.verbose && log_open(opts.verbose, opts.log_path) < 0)
		perror("ktop-agent: cannot open the log file");
	ret = agent_run(&opts);
	options_free(&opts);
	log_close();
	return ret;
}
