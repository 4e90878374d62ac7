// SPDX-License-Identifier: GPL-2.0-or-later
/* An agent's event formats tried in a child first (fmtcheck.h). */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fmtcheck.h"
#include "util/xalloc.h"

/* Past any real format (client.c refuses more than 64 KiB before this). */
#define FMTCHECK_MAX (1u << 20)

struct kt_fmtcheck {
	pid_t pid; /* 0: no child */
	int sock;
};

struct fmt_req {
	uint32_t sys_len, text_len;
};

static bool read_all(int fd, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static bool send_all(int fd, const void *buf, size_t n)
{
	for (size_t sent = 0; sent < n;) {
		ssize_t r = send(fd, (const char *)buf + sent, n - sent, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		sent += (size_t)r;
	}
	return true;
}

/* The child: one answer byte per request, a fresh parser each, until the viewer goes. */
static void child_serve(int s)
{
	static const int quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct tep_handle *tep;
	struct fmt_req q;
	char *buf;
	uint8_t ok;

	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		signal(quiet[i], SIG_IGN);
	/* a crash ends the child by its signal, past the handlers the viewer set */
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		signal(crash[i], SIG_DFL);
	if (s != 3 && dup2(s, 3) < 0)
		_exit(1);
	close_range(4, ~0u, 0); /* an agent's pipe held here would never see its EOF */
	tep_set_loglevel(TEP_LOG_NONE);
	while (read_all(3, &q, sizeof(q))) {
		if (q.sys_len > 256 || q.text_len > FMTCHECK_MAX)
			_exit(1);
		buf = malloc((size_t)q.sys_len + 1 + q.text_len + 1);
		if (!buf || !read_all(3, buf, (size_t)q.sys_len + 1 + q.text_len))
			_exit(1);
		buf[q.sys_len] = '\0';
		buf[q.sys_len + 1 + q.text_len] = '\0';
		tep = tep_alloc();
		ok = tep && tep_parse_event(tep, buf + q.sys_len + 1, q.text_len, buf) == 0;
		if (tep)
			tep_free(tep);
		free(buf);
		if (write(3, &ok, 1) != 1)
			_exit(0);
	}
	_exit(0);
}

static bool child_start(struct kt_fmtcheck *c)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	c->pid = fork();
	if (c->pid == 0) {
		close(sv[0]);
		child_serve(sv[1]);
	}
	close(sv[1]);
	if (c->pid < 0) {
		c->pid = 0;
		close(sv[0]);
		return false;
	}
	c->sock = sv[0];
	return true;
}

static void child_stop(struct kt_fmtcheck *c)
{
	if (!c->pid)
		return;
	close(c->sock);
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
}

struct kt_fmtcheck *fmtcheck_new(void)
{
	return xcalloc(1, sizeof(struct kt_fmtcheck));
}

bool fmtcheck_ok(struct kt_fmtcheck *c, const char *system, const char *text, size_t n)
{
	struct fmt_req q = { .text_len = (uint32_t)n };
	size_t sys_len = strlen(system);
	uint8_t ok = 0;

	if (sys_len > 256 || n > FMTCHECK_MAX || (!c->pid && !child_start(c)))
		return false;
	q.sys_len = (uint32_t)sys_len;
	if (send_all(c->sock, &q, sizeof(q)) && send_all(c->sock, system, sys_len + 1) &&
	    send_all(c->sock, text, n) && read_all(c->sock, &ok, 1))
		return ok == 1;
	child_stop(c); /* it died on this format: the next starts another */
	return false;
}

void fmtcheck_free(struct kt_fmtcheck *c)
{
	if (!c)
		return;
	child_stop(c);
	free(c);
}
