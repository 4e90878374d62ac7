#!/bin/bash
# ktop -b -o as root into a shared sticky directory (mode 1777, like /tmp) where other users
# may have put things first: what the path names is not trusted.
#   - a FIFO, a character device (a fresh mknod of /dev/null's numbers), a symbolic link to
#     a file of root's, and a file owned by nobody: refused, with or without --force, in one
#     line naming the path, the cause and the way out (exit 1); each left as it was (the
#     FIFO never opened for writing, the link's target and nobody's file unchanged);
#   - an existing file of root's own: refused without --force and left as it was; with
#     --force replaced by a whole trace.dat, mode 0600, no file left beside it;
#   - a new file: created 0600 (a recording holds kernel addresses);
#   - --force onto one's own file on a disk too small for the recording: refused, and the
#     file there is left as it was.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] || skip "needs unshare (util-linux) for a mount namespace"
EV=(-e syscalls:sys_enter_getppid --duration 1)
S=$T/shared
mkdir -m 1777 "$S" || fail "cannot make $S"
mkfifo "$S/fifo.dat" && mknod "$S/null.dat" c 1 3 || fail "cannot make the FIFO and the device"
echo "root's own precious file" >"$T/precious"
ln -s "$T/precious" "$S/link.dat"
echo "nobody's file" >"$S/nobody.dat" && chown 65534:65534 "$S/nobody.dat"
echo old >"$S/own.dat"

# refuse PATH CAUSE [ARGS...]: ktop -b -o PATH ARGS exits 1 with the one line wanted
refuse()
{
	local path=$1 cause=$2
	shift 2
	run_ktop 30 "$T/r.out" "$T/r.err" -b -o "$path" "${EV[@]}" "$@"
	[ "$KTOP_RC" = 1 ] || fail "-o $path $*: exit $KTOP_RC, not 1: $(head -c 400 "$T/r.err")"
	[ "$(wc -l <"$T/r.err")" = 1 ] || fail "-o $path $*: not one line: $(head -c 800 "$T/r.err")"
	grep -qxF "ktop: cannot write $path: $cause" "$T/r.err" ||
		fail "-o $path $*: $(cat "$T/r.err") (wanted: $cause)"
}

for force in "" --force; do
	refuse "$S/fifo.dat" "it is a FIFO, not a regular file: name a new file" $force
	refuse "$S/null.dat" "it is a character device, not a regular file: name a new file" $force
	refuse "$S/link.dat" "it is a symbolic link: name the file itself, or a new one" $force
	refuse "$S/nobody.dat" \
		"it belongs to uid 65534 in a shared sticky directory: name a new file" $force
done
log "$(cat "$T/r.err")"
[ -p "$S/fifo.dat" ] && [ -c "$S/null.dat" ] && [ -L "$S/link.dat" ] ||
	fail "the FIFO, the device or the link was replaced"
[ "$(cat "$T/precious")" = "root's own precious file" ] || fail "the link's target was written"
[ "$(cat "$S/nobody.dat")" = "nobody's file" ] && [ "$(stat -c %u "$S/nobody.dat")" = 65534 ] ||
	fail "nobody's file was written or replaced"

refuse "$S/own.dat" "it exists: name a new file, or run ktop with --force to replace it"
[ "$(cat "$S/own.dat")" = old ] || fail "own.dat was written without --force"

# asked: replaced by a whole recording; a new file; both 0600
for f in own new; do
	run_ktop 30 "$T/$f.out" "$T/$f.err" -b -o "$S/$f.dat" --force "${EV[@]}"
	[ "$KTOP_RC" = 0 ] || fail "-o $S/$f.dat --force: exit $KTOP_RC: $(head -c 400 "$T/$f.err")"
	[ "$(head -c 10 "$S/$f.dat" | tail -c 7)" = tracing ] || fail "$f.dat is not a trace.dat"
	[ "$(stat -c %a "$S/$f.dat")" = 600 ] || fail "$f.dat has mode $(stat -c %a "$S/$f.dat")"
done
left=$(cd "$S" && ls -A | tr '\n' ' ')
[ "$left" = "fifo.dat link.dat new.dat nobody.dat null.dat own.dat " ] || fail "left in $S: $left"

# a disk too small for the recording's header: the file there stays as it was
mkdir "$T/tiny" && mount -t tmpfs -o size=64k tmpfs "$T/tiny" || fail "cannot mount a tmpfs"
echo old >"$T/tiny/own.dat"
run_ktop 30 "$T/r.out" "$T/r.err" -b -o "$T/tiny/own.dat" --force "${EV[@]}"
[ "$KTOP_RC" = 1 ] || fail "-o on a full disk: exit $KTOP_RC: $(head -c 400 "$T/r.err")"
grep -q "^ktop: cannot write $T/tiny/own.dat: No space left on device" "$T/r.err" ||
	fail "-o on a full disk: $(cat "$T/r.err")"
[ "$(cat "$T/tiny/own.dat")" = old ] || fail "the file on the full disk was changed"
[ "$(ls -A "$T/tiny")" = own.dat ] || fail "left on the full disk: $(ls -A "$T/tiny")"
log "$(cat "$T/r.err")"
assert_clean
pass
