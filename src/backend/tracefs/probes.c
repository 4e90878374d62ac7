// SPDX-License-Identifier: GPL-2.0-or-later
/* Dynamic probes in group ktop_<pid>: definitions parsed and checked here (no kernel needed),
 * created and removed through session_dynevent_command, pid= scoping through the instance's
 * event filter. The checks mirror the kernel's own (trace_probe.c) where it would reject, so
 * the editor can show the problem with a caret before anything is written. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "backend/symbols/elfsyms.h"
#include "backend/symbols/ksyms.h"
#include "owner.h"
#include "probes.h"
#include "session.h"
#include "util/log.h"
#include "util/strutil.h"

#define MAX_ARGS 128 /* the kernel's MAX_TRACE_ARGS */
#define KT_PID_MAX 4194304 /* the kernel's PID_MAX_LIMIT on 64-bit */

const char *const probe_fetch_types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8", "x16", "x32", "x64",
	"char", "string", "ustring", "symbol", "symstr", NULL,
};

const char *const probe_fetch_vars[] = {
	"$arg1", "$arg2", "$arg3", "$arg4", "$arg5", "$arg6", "$retval", "$comm", "$stack",
	"$stack0", NULL,
};

/* Field names every event has, which the kernel refuses as argument names. */
static const char *const reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid", "common_tgid",
	"__probe_ip", "__probe_ret_ip", "__probe_func", NULL,
};

static const char *const kind_names[] = {
	[KT_PROBE_KPROBE] = "kprobe",
	[KT_PROBE_KRETPROBE] = "kretprobe",
	[KT_PROBE_UPROBE] = "uprobe",
	[KT_PROBE_URETPROBE] = "uretprobe",
};

const char *probe_kind_name(enum kt_probe_kind kind)
{
	return (unsigned)kind < 4 ? kind_names[kind] : "probe";
}

int probe_kind_parse(const char *name, enum kt_probe_kind *kind)
{
	static const struct {
		const char *name;
		enum kt_probe_kind kind;
	} alias[] = {
		{ "kprobe", KT_PROBE_KPROBE },	     { "k", KT_PROBE_KPROBE },
		{ "p", KT_PROBE_KPROBE },	     { "kretprobe", KT_PROBE_KRETPROBE },
		{ "kr", KT_PROBE_KRETPROBE },	     { "r", KT_PROBE_KRETPROBE },
		{ "uprobe", KT_PROBE_UPROBE },	     { "u", KT_PROBE_UPROBE },
		{ "uretprobe", KT_PROBE_URETPROBE }, { "ur", KT_PROBE_URETPROBE },
	};
	size_t i;

	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		if (!strcmp(name, alias[i].name)) {
			*kind = alias[i].kind;
			return 0;
		}
	}
	return -1;
}

/* ---- parsing ----------------------------------------------------------------------------- */

struct parser {
	const char *text;
	enum kt_probe_kind kind;
	char *err;
	size_t errlen;
	int *errpos;
};

static int perr(struct parser *ps, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (ps->err && ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err, ps->errlen, fmt, ap);
		va_end(ap);
	}
	if (ps->errpos)
		*ps->errpos = (int)(at - ps->text);
	return -1;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of the identifier at p (0: none). */
static size_t ident_len(const char *p)
{
	size_t n = 0;

	if (!is_ident_start(*p))
		return 0;
	while (is_ident_char(p[n]))
		n++;
	return n;
}

/* A decimal or 0x number at p; its length, 0 when none. */
static size_t number_len(const char *p, const char *end)
{
	size_t n = 0;

	if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		n = 2;
		while (p + n < end && isxdigit((unsigned char)p[n]))
			n++;
		return n > 2 ? n : 0;
	}
	while (p + n < end && isdigit((unsigned char)p[n]))
		n++;
	return n;
}

static bool is_string_type(const char *t, size_t len)
{
	return (len == 6 && !strncmp(t, "string", 6)) || (len == 7 && !strncmp(t, "ustring", 7));
}

/* TYPE at [t, end): basic types, bitfields, %pd/%pD, each optionally with [N]. */
static int check_type(struct parser *ps, const char *t, const char *end)
{
	const char *br = memchr(t, '[', (size_t)(end - t));
	const char *base_end = br ? br : end;
	size_t len = (size_t)(base_end - t), n;
	int i;

	if (br) {
		n = number_len(br + 1, end);
		if (!n || br + 1 + n != end - 1 || end[-1] != ']')
			return perr(ps, br, "array type needs a size, as in u32[4]");
	}
	for (i = 0; probe_fetch_types[i]; i++)
		if (strlen(probe_fetch_types[i]) == len && !strncmp(t, probe_fetch_types[i], len))
			return 0;
	if (len == 3 && (!strncmp(t, "%pd", 3) || !strncmp(t, "%pD", 3)))
		return 0;
	if (len > 1 && t[0] == 'b') {
		/* b<bit-width>@<bit-offset>/<container-size> */
		const char *p = t + 1;

		n = number_len(p, base_end);
		if (n && p[n] == '@') {
			p += n + 1;
			n = number_len(p, base_end);
			if (n && p[n] == '/') {
				p += n + 1;
				n = number_len(p, base_end);
				if (n && p + n == base_end)
					return 0;
			}
		}
		return perr(ps, t, "bitfield type is b<width>@<offset>/<size>, e.g. b4@2/32");
	}
	return perr(ps, t, "unknown type '%.*s' (u8..u64, s8..s64, x8..x64, char, string, "
		    "ustring, symbol, symstr)", (int)len, t);
}

