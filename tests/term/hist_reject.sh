#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A verifier rejection in the pane, the rest of the session untouched: ktop runs at 160x32
# with a stream of a workload's clock_nanosleep calls and a runq-latency pane; with
# KTOP_TEST_BPF_OBJECT=syslat:FILE, syscall-latency's object is the test one the verifier
# refuses (tests/helpers/verifier_reject.bpf.c). H builds syscall-latency,via=tp_btf from the
# keyboard: its pane shows the same one line batch mode prints (the histogram, the variant,
# "verifier" and the verifier's last lines), the status line says it too; ktop holds exactly
# the programs and maps it held before; the stream and the runq-latency pane keep moving;
# Esc closes the refused pane; q quits cleanly and nothing of ktop's is left.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_workload
require_reject_obj
require_python
SPEC='syscall-latency,via=tp_btf'

# The golden line, from batch mode with the same object (exit 1, one line).
KTOP_ENV=(KTOP_NO_GUARD=1 "KTOP_TEST_BPF_OBJECT=syslat:$KTOP_REJECT_OBJ")
run_ktop 20 "$T/b.out" "$T/b.err" -b --hist "$SPEC" --duration 1
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/b.err")" = 1 ] || fail "batch: exit $KTOP_RC: $(cat "$T/b.err")"
golden=$(sed 's/^ktop: //' "$T/b.err")
grep -Eq "^$SPEC: tp_btf: verifier: R[0-9]+ invalid mem access 'map_value_or_null' / processed [0-9]+ insns" <<<"$golden" ||
	fail "batch: not the verifier's refusal: $golden"

"$KTOP_WORKLOAD" sleep 1 1000000 ktop-hist-rj >/dev/null &
CLEANUP_PIDS+=("$!")

mkdir -p "$T/xdg"
tmux_start 160 32 "XDG_CONFIG_HOME=$T/xdg" "KTOP_TEST_BPF_OBJECT=syslat:$KTOP_REJECT_OBJ" -- \
	-d 1 -e syscalls:sys_enter_clock_nanosleep --comm ktop-hist-rj --hist runq-latency
pid=$KTOP_PID
expect_text "Hist runq-latency \[tp_btf\]" 10 "no runq-latency pane"
expect_text "ktop-hist-[^ ]*[0-9]+ +(syscalls:)?sys_enter_clock_nanosleep" 10 "the stream shows no clock_nanosleep of the workload"
wait_progs "$pid" 3
mapfile -t PROGS < <(prog_ids "$pid")
mapfile -t MAPS < <(map_ids "$pid")

# ---- the refusal, from the keyboard ---------------------------------------------------------------
tmux_keys H
expect_text "histogram> " 5 "H opened no prompt"
tmux_keys C-u
tmux_text "$SPEC"
tmux_keys Enter
expect_text "(^|│) Histogram" 10 "no pane for the refused histogram"
# the reason is wrapped over the pane's rows, from its title to its hint, wherever the layout
# put the pane: read them as one text (spaces aside: a row may end on one)
_pane_reason()
{
	tmux_screen | python3 -c '
import sys
rows, col, text = sys.stdin.read().split("\n"), None, ""
for r in rows:
    if col is None:
        c = r.find(" Histogram")
        if c >= 0 and r[c + 10:c + 11] in ("", " ", "\u2502"):
            col = c
        continue
    seg = r[col:].split("\u2502")[0].strip()
    if seg.startswith("Enter: build"):
        break
    text += seg
print(text.replace(" ", ""))'
}
_reason_is_golden() { [ "$(_pane_reason)" = "$(tr -d ' ' <<<"$golden")" ]; }
wait_until 5 _reason_is_golden || fail "the pane does not show the batch line:
 pane:   $(_pane_reason)
 golden: $golden"
# the status line: the same line, as far as the screen is wide
expect_text "^${SPEC}: tp_btf: verifier: R[0-9]+ invalid mem access" 3 "the status line does not say why"

# ---- nothing else changed ---------------------------------------------------------------------------
[ "$(prog_ids "$pid")" = "$(printf '%s\n' "${PROGS[@]}")" ] ||
	fail "ktop's programs changed: before ${PROGS[*]}, now $(prog_ids "$pid" | tr '\n' ' ')"
[ "$(map_ids "$pid")" = "$(printf '%s\n' "${MAPS[@]}")" ] ||
	fail "ktop's maps changed (the refused object's left behind?): before ${MAPS[*]}, now $(map_ids "$pid" | tr '\n' ' ')"
expect_text "Hist runq-latency \[tp_btf\]" 3 "the runq-latency pane is gone"
runq() { tmux_screen | grep -Eo 'all [0-9]+ keys: n=[0-9]+ avg=[^ ]+' | head -1; }
held() { tmux_screen | grep -Eo '[0-9]+ held' | head -1; }
r1=$(runq) h1=$(held)
[ -n "$r1" ] && [ -n "$h1" ] || fail "no runq-latency figures or stream count on the screen: $(tmux_screen)"
_moved() { [ "$(runq)" != "$r1" ] && [ "$(held)" != "$h1" ]; }
wait_until 8 _moved || fail "after the refusal the session stood still: '$r1' '$h1' -> '$(runq)' '$(held)'"

# ---- Esc closes the refused pane, the others stay; q leaves nothing ----------------------------------
tmux_keys Escape
wait_for_no_text "(^|│) Histogram" 3 || fail "Esc did not close the refused pane"
expect_text "Hist runq-latency \[tp_btf\]" 3 "Esc closed the runq-latency pane too"
assert_no_sanitizer_on_screen
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not quit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_progs_gone "${PROGS[@]}"
assert_clean
pass
