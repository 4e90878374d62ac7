# BPF programs: each src/probes/<p>.bpf.c named in BPF_PROGS becomes a CO-RE object and a
# skeleton header in the build tree (never in git); src/probes/objects.h puts their bytes
# in a table by name, which src/backend/bpf/bpfobj.c opens (src/backend/bpf/histkind.c's rows name
# them). A new program: its .bpf.c and its name here. --disable-bpf leaves all of it out
# (src/backend/local.mk builds the stubs instead).
BPF_PROGS = syslat tphist funclat schedlat blockio rwsize usdthist lockcont tcpconn
# Off-CPU stacks (src/backend/bpf/offcpu.c): the typed variants, and the plain tracepoint one
# apart, since it must load where the kernel's BTF cannot be read.
BPF_PROGS += offcpustack offcpustack_tp
# The overview's per-thread counters (src/backend/overview/overview.c).
BPF_PROGS += overview
# The flight recorder's armed conditions (src/backend/bpf/armbpf.c); atomics need v3.
BPF_PROGS += arm
BPF_SRC = $(BPF_PROGS:%=src/probes/%.bpf.c)
BPF_HDRS = src/probes/hist.h src/probes/hist_common.bpf.h src/probes/vmlinux/vmlinux.h \
	src/probes/vmlinux/linux/errno.h src/probes/offcpu.h src/probes/offcpustack.bpf.h \
	src/probes/overview.h src/probes/arm.h src/probes/rqdev.bpf.h
BPF_SKELS = $(BPF_PROGS:%=src/probes/%.skel.h)
EXTRA_DIST += $(BPF_SRC) $(BPF_HDRS) src/probes/README.md

if ENABLE_BPF
# -g: the BTF that CO-RE needs comes from the debug info; llvm-strip -g then drops DWARF.
BPF_CFLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
	-I$(srcdir)/src/probes/vmlinux -I$(srcdir)/src/probes

src/probes/%.bpf.o: src/probes/%.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) src/probes && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
# compare-and-swap (fires' slots) is a v3 instruction
src/probes/arm.bpf.o: BPF_CFLAGS += -mcpu=v3
# temp file and rename: a failed bpftool never leaves a truncated header behind
src/probes/%.skel.h: src/probes/%.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name ktop_$* > $@.tmp && mv -f $@.tmp $@
# every object's bytes by name (bpfobj.c)
src/probes/objects.h: $(BPF_SKELS) Makefile
	$(AM_V_GEN){ echo '#include "src/probes/hist.h" /* the types of their .rodata */'; \
	echo '#include "src/probes/arm.h"'; \
	for p in $(BPF_PROGS); do echo "#include \"src/probes/$$p.skel.h\""; done; \
	echo 'static const struct { const char *name; const void *(*elf)(size_t *sz); }'; \
	echo 'bpf_builtin_objects[] = {'; \
	for p in $(BPF_PROGS); do echo "	{ \"$$p\", ktop_$${p}__elf_bytes },"; done; \
	echo '};'; } > $@.tmp && mv -f $@.tmp $@

BUILT_SOURCES += $(BPF_SKELS) src/probes/objects.h
nodist_src_libktop_a_SOURCES += src/probes/objects.h
endif
CLEANFILES += $(BPF_SKELS) src/probes/objects.h src/probes/*.bpf.o src/probes/*.tmp
