#!/bin/bash
# ./dev fresh: the README's test command on a machine that has nothing but a minimal
# Debian 12. A clean clone on a developer's machine is not that: packages preinstalled there
# (the sanitizer and fuzzer runtimes, once) hide missing install steps.
#
# 1. debootstrap --variant=minbase bookworm into KTOP_FRESH_DIR (default /var/tmp/ktop-fresh);
#    the pristine root is kept as base.tar and reused (KTOP_FRESH_NEW=1 makes it anew).
# 2. A new root from that tarball, `git archive HEAD` of this repository in /ktop.
# 3. In a private mount namespace (so nothing stays mounted, whatever happens): /proc, /sys,
#    /dev, tracefs; then `chroot ROOT env -i ... ./dev check`, with CI=true and nothing of
#    this shell's environment.
# 4. Then `./dev deb` there, and in a second root fresh from the tarball (no build tools,
#    nothing of the first): `apt-get install ./ktop_*.deb`, ktop --doctor, a batch capture
#    and the explorer in tmux (tests/package/installed.sh).
# KTOP_TESTS='tests/live/x.sh ...' runs only those (./dev check's own variable);
# KTOP_FRESH_DEB_ONLY=1 skips ./dev check (steps 3's build and 4 only).
# The roots are removed afterwards unless KTOP_FRESH_KEEP=1. Needs root and the Debian archive.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${KTOP_FRESH_DIR:-/var/tmp/ktop-fresh}
mirror=${KTOP_FRESH_MIRROR:-http://deb.debian.org/debian}
say() { printf 'fresh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
git -C "$top" rev-parse --verify -q HEAD >/dev/null || die "$top is not a git checkout"
if ! command -v debootstrap >/dev/null; then
	say "installing debootstrap"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi
mkdir -p "$dir"

base=$dir/base.tar
if [ ! -s "$base" ] || [ "${KTOP_FRESH_NEW:-}" ]; then
	say "debootstrap --variant=minbase bookworm (a few minutes)"
	rm -rf "$dir/base"
	debootstrap --variant=minbase bookworm "$dir/base" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir/debootstrap.log" >&2; die "debootstrap failed (log: $dir/debootstrap.log)"; }
	# The same suites as a Debian 12 install: updates and security beside the release.
	cat >"$dir/base/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
	tar -C "$dir/base" -cf "$base.new" . && mv -f "$base.new" "$base"
	rm -rf "$dir/base"
fi

root=$dir/root.$$
pristine=$dir/pristine.$$
cleanup() {
	[ "${KTOP_FRESH_KEEP:-}" ] && { say "roots kept in $root and $pristine"; return; }
	rm -rf --one-file-system "$root" "$pristine"
}
trap cleanup EXIT
new_root() {
	mkdir -p "$1"
	tar -C "$1" -xf "$base"
	cp -L /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
}
new_root "$root"
mkdir -p "$root/ktop"
git -C "$top" archive HEAD | tar -C "$root/ktop" -xf -
say "$(git -C "$top" log -1 --format='HEAD %h %s') in $root"

# in_root ROOT COMMAND: COMMAND (bash -c) in ROOT with a clean environment.
# unshare -m makes every mount below private to this command: they vanish with it.
in_root() {
	unshare -m --propagation private sh -eu -c '
	root=$1
	# The root a mount point, as on a real machine: unshare -m in the tests makes / private,
	# which fails (EINVAL) on a directory that is not one.
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/tmp"
	mount -t tmpfs tmpfs "$root/run"
	[ -d "$root/sys/kernel/tracing/events" ] ||
		mount -t tracefs tracefs "$root/sys/kernel/tracing"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=xterm-256color CI=true KTOP_TESTS="$2" \
		/bin/bash -c "$3"
' fresh "$1" "${KTOP_TESTS:-}" "$2"
}

set -o pipefail
status=0
check="./dev check &&"
[ -z "${KTOP_FRESH_DEB_ONLY:-}" ] || check=""
in_root "$root" "cd /ktop && $check DEB_BUILD_OPTIONS=nocheck ./dev deb" 2>&1 | tee "$dir/check.log" || status=$?
if [ "$status" = 0 ]; then
	new_root "$pristine"
	cp "$root"/ktop/ktop_*.deb "$root/ktop/tests/package/installed.sh" "$pristine/root/"
	say "installing $(cd "$pristine/root" && ls ktop_*.deb) in a pristine root"
	in_root "$pristine" "/root/installed.sh /root/$(cd "$pristine/root" && ls ktop_*.deb)" \
		2>&1 | tee -a "$dir/check.log" || status=$?
fi
if [ "$status" = 0 ]; then
	say "passed: $(grep -E '^ktop: [0-9]+ passed|^installed: PASS' "$dir/check.log" | tr '\n' ' ')(log: $dir/check.log)"
else
	say "FAILED with status $status (log: $dir/check.log)"
fi
exit "$status"
