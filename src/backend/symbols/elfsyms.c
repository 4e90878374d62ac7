// SPDX-License-Identifier: GPL-2.0-or-later
/* ELF function symbols with libelf. A symbol's st_value is a virtual address (relative to
 * the load base in PIE executables and shared libraries alike); uprobe_events wants a file
 * offset, which the PT_LOAD segment holding the address gives:
 * offset = value - p_vaddr + p_offset. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsyms.h"
#include "symlist.h"

static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
	"/usr/local/lib", NULL,
};

static int canonical(const char *in, char *path, size_t pathlen, char *err, size_t errlen)
{
	char buf[PATH_MAX];

	if (!realpath(in, buf)) {
		snprintf(err, errlen, "no such file: %s (%s)", in, strerror(errno));
		return -1;
	}
	if (strlen(buf) >= pathlen) {
		snprintf(err, errlen, "path too long: %s", buf);
		return -1;
	}
	strcpy(path, buf);
	return 0;
}

int elfsyms_resolve_path(const char *name, char *path, size_t pathlen, char *err,
			 size_t errlen)
{
	char buf[PATH_MAX], *dirs, *dir, *save = NULL;
	const char *env = getenv("PATH");
	int i;

	if (!name || !*name) {
		snprintf(err, errlen, "no binary given (PATH:FUNC, e.g. /usr/bin/bash:readline)");
		return -1;
	}
	if (strchr(name, '/'))
		return canonical(name, path, pathlen, err, errlen);
	dirs = strdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	for (dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, name);
		if (access(buf, X_OK) == 0) {
			free(dirs);
			return canonical(buf, path, pathlen, err, errlen);
		}
	}
	free(dirs);
	for (i = 0; lib_dirs[i]; i++) {
		snprintf(buf, sizeof(buf), "%s/%s", lib_dirs[i], name);
		if (access(buf, R_OK) == 0)
			return canonical(buf, path, pathlen, err, errlen);
	}
	snprintf(err, errlen, "no such file: %s (not in $PATH nor a library directory; give "
		 "the full path)", name);
	return -1;
}

/* The largest binary read: a debug file of a browser is about 2 GiB. */
#define ELFSYMS_SIZE_MAX (4ull << 30)

/* Opens path, a name that may come from another machine's viewer, only when it is a regular
 * file within the bound: a FIFO would hang the open, and opening a device may act (a
 * watchdog arms). It is looked at through an O_PATH descriptor, which opens nothing, and
 * the file that descriptor holds is the one opened: nothing is swapped in between. A
 * symbolic link is followed (libraries are named by theirs). Returns the fd, or -1 with
 * err. */
static int open_regular(const char *path, char *err, size_t errlen)
{
	char self[64];
	struct stat st;
	int pfd, fd = -1;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file (uprobes need a binary or a shared "
			 "library)", path);
	} else if ((unsigned long long)st.st_size > ELFSYMS_SIZE_MAX) {
		snprintf(err, errlen, "%s is %lld bytes, past the %llu GiB ktop reads as a binary",
			 path, (long long)st.st_size, ELFSYMS_SIZE_MAX >> 30);
	} else {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
	}
	if (pfd >= 0)
		close(pfd);
	return fd;
}

int elfsyms_open(const char *path, struct kt_elf *ef, char *err, size_t errlen)
{
	int fd = open_regular(path, err, errlen);

	if (fd < 0) {
		ef->elf = NULL;
		return -1;
	}
	return elfsyms_open_fd(fd, path, ef, err, errlen);
}

int elfsyms_open_fd(int fd, const char *path, struct kt_elf *ef, char *err, size_t errlen)
{
	ef->elf = NULL;
	ef->fd = fd;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		close(fd);
		return -1;
	}
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF file (uprobes need a binary or a shared "
			 "library)", path);
		if (ef->elf)
			elf_end(ef->elf);
		close(ef->fd);
		ef->elf = NULL;
		return -1;
	}
	return 0;
}

void elfsyms_close(struct kt_elf *ef)
{
	if (!ef->elf)
		return;
	elf_end(ef->elf);
	close(ef->fd);
	ef->elf = NULL;
}

