// SPDX-License-Identifier: GPL-2.0-or-later
/* Addresses to names. Three sorted tables, each searched by binary search: kallsyms (read
 * once), a file's function symbols (read on its first lookup, kept per path), a process's
 * executable mappings (kept per pid: from the side band as it comes, and from
 * /proc/PID/maps the first time an address misses them). A user address becomes a file
 * offset through its mapping, then a virtual address through the file's PT_LOAD segments
 * (what the symbols are in), whatever the load base. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsyms.h"
#include "procmaps.h"
#include "util/fileio.h"
#include "symbolize.h"
#include "util/xalloc.h"

#define KALLSYMS "/proc/kallsyms"
#define PID_BUCKETS 1024
#define DSO_BUCKETS 256

/* Names, NUL-terminated, one after another; entries point at them by offset. */
struct arena {
	char *buf;
	size_t len, cap;
};

struct sym {
	uint64_t addr, size; /* size 0: up to the next symbol */
	uint32_t name;	     /* offset in the table's arena */
	uint8_t bind;	     /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
};

struct symtab {
	struct sym *v;
	size_t n, cap;
	struct arena names;
};

/* A PT_LOAD segment: file offsets [off, off + filesz) are at vaddr. */
struct segment {
	uint64_t off, filesz, vaddr;
};

struct dso {
	char *path;
	const char *base; /* the last component, for "[base+0xOFF]" */
	struct dso *next;
	bool loaded, usable; /* usable: an ELF file whose segments were read */
	struct symtab syms;
	struct segment *segs;
	size_t nsegs;
};

struct map {
	uint64_t start, end, pgoff;
	struct dso *dso; /* NULL: anonymous (a JIT's code, if anything) */
};

struct proc {
	int pid;
	struct proc *next;
	struct map *maps; /* sorted by start, disjoint */
	size_t n, cap;
	uint64_t read_pass; /* the pass /proc/PID/maps was last read in; 0: not since exec */
	bool tracked;	    /* the side band gives its mappings: they win over /proc's */
	struct symtab jit; /* /tmp/perf-PID.map */
	off_t jit_size;	   /* the file's size when read; -1 never read */
	uint64_t exited;   /* symbolizer_exit: the reap generation that frees it; 0 alive */
	uint64_t exit_seq; /* symbolizer_exit: its place among the exits; 0 alive */
};

struct kt_symbolizer {
	struct symtab kernel;
	bool kernel_hidden;
	struct proc *procs[PID_BUCKETS];
	struct dso *dsos[DSO_BUCKETS];
	size_t ndsos_loaded;
	uint64_t resolved, unresolved;
	uint64_t reaps; /* symbolizer_reap calls */
	uint64_t pass;	/* symbolizer_next_pass calls, from 1 */
	uint64_t exits; /* symbolizer_exit calls of a known process */
	/* symbolizer_new_given's: user frames named by given(given_ctx, ...) alone */
	kt_symbolizer_given_fn *given;
	void *given_ctx;
};

/* An offset into a, of a copy of s[0..len) (NUL added), or UINT32_MAX out of memory. */
static uint32_t arena_add(struct arena *a, const char *s, size_t len)
{
	uint32_t at;

	if (a->len + len + 1 > a->cap) {
		size_t cap = a->cap ? a->cap : 4096;
		char *buf;

		while (a->len + len + 1 > cap)
			cap *= 2;
		if (cap > UINT32_MAX || !(buf = realloc(a->buf, cap)))
			return UINT32_MAX;
		a->buf = buf;
		a->cap = cap;
	}
	at = (uint32_t)a->len;
	memcpy(a->buf + a->len, s, len);
	a->buf[a->len + len] = '\0';
	a->len += len + 1;
	return at;
}

static int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, uint8_t bind,
		      const char *name, size_t len)
{
	uint32_t at;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct sym *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	at = arena_add(&t->names, name, len);
	if (at == UINT32_MAX)
		return -1;
	t->v[t->n++] = (struct sym){ addr, size, at, bind };
	return 0;
}

static size_t underscores(const char *s)
{
	return strspn(s, "_");
}