/* One FETCHARG at [p, end). *kind_out: 'd' dereference, 'c' $comm, 'i' immediate, 'a' @addr,
 * 'v' other (registers, $argN, $retval, $stack): what the string types care about. */
static int check_fetch(struct parser *ps, const char *p, const char *end, char *kind_out)
{
	size_t n;
	const char *q;
	int depth;

	if (p >= end)
		return perr(ps, p, "missing fetcharg after '=' ($argN, $retval, $comm, %%REG, "
			    "+OFF(...))");
	*kind_out = 'v';
	switch (*p) {
	case '%':
		n = 0;
		while (p + 1 + n < end && isalnum((unsigned char)p[1 + n]))
			n++;
		if (!n || p + 1 + n != end)
			return perr(ps, p, "register is %%NAME, such as %%di or %%ax");
		return 0;
	case '$':
		n = (size_t)(end - p);
		if (n == 7 && !strncmp(p, "$retval", 7)) {
			if (!probe_kind_is_return(ps->kind))
				return perr(ps, p, "'$retval' exists only in return probes (use a "
					    "%s)", probe_kind_is_user(ps->kind) ? "uretprobe" :
										  "kretprobe");
			return 0;
		}
		if ((n == 5 && !strncmp(p, "$comm", 5)) || (n == 5 && !strncmp(p, "$COMM", 5))) {
			*kind_out = 'c';
			return 0;
		}
		if (n == 6 && !strncmp(p, "$stack", 6))
			return 0;
		if (n > 6 && !strncmp(p, "$stack", 6) && number_len(p + 6, end) == n - 6)
			return 0;
		if (n > 4 && !strncmp(p, "$arg", 4)) {
			if (number_len(p + 4, end) != n - 4 || p[4] == '0')
				return perr(ps, p, "'$arg' takes a number from 1, as in $arg1");
			if (probe_kind_is_user(ps->kind))
				return perr(ps, p, "uprobes cannot use $argN: name the register "
					    "(x86-64: %%di %%si %%dx %%cx %%r8 %%r9 for arguments 1-6)");
			return 0;
		}
		return perr(ps, p, "unknown variable '%.*s' ($argN, $retval, $comm, $stackN, "
			    "$stack)", (int)n, p);
	case '@':
		*kind_out = 'a';
		q = p + 1;
		if (q < end && *q == '+') {
			if (!probe_kind_is_user(ps->kind))
				return perr(ps, p, "'@+OFFSET' (a file offset) is for uprobes");
			n = number_len(q + 1, end);
			if (!n || q + 1 + n != end)
				return perr(ps, p, "'@+' needs a file offset, as in @+0x1000");
			return 0;
		}
		n = number_len(q, end);
		if (n && q + n == end)
			return 0;
		if (probe_kind_is_user(ps->kind))
			return perr(ps, p, "uprobes take @ADDR or @+FILEOFFSET, not a symbol");
		n = 0;
		while (q + n < end && (is_ident_char(q[n]) || q[n] == '.'))
			n++;
		if (!n)
			return perr(ps, p, "'@' needs an address or a kernel symbol");
		q += n;
		if (q < end && (*q == '+' || *q == '-')) {
			n = number_len(q + 1, end);
			if (!n || q + 1 + n != end)
				return perr(ps, q, "symbol offset must be a number");
			return 0;
		}
		if (q != end)
			return perr(ps, q, "unexpected '%c' after the symbol", *q);
		return 0;
	case '\\':
		*kind_out = 'i';
		q = p + 1;
		if (q < end && *q == '"') {
			if (end - q < 2 || end[-1] != '"')
				return perr(ps, p, "immediate string needs a closing '\"'");
			/* a quote inside would end the token elsewhere once more follows it */
			if (memchr(q + 1, '"', (size_t)(end - 1 - (q + 1))))
				return perr(ps, p, "an immediate string cannot hold '\"'");
			return 0;
		}
		n = number_len(q, end);
		if (!n && q < end && *q == '-')
			n = number_len(q + 1, end) ? number_len(q + 1, end) + 1 : 0;
		if (!n || q + n != end)
			return perr(ps, p, "immediate value is \\NUMBER or \\\"string\\\"");
		return 0;
	case '+':
	case '-':
		*kind_out = 'd';
		q = p + 1;
		if (q < end && *q == 'u')
			q++;
		n = number_len(q, end);
		if (!n)
			return perr(ps, q, "dereference needs an offset, as in +0($arg2) or "
				    "+8(%%di)");
		q += n;
		if (q >= end || *q != '(')
			return perr(ps, q, "dereference needs '(' after the offset, as in +0($arg2)");
		if (end[-1] != ')')
			return perr(ps, end - 1, "missing ')' closing the dereference");
		/* the matching ')' must be the last character */
		for (depth = 0, n = 0; q + n < end; n++) {
			if (q[n] == '(')
				depth++;
			else if (q[n] == ')' && --depth == 0 && q + n != end - 1)
				return perr(ps, q + n + 1, "unexpected text after ')'");
		}
		if (depth)
			return perr(ps, end - 1, "unbalanced parentheses");
		{
			char inner;

			return check_fetch(ps, q + 1, end - 1, &inner);
		}
	default:
		return perr(ps, p, "unknown fetcharg '%.*s' (expected $argN, $retval, $comm, "
			    "%%REG, @ADDR, +OFF(FETCHARG), \\IMM)", (int)(end - p), p);
	}
}

