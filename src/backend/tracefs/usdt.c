// SPDX-License-Identifier: GPL-2.0-or-later
/* USDT notes read with libelf, listed for a file or a process, and turned into uprobe
 * definitions: the probe's file offset, its semaphore as the kernel's reference counter
 * offset, and each argument spec as a typed fetcharg. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/symbols/elfsyms.h"
#include "backend/symbols/procmaps.h"
#include "probes.h"
#include "usdt.h"
#include "util/strutil.h"

#define NT_STAPSDT 3
#define MAX_NOTE_ARGS 12 /* sys/sdt.h's STAP_PROBE12 */

/* ---- notes --------------------------------------------------------------------------------- */

static int add_note(struct kt_usdt_list *l, const char *path, const char *provider,
		    const char *name, const char *args, uint64_t pc, uint64_t base,
		    uint64_t sema, Elf *elf)
{
	struct kt_usdt_note *grown, *n;
	uint64_t off, sema_off = 0;

	if (elfsyms_vaddr_offset(elf, pc, &off) < 0 ||
	    (sema && elfsyms_vaddr_offset(elf, sema, &sema_off) < 0))
		return 0; /* outside the loaded file: nothing a uprobe can reach */
	grown = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!grown)
		return -1;
	l->v = grown;
	n = &l->v[l->n];
	n->path = strdup(path);
	n->provider = strdup(provider);
	n->name = strdup(name);
	n->args = strdup(args);
	n->pc = pc;
	n->base = base;
	n->semaphore = sema;
	n->offset = off;
	n->sema_offset = sema_off;
	n->delta = pc - off;
	l->n++;
	if (!n->path || !n->provider || !n->name || !n->args)
		return -1;
	return 0;
}

/* The section named name: its header into sh. */
static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* One note's descriptor: three addresses of the file's class, then three strings. */
static int parse_note(struct kt_usdt_list *l, const char *path, Elf *elf, const char *desc,
		      size_t len, bool has_base, uint64_t base_addr)
{
	size_t asz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8, i;
	uint64_t a[3] = { 0, 0, 0 };
	const char *s[3], *p = desc + 3 * asz, *end = desc + len;
	uint32_t a32;

	if (len < 3 * asz + 3)
		return 0;
	for (i = 0; i < 3; i++) {
		if (asz == 4) {
			memcpy(&a32, desc + i * 4, 4);
			a[i] = a32;
		} else {
			memcpy(&a[i], desc + i * 8, 8);
		}
	}
	for (i = 0; i < 3; i++) {
		s[i] = p;
		p = memchr(p, '\0', (size_t)(end - p));
		if (!p)
			return 0;
		p++;
		if (i < 2 && p >= end)
			return 0;
	}
	/* prelink moved the file: .stapsdt.base says by how much (the address only, as libbpf
	 * does: the semaphore is taken as written) */
	if (has_base && a[1])
		a[0] += base_addr - a[1];
	return add_note(l, path, s[0], s[1], s[2], a[0], a[1], a[2], elf);
}

static int read_notes(Elf *elf, const char *path, struct kt_usdt_list *l)
{
	Elf_Scn *scn;
	GElf_Shdr sh, bsh;
	GElf_Nhdr nh;
	Elf_Data *data;
	size_t off = 0, next, name_off, desc_off;
	bool has_base = find_section(elf, ".stapsdt.base", &bsh) != NULL;

	scn = find_section(elf, ".note.stapsdt", &sh);
	if (!scn || sh.sh_type != SHT_NOTE)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *d = data->d_buf;

		off = next;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || memcmp(d + name_off, "stapsdt", 8))
			continue;
		if (parse_note(l, path, elf, d + desc_off, nh.n_descsz, has_base,
			       has_base ? bsh.sh_addr : 0) < 0)
			return -1;
	}
	return 0;
}

int usdt_read_file(const char *path, struct kt_usdt_list *l, char *err, size_t errlen)
{
	struct kt_elf ef;
	int ret;

	if (elfsyms_open(path, &ef, err, errlen) < 0)
		return -1;
	ret = read_notes(ef.elf, path, l);
	elfsyms_close(&ef);
	if (ret < 0)
		str_seterr(err, errlen, "out of memory");
	return ret;
}

struct pid_notes {
	pid_t pid;
	struct kt_usdt_list *l;
	char **seen; /* the files read already */
	size_t nseen;
	bool oom;
};

