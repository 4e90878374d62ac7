# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the bench scripts share (run.sh, hist.sh, recording.sh source it): figures over
# rounds, and the targets table of issue 17. Sourced, never run.
#
# Every configuration runs BENCH_ROUNDS times (default 3), the tools interleaved, and is
# reported as the median with the range: "0.91 (0.88-0.95)". A ratio is taken per round,
# between runs made next to each other, and then summarized, so one noisy run cannot move it.
#
# Targets: each script adds its rows with target_row; run.sh prints the table of all of them
# at the end (BENCH_TARGETS names the file that collects them), a script run alone prints
# its own. "met" / "NOT met" only ever describe a figure measured in this run; nothing fails
# on it.

ROUNDS=${BENCH_ROUNDS:-3}
case $ROUNDS in '' | *[!0-9]* | 0) echo "bench: BENCH_ROUNDS must be a positive number" >&2; exit 1 ;; esac

# summ V...: "median min max" of the numbers among V (anything else is skipped: a run that
# failed), nothing when there is none.
summ() {
	printf '%s\n' "$@" | awk '
		/^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ { v[n++] = $1 + 0 }
		END {
			if (!n)
				exit
			for (i = 1; i < n; i++)
				for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
					t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
				}
			m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
			printf "%.9g %.9g %.9g\n", m, v[0], v[n - 1]
		}'
}

# med V...: the median alone, or nothing.
med() {
	local s
	s=$(summ "$@")
	echo "${s%% *}"
}

# span FMT V...: "median (min-max)" in printf FORMAT, the median alone when all are equal
# or there is one, "-" when there is none.
span() {
	local fmt=$1 s
	shift
	s=$(summ "$@")
	[ -n "$s" ] || { echo -; return; }
	awk -v f="$fmt" -v s="$s" 'BEGIN {
		split(s, a, " ")
		m = sprintf(f, a[1]); lo = sprintf(f, a[2]); hi = sprintf(f, a[3])
		if (lo == hi) print m; else print m " (" lo "-" hi ")" }'
}

# ratios A B: per-round A[i] / B[i] of two space-separated lists of the same rounds ("-" where
# either is missing or B is 0).
ratios() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++)
			printf "%s ", (x[i] ~ /^[0-9.]+$/ && y[i] ~ /^[0-9.]+$/ && y[i] > 0) ? \
				sprintf("%.6f", x[i] / y[i]) : "-"
		print "" }'
}

# rotated I WORD...: WORDs starting at the I-th (mod their count): the order of the tools in
# round I, so that none always runs first or last.
rotated() {
	local i=$1 n k
	shift
	n=$#
	local -a w=("$@")
	for ((k = 0; k < n; k++)); do
		printf '%s ' "${w[$(((i + k) % n))]}"
	done
}

# target_row FIGURE MEASURED TARGET STATUS: one row of the targets table; STATUS is met,
# NOT met, or why it was not measured.
target_row() {
	local file=${BENCH_TARGETS:-$BENCH_OWN_TARGETS}
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$file"
}

# field NAME LINE: the number after NAME= in LINE, as a whole word ("lost_events=" is not
# "events=").
field() {
	grep -oE "(^|[^[:alnum:]_])$1=[0-9]+" <<<"$2" | head -n 1 | sed 's/.*=//'
}

# verdict OK: "met" when the awk condition OK holds, else "NOT met".
verdict() {
	[ "$(awk "BEGIN { print ($1) ? 1 : 0 }")" = 1 ] && echo met || echo "NOT met"
}

print_targets() {
	local file=$1
	[ -s "$file" ] || return 0
	echo ""
	echo "== targets (issues 17 and 18): median (min-max) of $ROUNDS rounds"
	awk -F'\t' '
		{ f[NR] = $1; m[NR] = $2; t[NR] = $3; s[NR] = $4
		  if (length($1) > w1) w1 = length($1); if (length($2) > w2) w2 = length($2)
		  if (length($3) > w3) w3 = length($3) }
		END {
			printf "%-" w1 "s  %-" w2 "s  %-" w3 "s  %s\n", "figure", "measured", "target", ""
			for (i = 1; i <= NR; i++)
				printf "%-" w1 "s  %-" w2 "s  %-" w3 "s  %s\n", f[i], m[i], t[i], s[i]
		}' "$file"
}

# A script run alone keeps its rows here and prints them when it ends (bench_own_targets).
BENCH_OWN_TARGETS=
bench_own_targets() {
	[ -n "${BENCH_TARGETS:-}" ] && return 0
	BENCH_OWN_TARGETS=$1
	: >"$BENCH_OWN_TARGETS"
}

# ---- time to a first screen in an 80x24 tmux pane (the caller defines tmx and TMPD)

# pane_open SESSION: an 80x24 session whose pane keeps its place when its command exits and
# copies what it writes into a FIFO (PANE_FD), for pane_time.
pane_open() {
	mkfifo "$TMPD/pane.fifo" || return 1
	exec {PANE_FD}<>"$TMPD/pane.fifo"
	# shellcheck disable=SC2016 # for the launcher's shell
	printf '%s\n' '#!/bin/bash' 'echo "${EPOCHREALTIME/./}" >"$1"' 'shift' 'exec "$@"' \
		>"$TMPD/launch"
	chmod +x "$TMPD/launch"
	tmx -f /dev/null new-session -d -s "$1" -x 80 -y 24 'exec sleep 600' &&
		tmx set-option -t "$1" remain-on-exit on >/dev/null &&
		tmx pipe-pane -t "$1" "exec cat >'$TMPD/pane.fifo'"
}

pane_close() {
	tmx kill-server 2>/dev/null
	exec {PANE_FD}>&-
}

# pane_time SESSION PATTERN SECS CMD...: milliseconds from the exec of CMD in SESSION's pane
# (a launcher notes the time just before it) to PATTERN (a bash regex, any case) in what the
# pane writes, read from the FIFO by bash builtins: no process is started per poll (starting
# one costs tens of ms on a loaded VM) and tmux's own start-up is not counted. Resolution:
# 2 ms. After SECS without it: the reason, and status 1.
pane_time() {
	local ses=$1 pat=$2 limit=$(($3 * 1000000)) t0 t1 start buf='' chunk
	shift 3
	rm -f "$TMPD/t0"
	while read -r -t 0.01 -N 65536 chunk <&"$PANE_FD"; do :; done # the last run's exit
	start=${EPOCHREALTIME/./}
	tmx respawn-pane -k -t "$ses" "$TMPD/launch" "$TMPD/t0" "$@" || return 1
	shopt -s nocasematch
	while :; do
		chunk=''
		read -r -t 0.002 -N 4096 chunk <&"$PANE_FD"
		t1=${EPOCHREALTIME/./}
		buf+=$chunk
		if [[ $buf =~ $pat ]]; then
			shopt -u nocasematch
			t0=$(<"$TMPD/t0")
			echo $(((t1 - ${t0:-$start} + 500) / 1000))
			return 0
		fi
		if [ $((t1 - start)) -gt "$limit" ]; then
			shopt -u nocasematch
			if [ "$(tmx display-message -p -t "$ses" '#{pane_dead}')" = 1 ]; then
				echo "exited: $(tmx capture-pane -p -t "$ses" | grep -m1 .)"
			else
				echo "no /$pat/ on screen after $((limit / 1000000)) s: $(tmx capture-pane -p -t "$ses" | grep -m1 .)"
			fi
			return 1
		fi
	done
}