/* By address; of aliases at one address, the name perf would show first (its
 * choose_best_symbol): a sized one, then not weak, then global, then fewer leading
 * underscores, then the longer name. So "__vdso_clock_gettime", not its weak
 * "clock_gettime". */
static int sym_cmp(const void *a, const void *b, void *arg)
{
	const struct sym *x = a, *y = b;
	const char *names = arg, *nx = names + x->name, *ny = names + y->name;
	size_t lx, ly;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	lx = underscores(nx);
	ly = underscores(ny);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	lx = strlen(nx);
	ly = strlen(ny);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return strcmp(nx, ny);
}

/* kallsyms and most symbol tables come in address order already: then only the runs of
 * aliases at one address need sorting, not the whole table. */
static void symtab_sort(struct symtab *t)
{
	size_t i, run;

	for (i = 1; i < t->n && t->v[i - 1].addr <= t->v[i].addr; i++)
		;
	if (i < t->n) {
		qsort_r(t->v, t->n, sizeof(*t->v), sym_cmp, t->names.buf);
		return;
	}
	for (i = 0; i < t->n; i = run) {
		for (run = i + 1; run < t->n && t->v[run].addr == t->v[i].addr; run++)
			;
		if (run - i > 1)
			qsort_r(t->v + i, run - i, sizeof(*t->v), sym_cmp, t->names.buf);
	}
}

static void symtab_free(struct symtab *t)
{
	free(t->v);
	free(t->names.buf);
	memset(t, 0, sizeof(*t));
}

/* The symbol holding addr: the last one at or below it, if its size (when known) reaches. */
static const char *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	const struct sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->v[lo - 1];
	/* aliases share an address: the first of them is the best name */
	while (s > t->v && s[-1].addr == s->addr)
		s--;
	if (s->size && addr >= s->addr + s->size)
		return NULL;
	return t->names.buf + s->name;
}

/* --- kernel --- */

/* A hex number at *p, advancing *p past it. */
static uint64_t hex(const char **p)
{
	uint64_t v = 0;

	for (;; (*p)++) {
		unsigned c = (unsigned char)**p;

		if (c - '0' < 10)
			v = v << 4 | (c - '0');
		else if ((c | 0x20) - 'a' < 6)
			v = v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return v;
	}
}

/* Read whole and parsed in place ("ADDR TYPE NAME[\t[MODULE]]" a line, text symbols only):
 * 120,000 lines through stdio and sscanf were a third of a 5 s profile's CPU. */
static int load_kallsyms(struct kt_symbolizer *sym, char *err, size_t errlen)
{
	char name[480];
	bool nonzero = false;
	size_t size;
	char *text = file_read_all(KALLSYMS, &size);
	const char *p, *end;

	if (!text) {
		snprintf(err, errlen, "cannot read %s: %s", KALLSYMS, strerror(errno));
		return -1;
	}
	for (p = text; *p; p = *end ? end + 1 : end) {
		const char *nm, *nend, *mod = NULL;
		uint64_t addr = hex(&p);
		char type;
		int len;

		end = strchrnul(p, '\n');
		if (end - p < 4 || p[0] != ' ' || !strchr("tTwW", p[1]) || p[2] != ' ')
			continue;
		type = p[1];
		nm = p + 3;
		for (nend = nm; nend < end && *nend != ' ' && *nend != '\t'; nend++)
			;
		if (nend < end && nend[0] == '\t' && nend[1] == '[')
			mod = nend + 2;
		if (mod) {
			len = snprintf(name, sizeof(name), "%.*s [%.*s]", (int)(nend - nm), nm,
				       (int)strcspn(mod, "]\n"), mod);
			if (len < 0 || (size_t)len >= sizeof(name))
				continue;
			nm = name;
		} else {
			len = (int)(nend - nm);
		}
		nonzero |= addr != 0;
		if (symtab_add(&sym->kernel, addr, 0, type == 'T' ? STB_GLOBAL :
			       type == 't' ? STB_LOCAL : STB_WEAK, nm, (size_t)len) < 0) {
			free(text);
			snprintf(err, errlen, "out of memory reading %s", KALLSYMS);
			return -1;
		}
	}
	free(text);
	if (!nonzero) {
		/* kptr_restrict: every address reads 0, so none can be named */
		sym->kernel_hidden = true;
		symtab_free(&sym->kernel);
	}
	symtab_sort(&sym->kernel);
	return 0;
}