/* One mapping of the process: the notes of its file, read once per file, through the
 * process's view of it (procmaps.h); named by a path that reaches the same file from here,
 * where the probe is made. */
static int pid_map_notes(const struct kt_procmap *m, void *ctx)
{
	struct pid_notes *pn = ctx;
	char ignore[512], path[PATH_MAX + 32];
	struct kt_elf ef;
	char **grown;
	size_t i;
	int fd, ret;

	if (!m->exec || m->path[0] != '/' || m->deleted)
		return 0;
	for (i = 0; i < pn->nseen && strcmp(pn->seen[i], m->path); i++)
		;
	if (i < pn->nseen)
		return 0;
	grown = realloc(pn->seen, (pn->nseen + 1) * sizeof(*pn->seen));
	if (grown)
		pn->seen = grown;
	if (!grown || !(grown[pn->nseen] = strdup(m->path)))
		return pn->oom = true;
	pn->nseen++;
	/* a file that is not ELF (or gone) has no notes: not an error for a process */
	fd = procmaps_open(pn->pid, m);
	if (fd < 0 || elfsyms_open_fd(fd, m->path, &ef, ignore, sizeof(ignore)) < 0)
		return 0;
	procmaps_reach(pn->pid, m->path, path, sizeof(path));
	ret = read_notes(ef.elf, path, pn->l);
	elfsyms_close(&ef);
	return ret < 0 ? pn->oom = true : 0;
}

int usdt_read_pid(pid_t pid, struct kt_usdt_list *l, char *err, size_t errlen)
{
	struct pid_notes pn = { .pid = pid, .l = l };
	size_t i;
	int ret = procmaps_each(pid, pid_map_notes, &pn);

	for (i = 0; i < pn.nseen; i++)
		free(pn.seen[i]);
	free(pn.seen);
	if (ret < 0) {
		str_seterr(err, errlen, "no process %d (it is not running; ps shows the ones "
			   "there are)", (int)pid);
		return -1;
	}
	if (pn.oom)
		str_seterr(err, errlen, "out of memory");
	return pn.oom ? -1 : 0;
}

void usdt_list_free(struct kt_usdt_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].provider);
		free(l->v[i].name);
		free(l->v[i].args);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int usdt_print(FILE *out, const char *spec, char *err, size_t errlen)
{
	struct kt_usdt_list l = { 0 };
	char path[PATH_MAX];
	long pid = 0;
	size_t i;

	if (all_digits(spec)) {
		errno = 0;
		pid = strtol(spec, NULL, 10);
		if (errno || pid > INT_MAX)
			pid = 0;
		if (usdt_read_pid((pid_t)pid, &l, err, errlen) < 0)
			goto fail;
		if (!l.n) {
			str_seterr(err, errlen, "process %ld has no USDT probes (none of the files "
				   "it maps has .note.stapsdt notes)", pid);
			goto fail;
		}
	} else {
		if (elfsyms_resolve_path(spec, path, sizeof(path), err, errlen) < 0 ||
		    usdt_read_file(path, &l, err, errlen) < 0)
			goto fail;
		if (!l.n) {
			str_seterr(err, errlen, "%s has no USDT probes (no .note.stapsdt notes; "
				   "programs get them from <sys/sdt.h>)", path);
			goto fail;
		}
	}
	for (i = 0; i < l.n; i++) {
		const struct kt_usdt_note *n = &l.v[i];
		char sema[32] = "-";

		if (n->semaphore)
			snprintf(sema, sizeof(sema), "0x%" PRIx64, n->sema_offset);
		fprintf(out, "%s:%s:%s  0x%" PRIx64 "  semaphore %s  %s\n", n->path, n->provider,
			n->name, n->offset, sema, n->args);
	}
	usdt_list_free(&l);
	return 0;
fail:
	usdt_list_free(&l);
	return 1;
}

/* ---- argument specs -------------------------------------------------------------------------- */

/* x86-64 registers as gcc names them, by the name the kernel's uprobes take (the 64-bit
 * register; the 32, 16 and 8-bit names read its low bytes, which the type's size keeps). */