static bool is_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_value != 0 &&
	       sym->st_shndx != SHN_UNDEF;
}

static bool is_defined(const GElf_Sym *sym)
{
	return sym->st_value != 0 && sym->st_shndx != SHN_UNDEF;
}

/* Calls fn for each defined symbol of .symtab and .dynsym that keep() takes, the name
 * without a version suffix; stops when fn returns non-zero and returns that. */
static int for_each_symbol(Elf *elf, bool (*keep)(const GElf_Sym *sym),
			   int (*fn)(const char *name, size_t len, const GElf_Sym *sym, void *ctx),
			   void *ctx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data;
	GElf_Sym sym;
	const char *name;
	size_t i, n;
	int ret;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			if (!gelf_getsym(data, (int)i, &sym) || !keep(&sym))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			ret = fn(name, strcspn(name, "@"), &sym, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int elfsyms_each_function(Elf *elf,
			  int (*fn)(const char *name, size_t len, const GElf_Sym *sym, void *ctx),
			  void *ctx)
{
	return for_each_symbol(elf, is_function, fn, ctx);
}

static int add_name(const char *name, size_t len, const GElf_Sym *sym, void *ctx)
{
	(void)sym;
	return symlist_add_len(ctx, name, len) < 0 ? -1 : 0;
}

struct kt_symlist *elfsyms_functions(const char *path, char *err, size_t errlen)
{
	struct kt_elf ef;
	struct kt_symlist *l;

	if (elfsyms_open(path, &ef, err, errlen) < 0)
		return NULL;
	l = symlist_new();
	if (!l || for_each_symbol(ef.elf, is_function, add_name, l) < 0) {
		snprintf(err, errlen, "out of memory");
		symlist_free(l);
		elfsyms_close(&ef);
		return NULL;
	}
	elfsyms_close(&ef);
	symlist_finish(l);
	return l;
}

struct find_ctx {
	const char *func;
	GElf_Sym sym;
	bool found;
};

static int find_one(const char *name, size_t len, const GElf_Sym *sym, void *p)
{
	struct find_ctx *c = p;

	if (strlen(c->func) != len || strncmp(name, c->func, len))
		return 0;
	/* a global definition wins over a local one of the same name */
	if (!c->found || GELF_ST_BIND(sym->st_info) != STB_LOCAL) {
		c->sym = *sym;
		c->found = true;
	}
	return GELF_ST_BIND(sym->st_info) == STB_LOCAL ? 0 : 1;
}

int elfsyms_vaddr_offset(Elf *elf, uint64_t addr, uint64_t *off)
{
	GElf_Phdr ph;
	size_t i, n;

	if (elf_getphdrnum(elf, &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

int elfsyms_lookup(const char *path, const char *func, uint64_t off, uint64_t *file_offset,
		   char *err, size_t errlen)
{
	struct find_ctx c = { .func = func };
	struct kt_elf ef;
	int ret = -1;

	if (elfsyms_open(path, &ef, err, errlen) < 0)
		return -1;
	for_each_symbol(ef.elf, is_function, find_one, &c);
	if (!c.found) {
		snprintf(err, errlen, "no function '%s' in %s (neither .symtab nor .dynsym has it; "
			 "the probe editor lists the ones there are)", func, path);
	} else if (c.sym.st_size && off >= c.sym.st_size) {
		snprintf(err, errlen, "offset +%" PRIu64 " is past the end of %s (%" PRIu64
			 " bytes)", off, func, (uint64_t)c.sym.st_size);
	} else if (elfsyms_vaddr_offset(ef.elf, c.sym.st_value + off, file_offset) < 0) {
		snprintf(err, errlen, "%s in %s is at 0x%" PRIx64 ", in no loadable segment", func,
			 path, (uint64_t)c.sym.st_value);
	} else {
		ret = 0;
	}
	elfsyms_close(&ef);
	return ret;
}

int elfsyms_address(Elf *elf, const char *name, uint64_t *addr)
{
	struct find_ctx c = { .func = name };

	for_each_symbol(elf, is_defined, find_one, &c);
	if (!c.found)
		return -1;
	*addr = c.sym.st_value;
	return 0;
}
