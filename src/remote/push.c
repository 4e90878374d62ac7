// SPDX-License-Identifier: GPL-2.0-or-later
/* The self-shipping agent, the viewer's side: see push.h and docs/remote.md. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "remote/proto.h"
#include "remote/push.h"

/* How long a step of the dialogue may take: an ssh login, a slow link's 4 KiB. */
#define PUSH_STEP_MS 30000

static enum kt_push push_mode;

void push_set_mode(enum kt_push mode)
{
	push_mode = mode;
}

bool push_applies(bool host)
{
	return push_mode == KT_PUSH_FORCE || (host && push_mode == KT_PUSH_AUTO);
}

/* The static agent: $KTOP_AGENT, else ktop-agent beside this ktop (a build tree), else
 * the installed one. Returns an open fd and its size, or -1. */
static int agent_open(off_t *size, char *path, size_t len)
{
	const char *env = getenv("KTOP_AGENT");
	struct stat st;
	ssize_t n;
	int fd;

	if (env && *env) {
		snprintf(path, len, "%s", env);
	} else {
		n = readlink("/proc/self/exe", path, len - 16);
		if (n > 0) {
			path[n] = '\0';
			snprintf(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, 16, "ktop-agent");
		}
		if (n <= 0 || access(path, R_OK) < 0)
			snprintf(path, len, "%s/ktop-agent", KTOP_PKGLIBEXECDIR);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		errno = ENOEXEC;
		return -1;
	}
	*size = st.st_size;
	return fd;
}

/* One line of the shell's stdout into buf, byte by byte: what follows the marker belongs to
 * the agent. Returns its length, or -1 on timeout or end. */
static int read_line(int from, char *buf, size_t len)
{
	struct pollfd p = { .fd = from, .events = POLLIN };
	size_t n = 0;
	ssize_t r;

	for (;;) {
		r = read(from, buf + n, 1);
		if (r == 1) {
			if (buf[n] == '\n' || n + 2 >= len) {
				/* a tty's line ends "\r\n" until the script makes it raw */
				if (n > 0 && buf[n - 1] == '\r' && buf[n] == '\n')
					n--;
				buf[n] = '\0';
				return (int)n;
			}
			n++;
			continue;
		}
		if (r == 0 || (errno != EAGAIN && errno != EINTR))
			return -1;
		if (poll(&p, 1, PUSH_STEP_MS) <= 0)
			return -1;
	}
}

/* The next KTOP-PUSH- line (a shell's noise before it skipped, up to 64 lines). */
static int read_marker(int from, char *buf, size_t len)
{
	for (int i = 0; i < 64; i++) {
		if (read_line(from, buf, len) < 0)
			return -1;
		if (!strncmp(buf, "KTOP-PUSH-", 10))
			return 0;
		log_debug("push: shell said '%s'", buf);
	}
	return -1;
}

static int write_all(int to, const void *data, size_t len)
{
	struct pollfd p = { .fd = to, .events = POLLOUT };
	const char *d = data;
	ssize_t w;

	while (len) {
		if (poll(&p, 1, PUSH_STEP_MS) <= 0)
			return -1;
		w = write(to, d, len < 4096 ? len : 4096);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		d += w;
		len -= (size_t)w;
	}
	return 0;
}

static int send_file(int to, int fd, off_t size)
{
	char buf[65536];
	ssize_t n;

	while (size > 0) {
		n = read(fd, buf, sizeof(buf));
		if (n <= 0 || write_all(to, buf, (size_t)n) < 0)
			return -1;
		size -= n;
	}
	return 0;
}

/* The agent gzip'd for the wire by this machine's gzip, into a memfd: a third of the bytes,
 * which a slow link (a serial line, ~8 kB/s into a qemu guest) needs, and which the host's
 * gzip (busybox's too) unpacks. Returns the memfd and its size, or -1 (no gzip here, or
 * nothing gained: the agent goes as it is). */