static const struct {
	const char *kernel;
	const char *names[4];
} x86_regs[] = {
	{ "ax", { "rax", "eax", "ax", "al" } },	   { "bx", { "rbx", "ebx", "bx", "bl" } },
	{ "cx", { "rcx", "ecx", "cx", "cl" } },	   { "dx", { "rdx", "edx", "dx", "dl" } },
	{ "si", { "rsi", "esi", "si", "sil" } },   { "di", { "rdi", "edi", "di", "dil" } },
	{ "bp", { "rbp", "ebp", "bp", "bpl" } },   { "sp", { "rsp", "esp", "sp", "spl" } },
	{ "r8", { "r8", "r8d", "r8w", "r8b" } },   { "r9", { "r9", "r9d", "r9w", "r9b" } },
	{ "r10", { "r10", "r10d", "r10w", "r10b" } }, { "r11", { "r11", "r11d", "r11w", "r11b" } },
	{ "r12", { "r12", "r12d", "r12w", "r12b" } }, { "r13", { "r13", "r13d", "r13w", "r13b" } },
	{ "r14", { "r14", "r14d", "r14w", "r14b" } }, { "r15", { "r15", "r15d", "r15w", "r15b" } },
	{ "ip", { "rip", "eip", "ip", NULL } },
};

static const char *kernel_reg(const char *name, size_t len)
{
	size_t i, j;

	for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
		for (j = 0; j < 4 && x86_regs[i].names[j]; j++)
			if (strlen(x86_regs[i].names[j]) == len &&
			    !strncmp(x86_regs[i].names[j], name, len))
				return x86_regs[i].kernel;
	return NULL;
}

struct argctx {
	const char *spec;
	int argn;
	char *err;
	size_t errlen;
};

static int arg_err(struct argctx *a, const char *why)
{
	str_seterr(a->err, a->errlen, "argument %d '%s': %s (probe the site with --uprobe "
		   "PATH:0xOFFSET, as ktop --list-usdt shows it, and fetchargs of your own)",
		   a->argn, a->spec, why);
	return -1;
}

/* "%reg" at p (len bytes) -> the kernel's name. */
static const char *reg_at(struct argctx *a, const char *p, size_t len)
{
	const char *k;

	if (len < 2 || p[0] != '%') {
		arg_err(a, "expected a register such as %rdi");
		return NULL;
	}
	k = kernel_reg(p + 1, len - 1);
	if (!k) {
		arg_err(a, len == 3 && p[2] == 'h' ? "a high-byte register has no uprobe "
						     "fetcharg" : "unknown x86-64 register");
		return NULL;
	}
	return k;
}

int usdt_fetcharg(const char *spec, int argn, const char *type, uint64_t delta,
		  kt_usdt_symfn symfn, void *ctx, char *out, size_t outlen, char *err,
		  size_t errlen)
{
	struct argctx a = { spec, argn, err, errlen };
	const char *at = strchr(spec, '@'), *op, *open, *close, *k;
	char fetch[256], deftype[8], sym[256];
	bool is_signed = false, deref;
	long size = 8, disp = 0;
	long long imm;
	uint64_t addr;
	char *end;
	size_t n;

	if (at) {
		errno = 0;
		size = strtol(spec, &end, 10);
		if (errno || end != at || !size) {
			arg_err(&a, "the size before '@' must be 1, 2, 4 or 8, negative when signed");
			return -1;
		}
		is_signed = size < 0;
		size = labs(size);
		op = at + 1;
	} else {
		op = spec;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		arg_err(&a, "the size before '@' must be 1, 2, 4 or 8, negative when signed");
		return -1;
	}
	snprintf(deftype, sizeof(deftype), "%c%ld", is_signed ? 's' : 'u', size * 8);
	deref = type && (!strcmp(type, "string") || !strcmp(type, "ustring"));
	if (op[0] == '%') {
		k = reg_at(&a, op, strlen(op));
		if (!k)
			return -1;
		snprintf(fetch, sizeof(fetch), "%%%s", k);
	} else if (op[0] == '$') {
		if (deref)
			return arg_err(&a, "a constant is not a char pointer");
		errno = 0;
		imm = strtoll(op + 1, &end, 0);
		if (errno || end == op + 1 || *end)
			return arg_err(&a, "a constant must be a number");
		snprintf(fetch, sizeof(fetch), "\\%lld", imm);
	} else {
		/* [disp|sym[+-off]](%reg[,%index,scale]) or a bare symbol */
		open = strchr(op, '(');
		close = open ? strchr(open, ')') : NULL;
		if (open && (!close || close[1]))
			return arg_err(&a, "unbalanced parentheses");
		if (open && memchr(open, ',', (size_t)(close - open)))
			return arg_err(&a, "indexed addressing has no uprobe fetcharg");
		n = open ? (size_t)(open - op) : strlen(op);
		k = open ? reg_at(&a, open + 1, (size_t)(close - open - 1)) : "ip";
		if (!k)
			return -1;
		if (n && (isalpha((unsigned char)op[0]) || op[0] == '_' || op[0] == '.')) {
			/* a symbol: only %rip-relative (or absolute) addresses name one */
			const char *pm = op;

			if (strcmp(k, "ip"))
				return arg_err(&a, "a symbol plus a register other than %rip has no "
					       "uprobe fetcharg");
			while (pm < op + n && *pm != '+' && *pm != '-')
				pm++;
			snprintf(sym, sizeof(sym), "%.*s", (int)(pm - op), op);
			if (pm < op + n) {
				errno = 0;
				disp = strtol(pm, &end, 0);
				if (errno || end != op + n)
					return arg_err(&a, "the offset after the symbol must be a number");
			}
			if (!symfn || symfn(sym, &addr, ctx) < 0)
				return arg_err(&a, "the symbol is in neither .symtab nor .dynsym");
			/* @+ is relative to the probed file as the probe's own segment maps it */
			snprintf(fetch, sizeof(fetch), "@+0x%" PRIx64, addr + (uint64_t)disp - delta);
		} else {
			if (!strcmp(k, "ip"))
				return arg_err(&a, "a %rip-relative number depends on the instruction's "
					       "length");
			if (n) {
				errno = 0;
				disp = strtol(op, &end, 0);
				if (errno || end != open)
					return arg_err(&a, "the displacement must be a number");
			}
			snprintf(fetch, sizeof(fetch), "%s%ld(%%%s)", disp < 0 ? "" : "+", disp, k);
		}
	}
	if (deref)
		snprintf(out, outlen, "+0(%s):%s", fetch, type);
	else
		snprintf(out, outlen, "%s:%s", fetch, type ? type : deftype);
	return 0;
}