/* One ARG token at [p, end): [NAME=]FETCHARG[:TYPE]. names collects the names so far. */
static int check_arg(struct parser *ps, const char *p, const char *end, char names[][64],
		     int index)
{
	const char *fetch = p, *colon = NULL, *q;
	size_t n = ident_len(p);
	char kind;
	int depth = 0, i;

	if (n && p + n < end && p[n] == '=') {
		fetch = p + n + 1;
		if (n >= 64)
			return perr(ps, p, "argument name too long");
		snprintf(names[index], 64, "%.*s", (int)n, p);
		for (i = 0; reserved_names[i]; i++)
			if (!strcmp(names[index], reserved_names[i]))
				return perr(ps, p, "'%s' is a field every event has; name the "
					    "argument differently", names[index]);
	} else if (p < end && *p != '$' && *p != '%' && *p != '@' && *p != '\\' &&
		   *p != '+' && *p != '-' && memchr(p, '=', (size_t)(end - p))) {
		return perr(ps, p, "argument name must be a C identifier, as in path=+0($arg2)");
	} else {
		snprintf(names[index], 64, "arg%d", index + 1);
	}
	for (i = 0; i < index; i++)
		if (!strcmp(names[i], names[index]))
			return perr(ps, p, "argument name '%s' is used twice", names[index]);
	/* the type's ':' is the last one outside parentheses and quotes */
	for (q = fetch; q < end; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (*q == ':' && depth == 0)
			colon = q;
		else if (*q == '"')
			break;
	}
	if (check_fetch(ps, fetch, colon ? colon : end, &kind) < 0)
		return -1;
	if (!colon)
		return 0;
	if (colon + 1 == end)
		return perr(ps, colon, "missing type after ':' (u32, s64, x64, string, ...)");
	if (check_type(ps, colon + 1, end) < 0)
		return -1;
	if (is_string_type(colon + 1, (size_t)(end - colon - 1)) && kind != 'd' && kind != 'c' &&
	    kind != 'i' && kind != 'a')
		return perr(ps, colon + 1, "type '%.*s' needs a dereference, as in "
			    "+0(%.*s):%.*s", (int)(end - colon - 1), colon + 1,
			    (int)(colon - fetch), fetch, (int)(end - colon - 1), colon + 1);
	return 0;
}

static bool is_symbol_char(char c)
{
	return is_ident_char(c) || c == '.' || c == '$';
}

/* "(0xREF_CTR_OFFSET)" at [p, end): the file offset of the semaphore the kernel counts up
 * while the uprobe is enabled (USDT probes, usdt.h). */
static int parse_ref_ctr(struct parser *ps, const char *p, const char *end,
			 struct kt_probe_def *def)
{
	size_t n = number_len(p + 1, end);

	if (!n || p[1] != '0' || (p[2] != 'x' && p[2] != 'X') || p + 1 + n != end - 1 ||
	    end[-1] != ')')
		return perr(ps, p, "reference counter is (0xFILEOFFSET), as in 0x4f20a1(0xa84260)");
	def->ref_ctr_offset = strtoull(p + 1, NULL, 16);
	return 0;
}

/* TARGET at [p, end) into def. */
static int parse_target(struct parser *ps, const char *p, const char *end,
			struct kt_probe_def *def)
{
	const char *colon = NULL, *f, *plus, *q;
	char *endn;
	size_t n;

