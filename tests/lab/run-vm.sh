#!/bin/bash
# Kernel lab: boot Debian's stock kernel under qemu with a busybox initramfs holding a static
# ktop and the lab tests (tests/lab/tests/*.sh), and report each test from the serial console.
#
#   tests/lab/run-vm.sh            (run from a build tree, or set LAB_BUILDDIR)
#
# Exit status: 0 when at least one lab test ran and every one passed; 1 on any failure, a hang
# (outer timeout), a kernel panic or a guest that never finished (the console's last 40 lines
# are printed); 77 when a prerequisite is missing and cannot be installed (not root).
#
# Environment:
#   LAB_BUILDDIR     build tree (default: $PWD); everything the lab makes goes below it:
#                    lab-cache/ (kernel .deb and vmlinuz), lab-build/ (static ktop),
#                    lab-root/ + lab-initramfs.gz (guest image), lab-console.log
#   LAB_WORKDIR      where this run's guest image and console log go (default: LAB_BUILDDIR);
#                    the kernel cache and static ktop stay in LAB_BUILDDIR
#   LAB_SRCDIR       source tree (default: two levels above this script)
#   LAB_KTOP         use this static ktop instead of building one
#   LAB_NO_KTOP=1    a guest without ktop and without any library (no trace-cmd, no tmux):
#                    busybox alone, for the viewer to push its agent into (remote-push.sh)
#   LAB_EXTRA_TEST   one more guest test script (run after the others; see harness-fails.sh)
#   LAB_ONLY_EXTRA=1 run LAB_EXTRA_TEST alone, without tests/lab/tests/*.sh
#   LAB_TESTS        only these tests of tests/lab/tests/ (names without .sh, shell patterns,
#                    space-separated: LAB_TESTS='45-* 47-profile'); unset: all of them
#   LAB_SMP          guest CPUs (default 1; more run single-threaded TCG, see below)
#   LAB_TIMEOUT      seconds the whole guest may take (default 600)
#   LAB_TEST_TIMEOUT seconds one guest test may take (default 60)
#   LAB_KERNEL_PKG   kernel package to fetch (default: what LAB_KERNEL_META depends on)
#   LAB_KERNEL_META  the meta package naming it (default: linux-image-amd64)
#   LAB_VERBOSE=1    copy the console to stdout as it comes
#   LAB_QEMU_ARGS    extra qemu arguments (word-split)
#   LAB_SERIAL1      qemu's backend of the second serial port, ttyS1 (default:
#                    file:lab-serial1.log, where lab-save writes); remote-explorer.sh gives a
#                    socket (unix:PATH,server=on,wait=off) the host's explorer reaches the
#                    guest's agent through
#
# Files back from the guest: a guest test runs `lab-save FILE [NAME]`, which writes
# `LAB-FILE NAME SIZE SHA256`, the file in base64 and `LAB-END NAME` to the second serial port
# (ttyS1, a file on the host, so kernel messages never interleave); after the run each file
# is decoded, checked against its size and checksum, and written to $LAB_WORKDIR/lab-out/.
# The guest also has the host's trace-cmd (with the shared libraries ldd names and the
# dynamic loader) so lab tests can record trace.dat files with the kernel's own tool.
set -u

