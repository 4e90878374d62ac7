#!/bin/bash
# Bash and zsh completion (completion/ktop, completion/_ktop), called as the shells call
# them: the options are every name of src/app/options.c's table and every long option ktop
# --help prints; the values are the kernel's (available_events, available_tracers, read
# here), the -H host's (through ssh, here a stand-in on PATH), the source's tables (histogram
# kinds, themes, presets) and the file system's.
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
command -v zsh >/dev/null || skip "no zsh (apt-get install zsh, or run ./dev deps)"
src=$KTOP_SRCDIR

# bash_complete WORD...: the replies of ktop's bash completion function for the command
# line WORD... (the last one is under the cursor), one a line, sorted.
bash_complete()
{
	bash --norc --noprofile -c '
		. "$1"; shift
		[ -z "${WB:-}" ] || COMP_WORDBREAKS=$WB
		fn=$(complete -p ktop | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		"$fn" ktop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$src/completion/ktop" "$KTOP" "$@" |
		sed '/^$/d' | sort
}

# zsh_complete WORD...: the same through the zsh function, compadd and its helpers stood in
# for (they only work inside a completion widget).
zsh_complete()
{
	zsh -f -c '
		comp=$1; shift
		reply=()
		compadd() { while [[ $1 != -- ]]; do shift; done; shift; reply+=("$@"); }
		compset() { PREFIX=${PREFIX#*=}; }
		_files() { reply+=(FILES); }
		words=("$@"); CURRENT=$#; PREFIX=$words[CURRENT]
		source $comp
		print -rl -- $reply' zsh "$src/completion/_ktop" "$KTOP" "$@" | sed '/^$/d' | sort
}

same() # what expected got
{
	[ "$2" = "$3" ] && return
	fail "$1: expected [${2//$'\n'/ }] got [${3//$'\n'/ }]"
}

# Options: the long names of the rows of src/app/options.c, less the alias --no-colour; --help
# must print them all.
table=$(sed -n 's/^\tROW("\([a-z-]*\)", .*/--\1/p' "$src/src/app/options.c" | grep -vx -- --no-colour | sort)
[ "$(echo "$table" | wc -l)" -gt 50 ] || fail "read only $(echo "$table" | wc -l) options from src/app/options.c"
helped=$("$KTOP" --help | grep -oE '^ {2,6}(-[A-Za-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u)
same "ktop --help's long options against src/app/options.c's table" "$table" "$helped"
same "bash: ktop --" "$table" "$(bash_complete --)"
same "zsh: ktop --" "$table" "$(zsh_complete --)"
same "bash: ktop --th" "--theme" "$(bash_complete --th)"

# Histogram kinds: the built-in names of src/backend/bpf/histspec.c and the generic prefixes.
kinds=$( (sed -n '/^} builtins\[\] = {/,/^};/s/^\t{ "\([a-z-]*\)".*/\1/p' "$src/src/backend/bpf/histspec.c"
	printf '%s\n' func: field: latency: usdt:) | sort)
[ "$(echo "$kinds" | wc -l)" -ge 12 ] || fail "read only $(echo "$kinds" | wc -l) histogram kinds"
same "bash: --hist" "$kinds" "$(bash_complete --hist '')"
same "zsh: --hist" "$kinds" "$(zsh_complete --hist '')"
same "bash: --hist ru" "runq-latency" "$(bash_complete --hist ru)"
same "bash: --hist=ru (one word)" "runq-latency" "$(bash_complete --hist=ru)"
same "bash: --hist=ru (three words)" "runq-latency" "$(bash_complete --hist = ru)"

# Themes: the source's theme files (an uninstalled ktop reads them) and "list".
themes=$( (for t in "$src"/themes/*.theme; do t=${t##*/}; echo "${t%.theme}"; done; echo list) | sort)
same "bash: --theme" "$themes" "$(bash_complete --theme '')"
same "zsh: --theme" "$themes" "$(zsh_complete --theme '')"

# Presets: src/ui/ktoprc.c's built-ins and the user's own file.
mkdir -p "$XDG_CONFIG_HOME/ktop/profiles"
echo 'event = sched:sched_switch' >"$XDG_CONFIG_HOME/ktop/profiles/mine"
presets=$( (sed -n '/^} profiles\[\] = {/,/^};/s/^\t{ "\([a-z]*\)",$/\1/p' "$src/src/ui/ktoprc.c"; echo mine) | sort)
[ "$(echo "$presets" | wc -l)" -ge 6 ] || fail "read only $(echo "$presets" | wc -l) presets"
same "bash: -P" "$presets" "$(bash_complete -P '')"
same "zsh: --preset" "$presets" "$(zsh_complete --preset '')"

# Files for -i, -o, --flame.
touch "$T/run1.dat" "$T/run2.dat" "$T/stacks.folded"
same "bash: -i" "$T/run1.dat
$T/run2.dat" "$(bash_complete -i "$T/run")"
same "bash: --flame" "$T/stacks.folded" "$(bash_complete --flame "$T/st")"
same "bash: -o" "$T/run1.dat" "$(bash_complete -o "$T/run1")"
same "zsh: -i" "FILES" "$(zsh_complete -i '')"

# The kernel's values.
tracers=$(tr ' ' '\n' <"$TRACEFS/available_tracers" | sed '/^$/d' | sort)
same "bash: -t" "$tracers" "$(bash_complete -t '')"
same "zsh: --tracer" "$tracers" "$(zsh_complete --tracer '')"
sched=$( (grep '^sched:' "$TRACEFS/available_events"; echo 'sched:*') | sort)
[ "$(echo "$sched" | wc -l)" -gt 5 ] || fail "this kernel lists no sched events"
same "bash: -e sched: (one word)" "$sched" "$(WB=" " bash_complete -e sched:)"
same "zsh: -e sched:" "$sched" "$(zsh_complete -e sched: | grep '^sched:')"
# bash splits sched:sched_sw at ':' by default and shows what follows it.
same "bash: -e sched : sched_sw" "$(grep '^sched:sched_sw' "$TRACEFS/available_events" |
	sed 's/^sched://' | sort)" "$(bash_complete -e sched : sched_sw)"
bash_complete --event sc | grep -qx 'sched:\*' || fail "bash: --event sc does not offer sched:*"
same "bash: --off-cpu=" "raw_tp
tp_btf
tracepoint" "$(bash_complete --off-cpu=)"

# -H HOST: the host's events through ssh, never prompting (a stand-in ssh answers).
mkdir -p "$T/bin"
cat >"$T/bin/ssh" <<EOS
#!/bin/sh
echo "\$*" >>"$T/ssh.args"
printf 'remote:only_there\nremote:also_there\n'
EOS
chmod +x "$T/bin/ssh"
same "bash: -H db1 -e rem" "remote:*
remote:also_there
remote:only_there" "$(PATH=$T/bin:$PATH bash_complete -H db1 -e rem)"
same "zsh: --host db1 -e rem" "remote:*
remote:also_there
remote:only_there" "$(PATH=$T/bin:$PATH zsh_complete --host db1 -e rem)"
grep -q -- '-o BatchMode=yes .* db1 cat /sys/kernel/tracing/available_events' "$T/ssh.args" ||
	fail "ssh was not asked for db1's events without a prompt: $(cat "$T/ssh.args")"
pass
