// SPDX-License-Identifier: GPL-2.0-or-later
/* Folded stacks read into a stack tree (see folded.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"

struct reader {
	const char *name;
	unsigned long line;
	enum kt_stack_unit unit;
	struct kt_stacks *st;
	struct kt_frame *frames;
	char *err;
	size_t errlen;
};

#define BAD(r, ...)                                                             \
	do {                                                                    \
		int n_ = snprintf((r)->err, (r)->errlen, "%s:%lu: ", (r)->name, (r)->line); \
		if (n_ >= 0 && (size_t)n_ < (r)->errlen)                          \
			snprintf((r)->err + n_, (r)->errlen - (size_t)n_, __VA_ARGS__); \
		return -1;                                                      \
	} while (0)

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

static enum kt_frame_kind frame_kind(const char *name, size_t i)
{
	size_t len = strlen(name);

	if (!i)
		return KT_FRAME_TASK;
	if (ends_with(name, len, "_[k]"))
		return KT_FRAME_KERNEL;
	if (ends_with(name, len, "_[j]"))
		return KT_FRAME_JIT;
	/* a bare address, as the profilers write a frame they could not name */
	if (len > 2 && !strncmp(name, "0x", 2) && strspn(name + 2, "0123456789abcdefABCDEF") ==
							  len - 2)
		return KT_FRAME_UNRESOLVED;
	return KT_FRAME_USER;
}

/* "# unit: ns" before the first stack; other comments say nothing to us. */
static int comment(struct reader *r, const char *s)
{
	static const enum kt_stack_unit units[] = { KT_STACK_SAMPLES, KT_STACK_NSEC,
						    KT_STACK_EVENTS };
	size_t i;

	s += strspn(s, "# \t");
	if (strncmp(s, "unit:", 5))
		return 0;
	s += 5;
	s += strspn(s, " \t");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, stacks_unit_name(units[i])))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		BAD(r, "unknown unit '%.40s' (samples, ns or events)", s);
	if (r->st && r->unit != units[i])
		BAD(r, "the unit comes before the first stack");
	r->unit = units[i];
	return 0;
}

static int parse_count(struct reader *r, const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		BAD(r, "'%.40s' is no count: a line is 'frame;frame;... COUNT'", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == '.' || *end == 'e' || *end == 'E')
		BAD(r, "count '%.40s' is not a whole number", s);
	if (*end)
		BAD(r, "'%.40s' is no count: a line is 'frame;frame;... COUNT'", s);
	if (errno == ERANGE)
		BAD(r, "count %.40s is too large", s);
	*out = v;
	return 0;
}

static int stack_line(struct reader *r, char *s)
{
	char *sp, *p;
	uint64_t count;
	size_t n = 0;

	sp = strrchr(s, ' ');
	if (!sp)
		BAD(r, "no count: a line is 'frame;frame;... COUNT'");
	*sp = '\0';
	if (parse_count(r, sp + 1, &count) < 0)
		return -1;
	if (!*s)
		BAD(r, "a count with no stack");
	if (!r->st) {
		r->st = stacks_new(r->unit);
		if (!r->st)
			BAD(r, "out of memory");
	}
	if (!count)
		return 0;
	if (stacks_root(r->st)->total > UINT64_MAX - count)
		BAD(r, "the counts add up past 2^64");
	for (p = s;; p++) {
		char *semi = strchr(p, ';');

		if (semi)
			*semi = '\0';
		if (!*p)
			BAD(r, "empty frame %zu (two ';' in a row, or one at an end)", n + 1);
		if (n == KT_FOLDED_MAX_DEPTH)
			BAD(r, "more than %d frames", KT_FOLDED_MAX_DEPTH);
		r->frames[n].name = p;
		r->frames[n].kind = frame_kind(p, n);
		n++;
		if (!semi)
			break;
		p = semi;
	}
	if (stacks_add(r->st, r->frames, n, count) < 0)
		BAD(r, "out of memory");
	return 0;
}

static int one_line(struct reader *r, char *s, size_t len)
{
	if (strlen(s) != len)
		BAD(r, "a NUL byte: this is not folded text");
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		s[--len] = '\0';
	for (char *p = s; *p; p++)
		if (*p == '\t')
			*p = ' ';
	if (!len)
		return 0;
	if (s[0] == '#')
		return comment(r, s);
	return stack_line(r, s);
}

struct kt_stacks *folded_read(FILE *in, const char *name, char *err, size_t errlen)
{
	struct reader r = { .name = name, .unit = KT_STACK_SAMPLES, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	r.frames = malloc(KT_FOLDED_MAX_DEPTH * sizeof(*r.frames));
	if (!r.frames) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	errno = 0;
	while ((len = getline(&buf, &cap, in)) >= 0) {
		r.line++;
		if (one_line(&r, buf, (size_t)len) < 0)
			goto fail;
	}
	if (ferror(in)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno ? errno : EIO));
		goto fail;
	}
	if (!r.st || !stacks_root(r.st)->total) {
		snprintf(err, errlen, "%s: no stacks (folded stacks are 'frame;frame;... COUNT' "
			 "lines)", name);
		goto fail;
	}
	free(buf);
	free(r.frames);
	return r.st;
fail:
	free(buf);
	free(r.frames);
	stacks_free(r.st);
	return NULL;
}

struct kt_stacks *folded_load(const char *path, char *err, size_t errlen)
{
	struct kt_stacks *st;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	st = folded_read(f, path, err, errlen);
	fclose(f);
	return st;
}
