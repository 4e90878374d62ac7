#!/bin/bash
# tests/package/deb.sh KTOP_DEB: the package ./dev deb built holds the binary, the man page,
# the docs, every theme of the source, bash and zsh completion; it depends on the package of
# every library the binary links (shlibs); lintian finds no error in it. Run by ./dev deb
# and ./dev fresh (building the package takes minutes: not a make check test).
set -eu
deb=${1:?usage: tests/package/deb.sh ktop_VERSION_ARCH.deb}
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "deb: FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ktop-deb.XXXXXX")
trap 'rm -rf "$T"' EXIT

dpkg-deb -x "$deb" "$T/root" || fail "$deb is not a Debian package"
for f in usr/bin/ktop usr/share/man/man1/ktop.1.gz usr/share/doc/ktop/copyright \
	usr/share/doc/ktop/README.md.gz usr/share/doc/ktop/README.Debian \
	usr/share/bash-completion/completions/ktop usr/share/zsh/vendor-completions/_ktop \
	usr/libexec/ktop/ktop-agent; do
	[ -s "$T/root/$f" ] || fail "$deb has no /$f"
done
for t in "$src"/themes/*.theme; do
	cmp -s "$t" "$T/root/usr/share/ktop/themes/${t##*/}" ||
		fail "$deb has not the source's themes/${t##*/}"
done
version=$(sed -n 's/^AC_INIT(\[ktop\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] ||
	fail "$deb is version $(dpkg-deb -f "$deb" Version), configure.ac says $version"

# The agent -H sends runs where no library is: static, and no bigger than docs/remote.md says.
objdump -p "$T/root/usr/libexec/ktop/ktop-agent" | grep -q NEEDED &&
	fail "ktop-agent needs shared libraries: $(objdump -p "$T/root/usr/libexec/ktop/ktop-agent" | grep NEEDED)"
[ "$(stat -c %s "$T/root/usr/libexec/ktop/ktop-agent")" -le $((4 << 20)) ] ||
	fail "ktop-agent is $(stat -c %s "$T/root/usr/libexec/ktop/ktop-agent") bytes, over 4 MiB"

# Every library the binary needs, by its package, in Depends.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in $(objdump -p "$T/root/usr/bin/ktop" | sed -n 's/^ *NEEDED *//p'); do
	path=$(ldconfig -p | sed -n "s|^\t$lib (libc6,x86-64) => ||p" | head -n 1)
	[ -n "$path" ] || fail "ktop needs $lib, which this machine has not"
	pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || pkg=$(dpkg -S "$path" | sed -n '1s/:.*//p')
	case ", $depends" in
	*", $pkg "* | *", $pkg,"* | *", $pkg") ;;
	*) fail "ktop needs $lib (package $pkg), but Depends is: $depends" ;;
	esac
done

lintian --fail-on error "$deb" >"$T/lintian" 2>&1 || { cat "$T/lintian" >&2; fail "lintian: errors"; }
echo "deb: PASS: $(wc -c <"$deb") bytes; lintian: $(grep -c '^[EW]:' "$T/lintian" || true) warnings"
