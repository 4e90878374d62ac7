/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktop's BPF objects by name, without a skeleton type per object: each src/probes/NAME.bpf.c
 * is built into the binary (src/probes/objects.h, generated from the list of programs), and
 * opened here by NAME. Its tunables are .rodata variables set by name through the object's
 * BTF, its programs found by name, so the loaders (bpfhist.c, offcpu.c) need no code per
 * object.
 */
#ifndef KTOP_BACKEND_BPFOBJ_H
#define KTOP_BACKEND_BPFOBJ_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_object;
struct bpf_program;

/* Opens (does not load) the built-in object NAME ("syslat"). The tests alone set
 * KTOP_TEST_BPF_OBJECT=NAME:FILE (tests/live/bpf_verifier.sh): FILE, an object with the same
 * programs and .rodata, is then opened in its place, so that a program the verifier refuses
 * goes through the real loader. NULL with errno set. */
struct bpf_object *bpfobj_open(const char *name);
/* Sets the .rodata variable name (before load) to an integer, in the variable's own width
 * (1, 2, 4 or 8 bytes). Returns 0, or -1 with "the BPF object NAME has no ..." in err. */
int bpfobj_set_int(struct bpf_object *obj, const char *name, unsigned long long v, char *err,
		   size_t errlen);
/* Sets the .rodata variable name to len bytes (a struct of src/probes/hist.h). */
int bpfobj_set_bytes(struct bpf_object *obj, const char *name, const void *v, size_t len,
		     char *err, size_t errlen);
/* Reads the loaded object's .bss integer name, in its width. Returns 0, or -1. */
int bpfobj_read_bss(struct bpf_object *obj, const char *name, unsigned long long *v);
/* Only the programs named in want (NULL-terminated) load. */
void bpfobj_autoload_only(struct bpf_object *obj, const char *const *want);
/* The program name, or NULL. */
struct bpf_program *bpfobj_program(struct bpf_object *obj, const char *name);

/* libbpf's messages always go to the log (-v); from bpfobj_log_capture() until
 * bpfobj_log_release() or bpfobj_failure_reason() they are also kept, to say why a load or an
 * attach failed. One load at a time (not thread-safe). */
void bpfobj_log_capture(void);
void bpfobj_log_release(void);
/* Ends the capture, and says in one line why it failed: the verifier's last two lines when
 * it spoke, else libbpf's last telling complaint, else strerror(err); a kernel without BTF
 * named with the way out. */
void bpfobj_failure_reason(int err, char *out, size_t len);
/* Runs of obj's loaded programs the kernel skipped (recursion, or a BPF map syscall holding
 * the CPU), summed over them. */
unsigned long long bpfobj_recursion_misses(struct bpf_object *obj);

#endif
