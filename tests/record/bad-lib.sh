# shellcheck shell=bash
# Bad recordings for the tests of every path that opens a trace.dat (bad_files.sh: ktop -i;
# tests/term/tree_bad_files.sh: the call-tree pane's O). Sourced after tests/lib.sh.

# The file names, in the order of tests/record/bad_files.golden.
BAD_FILES="empty.dat garbage.dat text.dat magic.dat version5.dat bigendian.dat pagesize.dat
hugesize.dat badtag.dat clocksize.dat cut5.dat cut11.dat cut17.dat cut40.dat cut300.dat cut1500.dat
cut4000.dat cut16384.dat cut20479.dat adir.dat missing.dat unreadable.dat"

# make_bad_files: in the current directory, good.dat (a deterministic recording from
# tests/helpers/mkrecording, so the offsets never change) and the bad files cut and patched
# from it.
make_bad_files()
{
	local mk=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
	[ -x "$mk" ] || skip "no $mk (make check builds it)"
	require_python
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$mk" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" good.dat 200 2 ||
		fail "mkrecording failed"
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
}
