// SPDX-License-Identifier: GPL-2.0-or-later
/* Filter expressions checked before the kernel sees them (see filtercheck.h). The grammar is
 * the kernel's (kernel/trace/trace_events_filter.c):
 *   expr := and ('||' and)*      and := unary ('&&' unary)*
 *   unary := '!' unary | '(' expr ')' | FIELD OP VALUE
 * with == != < <= > >= & on numbers and == != ~ on quoted strings. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "filtercheck.h"

/* Fields every event has in the kernel's filter, beyond its format. */
static const char *const special_fields[] = { "COMM", "comm", "CPU", "cpu", NULL };

enum tok_kind { T_END, T_LP, T_RP, T_AND, T_OR, T_NOT, T_OP, T_STR, T_WORD, T_BAD };

struct tok {
	enum tok_kind kind;
	int pos, len;
};

struct parser {
	struct tep_event *ev;
	const char *s;
	int pos;
	struct tok t; /* the current token */
	char *err;
	size_t errlen;
	int errpos;
	bool failed;
};

static void lex(struct parser *p)
{
	const char *s = p->s;
	int i = p->pos, start;

	while (s[i] == ' ' || s[i] == '\t')
		i++;
	start = i;
	p->t.pos = start;
	if (!s[i]) {
		p->t.kind = T_END;
		p->t.len = 0;
		p->pos = i;
		return;
	}
	if (s[i] == '(' || s[i] == ')') {
		p->t.kind = s[i] == '(' ? T_LP : T_RP;
		i++;
	} else if (s[i] == '&' && s[i + 1] == '&') {
		p->t.kind = T_AND;
		i += 2;
	} else if (s[i] == '|' && s[i + 1] == '|') {
		p->t.kind = T_OR;
		i += 2;
	} else if (s[i] == '!' && s[i + 1] != '=' && s[i + 1] != '~') {
		p->t.kind = T_NOT;
		i++;
	} else if (strchr("=!<>&~|", s[i])) {
		static const char *const two[] = { "==", "!=", "<=", ">=", "=~", "!~", NULL };
		int k;

		p->t.kind = T_OP;
		i++;
		for (k = 0; two[k]; k++)
			if (!strncmp(s + start, two[k], 2))
				i = start + 2;
	} else if (s[i] == '"') {
		p->t.kind = T_BAD;
		for (i++; s[i] && s[i] != '"'; i++)
			if (s[i] == '\\' && s[i + 1])
				i++;
		if (s[i] == '"') {
			p->t.kind = T_STR;
			i++;
		}
	} else {
		p->t.kind = T_WORD;
		/* CPUS{0-3} is one value, braces and commas included */
		while (s[i] && !strchr(" \t()&|=!<>~\"", s[i])) {
			if (s[i] == '{') {
				while (s[i] && s[i] != '}')
					i++;
				if (!s[i])
					break;
			}
			i++;
		}
	}
	p->t.len = i - start;
	p->pos = i;
}

__attribute__((format(printf, 3, 4))) static void fail(struct parser *p, int pos,
							 const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	p->errpos = pos;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
}

static const char *tok_text(struct parser *p, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", p->t.len > 40 ? 40 : p->t.len, p->s + p->t.pos);
	return buf;
}

/* A field of ev or a special one; *is_string says how it compares. */
static bool lookup_field(struct parser *p, const char *name, bool *is_string)
{
	struct tep_format_field *f;
	int i;

	for (i = 0; special_fields[i]; i++)
		if (!strcmp(name, special_fields[i])) {
			*is_string = tolower((unsigned char)name[1]) == 'o';
			return true;
		}
	if (!p->ev)
		return false;
	f = tep_find_any_field(p->ev, name);
	if (!f)
		return false;
	*is_string = (f->flags & TEP_FIELD_IS_STRING) ||
		     ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
	return true;
}

static bool is_number(const char *s, int len)
{
	char buf[64], *end;

	if (len <= 0 || len >= (int)sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strncmp(buf, "CPUS{", 5))
		return buf[len - 1] == '}';
	(void)strtoll(buf[0] == '-' ? buf + 1 : buf, &end, 0);
	return *end == '\0' && end != buf + (buf[0] == '-');
}

static void parse_or(struct parser *p);

