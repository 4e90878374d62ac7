// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the mirror's file names (issue 36): a name from an agent must stay
 * inside the mirror directory. The input is a name as an agent sends it: up to its first NUL
 * the system, after it the event. It goes the viewer's whole way: a hello, the viewer's
 * request for every format, the format frame through client.c's checks, then as batch mode
 * and the explorer keep it for -o, events/SYSTEM/EVENT/format through mirror_put, which is
 * also handed the input up to its NUL as a path of its own. The mirror lives 8 directories deep in
 * a sandbox of this process's; after each input nothing may exist in the sandbox outside
 * the mirror but those 8 directories.
 */
#include "config.h"

#include <ftw.h>
#include <unistd.h>

#include "fuzz_parser.h"
#include "remote/client.h"
#include "remote/mirror.h"

#define DEPTH 8

static char sandbox[4096], deep[4096];
static struct kt_mirror *mirror;

/* The empty directories down to the mirror's place (what escaped the mirror, if anything
 * did, stays for the failure's reader). */
static void sandbox_free(void)
{
	while (strcmp(deep, sandbox) && rmdir(deep) == 0)
		*strrchr(deep, '/') = '\0';
	rmdir(sandbox);
}

static void sandbox_new(void)
{
	const char *tmp = getenv("TMPDIR");
	size_t n;

	snprintf(sandbox, sizeof(sandbox), "%s/fuzz-mirror-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	FUZZ_ASSERT(mkdtemp(sandbox), "cannot make %s", sandbox);
	atexit(sandbox_free);
	n = (size_t)snprintf(deep, sizeof(deep), "%s", sandbox);
	for (int i = 0; i < DEPTH; i++) {
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "/d");
		FUZZ_ASSERT(mkdir(deep, 0700) == 0, "cannot make %s", deep);
	}
	setenv("TMPDIR", deep, 1);
}

/* Every path in the sandbox: one of the directories down to the mirror, or in it. */
static int inside(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *m = mirror_dir(mirror);
	size_t ml = strlen(m), pl = strlen(path);

	(void)st;
	(void)flag;
	(void)ftw;
	FUZZ_ASSERT((!strncmp(deep, path, pl) && (deep[pl] == '/' || !deep[pl])) ||
			    (!strncmp(path, m, ml) && (path[ml] == '/' || !path[ml])),
		    "%s written outside the mirror %s", path, m);
	return 0;
}

static void format(void *ctx, const char *sys, const char *name, const uint8_t *text, size_t n)
{
	char rel[600];

	(void)ctx;
	mirror_put_format(mirror, sys, name, text, n, rel, sizeof(rel)); /* as the viewers do */
}

static const struct kt_remote_ops ops = { .format = format };

/* The frames of an agent that sends its hello and then the format of sys:name. */
static void agent_frames(struct kt_wbuf *out, const char *sys, const char *name)
{
	struct kt_hello h = { .proto = KT_PROTO_VERSION, .role = 'A', .ncpus = 1,
			      .page_size = 4096, .long_size = 8 };
	static const char text[] = "name: x\nID: 1\nformat:\n\tfield:int x;\toffset:8;\tsize:4;\n";
	struct kt_wbuf pay = { 0 };

	snprintf(h.version, sizeof(h.version), "%s", PACKAGE_VERSION);
	snprintf(h.host, sizeof(h.host), "fuzzhost");
	msg_hello_encode(&pay, &h);
	frame_append(out, KT_MSG_HELLO, pay.data, pay.len, false);
	pay.len = 0;
	msg_format_encode(&pay, sys, name, text, sizeof(text) - 1);
	frame_append(out, KT_MSG_FORMAT, pay.data, pay.len, false);
	wbuf_free(&pay);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *sys = fuzz_string(data, size), *name = sys + strlen(sys), err[512];
	struct kt_wbuf w = { 0 };
	struct kt_remote *r;

	if (!sandbox[0])
		sandbox_new();
	if ((size_t)(name - sys) < size)
		name++;
	mirror = mirror_new(err, sizeof(err));
	FUZZ_ASSERT(mirror, "%s", err);
	r = remote_new("fuzzed agent", &ops, NULL);
	remote_send_request(r, KT_REQ_FORMAT, "*:*", "");
	agent_frames(&w, sys, name);
	remote_feed(r, w.data, w.len, err, sizeof(err));
	mirror_put(mirror, sys, "x", 1); /* up to the NUL, as a path of mirror.c's own */
	nftw(sandbox, inside, 16, FTW_PHYS);
	remote_close(r);
	mirror_free(mirror);
	wbuf_free(&w);
	free(sys);
	return 0;
}