	if (probe_kind_is_user(ps->kind)) {
		for (q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		if (!colon)
			return perr(ps, end, "uprobe target is PATH:FUNCTION, as in "
				    "/usr/bin/bash:readline");
		if (colon == p)
			return perr(ps, p, "missing binary before ':' (PATH:FUNCTION)");
		def->path = strndup(p, (size_t)(colon - p));
		f = colon + 1;
		if (f == end)
			return perr(ps, f, "missing function after ':' (PATH:FUNCTION or "
				    "PATH:0xOFFSET)");
		if (f[0] == '0' && f + 1 < end && (f[1] == 'x' || f[1] == 'X')) {
			n = number_len(f, end);
			def->offset = strtoull(f, &endn, 16);
			if (f + n < end && f[n] == '(')
				return parse_ref_ctr(ps, f + n, end, def);
			if (f + n != end)
				return perr(ps, f + n, "file offset must be a hex number");
			return 0;
		}
	} else {
		f = p;
		for (q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		if (colon) {
			if (colon == p || !ident_len(p))
				return perr(ps, p, "kprobe target is FUNCTION or MODULE:FUNCTION");
			def->module = strndup(p, (size_t)(colon - p));
			f = colon + 1;
		}
		if (f == end)
			return perr(ps, f, "missing kernel function name");
	}
	n = 0;
	while (f + n < end && is_symbol_char(f[n]))
		n++;
	if (!n || isdigit((unsigned char)f[0]))
		return perr(ps, f, "'%.*s' is not a function name", (int)(end - f), f);
	def->func = strndup(f, n);
	plus = f + n;
	if (plus < end) {
		if (*plus != '+')
			return perr(ps, plus, "unexpected '%c' in the function name", *plus);
		n = number_len(plus + 1, end);
		if (!n || plus + 1 + n != end)
			return perr(ps, plus, "offset after '+' must be a number");
		/* as number_len reads it: "010" is ten, not the octal strtoull's base 0 makes
		 * of it ("08" would be 0) */
		errno = 0;
		def->offset = strtoull(plus + 1, &endn,
				       plus[1] == '0' && (plus[2] == 'x' || plus[2] == 'X') ? 16 : 10);
		if (errno)
			return perr(ps, plus, "offset after '+' is too large");
		if (probe_kind_is_return(ps->kind) && def->offset)
			return perr(ps, plus, "return probes take no offset (probe the function "
				    "itself)");
	}
	return 0;
}

void probe_def_free(struct kt_probe_def *def)
{
	if (!def)
		return;
	free(def->name);
	free(def->module);
	free(def->path);
	free(def->func);
	free(def->args);
	memset(def, 0, sizeof(*def));
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *token_end(const char *p)
{
	int depth = 0;
	bool quoted = false;

	for (; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && *p == '(')
			depth++;
		else if (!quoted && *p == ')')
			depth--;
		else if (!quoted && depth <= 0 && (*p == ' ' || *p == '\t'))
			break;
	}
	return p;
}

int probe_parse(enum kt_probe_kind kind, const char *text, struct kt_probe_def *out,
		char *err, size_t errlen, int *errpos)
{
	struct parser ps = { text, kind, err, errlen, errpos };
	struct kt_probe_def def = { .kind = kind };
	char (*names)[64] = NULL;
	const char *p, *end;
	size_t n, argslen = 0;
	int nargs = 0;
	char *args = NULL;
	long pid;

	if (errpos)
		*errpos = 0;
	if ((unsigned)kind > KT_PROBE_URETPROBE)
		return perr(&ps, text, "unknown probe kind");
	p = skip_space(text);
	if (!*p)
		return perr(&ps, p, "empty definition: %s",
			    probe_kind_is_user(kind) ? "PATH:FUNCTION [ARG...], e.g. "
						       "/usr/bin/bash:readline" :
						       "FUNCTION [ARG...], e.g. do_sys_openat2 "
						       "path=+0($arg2):string");
	end = token_end(p);
	/* NAME=TARGET: an identifier before '=' (a path has '/' before any '=') */
	n = ident_len(p);
	if (n && p + n < end && p[n] == '=') {
		if (n >= KT_PROBE_NAME_MAX)
			return perr(&ps, p, "event name longer than %d characters",
				    KT_PROBE_NAME_MAX - 1);
		def.name = strndup(p, n);
		p += n + 1;
	} else if (p < end && !probe_kind_is_user(kind) && memchr(p, '=', (size_t)(end - p))) {
		perr(&ps, p, "event name must be a C identifier, as in opens=do_sys_openat2");
		goto fail;
	}
	if (p == end) {
		perr(&ps, p, "missing %s after the event name",
		     probe_kind_is_user(kind) ? "PATH:FUNCTION" : "the kernel function");
		goto fail;
	}
	if (parse_target(&ps, p, end, &def) < 0)
		goto fail;
	names = calloc(MAX_ARGS, sizeof(*names));
	args = calloc(1, strlen(text) + 1);
	if (!names || !args) {
		perr(&ps, text, "out of memory");
		goto fail;
	}
	for (p = skip_space(end); *p; p = skip_space(end)) {
		end = token_end(p);
		if (!strncmp(p, "pid=", 4) && number_len(p + 4, end) == (size_t)(end - p - 4) &&
		    end > p + 4) {
			if (!probe_kind_is_user(kind)) {
				perr(&ps, p, "pid= scopes uprobes; scope kprobes with -p or "
				     "--filter 'common_pid == N'");
				goto fail;
			}
			errno = 0;
			pid = strtol(p + 4, NULL, 10);
			if (errno || pid <= 0 || pid > KT_PID_MAX) {
				perr(&ps, p + 4, "pid must be from 1 to %d", KT_PID_MAX);
				goto fail;
			}
			def.pid = (pid_t)pid;
			continue;
		}
		if (!strncmp(p, "maxactive=", 10)) {
			if (!probe_kind_is_return(kind) || probe_kind_is_user(kind)) {
				perr(&ps, p, "maxactive= is for kretprobes (how many calls may be "
				     "in flight at once)");
				goto fail;
			}
			n = number_len(p + 10, end);
			errno = 0;
			pid = n && n == (size_t)(end - p - 10) ?
				      strtol(p + 10, NULL, p[11] == 'x' || p[11] == 'X' ? 16 : 10) : 0;
			if (errno || pid < 1 || pid > KT_PROBE_MAXACTIVE_MAX) {
				perr(&ps, p + 10, "maxactive must be a number from 1 to %d",
				     KT_PROBE_MAXACTIVE_MAX);
				goto fail;
			}
			def.maxactive = (unsigned)pid;
			continue;
		}
		if (nargs == MAX_ARGS) {
			perr(&ps, p, "more than %d arguments", MAX_ARGS);
			goto fail;
		}
		if (check_arg(&ps, p, end, names, nargs) < 0)
			goto fail;
		nargs++;
		if (argslen)
			args[argslen++] = ' ';
		memcpy(args + argslen, p, (size_t)(end - p));
		argslen += (size_t)(end - p);
	}
	free(names);
	def.args = args;
	if (out)
		*out = def;
	else
		probe_def_free(&def);
	return 0;
fail:
	free(names);
	free(args);
	probe_def_free(&def);
	return -1;
}

/* ---- the session's probes ---------------------------------------------------------------- */

struct kt_probes {
	struct kt_session *session;
	char group[32];
	struct kt_probe *v;
	size_t n;
};

bool probes_supported(enum kt_probe_kind kind, char *why, size_t whylen)
{
	if (probe_kind_is_user(kind)) {
		if (tracefs_file_exists(NULL, "uprobe_events"))
			return true;
		str_seterr(why, whylen, "this kernel has no uprobe events (CONFIG_UPROBE_EVENTS is "
		       "off): use tracepoints (-e) instead");
		return false;
	}
	if (tracefs_file_exists(NULL, "kprobe_events"))
		return true;
	str_seterr(why, whylen, "this kernel has no kprobe events (CONFIG_KPROBE_EVENTS is off): "
	       "probe user space with --uprobe, use tracepoints (-e), or a kernel with kprobes");
	return false;
}

struct kt_probes *probes_new(struct kt_session *s)
{
	struct kt_probes *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->session = s;
	owner_name(p->group, sizeof(p->group), KT_GROUP_PREFIX, getpid());
	return p;
}

static void probe_clear(struct kt_probe *pr)
{
	free(pr->system);
	free(pr->event);
	free(pr->definition);
	free(pr->command);
}

void probes_free(struct kt_probes *p)
{
	if (!p)
		return;
	probes_delete_all(p);
	/* what the kernel would not remove is the guard's and the next start's to clean */
	while (p->n)
		probe_clear(&p->v[--p->n]);
	free(p->v);
	free(p);
}

size_t probes_count(const struct kt_probes *p)
{
	return p ? p->n : 0;
}

const struct kt_probe *probes_get(const struct kt_probes *p, size_t i)
{
	return p && i < p->n ? &p->v[i] : NULL;
}

/* "ktop_<pid>:name" or "name" -> index, or -1. */
static long find_index(const struct kt_probes *p, const char *name)
{
	size_t glen = strlen(p->group), i;

	if (!strncmp(name, p->group, glen) && (name[glen] == ':' || name[glen] == '/'))
		name += glen + 1;
	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].event, name))
			return (long)i;
	return -1;
}

