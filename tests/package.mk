# Issue #35: the Debian package (debian/) and shell completion (completion/).
# Bash and zsh completion, called as the shells call them: options, kernel values, files.
LIVE_TESTS += tests/package/completion.sh
