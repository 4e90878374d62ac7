#!/bin/bash
# Bad recordings: every truncated, corrupt or foreign input to ktop -i ends with exit status
# 1 and one line naming the file and what is wrong (the section and offset), never a crash
# or a sanitizer report, in batch mode and in the explorer alike. The lines are compared with
# tests/record/bad_files.golden; the files are cut and patched from a deterministic
# recording (tests/helpers/mkrecording), so the offsets never change.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=bad-lib.sh
. "$(dirname "$0")/bad-lib.sh"
require_ktop
GOLDEN=$KTOP_SRCDIR/tests/record/bad_files.golden

cd "$T" || fail "cannot enter $T"
make_bad_files
# version 7, not compressed, whose CPU 0's second page says it holds 128 MiB (trace-cmd
# convert --file-version 7 of mkrecording's file, patched; a seed of the reader's fuzzer):
# its pages are checked as version 6's
cp "$KTOP_SRCDIR/tests/fuzz/corpus/recording/v7-page-commit-too-big.dat" v7page.dat ||
	fail "no v7-page-commit-too-big.dat in the recording fuzzer's seeds"
BAD_FILES="$BAD_FILES v7page.dat"
# Version 7 compressed (zstd) and with an instance's buffer (trace-cmd record -B): made by
# trace-cmd convert from good.dat and from good.dat with CPU 0's second page saying it holds
# 128 MiB, then patched: a chunk's size lies (1 GiB; one page where two are packed: that one
# crashed ktop), and the top-level buffer renamed "i" (its clock "mono" cut to "mon", the
# same bytes), which makes the file's one buffer an instance's, as trace-cmd report shows;
# and that instance converted back to version 6.
command -v trace-cmd >/dev/null || fail "no trace-cmd (./dev installs it) to write version 7 files"
python3 - <<'PY' || fail "cannot make the bad page"
import struct
good = open("good.dat", "rb").read()
cpu0 = struct.unpack("<Q", good[good.index(b"flyrecord\0") + 10:][:8])[0]
open("badpage6.dat", "wb").write(good[:cpu0 + 4096 + 8] + struct.pack("<Q", 0x07ffffff) +
                                  good[cpu0 + 4096 + 16:])
PY
for z in none zstd; do
	for f in good badpage6; do
		trace-cmd convert -i $f.dat -o "v7-$z-$f.dat" --file-version 7 --compression $z \
			>convert.log 2>&1 || fail "trace-cmd convert $f.dat to $z: $(tail -n 3 convert.log)"
	done
done
python3 - <<'PY' || fail "cannot patch the version 7 files"
import struct
def patch(src, dst, at, data):
    b = open(src, "rb").read()
    open(dst, "wb").write(b[:at] + data + b[at + len(data):])
def instance(src, dst):
    b = open(src, "rb").read()
    pat = b"\x00mono\x00" + struct.pack("<I", 4096)
    assert b.count(pat) == 1, src
    open(dst, "wb").write(b.replace(pat, b"i\x00mon\x00" + struct.pack("<I", 4096)))
# CPU 0's compressed data at 4096: chunk count, then the chunk's packed size and size
patch("v7-zstd-good.dat", "v7zsize.dat", 4096 + 8, struct.pack("<I", 1 << 30))
patch("v7-zstd-good.dat", "v7zshort.dat", 4096 + 8, struct.pack("<I", 4096))
for z in ("none", "zstd"):
    instance("v7-%s-good.dat" % z, "v7-%s-inst.dat" % z)
    instance("v7-%s-badpage6.dat" % z, "v7i%spage.dat" % z)
import shutil
shutil.copy("v7-zstd-badpage6.dat", "v7zpage.dat")
PY
# version 6 with the instance: trace-cmd convert back
for f in v7-none-inst v7inonepage; do
	trace-cmd convert -i $f.dat -o "v6-$f.dat" --file-version 6 >convert.log 2>&1 ||
		fail "trace-cmd convert $f.dat to version 6: $(tail -n 3 convert.log)"
done
mv v6-v7inonepage.dat v6ipage.dat
BAD_FILES="$BAD_FILES v7zpage.dat v7zsize.dat v7zshort.dat v7inonepage.dat v7izstdpage.dat
v6ipage.dat"

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

for f in $BAD_FILES; do
	try "$f"
done >actual 2>&1 || { cat actual >&2; fail "see above"; }
diff -u "$GOLDEN" actual >&2 || fail "the error lines differ from $GOLDEN"
# The explorer says the same before it takes the terminal.
try cut300.dat ui >ui.txt || fail "$(cat ui.txt)"
grep -qxF "$(grep '^ktop: cut300.dat' "$GOLDEN")" ui.txt || fail "explorer: $(cat ui.txt)"
# The good files themselves open: all 200 events, from the top level or the instance.
for f in good.dat v7-none-good.dat v7-zstd-good.dat v7-none-inst.dat v7-zstd-inst.dat \
	v6-v7-none-inst.dat; do
	"$KTOP" -b -i "$f" >good.txt 2>good.err || fail "the good file $f: $(cat good.err)"
	grep -q '^# ktop: events=200 ' good.txt || fail "the good file $f: $(tail -n1 good.txt)"
done
log "$(wc -l <actual) bad files, one line each, as in the golden"
pass
