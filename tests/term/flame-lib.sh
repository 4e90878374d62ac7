# shellcheck shell=bash disable=SC2034
# What the flame graph pane's terminal tests (tests/term/flame_*.sh) share: tests/lib.sh,
# folded files of known shares in $T (the tests' working directory), the pane started on one
# at 80x24, and the screen read back as runs of cells. No tracefs: ktop --flame reads a file
# only. Sourced by each test, first.

# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# shares.folded: 1050 samples; "hot" frames hold 750 of them (71.4%), 50 of those on a
# stack with two matching frames (bg;hot_spin;hot), counted once.
#   all 1050: app 900 (main 900: compute 700 (cold 100, hot 600), io 200 (read_[k] 200)),
#             bg 150 (hot_spin 50 (hot 50), loop 100 (hot 100))
flame_files()
{
	cat >"$T/shares.folded" <<-'EOT'
	# a comment, as stackcollapse tools may write
	app;main;compute;hot 600
	app;main;compute;cold 100
	app;main;io;read_[k] 200
	bg;loop;hot 100
	bg;hot_spin;hot 50
	EOT
	# before/after: grew grows from 25% to 75% of the samples, shrank the other way
	printf 'app;main;grew 25\napp;main;shrank 75\n' >"$T/before.folded"
	printf 'app;main;grew 75\napp;main;shrank 25\n' >"$T/after.folded"
}

# flame_start [ENV=VAL...] -- ARGS...: ktop ARGS at 80x24, its flame pane on the screen.
flame_start()
{
	tmux_start 80 24 "$@"
	expect_text "Flame graph: " 10 "ktop $* showed no flame graph"
}

# flame_runs LINE: screen line LINE (1-based) as runs of cells that share their colours and
# reverse video, one per line: "X W BG TEXT" (X 0-based, BG the SGR background 40-47 or
# "-" for the default, plus "r" when reversed; TEXT without its trailing blanks).
flame_runs()
{
	tmux_screen -e -N | LC_ALL=C awk -v want="$1" '
	function flush() {
		if (w && NR == want) { t = text; sub(/ +$/, "", t); printf "%d %d %s %s\n", x0, w, key, t }
		w = 0; text = ""
	}
	BEGIN { bg = "-"; rev = "" }
	NR <= want {
		# tmux writes changes only: the colours go on from the lines above
		line = $0; x = 0; key = ""; w = 0; text = ""
		while (length(line)) {
			if (substr(line, 1, 2) == "\033[" && match(line, /^\033\[[0-9;]*m/)) {
				n = split(substr(line, 3, RLENGTH - 3), p, ";")
				if (!n) { n = 1; p[1] = 0 }
				for (i = 1; i <= n; i++) {
					v = p[i] + 0
					if (v == 0) { bg = "-"; rev = "" }
					else if (v >= 40 && v <= 47) bg = v
					else if (v == 49) bg = "-"
					else if (v == 7) rev = "r"
					else if (v == 27) rev = ""
					else if (v == 38 || v == 48) i += 2
				}
				line = substr(line, RLENGTH + 1)
				continue
			}
			if (bg rev != key) { flush(); key = bg rev; x0 = x }
			# a UTF-8 continuation byte is no cell of its own (the edge of a frame)
			c = substr(line, 1, 1); text = text c
			if (c < "\200" || c >= "\300") { w++; x++ }
			line = substr(line, 2)
		}
		if (NR == want)
			flush()
	}'
}

# flame_row_of TEXT: the first screen line (1-based) holding TEXT.
flame_row_of() { tmux_screen | grep -nF -- "$1" | head -1 | cut -d: -f1; }

# flame_expect_run LINE "X W BG TEXT" WHAT: that run is on line LINE (within 3 s: a frame
# may reach the terminal in pieces).
_flame_has_run() { flame_runs "$1" | grep -qxF -- "$2"; }
flame_expect_run()
{
	if ! wait_until 3 _flame_has_run "$1" "$2"; then
		log "line $1 as runs:"
		flame_runs "$1" | sed 's/^/  | /' >&2
		fail "$3: no run '$2' on line $1"
	fi
}

require_ktop
require_tmux
cd "$T" || fail "cannot enter $T"
flame_files

# col_of LINE TEXT: the column (0-based) where TEXT starts on screen line LINE, or nothing;
# expect_col LINE TEXT COL WHY: fails with WHY unless it comes to start at COL within 3 s.
col_of()
{
	local LC_ALL=C.UTF-8 l # cells: the frames' edge is one character of three bytes

	l=$(tmux_screen | sed -n "$1p")
	case $l in *"$2"*) l=${l%%"$2"*}; echo "${#l}" ;; esac
}
_col_is() { [ "$(col_of "$1" "$2")" = "$3" ]; }
expect_col()
{
	wait_until 3 _col_is "$1" "$2" "$3" && return 0
	tmux_screen | sed 's/^/  | /' >&2
	fail "$4: '$2' is at column '$(col_of "$1" "$2")' of line $1, not $3"
}
