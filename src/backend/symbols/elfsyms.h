/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function symbols of user-space binaries and shared libraries, read with libelf, for
 * uprobes: the list for the probe editor's completion, and a function's file offset, which
 * is what uprobe_events takes. Both .symtab and .dynsym are read (a stripped binary keeps
 * only .dynsym); executables, PIE and shared libraries alike (the offset comes from the
 * PT_LOAD segment that holds the symbol, not from assuming a base address). */
#ifndef KTOP_ELFSYMS_H
#define KTOP_ELFSYMS_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

struct kt_symlist;

/* Resolves what the user typed into an absolute, canonical path: a name without '/' is
 * looked up in $PATH, then as a shared library name in the usual library directories
 * ("libc.so.6"). Returns 0, or -1 with err ("no such file: /usr/bin/bashh"). */
int elfsyms_resolve_path(const char *name, char *path, size_t pathlen, char *err,
			 size_t errlen);

/* The defined function symbols (STT_FUNC/STT_GNU_IFUNC, non-zero address) of an ELF file,
 * versions stripped ("malloc", not "malloc@@GLIBC_2.2.5"). NULL with err ("/etc/passwd is
 * not an ELF file"). Free with symlist_free(). */
struct kt_symlist *elfsyms_functions(const char *path, char *err, size_t errlen);

/* The file offset of function func (plus off bytes) in path, for uprobe_events. Returns 0,
 * or -1 with err ("no function 'readlin' in /usr/bin/bash"). */
int elfsyms_lookup(const char *path, const char *func, uint64_t off, uint64_t *file_offset,
		   char *err, size_t errlen);

/* An ELF file open for reading (elfsyms_open), for the readers of other parts of it
 * (usdt.c's notes). */
struct kt_elf {
	int fd;
	Elf *elf;
};

/* Opens path, a regular file only (a FIFO or a device is refused, never opened). Returns
 * 0, or -1 with err ("/etc/passwd is not an ELF file ..."). */
int elfsyms_open(const char *path, struct kt_elf *ef, char *err, size_t errlen);
/* The same on fd, opened already (procmaps_open()), which ef then owns, as on a failure it is
 * closed; path names it in err. */
int elfsyms_open_fd(int fd, const char *path, struct kt_elf *ef, char *err, size_t errlen);
void elfsyms_close(struct kt_elf *ef);
/* The file offset of virtual address addr, from the PT_LOAD segment holding it. Returns 0,
 * or -1 when no segment has it in the file. */
int elfsyms_vaddr_offset(Elf *elf, uint64_t addr, uint64_t *off);
/* Calls fn for each defined function symbol (STT_FUNC, STT_GNU_IFUNC) of .symtab and
 * .dynsym, len the name's length without its version suffix ("malloc@@GLIBC_2.2.5": 6);
 * stops when fn returns non-zero and returns that, else 0. */
int elfsyms_each_function(Elf *elf,
			  int (*fn)(const char *name, size_t len, const GElf_Sym *sym, void *ctx),
			  void *ctx);
/* The address of the defined symbol name (any type; a global one wins). Returns 0, or -1. */
int elfsyms_address(Elf *elf, const char *name, uint64_t *addr);

#endif