LAB_SRCDIR=${LAB_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LAB_BUILDDIR=$(cd "${LAB_BUILDDIR:-$PWD}" && pwd) || exit 1
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
LAB_TEST_TIMEOUT=${LAB_TEST_TIMEOUT:-60}
cache=$LAB_BUILDDIR/lab-cache
LAB_WORKDIR=$(mkdir -p "${LAB_WORKDIR:-$LAB_BUILDDIR}" && cd "${LAB_WORKDIR:-$LAB_BUILDDIR}" && pwd) ||
	exit 1
root=$LAB_WORKDIR/lab-root
initrd=$LAB_WORKDIR/lab-initramfs.gz
log=$LAB_WORKDIR/lab-console.log
serial1=$LAB_WORKDIR/lab-serial1.log
outdir=$LAB_WORKDIR/lab-out

# newest FILE...: the most recently modified of the existing FILEs (empty if none).
newest()
{
	local f best=
	for f in "$@"; do
		[ -f "$f" ] || continue
		if [ -z "$best" ] || [ "$f" -nt "$best" ]; then best=$f; fi
	done
	printf '%s' "$best"
}
say() { printf 'lab: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
skip() { say "skip: $*"; exit 77; }

# (a) host tools ---------------------------------------------------------------------------
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null 2>&1 || need_pkgs+=(qemu-system-x86)
dpkg -s busybox-static >/dev/null 2>&1 || need_pkgs+=(busybox-static)
command -v cpio >/dev/null 2>&1 || need_pkgs+=(cpio)
command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb missing: the lab needs a Debian host"
if [ ${#need_pkgs[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || skip "missing ${need_pkgs[*]} and not root to install them"
	say "installing ${need_pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${need_pkgs[@]}" >"$LAB_BUILDDIR/lab-apt.log" 2>&1 ||
		{ tail -n 20 "$LAB_BUILDDIR/lab-apt.log" >&2; die "apt-get install failed"; }
fi
busybox=$(dpkg -L busybox-static | grep -m1 '/busybox$')
[ -x "$busybox" ] || die "no busybox binary in busybox-static"

# (b) kernel: fetched, never installed --------------------------------------------------------
mkdir -p "$cache" || exit 1
kernel_pkg()
{
	apt-cache depends "${LAB_KERNEL_META:-linux-image-amd64}" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}
# A meta package that names a version (linux-image-6.12-amd64) wants that kernel: when apt
# does not know it, no other kernel boots in its place (a test needing 6.12's instance
# function_graph would fail on 6.1 with a symptom, not the cause).
want_ver=$(sed -n 's/^linux-image-\([0-9][0-9]*\.[0-9][0-9]*\)-.*/\1/p' <<<"${LAB_KERNEL_META:-}")
missing_meta()
{
	die "$LAB_KERNEL_META is not in this machine's apt sources$1 (Debian 12 carries its" \
		"6.12 kernel in bookworm-security only: add 'deb http://deb.debian.org/debian-security" \
		"bookworm-security main' to /etc/apt/sources.list and apt-get update); no other" \
		"kernel is booted in its place"
}
pkg=${LAB_KERNEL_PKG:-$(kernel_pkg)}
if [ -z "$pkg" ] && [ -n "$want_ver" ] && [ "$(id -u)" = 0 ]; then
	say "apt-get update ($LAB_KERNEL_META is in no package list here)"
	apt-get update -q >"$cache/update.log" 2>&1 || tail -n 20 "$cache/update.log" >&2
	pkg=$(kernel_pkg)
	[ -n "$pkg" ] || missing_meta ""
fi
if [ -z "$pkg" ] && [ -z "$(newest "$cache"/linux-image-*.deb)" ] && [ "$(id -u)" = 0 ]; then
	# A fresh machine may have no package lists yet.
	say "apt-get update (no package lists to find the kernel package in)"
	apt-get update -q >"$cache/update.log" 2>&1 || tail -n 20 "$cache/update.log" >&2
	pkg=$(kernel_pkg)
fi
deb=
if [ -n "$pkg" ]; then
	deb=$(newest "$cache/${pkg}"_*.deb)
	if [ -z "$deb" ]; then
		say "fetching $pkg"
		# _apt cannot write to a root-owned build tree; the download is verified by apt anyway.
		if (cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$pkg" \
			>"$cache/download.log" 2>&1); then
			deb=$(newest "$cache/${pkg}"_*.deb)
		else
			tail -n 20 "$cache/download.log" >&2
			deb=$(newest "$cache"/linux-image-*.deb)
			[ -n "$deb" ] || die "apt-get download $pkg failed"
			say "apt-get download $pkg failed; using the cached ${deb##*/}"
		fi
	fi
else
	# No apt metadata (offline): whatever kernel was cached before.
	deb=$(newest "$cache"/linux-image-*.deb)
fi
[ -f "$deb" ] || die "no linux-image package (apt-cache depends linux-image-amd64 failed?)"
kdir=$cache/$(basename "$deb" .deb)
vmlinuz=$(newest "$kdir"/boot/vmlinuz-*)
if [ -z "$vmlinuz" ]; then
	rm -rf "$kdir" "$kdir.tmp"
	# Only boot/ (vmlinuz, config): the guest loads no modules, which are ~400 MB unpacked.
	mkdir -p "$kdir.tmp" || exit 1
	if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kdir.tmp" ./boot ||
		! mv "$kdir.tmp" "$kdir"; then
		die "unpacking boot/ of $deb failed"
	fi
	vmlinuz=$(newest "$kdir"/boot/vmlinuz-*)
	[ -n "$vmlinuz" ] || die "no boot/vmlinuz-* in $deb"
fi
kver=${vmlinuz##*/vmlinuz-}
case $kver in "$want_ver".* | "$want_ver"-*) ;; *) [ -z "$want_ver" ] || missing_meta ", and the cached ${deb##*/} is kernel $kver" ;; esac
for opt in FUNCTION_GRAPH_TRACER KPROBE_EVENTS BLK_DEV_INITRD RD_GZIP SERIAL_8250_CONSOLE; do
	grep -q "^CONFIG_$opt=y" "$kdir/boot/config-$kver" ||
		say "warning: $kver has no CONFIG_$opt=y"
done

# (c) static ktop ------------------------------------------------------------------------------
is_static() { [ -x "$1" ] && ! readelf -l "$1" 2>/dev/null | grep -q INTERP; }
no_ktop=${LAB_NO_KTOP:-0}
if [ "$no_ktop" = 1 ]; then
	ktop=
elif [ -n "${LAB_KTOP:-}" ]; then
	ktop=$LAB_KTOP
else
	lb=$LAB_BUILDDIR/lab-build
	mkdir -p "$lb" || exit 1
	src=$LAB_SRCDIR
	if [ -f "$LAB_SRCDIR/config.status" ]; then
		# The source tree is configured in place, which forbids a second build from it, and
		# its own objects want libtracecmd, which has no static archive. So the static ktop
		# is configured from a copy of the distributed sources (make distdir, which keeps
		# timestamps: only what changed is rebuilt).
		src=$lb/src
		make -C "$LAB_BUILDDIR" distdir distdir="$src" >"$lb/distdir.log" 2>&1 ||
			{ tail -n 30 "$lb/distdir.log" >&2; die "make distdir failed"; }
		lb=$lb/build
		mkdir -p "$lb" || exit 1
	fi
	if [ ! -f "$lb/Makefile" ] || [ "$src/configure" -nt "$lb/Makefile" ]; then
		say "configuring a static ktop in $lb"
		# libelf.a needs libz; -static makes every -lX pick the .a from the -dev packages.
		# Debian ships no static libtracecmd: the lab's ktop cannot read trace.dat.
		(cd "$lb" && "$src/configure" -q --without-libtracecmd --enable-test-hooks \
			LDFLAGS=-static LIBS=-lz \
			>"$lb/configure.log" 2>&1) ||
			{ tail -n 30 "$lb/configure.log" >&2; die "configure (static) failed"; }
	fi
	make -C "$lb" -j"$(nproc)" ktop >"$lb/make.log" 2>&1 ||
		{ grep -v 'statically linked\|in function' "$lb/make.log" | tail -n 30 >&2
		  die "make ktop (static) failed"; }
	ktop=$lb/ktop
fi
[ "$no_ktop" = 1 ] || is_static "$ktop" || die "$ktop is not a static executable"

# (d) initramfs ----------------------------------------------------------------------------
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,run,lab/tests} || exit 1
cp "$busybox" "$root/bin/busybox" || exit 1
[ "$no_ktop" = 1 ] || cp "$ktop" "$root/bin/ktop" || exit 1
cp "$LAB_SRCDIR/tests/lab/kernel-clean.sh" "$root/lab/kernel-clean.sh" || exit 1
cp "$LAB_SRCDIR/tests/lab/guest-lib.sh" "$root/lab/lib.sh" || exit 1
cp "$LAB_SRCDIR/tests/lab/calltext.awk" "$root/lab/calltext.awk" || exit 1
# copy_with_libs BINARY: BINARY into /bin of the guest, and every shared library ldd names
# and the dynamic loader at their host paths.
copy_with_libs()
{
	local lib
	cp "$1" "$root/bin/" || return 1
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || return 1
	done
}
if [ "$no_ktop" = 1 ]; then
	: # busybox alone: no shared library, no dynamic loader
elif command -v trace-cmd >/dev/null 2>&1; then
	copy_with_libs "$(command -v trace-cmd)" || die "copying trace-cmd into $root failed"
else
	say "no trace-cmd on the host: the guest has none (apt-get install trace-cmd)"
fi
# tmux, for lab tests of ktop's screen (a pane over a live function_graph capture), with the
# terminfo entry of the terminal it emulates (devpts is mounted by /init)
if [ "$no_ktop" = 1 ]; then
	:
elif command -v tmux >/dev/null 2>&1; then
	copy_with_libs "$(command -v tmux)" || die "copying tmux into $root failed"
	# and the C.UTF-8 locale tmux insists on (glibc loads it from /usr/lib/locale)
	for ti in /lib/terminfo/s/screen /usr/share/terminfo/s/screen /usr/lib/locale/C.utf8; do
		[ -e "$ti" ] || continue
		mkdir -p "$root$(dirname "$ti")" && cp -rL "$ti" "$root$ti" || die "copying $ti failed"
	done
else
	say "no tmux on the host: the guest has none (apt-get install tmux)"
fi
cat >"$root/bin/lab-save" <<'EOF'
#!/bin/busybox sh
# lab-save FILE [NAME]: hand FILE back to the host (see run-vm.sh, "Files back from the guest").
f=$1 name=${2:-${1##*/}}
[ -f "$f" ] || { echo "lab-save: no file $f"; exit 1; }
{
	echo "LAB-FILE $name $(wc -c <"$f") $(sha256sum "$f" | cut -d' ' -f1)"
	base64 "$f"
	echo "LAB-END $name"
} >/dev/ttyS1
EOF
# selected TEST: whether LAB_TESTS (unset: every test) names tests/lab/tests/TEST.sh
selected()
{
	local p pats
	[ -n "${LAB_TESTS:-}" ] || return 0
	read -ra pats <<<"$LAB_TESTS"
	for p in "${pats[@]}"; do
		# shellcheck disable=SC2254 # the pattern is the point
		case $1 in $p) return 0 ;; esac
	done
	return 1
}
n=0
for t in "$LAB_SRCDIR"/tests/lab/tests/*.sh; do
	[ -f "$t" ] && [ "${LAB_ONLY_EXTRA:-0}" != 1 ] && selected "$(basename "$t" .sh)" || continue
	cp "$t" "$root/lab/tests/" && n=$((n + 1))
done
if [ -n "${LAB_EXTRA_TEST:-}" ]; then
	[ -f "$LAB_EXTRA_TEST" ] || die "LAB_EXTRA_TEST=$LAB_EXTRA_TEST: no such file"
	# "zz-" sorts it last, after the check that nothing was left behind.
	cp "$LAB_EXTRA_TEST" "$root/lab/tests/zz-extra-$(basename "$LAB_EXTRA_TEST" .sh).sh" &&
		n=$((n + 1))
fi
[ "$n" -gt 0 ] || die "no lab tests in $LAB_SRCDIR/tests/lab/tests"
cat >"$root/init" <<EOF
#!/bin/busybox sh
# Generated by tests/lab/run-vm.sh: PID 1 of the lab guest.
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp TERM=dumb KTOP=/bin/ktop TRACEFS=/sys/kernel/tracing
mount -t devtmpfs dev /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
exec </dev/console >/dev/console 2>&1
mount -t sysfs sys /sys
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmp /tmp
echo
echo "LAB-BOOTED \$(uname -r) uptime \$(cut -d' ' -f1 /proc/uptime)"
for t in /lab/tests/*.sh; do
	name=\${t##*/}; name=\${name%.sh}
	echo "LAB-START \$name"
	timeout $LAB_TEST_TIMEOUT sh "\$t"
	rc=\$?
	# Whatever a test did, ktop must have left the kernel as it found it.
	if ! sh /lab/kernel-clean.sh; then
		echo "LAB-INFO \$name left ktop state in the kernel"
		[ \$rc -ne 0 ] || rc=90
	fi
	if [ \$rc -eq 0 ]; then r=PASS; else r=FAIL; echo "LAB-INFO \$name exit status \$rc"; fi
	echo "LAB-RESULT \$name \$r"
done
echo "LAB-DONE uptime \$(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
EOF
chmod 755 "$root/init" "$root/bin/lab-save" "$root"/lab/tests/*.sh "$root/lab/kernel-clean.sh"
if ! (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 >"$initrd.tmp") ||
	! mv "$initrd.tmp" "$initrd"; then
	die "cpio/gzip of $root failed"
fi

# (e) boot -------------------------------------------------------------------------------------
say "booting $kver with $n lab test(s) (timeout ${LAB_TIMEOUT}s)"
start=$(date +%s.%N)
rm -f "$serial1"
# More than one vCPU only with single-threaded TCG: two vCPUs under multi-threaded TCG can
# deadlock while function_graph patches call sites (one host thread runs them in turn).
smp=${LAB_SMP:-1}
accel=tcg
[ "$smp" -gt 1 ] && accel=tcg,thread=single
# no_timer_check: under TCG on a loaded host the kernel's check that the IO-APIC timer ticks
# can fail and panic the boot ("IO-APIC + timer doesn't work!"); the timer does work.
qemu_cmd=(qemu-system-x86_64 -accel "$accel" -smp "$smp" -m 1024 -nographic -no-reboot -nic none
	-serial mon:stdio -serial "${LAB_SERIAL1:-file:$serial1}"
	-kernel "$vmlinuz" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 softlockup_panic=1 no_timer_check quiet")
# shellcheck disable=SC2206 # word splitting is the point
[ -n "${LAB_QEMU_ARGS:-}" ] && qemu_cmd+=($LAB_QEMU_ARGS)
if [ "${LAB_VERBOSE:-0}" = 1 ]; then
	timeout -k 10 "$LAB_TIMEOUT" "${qemu_cmd[@]}" </dev/null 2>&1 | tee "$log"
	qrc=${PIPESTATUS[0]}
else
	timeout -k 10 "$LAB_TIMEOUT" "${qemu_cmd[@]}" </dev/null >"$log" 2>&1
	qrc=$?
fi
secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')

# (f) verdict ------------------------------------------------------------------------------
# Plain text: no carriage returns, no terminal escapes from the firmware.
sed -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[c()][0-9A-Z]\{0,1\}//g' \
	"$log" >"$log.txt" && mv "$log.txt" "$log"
problems=()
case $qrc in
0) ;;
124 | 137) problems+=("guest hung: killed after ${LAB_TIMEOUT}s") ;;
*) problems+=("qemu exit status $qrc") ;;
esac
grep -q 'Kernel panic' "$log" && problems+=("kernel panic")
grep -q '^LAB-BOOTED' "$log" || problems+=("the guest never ran /init")
grep -q '^LAB-DONE' "$log" || problems+=("the guest did not finish its tests")
# Files the guest handed back (lab-save): decoded, size and checksum checked.
rm -rf "$outdir"
if [ -s "$serial1" ]; then
	mkdir -p "$outdir" || exit 1
	sed 's/\r$//' "$serial1" | awk -v dir="$outdir" '
		/^LAB-FILE / { name = $2; size = $3; sum = $4; b64 = dir "/" name ".b64"
			printf "" > b64; next }
		/^LAB-END / { close(b64); print name, size, sum; name = ""; next }
		name != "" { print > b64 }' >"$outdir/.index"
	while read -r name size sum; do
		f=$outdir/$name
		if base64 -d "$f.b64" >"$f" 2>/dev/null && [ "$(wc -c <"$f")" -eq "$size" ] &&
			[ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sum" ]; then
			say "guest file $name ($size bytes) in $outdir"
		else
			problems+=("guest file $name arrived damaged")
		fi
		rm -f "$f.b64"
	done <"$outdir/.index"
	rm -f "$outdir/.index"
fi
pass=0 fail=0
while read -r _ name verdict; do
	case $verdict in
	PASS) pass=$((pass + 1)); echo "PASS: lab/$name" ;;
	*) fail=$((fail + 1)); echo "FAIL: lab/$name"; problems+=("lab/$name failed") ;;
	esac
done < <(grep '^LAB-RESULT ' "$log")
[ $((pass + fail)) -gt 0 ] || problems+=("no lab test reported a result")
[ $((pass + fail)) -eq "$n" ] || problems+=("$n lab tests installed, $((pass + fail)) reported")
say "$kver: $pass passed, $fail failed, ${secs}s (console: $log)"
if [ ${#problems[@]} -gt 0 ]; then
	for p in "${problems[@]}"; do say "$p"; done
	echo "---- last 40 lines of $log ----" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
exit 0