struct kt_symbolizer *symbolizer_new(char *err, size_t errlen)
{
	struct kt_symbolizer *sym = calloc(1, sizeof(*sym));

	if (!sym) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sym->pass = 1;
	if (load_kallsyms(sym, err, errlen) < 0) {
		symbolizer_free(sym);
		return NULL;
	}
	return sym;
}

struct kt_symbolizer *symbolizer_new_given(kt_symbolizer_given_fn *given, void *ctx)
{
	struct kt_symbolizer *sym = xcalloc(1, sizeof(*sym));

	sym->pass = 1;
	sym->given = given;
	sym->given_ctx = ctx;
	return sym;
}

static void unresolved(struct kt_symbolizer *sym, struct kt_frame *f, char *buf, size_t len,
		       const char *dso, uint64_t off)
{
	size_t n = dso ? strlen(dso) : 0;

	/* "[vdso]" as "[vdso+0x10]", not "[[vdso]+0x10]" */
	if (n > 2 && dso[0] == '[' && dso[n - 1] == ']')
		snprintf(buf, len, "[%.*s+0x%" PRIx64 "]", (int)n - 2, dso + 1, off);
	else if (dso)
		snprintf(buf, len, "[%s+0x%" PRIx64 "]", dso, off);
	else
		snprintf(buf, len, "0x%" PRIx64, off);
	f->name = buf;
	f->kind = KT_FRAME_UNRESOLVED;
	sym->unresolved++;
}

static void named(struct kt_symbolizer *sym, struct kt_frame *f, char *buf, size_t len,
		  const char *name, enum kt_frame_kind kind)
{
	snprintf(buf, len, "%s", name);
	f->name = buf;
	f->kind = kind;
	sym->resolved++;
}

void symbolizer_kernel(struct kt_symbolizer *sym, uint64_t addr, struct kt_frame *f, char *buf,
		       size_t len)
{
	const char *name = symtab_find(&sym->kernel, addr);

	if (name)
		named(sym, f, buf, len, name, KT_FRAME_KERNEL);
	else
		unresolved(sym, f, buf, len, NULL, addr);
}

int symbolizer_kernel_hidden(const struct kt_symbolizer *sym)
{
	return sym->kernel_hidden;
}

/* --- files --- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static struct dso *dso_get(struct kt_symbolizer *sym, const char *path)
{
	struct dso **head = &sym->dsos[hash_str(path) % DSO_BUCKETS], *d;
	const char *slash;

	for (d = *head; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	slash = strrchr(d->path, '/');
	d->base = slash ? slash + 1 : d->path;
	d->next = *head;
	*head = d;
	return d;
}

static int read_segments(struct dso *d, Elf *elf)
{
	GElf_Phdr ph;
	size_t i, n;

	if (elf_getphdrnum(elf, &n) < 0 || !(d->segs = calloc(n ? n : 1, sizeof(*d->segs))))
		return -1;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			d->segs[d->nsegs++] = (struct segment){ ph.p_offset, ph.p_filesz,
								ph.p_vaddr };
	return 0;
}

static int add_function(const char *name, size_t len, const GElf_Sym *s, void *ctx)
{
	struct dso *d = ctx;

	return symtab_add(&d->syms, s->st_value, s->st_size, (uint8_t)GELF_ST_BIND(s->st_info),
			  name, len);
}

static bool has_section(Elf *elf, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return true;
	return false;
}

/* The debug file of a stripped one, where Debian's -dbg packages and perf look:
 * /usr/lib/debug/.build-id/NN/NNNN.debug from its build-id note. Returns 0 with path. */
static int debug_file(Elf *elf, char *path, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, next, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			const unsigned char *id = (const unsigned char *)data->d_buf + desc_off;
			size_t i, at;

			off = next;
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 || nh.n_descsz < 2 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4))
				continue;
			at = (size_t)snprintf(path, len, "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (i = 1; i < nh.n_descsz && at + 3 < len; i++, at += 2)
				snprintf(path + at, len - at, "%02x", id[i]);
			snprintf(path + at, len - at, ".debug");
			return access(path, R_OK);
		}
	}
	return -1;
}