static bool event_exists(const struct kt_probes *p, const char *name)
{
	char path[PATH_MAX];
	const char *dir = tracefs_tracing_dir();

	if (find_index(p, name) >= 0)
		return true;
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir ? dir : "", p->group, name);
	return access(path, F_OK) == 0;
}

/* Automatic name: the function (or binary and offset), "_ret" for return probes, "_2"...
 * when taken. */
static void auto_name(const struct kt_probes *p, const struct kt_probe_def *def, char *buf,
		      size_t len)
{
	char base[KT_PROBE_NAME_MAX];
	const char *slash;
	size_t i;
	int k;

	if (def->func) {
		snprintf(base, sizeof(base), "%s", def->func);
	} else {
		slash = strrchr(def->path, '/');
		snprintf(base, sizeof(base), "%s_0x%" PRIx64, slash ? slash + 1 : def->path,
			 def->offset);
	}
	for (i = 0; base[i]; i++)
		if (!is_ident_char(base[i]))
			base[i] = '_';
	if (isdigit((unsigned char)base[0]))
		base[0] = '_';
	if (probe_kind_is_return(def->kind)) {
		base[sizeof(base) - 5] = '\0';
		strcat(base, "_ret");
	}
	snprintf(buf, len, "%s", base);
	for (k = 2; event_exists(p, buf) && k < 1000; k++)
		snprintf(buf, len, "%.*s_%d", (int)sizeof(base) - 6, base, k);
}

