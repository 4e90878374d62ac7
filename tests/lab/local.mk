# make check-vm: the kernel lab (tests/lab/README.md). Boots Debian's stock kernel under qemu
# with a static ktop and tests/lab/tests/*.sh in a busybox initramfs, then checks that the
# harness itself fails on a failing test, a test that leaves state behind, a kernel panic and
# a hang. Needs root on a Debian host (it apt-get installs qemu-system-x86, busybox-static
# and cpio when missing, and apt-get downloads the kernel package into lab-cache/, never
# installing it). The two run as automake tests with their own suite log
# (tests/lab/lab-suite.log): kernel-lab.tap reports every guest test as its own TAP result.
LAB_TEST_FILES = \
	tests/lab/tests/10-doctor.sh \
	tests/lab/tests/20-batch-sched-switch.sh \
	tests/lab/tests/30-func-latency.sh \
	tests/lab/tests/32-io-hist-variants.sh \
	tests/lab/tests/33-syscall-latency.sh \
	tests/lab/tests/35-function-filter.sh \
	tests/lab/tests/40-kprobe-kretprobe.sh \
	tests/lab/tests/42-probe-health.sh \
	tests/lab/tests/44-lock-offcpu-variants.sh \
	tests/lab/tests/45-kprobe-stacks.sh \
	tests/lab/tests/47-profile.sh \
	tests/lab/tests/50-call-trees.sh \
	tests/lab/tests/52-call-trees-kernel-text.sh \
	tests/lab/tests/53-tree-pane-pause.sh \
	tests/lab/tests/55-top-level-kill9.sh \
	tests/lab/tests/60-triggers-snapshot-hist.sh
# The kernel lab as a remote: the explorer here drives the guest's agent over a serial line.
LAB_CHECKS = tests/lab/kernel-lab.tap tests/lab/harness-fails.sh tests/lab/remote-explorer.sh
# The agent that ships itself, into a guest without ktop, through a shell on a serial line.
LAB_CHECKS += tests/lab/remote-push.sh
EXTRA_DIST += tests/lab/run-vm.sh tests/lab/kernel-clean.sh tests/lab/guest-lib.sh tests/lab/calltext.awk \
	tests/lab/remote-agent.sh \
	tests/lab/remote-shell.sh \
	tests/lab/README.md \
	$(LAB_CHECKS) $(LAB_TEST_FILES)

LAB_ENV = LAB_SRCDIR='$(abs_top_srcdir)' LAB_BUILDDIR='$(abs_top_builddir)'

TEST_EXTENSIONS = .sh .tap
TAP_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TAP_LOG_COMPILER = bash

check-vm:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(LAB_CHECKS)' \
		TEST_SUITE_LOG=tests/lab/lab-suite.log
.PHONY: check-vm clean-lab

# make clean drops the guest images and the static build; the kernel download (lab-cache/,
# ~70 MB) stays until make distclean.
clean-local: clean-lab
clean-lab:
	-rm -rf lab-root lab-initramfs.gz lab-initramfs.gz.tmp lab-console.log lab-serial1.log \
		lab-out lab-build lab-fixtures lab-fixtures-smp2 tests/lab/run tests/lab/remote-run \
		tests/lab/push-run
distclean-local: clean-lab
	-rm -rf lab-cache

# make lab-fixtures: record the function_graph and kprobe captures of tests/fixtures/lab/ in the
# lab guest with trace-cmd (tests/lab/record-fixtures.sh) and copy them into the source tree.
EXTRA_DIST += tests/lab/record-fixtures.sh
lab-fixtures:
	$(LAB_ENV) LAB_WORKDIR='$(abs_top_builddir)/lab-fixtures' LAB_TIMEOUT=900 \
		LAB_TEST_TIMEOUT=600 \
		LAB_EXTRA_TEST='$(abs_top_srcdir)/tests/lab/record-fixtures.sh' \
		bash '$(top_srcdir)/tests/lab/run-vm.sh'
	$(MAKE) $(AM_MAKEFLAGS) lab-fixture-migrate
	cp lab-fixtures/lab-out/*.dat lab-fixtures/lab-out/*.trace \
		lab-fixtures/lab-out/*.report '$(srcdir)/tests/fixtures/lab/'

# The migrate capture alone, on two CPUs (a call entered on one and exited on the other).
lab-fixture-migrate:
	$(LAB_ENV) LAB_WORKDIR='$(abs_top_builddir)/lab-fixtures-smp2' LAB_TIMEOUT=600 \
		LAB_TEST_TIMEOUT=400 LAB_SMP=2 LAB_ONLY_EXTRA=1 \
		LAB_EXTRA_TEST='$(abs_top_srcdir)/tests/lab/record-fixtures.sh' \
		bash '$(top_srcdir)/tests/lab/run-vm.sh'
	cp lab-fixtures-smp2/lab-out/migrate.dat lab-fixtures-smp2/lab-out/migrate.trace \
		lab-fixtures-smp2/lab-out/migrate.report '$(srcdir)/tests/fixtures/lab/'
.PHONY: lab-fixtures lab-fixture-migrate