/* The vDSO is in no file: ktop's own copy is the same kernel's image. */
static Elf *vdso_elf(char **image)
{
	unsigned long long start = 0, end = 0;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");

	*image = NULL;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			break;
	fclose(f);
	if (end <= start || !(*image = malloc(end - start)))
		return NULL;
	memcpy(*image, (const void *)(uintptr_t)start, end - start);
	return elf_memory(*image, end - start);
}

static void dso_read(struct kt_symbolizer *sym, struct dso *d, Elf *elf)
{
	char err[256], path[PATH_MAX];
	struct kt_elf dbg;

	if (read_segments(d, elf) < 0 || elfsyms_each_function(elf, add_function, d) < 0)
		return;
	/* stripped: .dynsym has the exported functions only; the debug file has them all */
	if (!has_section(elf, SHT_SYMTAB) && debug_file(elf, path, sizeof(path)) == 0 &&
	    elfsyms_open(path, &dbg, err, sizeof(err)) == 0) {
		elfsyms_each_function(dbg.elf, add_function, d);
		elfsyms_close(&dbg);
	}
	symtab_sort(&d->syms);
	d->usable = true;
	sym->ndsos_loaded++;
}

/* Reads d's segments and symbols once, from the file map m of pid maps, opened as pid sees
 * it (procmaps.h); the path here only when pid is gone, and then a regular file only. A
 * file that cannot be read stays unusable (its frames are "[base+0xOFF]"). */
static void dso_load(struct kt_symbolizer *sym, struct dso *d, int pid, const struct map *m)
{
	struct kt_procmap pm = { .start = m->start, .end = m->end, .path = d->path };
	char err[256], *image = NULL;
	struct kt_elf ef;
	Elf *elf;
	int fd;

	if (d->loaded)
		return;
	d->loaded = true;
	if (!strcmp(d->path, "[vdso]")) {
		if (elf_version(EV_CURRENT) != EV_NONE && (elf = vdso_elf(&image))) {
			dso_read(sym, d, elf);
			elf_end(elf);
		}
		free(image);
		return;
	}
	if (d->path[0] != '/')
		return; /* [heap], [stack] and the like: nothing on disk */
	fd = procmaps_open(pid, &pm);
	if (fd < 0)
		fd = procmaps_open_regular(d->path);
	if (fd < 0 || elfsyms_open_fd(fd, d->path, &ef, err, sizeof(err)) < 0)
		return;
	dso_read(sym, d, ef.elf);
	elfsyms_close(&ef);
}

/* The name of file offset off of d, or NULL. */
static const char *dso_find(const struct dso *d, uint64_t off)
{
	size_t i;

	for (i = 0; i < d->nsegs; i++) {
		const struct segment *s = &d->segs[i];

		if (off >= s->off && off < s->off + s->filesz)
			return symtab_find(&d->syms, off - s->off + s->vaddr);
	}
	return NULL;
}

static void dso_free(struct dso *d)
{
	symtab_free(&d->syms);
	free(d->segs);
	free(d->path);
	free(d);
}

/* --- processes --- */

static struct proc *proc_get(struct kt_symbolizer *sym, int pid, bool create)
{
	struct proc **head = &sym->procs[(unsigned)pid % PID_BUCKETS], *p;

	for (p = *head; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!create || !(p = calloc(1, sizeof(*p))))
		return NULL;
	p->pid = pid;
	p->jit_size = -1;
	p->next = *head;
	*head = p;
	return p;
}

static void proc_free(struct proc *p)
{
	free(p->maps);
	symtab_free(&p->jit);
	free(p);
}

static void proc_clear(struct proc *p)
{
	p->exited = p->exit_seq = 0; /* a reused pid, or an exec */
	p->n = 0;
	p->read_pass = 0;
	symtab_free(&p->jit);
	p->jit_size = -1;
}

