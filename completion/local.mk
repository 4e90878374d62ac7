# Shell completion (completion/ktop.bash, completion/_ktop): where Debian's bash-completion
# and zsh look for a package's files.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = completion/ktop
zshcompletiondir = $(datadir)/zsh/vendor-completions
dist_zshcompletion_DATA = completion/_ktop
