#!/bin/bash
# The version lives in configure.ac's AC_INIT; debian/changelog's newest entry and
# ktop --version must say the same (debian/rules also refuses to build otherwise).
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
ac=$(sed -n 's/^AC_INIT(\[ktop\], \[\([^]]*\)\].*/\1/p' "$KTOP_SRCDIR/configure.ac")
deb=$(sed -n '1s/^ktop (\([^)-]*\)\(-[^)]*\)\{0,1\}).*/\1/p' "$KTOP_SRCDIR/debian/changelog")
[ -n "$ac" ] || fail "no version in configure.ac's AC_INIT"
[ "$deb" = "$ac" ] || fail "debian/changelog's newest entry is '$deb', configure.ac's AC_INIT" \
	"says '$ac': add an entry (dch -v $ac)"
# The first line: a build with test hooks says so on a second.
v=$("$KTOP" --version | head -n 1)
[ "$v" = "ktop $ac" ] || fail "ktop --version says '$v', not 'ktop $ac'"
pass