/* Index of the first mapping ending after addr. */
static size_t map_after(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int maps_reserve(struct proc *p, size_t more)
{
	if (p->n + more > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct map *v;

		while (cap < p->n + more)
			cap *= 2;
		v = realloc(p->maps, cap * sizeof(*v));
		if (!v)
			return -1;
		p->maps = v;
		p->cap = cap;
	}
	return 0;
}

/* Adds m. What it overlaps is cut away (a new mmap replaces the old pages); with keep_old,
 * m is dropped instead when it overlaps anything. */
static void map_insert(struct proc *p, struct map m, bool keep_old)
{
	size_t i = map_after(p, m.start), j;

	if (m.end <= m.start || maps_reserve(p, 2) < 0)
		return;
	if (keep_old && i < p->n && p->maps[i].start < m.end)
		return;
	if (!keep_old && i < p->n && p->maps[i].start < m.start) {
		/* it begins before m: its tail goes, and what lies past m stays on its own */
		if (p->maps[i].end > m.end) {
			struct map tail = p->maps[i];

			tail.pgoff += m.end - tail.start;
			tail.start = m.end;
			memmove(&p->maps[i + 2], &p->maps[i + 1], (p->n - i - 1) * sizeof(m));
			p->maps[i + 1] = tail;
			p->n++;
		}
		p->maps[i++].end = m.start;
	}
	for (j = i; !keep_old && j < p->n && p->maps[j].end <= m.end; j++)
		; /* [i, j) lie inside m */
	if (!keep_old && j < p->n && p->maps[j].start < m.end) {
		p->maps[j].pgoff += m.end - p->maps[j].start; /* its head goes */
		p->maps[j].start = m.end;
	}
	memmove(&p->maps[i + 1], &p->maps[j], (p->n - j) * sizeof(m));
	p->maps[i] = m;
	p->n = p->n - (j - i) + 1;
}

static void add_map(struct kt_symbolizer *sym, struct proc *p, uint64_t start, uint64_t end,
		    uint64_t pgoff, const char *path, bool keep_old)
{
	struct map m = { start, end, pgoff, NULL };

	/* anonymous memory: "", "//anon", "[anon:...]" as perf and /proc spell it */
	if (*path && strcmp(path, "//anon") && strncmp(path, "[anon", 5)) {
		m.dso = dso_get(sym, path);
		if (!m.dso)
			return;
	}
	map_insert(p, m, keep_old);
}

void symbolizer_mmap(struct kt_symbolizer *sym, int pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path)
{
	struct proc *p = proc_get(sym, pid, true);

	if (!p)
		return;
	p->tracked = true;
	add_map(sym, p, start, start + len, pgoff, path, false);
}

struct maps_read {
	struct kt_symbolizer *sym;
	struct proc *p;
};

static int add_proc_map(const struct kt_procmap *m, void *ctx)
{
	struct maps_read *r = ctx;

	if (m->exec)
		add_map(r->sym, r->p, m->start, m->end, m->off, m->path, true);
	return 0;
}

/* Merges the executable mappings of /proc/PID/maps into what the side band gave (which
 * wins: it may be newer than what /proc shows). Without a side band, /proc is all there is:
 * what it says now replaces what it said before (an exec since, a library loaded). A
 * process gone leaves the side band's. */
static void read_proc_maps(struct kt_symbolizer *sym, struct proc *p)
{
	struct maps_read r = { sym, p };
	size_t n = p->n;

	p->read_pass = sym->pass;
	if (!p->tracked)
		p->n = 0;
	if (procmaps_each(p->pid, add_proc_map, &r) < 0 && !p->tracked)
		p->n = n;
}

void symbolizer_fork(struct kt_symbolizer *sym, int parent_pid, int pid)
{
	struct proc *parent = proc_get(sym, parent_pid, true), *child;

	if (!parent || parent_pid == pid || !(child = proc_get(sym, pid, true)))
		return;
	if (!parent->read_pass)
		read_proc_maps(sym, parent);
	proc_clear(child);
	child->tracked = true;
	/* a parent without maps (a kernel thread's fork) has none to give */
	if (!parent->n || maps_reserve(child, parent->n) < 0)
		return;
	memcpy(child->maps, parent->maps, parent->n * sizeof(*parent->maps));
	child->n = parent->n;
}

void symbolizer_preload(struct kt_symbolizer *sym, int pid)
{
	struct proc *p = proc_get(sym, pid, true);

	if (p && !p->read_pass)
		read_proc_maps(sym, p);
}

void symbolizer_exit(struct kt_symbolizer *sym, int pid)
{
	struct proc *p = proc_get(sym, pid, false);

	if (p) {
		p->exited = sym->reaps + 2;
		p->exit_seq = ++sym->exits;
	}
}

void symbolizer_forget_exited(struct kt_symbolizer *sym, size_t keep)
{
	size_t i;

	if (sym->exits <= keep)
		return;
	for (i = 0; i < PID_BUCKETS; i++) {
		struct proc **at = &sym->procs[i];

		while (*at) {
			struct proc *p = *at;

			if (p->exit_seq && p->exit_seq <= sym->exits - keep) {
				*at = p->next;
				proc_free(p);
			} else {
				at = &p->next;
			}
		}
	}
}

void symbolizer_preload_all(struct kt_symbolizer *sym)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			symbolizer_preload(sym, atoi(de->d_name));
	closedir(d);
}