static char *build_command(const struct kt_probes *p, const struct kt_probe_def *def,
			   const char *name, const char *path, uint64_t file_offset)
{
	char *cmd = NULL;
	const char *args = def->args && *def->args ? def->args : NULL;
	char target[PATH_MAX + 64];
	int r;

	if (probe_kind_is_user(def->kind) && def->ref_ctr_offset)
		snprintf(target, sizeof(target), "%s:0x%" PRIx64 "(0x%" PRIx64 ")", path,
			 file_offset, def->ref_ctr_offset);
	else if (probe_kind_is_user(def->kind))
		snprintf(target, sizeof(target), "%s:0x%" PRIx64, path, file_offset);
	else if (def->offset)
		snprintf(target, sizeof(target), "%s%s%s+%" PRIu64, def->module ? def->module : "",
			 def->module ? ":" : "", def->func, def->offset);
	else
		snprintf(target, sizeof(target), "%s%s%s", def->module ? def->module : "",
			 def->module ? ":" : "", def->func);
	if (def->maxactive)
		r = asprintf(&cmd, "r%u:%s/%s %s%s%s", def->maxactive, p->group, name, target,
			     args ? " " : "", args ? args : "");
	else
		r = asprintf(&cmd, "%c:%s/%s %s%s%s", probe_kind_is_return(def->kind) ? 'r' : 'p',
			     p->group, name, target, args ? " " : "", args ? args : "");
	return r < 0 ? NULL : cmd;
}

static const char *kind_file(enum kt_probe_kind kind)
{
	return probe_kind_is_user(kind) ? "uprobe_events" : "kprobe_events";
}

static int remove_event(struct kt_probes *p, enum kt_probe_kind kind, const char *name,
			char *err, size_t errlen)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "-:%s/%s", p->group, name);
	return session_dynevent_command(kind_file(kind), cmd, err, errlen);
}

