# Issue #35: the Debian package (debian/) and shell completion (completion/).
# Bash and zsh completion, called as the shells call them: options, kernel values, files.
LIVE_TESTS += tests/package/completion.sh
# The version in one place: configure.ac's AC_INIT, debian/changelog and ktop --version agree.
TESTS += tests/package/version.sh
# The package's own checks take minutes (a full build): ./dev deb runs deb.sh, ./dev fresh
# also installed.sh in a pristine root.
EXTRA_DIST += tests/package/version.sh tests/package/deb.sh tests/package/installed.sh debian