static void parse_pred(struct parser *p)
{
	char name[128], tb[48];
	bool is_string;
	int fpos = p->t.pos, oplen, opos;
	const char *op;

	if (p->t.kind != T_WORD) {
		if (p->t.kind == T_END)
			fail(p, fpos, "expected a field name here (Tab completes field names)");
		else
			fail(p, fpos, "expected a field name, not '%s'", tok_text(p, tb, sizeof(tb)));
		return;
	}
	snprintf(name, sizeof(name), "%.*s", p->t.len, p->s + p->t.pos);
	/* prev_pid.hex, call_site.function: the kernel's display suffixes */
	if (strchr(name, '.'))
		*strchr(name, '.') = '\0';
	if (!lookup_field(p, name, &is_string)) {
		fail(p, fpos, "'%s' is not a field of %s (Tab completes field names)", name,
		     p->ev ? p->ev->name : "this event");
		return;
	}
	lex(p);
	if (p->t.kind != T_OP) {
		fail(p, p->t.pos, "'%s' needs a comparison after it (== != < <= > >= & ~)", name);
		return;
	}
	op = p->s + p->t.pos;
	oplen = p->t.len;
	opos = p->t.pos;
	if (is_string && !(oplen == 2 && (!strncmp(op, "==", 2) || !strncmp(op, "!=", 2) ||
					  !strncmp(op, "=~", 2) || !strncmp(op, "!~", 2))) &&
	    !(oplen == 1 && *op == '~')) {
		fail(p, p->t.pos, "string field '%s' takes == != or ~ (glob), not '%.*s'", name,
		     oplen, op);
		return;
	}
	if (!is_string && ((oplen == 1 && *op == '~') ||
			   (oplen == 2 && (!strncmp(op, "=~", 2) || !strncmp(op, "!~", 2))))) {
		fail(p, p->t.pos, "numeric field '%s' takes == != < <= > >= &, not '%.*s'", name,
		     oplen, op);
		return;
	}
	if (oplen == 1 && (*op == '=' || *op == '!' || *op == '|')) {
		fail(p, p->t.pos, "'%.*s' is not an operator (== != < <= > >= & ~)", oplen, op);
		return;
	}
	lex(p);
	if (p->t.kind == T_BAD) {
		fail(p, p->t.pos, "unterminated string: close it with \"");
		return;
	}
	if (p->t.kind != T_WORD && p->t.kind != T_STR) {
		fail(p, opos, "'%.*s' needs a value after it", oplen, op);
		return;
	}
	if (is_string && p->t.kind != T_STR) {
		fail(p, p->t.pos, "string values need quotes: \"%s\"", tok_text(p, tb, sizeof(tb)));
		return;
	}
	if (!is_string && (p->t.kind == T_STR || !is_number(p->s + p->t.pos, p->t.len))) {
		fail(p, p->t.pos, "'%s' is not a number (field '%s' is numeric)",
		     tok_text(p, tb, sizeof(tb)), name);
		return;
	}
	lex(p);
}

static void parse_unary(struct parser *p)
{
	int pos;

	if (p->failed)
		return;
	if (p->t.kind == T_NOT) {
		lex(p);
		parse_unary(p);
		return;
	}
	if (p->t.kind == T_LP) {
		pos = p->t.pos;
		lex(p);
		parse_or(p);
		if (p->failed)
			return;
		if (p->t.kind != T_RP) {
			fail(p, p->t.kind == T_END ? pos : p->t.pos,
			     "'(' is not closed: add ')'");
			return;
		}
		lex(p);
		return;
	}
	parse_pred(p);
}

static void parse_and(struct parser *p)
{
	parse_unary(p);
	while (!p->failed && p->t.kind == T_AND) {
		lex(p);
		parse_unary(p);
	}
}

static void parse_or(struct parser *p)
{
	parse_and(p);
	while (!p->failed && p->t.kind == T_OR) {
		lex(p);
		parse_and(p);
	}
}

int filter_check(struct tep_event *ev, const char *expr, char *err, size_t errlen,
		 int *errpos)
{
	struct parser p = { .ev = ev, .s = expr ? expr : "", .err = err, .errlen = errlen };
	char tb[48];

	if (errlen)
		err[0] = '\0';
	lex(&p);
	if (p.t.kind != T_END) {
		parse_or(&p);
		if (!p.failed && p.t.kind == T_RP)
			fail(&p, p.t.pos, "')' closes nothing: remove it");
		else if (!p.failed && p.t.kind != T_END)
			fail(&p, p.t.pos, "unexpected '%s': join conditions with && or ||",
			     tok_text(&p, tb, sizeof(tb)));
	}
	if (errpos)
		*errpos = p.failed ? p.errpos : -1;
	return p.failed ? -1 : 0;
}

const char **filter_field_names(struct tep_event *ev)
{
	struct tep_format_field *f;
	const char **names;
	size_t n = 0, i;

	for (f = ev ? ev->format.common_fields : NULL; f; f = f->next)
		n++;
	for (f = ev ? ev->format.fields : NULL; f; f = f->next)
		n++;
	names = calloc(n + 5, sizeof(*names));
	if (!names)
		return NULL;
	n = 0;
	for (f = ev ? ev->format.fields : NULL; f; f = f->next)
		names[n++] = f->name;
	for (f = ev ? ev->format.common_fields : NULL; f; f = f->next)
		names[n++] = f->name;
	for (i = 0; special_fields[i]; i++)
		names[n++] = special_fields[i];
	names[n] = NULL;
	return names;
}
