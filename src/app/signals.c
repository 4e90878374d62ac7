// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "signals.h"

static volatile sig_atomic_t pending;
static int wake = -1;
static const char *crash_reset;
static struct termios saved_tty; /* as found, before curses changed it */
static bool have_tty;

static void on_terminate(int sig)
{
	int saved = errno;
	char b = 's';

	if (!pending)
		pending = sig;
	/* a full pipe wakes the loop all the same */
	if (wake >= 0 && write(wake, &b, 1) < 0)
		errno = saved;
	errno = saved;
}

static struct sigaction curses_winch;

static void on_resize(int sig)
{
	int saved = errno;
	char b = 'w';

	if (curses_winch.sa_handler != SIG_DFL && curses_winch.sa_handler != SIG_IGN)
		curses_winch.sa_handler(sig);
	if (wake >= 0 && write(wake, &b, 1) < 0)
		errno = saved;
	errno = saved;
}

void signals_watch_resize(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_resize;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGWINCH, &sa, &curses_winch);
}

/* A crash: give the terminal back, then die by the same signal so the exit status and any
 * core dump stay truthful. The guard process removes the kernel state. */
static void on_crash(int sig)
{
	if (crash_reset && *crash_reset) {
		if (write(STDOUT_FILENO, crash_reset, strlen(crash_reset)) < 0)
			crash_reset = NULL;
		if (have_tty) /* echo and line mode back */
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void signals_install(int wake_fd)
{
	static const int terminate[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	size_t i;

	wake = wake_fd;
	have_tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_tty) == 0;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_terminate;
	for (i = 0; i < sizeof(terminate) / sizeof(terminate[0]); i++)
		sigaction(terminate[i], &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
}

int signals_pending(void)
{
	return pending;
}

void signals_set_crash_reset(const char *seq)
{
	crash_reset = seq;
}