int probes_create(struct kt_probes *p, enum kt_probe_kind kind, const char *text,
		  char *event, size_t eventlen, char *err, size_t errlen)
{
	struct kt_probe_def def;
	struct kt_probe *grown, *pr;
	char path[PATH_MAX] = "", name[KT_PROBE_NAME_MAX], kmsg[2048], filter[64];
	uint64_t file_offset = 0;
	char *cmd = NULL;
	int pos, has;

	if (probe_parse(kind, text, &def, kmsg, sizeof(kmsg), &pos) < 0) {
		str_seterr(err, errlen, "bad %s '%s': %s (at column %d)", probe_kind_name(kind), text,
		       kmsg, pos + 1);
		return -1;
	}
	if (!probes_supported(kind, err, errlen))
		goto fail;
	if (probe_kind_is_user(kind)) {
		if (elfsyms_resolve_path(def.path, path, sizeof(path), err, errlen) < 0)
			goto fail;
		if (!def.func) {
			file_offset = def.offset;
		} else if (elfsyms_lookup(path, def.func, def.offset, &file_offset, err,
					  errlen) < 0) {
			goto fail;
		}
	} else {
		snprintf(name, sizeof(name), "%s%s%s", def.module ? def.module : "",
			 def.module ? ":" : "", def.func);
		has = ksyms_has_function(name);
		if (has == 0) {
			str_seterr(err, errlen, "no kernel function '%s' (/proc/kallsyms has no such "
			       "text symbol; check the spelling, the probe editor completes names)",
			       name);
			goto fail;
		}
	}
	if (def.name) {
		if (event_exists(p, def.name)) {
			str_seterr(err, errlen, "probe %s:%s exists already (delete it or pick another "
			       "NAME=)", p->group, def.name);
			goto fail;
		}
		snprintf(name, sizeof(name), "%s", def.name);
	} else {
		auto_name(p, &def, name, sizeof(name));
	}
	cmd = build_command(p, &def, name, path, file_offset);
	if (!cmd) {
		str_seterr(err, errlen, "out of memory");
		goto fail;
	}
	if (session_dynevent_command(kind_file(kind), cmd, kmsg, sizeof(kmsg)) < 0) {
		str_seterr(err, errlen, "%s rejected by the kernel: %s", probe_kind_name(kind), kmsg);
		goto fail;
	}
	if (def.pid) {
		snprintf(filter, sizeof(filter), "common_pid == %d", (int)def.pid);
		if (session_set_filter(p->session, p->group, name, filter, err, errlen) < 0) {
			remove_event(p, kind, name, NULL, 0);
			goto fail;
		}
	}
	grown = realloc(p->v, (p->n + 1) * sizeof(*p->v));
	if (!grown) {
		remove_event(p, kind, name, NULL, 0);
		str_seterr(err, errlen, "out of memory");
		goto fail;
	}
	p->v = grown;
	pr = &p->v[p->n++];
	memset(pr, 0, sizeof(*pr));
	pr->kind = kind;
	pr->system = strdup(p->group);
	pr->event = strdup(name);
	pr->definition = strdup(text);
	pr->command = cmd;
	pr->pid = def.pid;
	pr->maxactive = def.maxactive;
	if (event)
		snprintf(event, eventlen, "%s:%s", p->group, name);
	log_debug("probes: created %s:%s: %s", p->group, name, cmd);
	probe_def_free(&def);
	return 0;
fail:
	free(cmd);
	probe_def_free(&def);
	return -1;
}

int probes_delete(struct kt_probes *p, const char *name, char *err, size_t errlen)
{
	char kmsg[1024];
	struct kt_probe *pr;
	long i = p ? find_index(p, name) : -1;

	if (i < 0) {
		str_seterr(err, errlen, "no probe '%s' in %s", name, p ? p->group : "this session");
		return -1;
	}
	pr = &p->v[i];
	/* an event enabled in the instance cannot be removed (EBUSY) */
	if (p->session && session_is_enabled(p->session, pr->system, pr->event))
		session_disable(p->session, pr->system, pr->event, NULL, 0);
	if (remove_event(p, pr->kind, pr->event, kmsg, sizeof(kmsg)) < 0) {
		str_seterr(err, errlen, "cannot remove probe %s:%s: %s%s", pr->system, pr->event, kmsg,
		       errno == EBUSY ? " (in use: enabled in another instance or a BPF program "
					"is attached)" : "");
		return -1;
	}
	log_debug("probes: removed %s:%s", pr->system, pr->event);
	probe_clear(pr);
	memmove(pr, pr + 1, (p->n - (size_t)i - 1) * sizeof(*pr));
	p->n--;
	return 0;
}

int probes_delete_all(struct kt_probes *p)
{
	int removed = 0;
	size_t i;

	if (!p)
		return 0;
	/* newest first; one that will not go is kept and skipped */
	for (i = p->n; i-- > 0;)
		if (probes_delete(p, p->v[i].event, NULL, 0) == 0)
			removed++;
	return removed;
}

/* ---- health ------------------------------------------------------------------------------ */

/* One line of a top-level profile file: kprobe_profile's "  EVENT HITS MISSES" or
 * uprobe_profile's "  PATH EVENT HITS" (EVENT the bare name there: no group). */
struct profile_line {
	char path[PATH_MAX];
	char event[KT_PROBE_NAME_MAX + 40];
	unsigned long long hits, misses;
};

static FILE *open_top(const char *file)
{
	const char *dir = tracefs_tracing_dir();
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "", file);
	return fopen(path, "re");
}

/* The next line of a kprobe_profile (user false) or uprobe_profile (user true) into l, its
 * misses 0 for uprobes; false at the end. *line and *cap are getline's buffer. */
static bool profile_next(FILE *f, bool user, char **line, size_t *cap, struct profile_line *l)
{
	while (getline(line, cap, f) > 0) {
		l->misses = 0;
		if (user ? sscanf(*line, "%4095s %103s %llu", l->path, l->event, &l->hits) == 3 :
			   sscanf(*line, "%103s %llu %llu", l->event, &l->hits, &l->misses) == 3)
			return true;
	}
	return false;
}

/* A kprobe's counts. EVENT is "group/name" on recent kernels and the bare name on older
 * ones, where a name another group also uses leaves the counts unknown. */
