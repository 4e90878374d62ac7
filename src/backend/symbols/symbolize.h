/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names for the addresses in sampled and blocked stacks. Kernel addresses through
 * /proc/kallsyms, modules included ("nfs_lookup [nfs]"). User addresses through the
 * process's mappings and the ELF symbol tables of the files mapped (libelf, .symtab and
 * .dynsym, and a stripped file's /usr/lib/debug/.build-id debug file), cached per file;
 * the vDSO from ktop's own copy; a JIT's /tmp/perf-PID.map when present. Of aliases at one
 * address, the name perf shows. Mappings come from perf's side band (mmap records) as they
 * happen and from /proc/PID/maps for processes that were there before; a process that
 * exited keeps its mappings here, so its frames are still named after it is gone (until a
 * reader that asks reaps it: symbolizer_reap). An address nothing names is still a frame:
 * its name is the address ("0x7f12345678") or "[file+0xOFF]" when the mapping is known, and
 * its kind KT_FRAME_UNRESOLVED, and it is counted.
 */
#ifndef KTOP_SYMBOLIZE_H
#define KTOP_SYMBOLIZE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/stacks/stacks.h"

struct kt_symbolizer;

/* NULL with err when kallsyms cannot be read at all (addresses hidden by kptr_restrict are
 * not an error: those frames stay unresolved, and symbolizer_kernel_hidden says so). */
struct kt_symbolizer *symbolizer_new(char *err, size_t errlen);
void symbolizer_free(struct kt_symbolizer *sym);
/* The name given for pid's user frame at addr into buf and its kind (enum kt_frame_kind);
 * false when none is known. */
typedef bool kt_symbolizer_given_fn(void *ctx, int pid, uint64_t addr, uint8_t *kind,
				    char *buf, size_t len);
/* Another machine's symbolizer, as a viewer keeps it for a remote agent: it reads nothing
 * here (no kallsyms, no /proc) and names a user frame by what given(ctx, ...) says (ctx
 * borrowed: usernames_symbolizer makes this over its names), else by its address. A callback
 * rather than usernames.h, so the names' store may use the symbolizer and not the reverse. */
struct kt_symbolizer *symbolizer_new_given(kt_symbolizer_given_fn *given, void *ctx);

/* The side band, in the order the kernel reported it. */
void symbolizer_mmap(struct kt_symbolizer *sym, int pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path);
void symbolizer_fork(struct kt_symbolizer *sym, int parent_pid, int pid);
void symbolizer_exec(struct kt_symbolizer *sym, int pid);
/* A long-running reader forgets the processes that exited: symbolizer_exit marks pid (its
 * EXIT record), and the second symbolizer_reap after it frees its mappings, so the samples
 * drained together with the exit are still named. A reader that names stacks long after
 * they were taken (off-CPU stacks read from a BPF map) may call neither. */
void symbolizer_exit(struct kt_symbolizer *sym, int pid);
/* symbolizer_next_pass, then the reap. */
void symbolizer_reap(struct kt_symbolizer *sym);
/* A new pass of naming: an address no mapping holds reads /proc/PID/maps again, once per
 * pass, as a reader without a side band must (it may have read it in the middle of an exec,
 * before the libraries were mapped). */
void symbolizer_next_pass(struct kt_symbolizer *sym);
/* A reader that names stacks whenever it is asked (event stacks, named when a row is shown)
 * bounds its memory by count instead: the mappings of processes that exited are freed but
 * those of the keep that exited last. */
void symbolizer_forget_exited(struct kt_symbolizer *sym, size_t keep);
/* One side-band record of perf (sample_id_all's trailer ignored): MMAP and MMAP2 to
 * symbolizer_mmap, COMM of an exec to symbolizer_exec, FORK of a process to
 * symbolizer_fork, EXIT of a process to symbolizer_exit; other records are ignored. */
void symbolizer_record(struct kt_symbolizer *sym, const struct perf_event_header *h);
/* Whether that record changes what an address of some process means (so stacks taken
 * before it are named first). */
bool symbolizer_remaps(const struct perf_event_header *h);
/* Reads /proc/PID/maps now, as perf synthesizes the mappings of the processes already
 * running when it starts: one that exits before its frames are named is still named. */
void symbolizer_preload(struct kt_symbolizer *sym, int pid);
/* symbolizer_preload of every process running now. */
void symbolizer_preload_all(struct kt_symbolizer *sym);

/* Names addr. The name is written to buf (always NUL-terminated) and f points at it. */
void symbolizer_kernel(struct kt_symbolizer *sym, uint64_t addr, struct kt_frame *f, char *buf,
		       size_t len);
void symbolizer_user(struct kt_symbolizer *sym, int pid, uint64_t addr, struct kt_frame *f,
		     char *buf, size_t len);

/* Whether kallsyms showed only zero addresses (kptr_restrict), for the pane's note. */
int symbolizer_kernel_hidden(const struct kt_symbolizer *sym);

struct kt_symstats {
	uint64_t resolved, unresolved; /* frames */
	size_t files;		       /* ELF files whose symbols are cached */
};
void symbolizer_stats(const struct kt_symbolizer *sym, struct kt_symstats *out);

#endif
