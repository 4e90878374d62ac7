#!/bin/bash
# Bad recordings: every truncated, corrupt or foreign input to ktop -i ends with exit status
# 1 and one line naming the file and what is wrong (the section and offset), never a crash
# or a sanitizer report, in batch mode and in the explorer alike. The lines are compared with
# tests/record/bad_files.golden; the files are cut and patched from a deterministic
# recording (tests/helpers/mkrecording), so the offsets never change.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_python
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"
GOLDEN=$KTOP_SRCDIR/tests/record/bad_files.golden

cd "$T" || fail "cannot enter $T"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" good.dat 200 2 || fail "mkrecording failed"
python3 - <<'PY' || fail "cannot make the bad files"
import struct
good = open("good.dat", "rb").read()
def put(name, data):
    open(name, "wb").write(data)
def patched(off, data):
    return good[:off] + data + good[off + len(data):]
put("empty.dat", b"")
put("garbage.dat", bytes(range(256)) * 4)
put("text.dat", b"# tracer: nop\n#\n  bash-1  [000] ...  1.0: sys_enter: NR 0\n")
put("magic.dat", patched(1, b"\x09"))
put("version5.dat", patched(10, b"5"))
put("bigendian.dat", patched(12, b"\x01"))
put("pagesize.dat", patched(14, struct.pack("<I", 3000)))
# header_page's size says 1 TiB
hp = good.index(b"header_page\0") + 12
put("hugesize.dat", patched(hp, struct.pack("<Q", 1 << 40)))
# "header_event" misspelt
he = good.index(b"header_event\0")
put("badtag.dat", patched(he, b"header_evenX"))
# the trace clock's size, after the per-CPU table, says 4 GiB
fly = good.index(b"flyrecord\0") + 10
put("clocksize.dat", patched(fly + 2 * 16, struct.pack("<Q", 1 << 32)))
for n in (5, 11, 17, 40, 300, 1500, 4000, len(good) - 4096, len(good) - 1):
    put("cut%d.dat" % n, good[:n])
PY
mkdir adir.dat
cp good.dat unreadable.dat
chmod 000 unreadable.dat

# ktop -b -i FILE (or, with "ui", the explorer): exit status 1 and one line on stderr.
try()
{
	local f=$1 mode=${2:-batch} rc err
	if [ "$mode" = ui ]; then
		TERM=xterm script -qec "$KTOP -i $f" /dev/null </dev/null >"out.$f.txt" 2>"err.$f.txt"
		rc=$?
		# script(1) merges the streams: the line is on its output
		tr -d '\r' <"out.$f.txt" >"err.$f.txt"
	elif [ "$f" = unreadable.dat ] && [ "$(id -u)" = 0 ]; then
		# root reads anything: ask as nobody
		setpriv --reuid=65534 --regid=65534 --clear-groups "$KTOP" -b -i "$f" \
			>"out.$f.txt" 2>"err.$f.txt"
		rc=$?
	else
		"$KTOP" -b -i "$f" >"out.$f.txt" 2>"err.$f.txt"
		rc=$?
	fi
	[ "$rc" = 1 ] || fail "ktop -i $f ($mode) exited $rc, not 1: $(head -c 400 "err.$f.txt")"
	[ "$(wc -l <"err.$f.txt")" = 1 ] ||
		fail "ktop -i $f ($mode) did not print exactly one line: $(head -c 800 "err.$f.txt")"
	[ -s "out.$f.txt" ] && [ "$mode" = batch ] && fail "ktop -i $f printed events: $(head -c 200 "out.$f.txt")"
	cat "err.$f.txt"
}

files="empty.dat garbage.dat text.dat magic.dat version5.dat bigendian.dat pagesize.dat
hugesize.dat badtag.dat clocksize.dat cut5.dat cut11.dat cut17.dat cut40.dat cut300.dat cut1500.dat
cut4000.dat cut16384.dat cut20479.dat adir.dat missing.dat unreadable.dat"
for f in $files; do
	try "$f"
done >actual 2>&1 || { cat actual >&2; fail "see above"; }
diff -u "$GOLDEN" actual >&2 || fail "the error lines differ from $GOLDEN"
# The explorer says the same before it takes the terminal.
try cut300.dat ui >ui.txt || fail "$(cat ui.txt)"
grep -qxF "$(grep '^ktop: cut300.dat' "$GOLDEN")" ui.txt || fail "explorer: $(cat ui.txt)"
# The good file itself opens.
"$KTOP" -b -i good.dat >good.txt 2>good.err || fail "the good file: $(cat good.err)"
grep -q '^# ktop: events=200 ' good.txt || fail "the good file: $(tail -n1 good.txt)"
log "$(wc -l <actual) bad files, one line each, as in the golden"
pass