bool symbolizer_remaps(const struct perf_event_header *h)
{
	uint32_t ids[2];

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return true;
	case PERF_RECORD_COMM:
		return h->misc & PERF_RECORD_MISC_COMM_EXEC;
	case PERF_RECORD_FORK:
		/* a new process (pid != ppid), not a thread */
		if (h->size < sizeof(*h) + 16)
			return false;
		memcpy(ids, h + 1, 8);
		return ids[0] != ids[1];
	default:
		return false;
	}
}

void symbolizer_record(struct kt_symbolizer *sym, const struct perf_event_header *h)
{
	const char *b = (const char *)(h + 1);
	uint32_t ids[4];
	uint64_t v[3];

	switch (h->type) {
	case PERF_RECORD_MMAP:	/* pid, tid, addr, len, pgoff, filename */
	case PERF_RECORD_MMAP2: /* pid, tid, addr, len, pgoff, maj, min, ino, ino_gen, prot,
				 * flags, filename */
		if (h->size < sizeof(*h) + (h->type == PERF_RECORD_MMAP ? 32 : 64))
			return;
		memcpy(ids, b, 8);
		memcpy(v, b + 8, 24);
		symbolizer_mmap(sym, (int)ids[0], v[0], v[1], v[2],
				b + (h->type == PERF_RECORD_MMAP ? 32 : 64));
		return;
	case PERF_RECORD_COMM:
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC && h->size >= sizeof(*h) + 8) {
			memcpy(ids, b, 8);
			symbolizer_exec(sym, (int)ids[0]);
		}
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (h->size < sizeof(*h) + 16)
			return;
		memcpy(ids, b, 16); /* pid, ppid, tid, ptid */
		if (h->type == PERF_RECORD_FORK && ids[0] != ids[1])
			symbolizer_fork(sym, (int)ids[1], (int)ids[0]);
		/* a process's end: its main thread's */
		else if (h->type == PERF_RECORD_EXIT && ids[0] == ids[2])
			symbolizer_exit(sym, (int)ids[0]);
		return;
	default:
		return;
	}
}

void symbolizer_next_pass(struct kt_symbolizer *sym)
{
	sym->pass++;
}

void symbolizer_reap(struct kt_symbolizer *sym)
{
	size_t i;

	symbolizer_next_pass(sym);
	sym->reaps++;
	for (i = 0; i < PID_BUCKETS; i++) {
		struct proc **at = &sym->procs[i];

		while (*at) {
			struct proc *p = *at;

			if (p->exited && p->exited <= sym->reaps) {
				*at = p->next;
				proc_free(p);
			} else {
				at = &p->next;
			}
		}
	}
}

void symbolizer_exec(struct kt_symbolizer *sym, int pid)
{
	struct proc *p = proc_get(sym, pid, false);

	if (p)
		proc_clear(p);
}

/* /tmp/perf-PID.map ("START SIZE name", hex), read again when it grew. Any user may make
 * that name in /tmp: as perf, only a regular file of the process's owner is read (or of
 * root, or of ktop's user). */
