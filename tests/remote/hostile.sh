#!/bin/bash
# A hostile agent cannot crash the viewer (issue 36): a made-up agent (tests/remote/fake_peer.py
# events WORD) sends, after a valid hello, a page whose commit word says 0x07ffffff bytes, a
# second hello of another CPU count, formats no request named, a format whose name climbs out
# of the mirror directory, more formats than a kernel has (by count, by bytes) and one larger
# than any event's. Each time -b --via must end with exit 1 and one line naming the agent, what
# it did wrong (not the request pending) and the way out: no sanitizer report, no crash,
# nothing left in $TMPDIR. docs/security.md.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent

# what the agent did wrong, not the request pending (-e ...), and the way out
WAYOUT="(is ktop on fakehost damaged or hostile? reinstall it there, or send this ktop's own agent with --push)"

# hostile WORD SPEC LINE [ARG...]: starts ktop against the agent's WORD with -e SPEC and ARGs
# (-o: the agent's files are mirrored in a $TMPDIR of its own); check_hostile WORD then wants
# its stderr to be the one line "... LINE". They run side by side: each starts in seconds.
declare -A LINE SPEC PID
hostile()
{
	local word=$1
	SPEC[$word]=$2
	LINE[$word]=$3
	shift 3
	mkdir "$T/tmp-$word"
	KTOP_ENV=(TMPDIR="$T/tmp-$word")
	start_ktop "$T/$word.out" "$T/$word.err" -b -q --via "$FAKE $word" -e "${SPEC[$word]}" \
		--duration 0.5 "$@"
	KTOP_ENV=()
	PID[$word]=$KTOP_PID
}

check_hostile()
{
	local word=$1
	wait_pid_exit "${PID[$word]}" 90 || fail "$word: ktop still running after 90 s"
	[ "$WAIT_RC" = 1 ] || fail "$word: exit $WAIT_RC, not 1; stderr: $(head -c 2000 "$T/$word.err")"
	[ "$(cat "$T/$word.err")" = "ktop: agent at fakehost ${LINE[$word]} $WAYOUT" ] ||
		fail "$word: stderr is not the one line '... ${LINE[$word]}': $(head -c 2000 "$T/$word.err")"
	[ -z "$(ls -A "$T/tmp-$word")" ] || fail "$word: left in \$TMPDIR: $(ls -R "$T/tmp-$word" | head)"
	log "$word: $(cat "$T/$word.err")"
}

hostile bigpage raw_syscalls:sys_enter \
	"sent a corrupt page for CPU 0: it says it holds 134217727 bytes, a page holds 4080" \
	-o "$T/bigpage.dat"
# -o: the recording's per-CPU arrays are the first hello's
hostile rehello raw_syscalls:sys_enter "sent a second hello" -o "$T/rehello.dat"
hostile unasked raw_syscalls:sys_enter \
	"sent the format of spam:ev0, which the viewer did not ask for" -o "$T/unasked.dat"
hostile climb 'raw_syscalls:*' \
	"sent a format named 'raw_syscalls:../../../../escape', not an event's name" \
	-o "$T/climb.dat"
# no -o: 16384 formats mirrored take a minute on a busy machine's disk
hostile manyformats 'raw_syscalls:*' "sent more formats than a kernel has: past 16384 of them"
hostile manybytes 'raw_syscalls:*' "sent more formats than a kernel has: past 32 MiB of them" \
	-o "$T/manybytes.dat"
hostile bigformat 'raw_syscalls:*' \
	"sent a format of 1048580 bytes for raw_syscalls:big, no event's is over 64 KiB" \
	-o "$T/bigformat.dat"
for w in bigpage rehello unasked climb manyformats manybytes bigformat; do
	check_hostile "$w"
done
pass
