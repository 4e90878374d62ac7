# BPF histograms: each src/probes/<p>.bpf.c becomes a CO-RE object and a skeleton header in
# the build tree (never in git), which src/backend/bpfhist.c includes. --disable-bpf leaves
# all of it out and builds the stub instead.
BPF_PROGS = syslat tphist funclat schedlat blockio rwsize usdthist lockcont
BPF_SRC = src/probes/syslat.bpf.c src/probes/tphist.bpf.c src/probes/funclat.bpf.c \
	src/probes/schedlat.bpf.c src/probes/blockio.bpf.c src/probes/rwsize.bpf.c \
	src/probes/usdthist.bpf.c src/probes/lockcont.bpf.c
BPF_HDRS = src/probes/hist.h src/probes/hist_common.bpf.h src/probes/vmlinux/vmlinux.h \
	src/probes/vmlinux/linux/errno.h
BPF_SKELS = src/probes/syslat.skel.h src/probes/tphist.skel.h src/probes/funclat.skel.h \
	src/probes/schedlat.skel.h src/probes/blockio.skel.h src/probes/rwsize.skel.h \
	src/probes/usdthist.skel.h src/probes/lockcont.skel.h
BUILT_SOURCES =
nodist_src_libktop_a_SOURCES =
EXTRA_DIST += $(BPF_SRC) $(BPF_HDRS) src/probes/README.md

if ENABLE_BPF
# -g: the BTF that CO-RE needs comes from the debug info; llvm-strip -g then drops DWARF.
BPF_CFLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
	-I$(srcdir)/src/probes/vmlinux -I$(srcdir)/src/probes
BPF_BUILD = $(AM_V_GEN)$(MKDIR_P) src/probes && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
# temp file and rename: a failed bpftool never leaves a truncated header behind
BPF_SKEL = $(AM_V_GEN)$(BPFTOOL) gen skeleton $< name

src/probes/syslat.bpf.o: src/probes/syslat.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/tphist.bpf.o: src/probes/tphist.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/funclat.bpf.o: src/probes/funclat.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/schedlat.bpf.o: src/probes/schedlat.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/blockio.bpf.o: src/probes/blockio.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/rwsize.bpf.o: src/probes/rwsize.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/usdthist.bpf.o: src/probes/usdthist.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/lockcont.bpf.o: src/probes/lockcont.bpf.c $(BPF_HDRS)
	$(BPF_BUILD)
src/probes/lockcont.skel.h: src/probes/lockcont.bpf.o
	$(BPF_SKEL) ktop_lockcont > $@.tmp && mv -f $@.tmp $@
src/probes/blockio.skel.h: src/probes/blockio.bpf.o
	$(BPF_SKEL) ktop_blockio > $@.tmp && mv -f $@.tmp $@
src/probes/rwsize.skel.h: src/probes/rwsize.bpf.o
	$(BPF_SKEL) ktop_rwsize > $@.tmp && mv -f $@.tmp $@
src/probes/usdthist.skel.h: src/probes/usdthist.bpf.o
	$(BPF_SKEL) ktop_usdthist > $@.tmp && mv -f $@.tmp $@
src/probes/schedlat.skel.h: src/probes/schedlat.bpf.o
	$(BPF_SKEL) ktop_schedlat > $@.tmp && mv -f $@.tmp $@
src/probes/syslat.skel.h: src/probes/syslat.bpf.o
	$(BPF_SKEL) ktop_syslat > $@.tmp && mv -f $@.tmp $@
src/probes/tphist.skel.h: src/probes/tphist.bpf.o
	$(BPF_SKEL) ktop_tphist > $@.tmp && mv -f $@.tmp $@
src/probes/funclat.skel.h: src/probes/funclat.bpf.o
	$(BPF_SKEL) ktop_funclat > $@.tmp && mv -f $@.tmp $@

BUILT_SOURCES += $(BPF_SKELS)
nodist_src_libktop_a_SOURCES += $(BPF_SKELS)
src_libktop_a_SOURCES += src/backend/bpfhist.c
# BUILT_SOURCES covers make all/check; these cover "make ktop" (the lab's static build)
src/backend/bpfhist.$(OBJEXT): $(BPF_SKELS)
else
src_libktop_a_SOURCES += src/backend/bpfhist_stub.c
endif
src_libktop_a_SOURCES += src/backend/bpfhist.h src/backend/histspec.c src/backend/histspec.h
CLEANFILES += $(BPF_SKELS) src/probes/*.bpf.o src/probes/*.tmp

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