static int kprobe_health(const struct kt_probe *pr, struct kt_probe_health *h)
{
	char name[KT_PROBE_NAME_MAX + 40], *line = NULL;
	struct profile_line l;
	int found = 0, bare = 0;
	size_t cap = 0;
	FILE *f = open_top("kprobe_profile");

	if (!f)
		return -1;
	snprintf(name, sizeof(name), "%s/%s", pr->system, pr->event);
	while (profile_next(f, false, &line, &cap, &l)) {
		if (!strcmp(l.event, name) || (!strchr(l.event, '/') && !strcmp(l.event, pr->event))) {
			if (!strchr(l.event, '/'))
				bare++;
			h->hits = l.hits;
			h->misses = l.misses;
			found++;
		}
	}
	free(line);
	fclose(f);
	return found == 1 || (found && !bare) ? 0 : -1;
}

/* Where the uprobe stands among uprobe_events' lines "p:GROUP/NAME PATH:0xOFF..." with its
 * PATH (from its own command: the kernel keeps the path as written) and bare NAME: its rank
 * in *nth and how many there are in *count. -1 when it is not listed. */
static int uprobe_rank(const struct kt_probe *pr, const char *path, size_t *nth, size_t *count)
{
	char ev[KT_PROBE_NAME_MAX + 40], target[PATH_MAX + 64], own[sizeof(ev)], *line = NULL;
	const char *name, *colon;
	size_t cap = 0;
	int found = -1;
	FILE *f = open_top("uprobe_events");

	if (!f)
		return -1;
	snprintf(own, sizeof(own), "%s/%s", pr->system, pr->event);
	*count = 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%*[^:]:%103s %4159s", ev, target) != 2)
			continue;
		name = strchr(ev, '/');
		colon = strrchr(target, ':');
		if (!name || strcmp(name + 1, pr->event) || !colon ||
		    strncmp(target, path, (size_t)(colon - target)) || path[colon - target])
			continue;
		if (!strcmp(ev, own)) {
			*nth = *count;
			found = 0;
		}
		(*count)++;
	}
	free(line);
	fclose(f);
	return found;
}

/* A uprobe's hits. uprobe_profile names no group: the kernel lists it in uprobe_events'
 * order, so among the lines with the probe's path and name the one at its rank is its own
 * (ranked before and after the read, so a probe of that name coming or going in between
 * leaves the counts unknown rather than wrong). */
static int uprobe_health(const struct kt_probe *pr, struct kt_probe_health *h)
{
	size_t nth, count, nth2, count2, seen = 0;
	char path[PATH_MAX], *line = NULL;
	const char *t = strchr(pr->command, ' '), *colon;
	struct profile_line l;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	t = t ? t + 1 : "";
	colon = memrchr(t, ':', strcspn(t, " "));
	if (!colon)
		return -1;
	snprintf(path, sizeof(path), "%.*s", (int)(colon - t), t);
	if (uprobe_rank(pr, path, &nth, &count) < 0)
		return -1;
	f = open_top("uprobe_profile");
	if (!f)
		return -1;
	while (profile_next(f, true, &line, &cap, &l)) {
		if (strcmp(l.path, path) || strcmp(l.event, pr->event))
			continue;
		if (seen++ == nth) {
			h->hits = l.hits;
			h->misses = 0;
			found = 1;
		}
	}
	free(line);
	fclose(f);
	if (uprobe_rank(pr, path, &nth2, &count2) < 0 || nth2 != nth || count2 != count)
		return -1;
	return found && seen == count ? 0 : -1;
}

int probes_health(const struct kt_probes *p, size_t i, struct kt_probe_health *h)
{
	const struct kt_probe *pr = probes_get(p, i);

	if (!pr)
		return -1;
	return probe_kind_is_user(pr->kind) ? uprobe_health(pr, h) : kprobe_health(pr, h);
}

struct kt_probe_report *probes_report(const struct kt_probes *p, size_t *n)
{
	struct kt_probe_report *r = NULL, *grown;
	struct kt_probe_health h;
	size_t i;

	*n = 0;
	for (i = 0; i < probes_count(p); i++) {
		if (probes_health(p, i, &h) < 0)
			continue;
		grown = realloc(r, (*n + 1) * sizeof(*r));
		if (!grown)
			break;
		r = grown;
		snprintf(r[*n].event, sizeof(r[*n].event), "%s:%s", p->v[i].system, p->v[i].event);
		r[*n].kind = p->v[i].kind;
		r[*n].maxactive = p->v[i].maxactive;
		r[(*n)++].health = h;
	}
	return r;
}

const char *probe_miss_reason(enum kt_probe_kind kind)
{
	if (kind == KT_PROBE_KRETPROBE)
		return "more calls were in flight at once than the kretprobe has instances "
		       "(maxactive): their returns went unseen; raise maxactive=N (up to 4096)";
	return "the kernel skipped the probe while another probe handler ran (recursion, or a "
	       "probe on a function that probe handlers call): probe a caller instead";
}
