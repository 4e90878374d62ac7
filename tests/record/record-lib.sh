# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# The recording tests' disks (tests/record): a read-only and a nearly full tmpfs. Sourced by
# tests/lib.sh.

# mount_record_disks: in a private mount namespace (KTOP_PRIVATE_MOUNTS), two tmpfs for
# ktop's recordings: $T/ro, read-only, and $T/small with room for what ktop sets aside for a
# trace.dat's header (kallsyms, printk formats, saved_cmdlines twice and 1 MiB: tdat_write.c)
# and 2 MiB of pages; its size in SMALL_KB.
SMALL_KB=
mount_record_disks()
{
	local header
	[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] || skip "needs unshare (util-linux) for a mount namespace"
	mkdir "$T/ro" "$T/small" || fail "cannot make the mount points"
	mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" || fail "cannot mount a read-only tmpfs"
	header=$(( $(wc -c </proc/kallsyms) + $(wc -c <"$TRACEFS/printk_formats") +
		2 * $(wc -c <"$TRACEFS/saved_cmdlines") + 1048576 ))
	SMALL_KB=$(( header / 1024 + 2048 ))
	mount -t tmpfs -o size=${SMALL_KB}k tmpfs "$T/small" || fail "cannot mount a ${SMALL_KB}k tmpfs"
}
