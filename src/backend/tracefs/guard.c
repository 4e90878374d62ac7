// SPDX-License-Identifier: GPL-2.0-or-later
/* The guard: a child that outlives ktop by a moment and removes what ktop left in tracefs.
 *
 * It learns of ktop's death from a pipe: ktop holds the write end (close-on-exec, so
 * programs it runs do not keep it open) and the guard blocks reading the other end until
 * EOF, which the kernel delivers however ktop ends, kill -9 included. PR_SET_PDEATHSIG is
 * not used: it fires when the forking *thread* exits, not the process.
 *
 * The guard ignores the signals a terminal or an SSH hang-up sends to the whole process
 * group, so it is still there when ktop is gone; it stays in ktop's process group (no
 * setsid), so a kill -9 of the group takes it too, and the next ktop start cleans up. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "session.h"
#include "util/log.h"
#include "util/testhooks.h"

/* How long the guard retries an instance that is still busy: the dying ktop's ring-buffer
 * files may close after the pipe does. */
#define GUARD_BUSY_MS 1000

static int guard_wr = -1;
static pid_t guard_pid, guard_owner;

static void close_all_but(int keep)
{
	long max = sysconf(_SC_OPEN_MAX);
	int fd;

#ifdef SYS_close_range
	if (keep > 3 && syscall(SYS_close_range, 3, keep - 1, 0) == 0 &&
	    syscall(SYS_close_range, keep + 1, ~0U, 0) == 0)
		return;
	if (keep == 3 && syscall(SYS_close_range, 4, ~0U, 0) == 0)
		return;
#endif
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = 3; fd < max; fd++)
		if (fd != keep)
			close(fd);
}

static void guard_main(int rd, pid_t owner)
{
	static const int ignored[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2, SIGWINCH };
	struct sigaction sa;
	sigset_t all;
	char buf[64];
	ssize_t n;
	size_t i;
	int null;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sigaction(ignored[i], &sa, NULL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	/* Hold nothing of ktop's: no terminal, no tracefs file, no log (closed through stdio
	 * first, so a later log_debug() cannot write into a reused descriptor). */
	log_close();
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	if (rd < 3) {
		/* Cannot happen with stdio open, but keep the pipe out of the way. */
		rd = fcntl(rd, F_DUPFD_CLOEXEC, 3);
		if (rd < 0)
			_exit(1);
	}
	close_all_but(rd);
	prctl(PR_SET_NAME, "ktop-guard", 0, 0, 0);
	/* Failing only keeps a mount point busy. */
	if (chdir("/") < 0)
		errno = 0;

	/* ktop never writes: read() returns 0 when its last write end is gone. */
	do {
		n = read(rd, buf, sizeof(buf));
	} while (n > 0 || (n < 0 && errno == EINTR));

	session_remove_owned(owner, GUARD_BUSY_MS);
	_exit(0);
}

void guard_stop(void)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	pid_t r;
	int i;

	/* Only the process that started the guard: not a child that inherited the atexit. */
	if (guard_wr < 0 || getpid() != guard_owner)
		return;
	close(guard_wr);
	guard_wr = -1;
	/* The guard finds nothing left and exits at once: reap it, so no zombie outlives ktop
	 * where init does not reap. If it is still busy (an instance that will only come free
	 * when this process is gone), leave it to finish after the exit. */
	for (i = 0; i < 40; i++) {
		r = waitpid(guard_pid, NULL, WNOHANG);
		if (r == guard_pid || (r < 0 && errno != EINTR))
			return;
		nanosleep(&ts, NULL);
	}
}

int guard_start(void)
{
	const char *no = test_hook_env("KTOP_NO_GUARD");
	int fds[2];
	pid_t owner = getpid(), pid;

	if (no && !strcmp(no, "1"))
		return 0;
	if (guard_wr >= 0)
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[1]);
		guard_main(fds[0], owner);
	}
	close(fds[0]);
	guard_wr = fds[1];
	guard_pid = pid;
	if (guard_owner != owner) {
		guard_owner = owner;
		atexit(guard_stop);
	}
	return 0;
}