/* ---- definitions ----------------------------------------------------------------------------- */

static size_t ident_len(const char *p, size_t max)
{
	size_t n = 0;

	if (!max || !(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (n < max && (isalnum((unsigned char)p[n]) || p[n] == '_'))
		n++;
	return n;
}

void usdt_def_free(struct kt_usdt_def *def)
{
	if (!def)
		return;
	free(def->name);
	free(def->path);
	free(def->provider);
	free(def->probe);
	free(def->args);
	memset(def, 0, sizeof(*def));
}

/* "argN" at p (len bytes): N, or 0. */
static int arg_number(const char *p, size_t len)
{
	long v = 0;
	size_t i;

	if (len < 4 || strncmp(p, "arg", 3) || p[3] == '0')
		return 0;
	for (i = 3; i < len; i++) {
		if (!isdigit((unsigned char)p[i]))
			return 0;
		v = v * 10 + (p[i] - '0');
		if (v > MAX_NOTE_ARGS)
			return 0;
	}
	return (int)v;
}

/* One argument token at [p, p + len): [ANAME=]argN[:TYPE]. */
static int check_token(const char *p, size_t len, char *err, size_t errlen)
{
	const char *colon = memchr(p, ':', len), *a = p;
	size_t n = ident_len(p, len);

	if (n && n < len && p[n] == '=')
		a = p + n + 1;
	if (!arg_number(a, colon ? (size_t)(colon - a) : len - (size_t)(a - p))) {
		str_seterr(err, errlen, "'%.*s': an argument is [NAME=]argN[:TYPE] with N from 1 "
			   "to %d, as in arg2:string", (int)len, p, MAX_NOTE_ARGS);
		return -1;
	}
	if (colon && colon + 1 == p + len) {
		str_seterr(err, errlen, "'%.*s': missing type after ':' (string, u64, s32, ...)",
			   (int)len, p);
		return -1;
	}
	return 0;
}

int usdt_parse(const char *text, struct kt_usdt_def *out, char *err, size_t errlen)
{
	struct kt_usdt_def def = { 0 };
	const char *p = text, *end, *c1 = NULL, *c2 = NULL, *q;
	size_t n, argslen = 0;
	char *e;
	long pid;

	while (*p == ' ')
		p++;
	end = p + strcspn(p, " ");
	n = ident_len(p, (size_t)(end - p));
	if (n && p[n] == '=') {
		if (n >= KT_PROBE_NAME_MAX) {
			str_seterr(err, errlen, "event name longer than %d characters",
				   KT_PROBE_NAME_MAX - 1);
			return -1;
		}
		def.name = strndup(p, n);
		p += n + 1;
	}
	for (q = p; q < end; q++) {
		if (*q == ':') {
			c1 = c2;
			c2 = q;
		}
	}
	if (!c1 || c1 == p || c2 == c1 + 1 || c2 + 1 == end ||
	    ident_len(c1 + 1, (size_t)(c2 - c1 - 1)) != (size_t)(c2 - c1 - 1) ||
	    ident_len(c2 + 1, (size_t)(end - c2 - 1)) != (size_t)(end - c2 - 1)) {
		str_seterr(err, errlen, "USDT target is PATH:PROVIDER:PROBE, as in "
			   "/usr/bin/python3.11:python:function__entry (ktop --list-usdt PATH "
			   "lists them)");
		goto fail;
	}
	def.path = strndup(p, (size_t)(c1 - p));
	def.provider = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
	def.probe = strndup(c2 + 1, (size_t)(end - c2 - 1));
	def.args = calloc(1, strlen(text) + 1);
	if (!def.path || !def.provider || !def.probe || !def.args) {
		str_seterr(err, errlen, "out of memory");
		goto fail;
	}
	for (p = end; *p; p = end) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = p + strcspn(p, " ");
		if (!strncmp(p, "pid=", 4)) {
			errno = 0;
			pid = strtol(p + 4, &e, 10);
			if (errno || e != end || pid <= 0 || pid > 4194304) {
				str_seterr(err, errlen, "pid must be from 1 to 4194304, not '%.*s'",
					   (int)(end - p - 4), p + 4);
				goto fail;
			}
			def.pid = (pid_t)pid;
			continue;
		}
		if (check_token(p, (size_t)(end - p), err, errlen) < 0)
			goto fail;
		if (argslen)
			def.args[argslen++] = ' ';
		memcpy(def.args + argslen, p, (size_t)(end - p));
		argslen += (size_t)(end - p);
	}
	if (out)
		*out = def;
	else
		usdt_def_free(&def);
	return 0;
fail:
	usdt_def_free(&def);
	return -1;
}

/* The documented argument types of well-known probes, used where the user gives none: a note
 * says an argument's size, never that it is a char pointer. CPython's are in its
 * Doc/howto/instrumentation.rst. */
static const struct {
	const char *provider, *probe, *types[2];
} known_args[] = {
	{ "python", "function__entry", { "string", "string" } },
	{ "python", "function__return", { "string", "string" } },
	{ "python", "line", { "string", "string" } },
	{ "python", "import__find__load__start", { "string" } },
	{ "python", "import__find__load__done", { "string" } },
	{ "python", "audit", { "string" } },
};

/* The known type of argument i (1-based) of provider:probe, or NULL. */
static const char *known_type(const char *provider, const char *probe, int i)
{
	size_t k;

	for (k = 0; k < sizeof(known_args) / sizeof(known_args[0]); k++)
		if (!strcmp(known_args[k].provider, provider) && !strcmp(known_args[k].probe, probe))
			return i >= 1 && i <= 2 ? known_args[k].types[i - 1] : NULL;
	return NULL;
}

/* The user's token for argument i (1-based) among def->args: its name and type. */
static void user_arg(const struct kt_usdt_def *def, int i, char *name, size_t namelen,
		     char *type, size_t typelen)
{
	const char *p = def->args, *end, *a, *colon;
	size_t n;

	snprintf(name, namelen, "arg%d", i);
	type[0] = '\0';
	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, " ");
		n = ident_len(p, (size_t)(end - p));
		a = n && p[n] == '=' ? p + n + 1 : p;
		colon = memchr(a, ':', (size_t)(end - a));
		if (arg_number(a, (size_t)((colon ? colon : end) - a)) != i)
			continue;
		if (a != p)
			snprintf(name, namelen, "%.*s", (int)n, p);
		if (colon)
			snprintf(type, typelen, "%.*s", (int)(end - colon - 1), colon + 1);
	}
}

