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
# The good file itself opens.
"$KTOP" -b -i good.dat >good.txt 2>good.err || fail "the good file: $(cat good.err)"
grep -q '^# ktop: events=200 ' good.txt || fail "the good file: $(tail -n1 good.txt)"
log "$(wc -l <actual) bad files, one line each, as in the golden"
pass