static int agent_gzip(int fd, off_t size, off_t *zsize)
{
	struct stat st;
	int mfd, status;
	pid_t pid;

	mfd = memfd_create("ktop-agent.gz", MFD_CLOEXEC);
	if (mfd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (dup2(fd, STDIN_FILENO) < 0 || dup2(mfd, STDOUT_FILENO) < 0)
			_exit(127);
		execlp("gzip", "gzip", "-9", "-n", "-c", (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (lseek(fd, 0, SEEK_SET) < 0 || pid < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || fstat(mfd, &st) < 0 || st.st_size <= 0 ||
	    st.st_size >= size || lseek(mfd, 0, SEEK_SET) < 0) {
		close(mfd);
		return -1;
	}
	*zsize = st.st_size;
	return mfd;
}

/* The one-line script: the host's ktop when it speaks this remote protocol, whatever its
 * package version (unless --push; the second line of its --version says the protocol),
 * else a writable place that allows exec, the agent's bytes from stdin, checked, run.
 * A shell on a serial line or a console echoes what it reads, prompts, and cooks the line:
 * the markers are never in the script's text (m=KTOP-PUSH; echo $m-GO), so its echo is
 * never taken for one; a tty is made raw (the agent's bytes and frames are binary) and
 * keeps no stderr (it would interleave with the frames). The agent goes gzip'd where both
 * ends have gzip (zsize > 0 here): the shell says which size it reads. Kept under 1,000
 * bytes: busybox's interactive line editor takes at most 1,023. */
static void script(char *buf, size_t len, bool force, long long size, long long zsize)
{
	snprintf(buf, len,
		 "m=KTOP-PUSH; [ -t 0 ] && stty raw -echo 2>/dev/null; [ -t 1 ] && exec 2>/dev/null; "
		 "p='remote protocol %u'; "
		 "if [ %d = 0 ] && command -v ktop >/dev/null 2>&1 && "
		 "[ \"$(ktop --version 2>/dev/null | head -n 2 | tail -n 1)\" = \"$p\" ]; then "
		 "echo $m-HAVE; exec ktop --agent; fi; "
		 "[ %lld -gt 0 ] || { echo $m-NONE; exit 1; }; z=cat; s=%lld; [ %lld -gt 0 ] && "
		 "command -v gzip >/dev/null 2>&1 && z='gzip -dc' && s=%lld; "
		 "f=; for d in /dev/shm \"/run/user/$(id -u 2>/dev/null)\" /run /tmp /var/tmp; do "
		 "[ -d \"$d\" ] && [ -w \"$d\" ] || continue; f=$d/.ktop-agent.$$; "
		 "if (printf '#!/bin/sh\\n' >\"$f\" && chmod 700 \"$f\" && \"$f\") 2>/dev/null; "
		 "then break; fi; rm -f \"$f\"; f=; done; "
		 "if [ -z \"$f\" ]; then echo $m-NOEXEC; exit 1; fi; "
		 "echo \"$m-ASK $(uname -m) $(uname -r) $d $s\"; "
		 "head -c $s | $z >\"$f\"; "
		 "if [ \"$(wc -c <\"$f\")\" -eq %lld ] && chmod 700 \"$f\"; then "
		 "echo $m-GO; KTOP_PUSHED=$f exec \"$f\" --agent; fi; "
		 "rm -f \"$f\"; echo $m-SHORT; exit 1\n",
		 KT_PROTO_VERSION, force, size, size, zsize, zsize, size);
}

/* The host's machine and kernel against the agent's: one line when they do not fit. */
static int host_fits(const char *ask, const char *name, char *err, size_t errlen)
{
	char machine[64], release[128];
	struct utsname u;
	int major = 0, minor = 0;

	if (sscanf(ask, "KTOP-PUSH-ASK %63s %127s", machine, release) != 2) {
		snprintf(err, errlen, "%s: the shell answered '%.80s' to the agent's push", name, ask);
		return -1;
	}
	uname(&u);
	if (strcmp(machine, u.machine)) {
		snprintf(err, errlen, "%s is %s, the agent this ktop sends is built for %s: install "
			 "ktop there", name, machine, u.machine);
		return -1;
	}
	/* memfd_create, which the agent moves itself into */
	if (sscanf(release, "%d.%d", &major, &minor) != 2 || major * 1000 + minor < 3017) {
		snprintf(err, errlen, "%s runs Linux %s, the agent needs 3.17 or later: install a "
			 "ktop built for it there", name, release);
		return -1;
	}
	return 0;
}

/* The bytes the shell asked for (the last word of its KTOP-PUSH-ASK line): the gzip'd agent
 * or the agent itself. Returns how many went, or -1. */
static off_t send_agent(int to, const char *ask, int fd, off_t size, int zfd, off_t zsize)
{
	const char *last = strrchr(ask, ' ');
	long long want = last ? atoll(last + 1) : -1;

	if (zfd >= 0 && want == (long long)zsize)
		return send_file(to, zfd, zsize) < 0 ? -1 : zsize;
	if (want != (long long)size)
		return -1;
	return send_file(to, fd, size) < 0 ? -1 : size;
}

static void say_sent(const char *name, const char *path, off_t size, off_t wire)
{
	char how[96] = "";

	if (wire != size)
		snprintf(how, sizeof(how), " as %lld bytes of gzip", (long long)wire);
	if (push_mode == KT_PUSH_FORCE)
		fprintf(stderr, "ktop: %s: --push: sent the agent (%lld bytes)%s, running from "
			"memory\n", name, (long long)size, how);
	else
		fprintf(stderr, "ktop: %s: no ktop of remote protocol %u there: sent the agent "
			"(%lld bytes)%s, running from memory\n", name, KT_PROTO_VERSION,
			(long long)size, how);
	log_debug("push: %s: sent %s (%lld bytes, %lld on the wire), it runs as --agent", name,
		  path, (long long)size, (long long)wire);
}

/* What the shell's first marker says, short of the agent asked for: 1 when the host's own
 * ktop runs, -1 with err when nothing will, 0 when it asks for the agent. */
static int first_answer(const char *line, const char *name, const char *path, char *err,
			size_t errlen)
{
	if (!strcmp(line, "KTOP-PUSH-HAVE")) {
		log_debug("push: %s runs its own ktop --agent, of remote protocol %u", name,
			  KT_PROTO_VERSION);
		return 1;
	}
	if (!strcmp(line, "KTOP-PUSH-NOEXEC")) {
		snprintf(err, errlen, "%s: no ktop of remote protocol %u there, and no writable place "
			 "that allows exec (/dev/shm, /run, /tmp, /var/tmp) to run the agent from: "
			 "install ktop there", name, KT_PROTO_VERSION);
		return -1;
	}
	if (!strcmp(line, "KTOP-PUSH-NONE")) {
		snprintf(err, errlen, "%s has no ktop of remote protocol %u, and this one has no "
			 "static agent to send (%s): install ktop %s there", name, KT_PROTO_VERSION,
			 path, PACKAGE_VERSION);
		return -1;
	}
	return host_fits(line, name, err, errlen);
}

int push_agent(int to, int from, const char *name, char *err, size_t errlen)
{
	char path[4096], cmd[2048], line[512];
	off_t size = 0, zsize = 0;
	int fd, zfd = -1, ret = -1;
	off_t wire;

	fd = agent_open(&size, path, sizeof(path));
	if (fd < 0 && push_mode == KT_PUSH_FORCE) {
		snprintf(err, errlen, "--push: no static agent to send at %s (%s): build ktop with "
			 "the static libraries (configure says which), or set KTOP_AGENT", path,
			 strerror(errno));
		return -1;
	}
	if (fd >= 0)
		zfd = agent_gzip(fd, size, &zsize);
	script(cmd, sizeof(cmd), push_mode == KT_PUSH_FORCE, fd < 0 ? 0 : (long long)size,
	       zfd < 0 ? 0 : (long long)zsize);
	if (write_all(to, cmd, strlen(cmd)) < 0 || read_marker(from, line, sizeof(line)) < 0) {
		snprintf(err, errlen, "%s did not answer as a POSIX shell (%s needs one: ssh HOST "
			 "sh, or a --via command that starts sh)", name,
			 push_mode == KT_PUSH_FORCE ? "--push" : "sending the agent");
		goto out;
	}
	ret = first_answer(line, name, path, err, errlen);
	if (ret != 0)
		goto out;
	wire = send_agent(to, line, fd, size, zfd, zsize);
	if (wire < 0 || read_marker(from, line, sizeof(line)) < 0 || strcmp(line, "KTOP-PUSH-GO")) {
		snprintf(err, errlen, "%s: sending the agent (%lld bytes) failed: the link or the "
			 "shell ended", name, (long long)size);
		ret = -1;
		goto out;
	}
	say_sent(name, path, size, wire);
out:
	if (fd >= 0)
		close(fd);
	if (zfd >= 0)
		close(zfd);
	return ret < 0 ? -1 : 0;
}