static int highest_arg(const struct kt_usdt_def *def)
{
	const char *p = def->args, *end, *a;
	size_t n;
	int max = 0, k;

	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, " ");
		n = ident_len(p, (size_t)(end - p));
		a = n && p[n] == '=' ? p + n + 1 : p;
		k = arg_number(a, strcspn(a, ": "));
		if (k > max)
			max = k;
	}
	return max;
}

static int elf_symbol(const char *name, uint64_t *addr, void *ctx)
{
	return elfsyms_address(ctx, name, addr);
}

/* The uprobe definition of one site. */
static char *site_def(const struct kt_usdt_def *def, const struct kt_usdt_note *n, int site,
		      Elf *elf, char *err, size_t errlen)
{
	char buf[8192], name[KT_PROBE_NAME_MAX + 8], aname[64], type[32], fetch[320], spec[128];
	const char *p = n->args, *end;
	size_t len;
	int i = 0;

	if (site > 1)
		snprintf(name, sizeof(name), "%.*s_%d", KT_PROBE_NAME_MAX - 6,
			 def->name ? def->name : n->name, site);
	else
		snprintf(name, sizeof(name), "%s", def->name ? def->name : n->name);
	len = (size_t)snprintf(buf, sizeof(buf), "%s=%s:0x%" PRIx64, name, n->path, n->offset);
	if (n->semaphore)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "(0x%" PRIx64 ")",
					n->sema_offset);
	for (; *p && len < sizeof(buf); p = end) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = p + strcspn(p, " ");
		snprintf(spec, sizeof(spec), "%.*s", (int)(end - p), p);
		user_arg(def, ++i, aname, sizeof(aname), type, sizeof(type));
		if (!type[0] && known_type(n->provider, n->name, i))
			snprintf(type, sizeof(type), "%s", known_type(n->provider, n->name, i));
		if (usdt_fetcharg(spec, i, type[0] ? type : NULL, n->delta, elf_symbol, elf, fetch,
				  sizeof(fetch), err, errlen) < 0)
			return NULL;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s=%s", aname, fetch);
	}
	if (highest_arg(def) > i) {
		str_seterr(err, errlen, "%s:%s has %d argument%s; there is no arg%d", n->provider,
			   n->name, i, i == 1 ? "" : "s", highest_arg(def));
		return NULL;
	}
	if (def->pid && len < sizeof(buf))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, " pid=%d", (int)def->pid);
	if (len >= sizeof(buf)) {
		str_seterr(err, errlen, "the definition of %s:%s is too long", n->provider, n->name);
		return NULL;
	}
	return strdup(buf);
}

