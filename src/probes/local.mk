# BPF histograms: each src/probes/<p>.bpf.c named in BPF_PROGS becomes a CO-RE object and
# a skeleton header in the build tree (never in git); src/probes/objects.h puts their bytes
# in a table by name, which src/backend/bpfobj.c opens (src/backend/histkind.c's rows name
# them). A new program: its .bpf.c and its name here. --disable-bpf leaves all of it out and
# builds the stub instead.
BPF_PROGS = syslat tphist funclat schedlat blockio rwsize usdthist lockcont tcpconn
# Off-CPU stacks (src/backend/offcpu.c): the typed variants, and the plain tracepoint one
# apart, since it must load where the kernel's BTF cannot be read.
BPF_PROGS += offcpustack offcpustack_tp
BPF_SRC = $(BPF_PROGS:%=src/probes/%.bpf.c)
BPF_HDRS = src/probes/hist.h src/probes/hist_common.bpf.h src/probes/vmlinux/vmlinux.h \
	src/probes/vmlinux/linux/errno.h src/probes/offcpu.h src/probes/offcpustack.bpf.h
BPF_SKELS = $(BPF_PROGS:%=src/probes/%.skel.h)
BUILT_SOURCES =
nodist_src_libktop_a_SOURCES =
EXTRA_DIST += $(BPF_SRC) $(BPF_HDRS) src/probes/README.md

if ENABLE_BPF
# -g: the BTF that CO-RE needs comes from the debug info; llvm-strip -g then drops DWARF.
BPF_CFLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
	-I$(srcdir)/src/probes/vmlinux -I$(srcdir)/src/probes

src/probes/%.bpf.o: src/probes/%.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) src/probes && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
# temp file and rename: a failed bpftool never leaves a truncated header behind
src/probes/%.skel.h: src/probes/%.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name ktop_$* > $@.tmp && mv -f $@.tmp $@
# every object's bytes by name (bpfobj.c)
src/probes/objects.h: $(BPF_SKELS) Makefile
	$(AM_V_GEN){ echo '#include "src/probes/hist.h" /* the types of their .rodata */'; \
	for p in $(BPF_PROGS); do echo "#include \"src/probes/$$p.skel.h\""; done; \
	echo 'static const struct { const char *name; const void *(*elf)(size_t *sz); }'; \
	echo 'bpf_builtin_objects[] = {'; \
	for p in $(BPF_PROGS); do echo "	{ \"$$p\", ktop_$${p}__elf_bytes },"; done; \
	echo '};'; } > $@.tmp && mv -f $@.tmp $@

BUILT_SOURCES += $(BPF_SKELS) src/probes/objects.h
nodist_src_libktop_a_SOURCES += src/probes/objects.h
src_libktop_a_SOURCES += src/backend/bpfhist.c src/backend/bpfobj.c src/backend/bpfobj.h \
	src/backend/histkind.c src/backend/histkind.h src/backend/offcpu.c
# BUILT_SOURCES covers make all/check; these cover "make ktop" (the lab's static build)
src/backend/bpfobj.$(OBJEXT): src/probes/objects.h
else
src_libktop_a_SOURCES += src/backend/bpfhist_stub.c src/backend/offcpu_stub.c
endif
src_libktop_a_SOURCES += src/backend/bpfhist.h src/backend/histspec.c src/backend/histspec.h \
	src/backend/offcpu.h
CLEANFILES += $(BPF_SKELS) src/probes/objects.h src/probes/*.bpf.o src/probes/*.tmp

# Syscall names for by=syscall keys, from the C library's <sys/syscall.h> of this build.
src/backend/syscall_names.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) src/backend && \
	echo '#include <sys/syscall.h>' | $(CPP) -dM - | \
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/[\2] = "\1",/p' > $@.tmp && \
	test -s $@.tmp && mv -f $@.tmp $@
BUILT_SOURCES += src/backend/syscall_names.h
nodist_src_libktop_a_SOURCES += src/backend/syscall_names.h
CLEANFILES += src/backend/syscall_names.h
src/backend/histdata.$(OBJEXT): src/backend/syscall_names.h
src_libktop_a_SOURCES += src/backend/histdata.c src/backend/histdata.h
src_libktop_a_SOURCES += src/backend/histprint.c src/backend/histprint.h
# The pane that shows them (src/ui/view_hist.c, behind src/ui/view.h's ops table).
src_libktop_a_SOURCES += src/ui/view_hist.c