static void read_jit_map(struct proc *p)
{
	char path[64], line[1024];
	struct stat st, owner;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", p->pid);
	if (stat(path, &st) < 0 || st.st_size == p->jit_size)
		return;
	snprintf(line, sizeof(line), "/proc/%d", p->pid);
	if (st.st_uid != 0 && st.st_uid != geteuid() &&
	    (stat(line, &owner) < 0 || st.st_uid != owner.st_uid))
		return;
	fd = procmaps_open_regular(path);
	f = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	symtab_free(&p->jit);
	p->jit_size = st.st_size;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, size;
		int at = 0;

		if (sscanf(line, "%llx %llx %n", &start, &size, &at) < 2 || !at)
			continue;
		if (symtab_add(&p->jit, start, size ? size : 1, STB_GLOBAL, line + at,
			       strcspn(line + at, "\n")) < 0)
			break;
	}
	fclose(f);
	symtab_sort(&p->jit);
}

static const struct map *find_map(const struct proc *p, uint64_t addr)
{
	size_t i = map_after(p, addr);

	return i < p->n && p->maps[i].start <= addr ? &p->maps[i] : NULL;
}

/* Another machine's frame: by the name given for it, else its address. */
static void user_given(struct kt_symbolizer *sym, int pid, uint64_t addr, struct kt_frame *f,
		       char *buf, size_t len)
{
	char name[256];
	uint8_t kind;

	if (!sym->given(sym->given_ctx, pid, addr, &kind, name, sizeof(name))) {
		unresolved(sym, f, buf, len, NULL, addr);
	} else if (kind == KT_FRAME_UNRESOLVED) { /* "[libfoo.so+0x1234]" */
		unresolved(sym, f, buf, len, NULL, addr);
		snprintf(buf, len, "%s", name);
	} else {
		named(sym, f, buf, len, name, (enum kt_frame_kind)kind);
	}
}

void symbolizer_user(struct kt_symbolizer *sym, int pid, uint64_t addr, struct kt_frame *f,
		     char *buf, size_t len)
{
	struct proc *p;
	const struct map *m;
	const char *name;
	uint64_t off;

	if (sym->given) {
		user_given(sym, pid, addr, f, buf, len);
		return;
	}
	p = proc_get(sym, pid, true);
	if (!p) {
		unresolved(sym, f, buf, len, NULL, addr);
		return;
	}
	m = find_map(p, addr);
	/* once a pass: /proc may have been read while the process was still loading its
	 * libraries (an exec's first moments), or before a dlopen */
	if (!m && p->read_pass != sym->pass) {
		read_proc_maps(sym, p);
		m = find_map(p, addr);
	}
	if (m && m->dso) {
		off = addr - m->start + m->pgoff;
		dso_load(sym, m->dso, pid, m);
		name = dso_find(m->dso, off);
		if (name)
			named(sym, f, buf, len, name, KT_FRAME_USER);
		else
			unresolved(sym, f, buf, len, m->dso->base, off);
		return;
	}
	/* anonymous or unmapped: a JIT's code, if it says so */
	read_jit_map(p);
	name = symtab_find(&p->jit, addr);
	if (name)
		named(sym, f, buf, len, name, KT_FRAME_JIT);
	else
		unresolved(sym, f, buf, len, NULL, addr);
}

void symbolizer_stats(const struct kt_symbolizer *sym, struct kt_symstats *out)
{
	out->resolved = sym->resolved;
	out->unresolved = sym->unresolved;
	out->files = sym->ndsos_loaded;
}

void symbolizer_free(struct kt_symbolizer *sym)
{
	size_t i;

	if (!sym)
		return;
	for (i = 0; i < PID_BUCKETS; i++) {
		while (sym->procs[i]) {
			struct proc *p = sym->procs[i];

			sym->procs[i] = p->next;
			proc_free(p);
		}
	}
	for (i = 0; i < DSO_BUCKETS; i++) {
		while (sym->dsos[i]) {
			struct dso *d = sym->dsos[i];

			sym->dsos[i] = d->next;
			dso_free(d);
		}
	}
	symtab_free(&sym->kernel);
	free(sym);
}