void usdt_defs_free(char **defs, int n)
{
	int i;

	for (i = 0; defs && i < n; i++)
		free(defs[i]);
	free(defs);
}

int usdt_uprobe_defs(const char *text, char ***defs, char *err, size_t errlen)
{
	struct kt_usdt_def def;
	struct kt_usdt_list l = { 0 };
	struct kt_elf ef;
	char path[PATH_MAX], **v = NULL;
	int n = 0;
	size_t i;

	*defs = NULL;
	if (usdt_parse(text, &def, err, errlen) < 0)
		return -1;
	if (elfsyms_resolve_path(def.path, path, sizeof(path), err, errlen) < 0 ||
	    elfsyms_open(path, &ef, err, errlen) < 0) {
		usdt_def_free(&def);
		return -1;
	}
	if (read_notes(ef.elf, path, &l) < 0) {
		str_seterr(err, errlen, "out of memory");
		goto fail;
	}
	if (!l.n) {
		str_seterr(err, errlen, "%s has no USDT probes (no .note.stapsdt notes; programs "
			   "get them from <sys/sdt.h>)", path);
		goto fail;
	}
	for (i = 0; i < l.n; i++) {
		char **grown;

		if (strcmp(l.v[i].provider, def.provider) || strcmp(l.v[i].name, def.probe))
			continue;
		grown = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!grown) {
			str_seterr(err, errlen, "out of memory");
			goto fail;
		}
		v = grown;
		v[n] = site_def(&def, &l.v[i], n + 1, ef.elf, err, errlen);
		if (!v[n])
			goto fail;
		n++;
	}
	if (!n) {
		str_seterr(err, errlen, "no USDT probe '%s:%s' in %s (ktop --list-usdt %s lists its "
			   "%zu)", def.provider, def.probe, path, path, l.n);
		goto fail;
	}
	elfsyms_close(&ef);
	usdt_list_free(&l);
	usdt_def_free(&def);
	*defs = v;
	return n;
fail:
	usdt_defs_free(v, n);
	elfsyms_close(&ef);
	usdt_list_free(&l);
	usdt_def_free(&def);
	return -1;
}
