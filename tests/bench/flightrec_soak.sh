#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The flight recorder unattended (issue 34's proof: "an hour-long run shows flat RSS and
# bounded disk"). Not part of make bench's default run: an hour is too long for it;
# `make bench-flightrec` runs it alone, or by hand:
#
#   KTOP=build/ktop WORKLOAD=build/tests/helpers/workload bash tests/bench/flightrec_soak.sh [SECONDS]
#
# The workload (`workload spikes 120 N 1500 NAME`) makes 1 ms sleeps with one 120 ms sleep
# every 1.5 s for SECONDS (default 3600); `ktop -b --arm 'syscall>100ms,comm=NAME'
# --incidents DIR --incident-quota QUOTA --max-incidents M` watches it, so an incident fires
# about every 1.5 s and the quota removes the oldest all the time. Every SOAK_INTERVAL
# seconds (default 30) it samples ktop's VmRSS (/proc/PID/status) and the bytes the
# incidents take (du). At the end: incidents written, RSS first/last/max and a least-squares
# slope in MB per hour (over the whole run and over its second half, after the store has
# reached its --memory), the disk's maximum against the quota, and whether ktop left
# anything in tracefs. Never fails on the numbers; exit 1 only when the run itself broke.
#
# Environment: KTOP, WORKLOAD; SOAK_INTERVAL (30), SOAK_QUOTA (64M), SOAK_MEMORY (64M, the
# store's budget), SOAK_ARGS (more ktop options), SOAK_DIR (where the incidents go; a new
# directory under /var/tmp by default, removed at the end unless SOAK_KEEP=1), SOAK_SAMPLES
# (a file to keep the samples in: "seconds rss_kb disk_bytes incidents largest_bytes").

set -u
SECS=${1:-3600}
case $SECS in '' | *[!0-9]* | 0) echo "flightrec_soak: SECONDS must be a positive number, not '$SECS'" >&2; exit 2 ;; esac
KTOP=${KTOP:?KTOP must name the ktop binary}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
INTERVAL=${SOAK_INTERVAL:-30}
QUOTA=${SOAK_QUOTA:-64M}
MEMORY=${SOAK_MEMORY:-64M}
[ "$(id -u)" = 0 ] || { echo "flightrec_soak: needs root (tracefs, BPF)" >&2; exit 1; }
TMPD=$(mktemp -d /tmp/ktop-soak-flightrec.XXXXXX) || exit 1
DIR=${SOAK_DIR:-$(mktemp -d /var/tmp/ktop-soak-incidents.XXXXXX)} || exit 1
SAMPLES=${SOAK_SAMPLES:-$TMPD/samples}
NAME=frsoak$$
read -r -a EXTRA <<<"${SOAK_ARGS:-}"
PERIOD_MS=1500
NPERIODS=$((SECS * 1000 / PERIOD_MS))
KTOP_PID=''
WL_PID=''

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$WL_PID" ] && kill "$WL_PID" 2>/dev/null
	if [ -n "$KTOP_PID" ] && kill -0 "$KTOP_PID" 2>/dev/null; then
		kill -INT "$KTOP_PID"
		for _ in $(seq 1 100); do kill -0 "$KTOP_PID" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$KTOP_PID" 2>/dev/null
	fi
	[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$DIR"
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

bytes() { # SIZE with k/M/G -> bytes
	awk -v s="$1" 'BEGIN { n = s + 0; u = substr(s, length(s));
		if (u == "k" || u == "K") n *= 1024; else if (u == "M") n *= 1048576;
		else if (u == "G") n *= 1073741824; printf "%d\n", n }'
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
disk_bytes() { du -sB1 "$DIR" 2>/dev/null | cut -f1; }
# the largest incident on disk: the quota is applied once the newest is written, so the
# directory holds up to the quota and one incident being written
largest() { du -sB1 "$DIR"/incident-* 2>/dev/null | sort -n | tail -1 | cut -f1; }
incidents() { grep -c '^incident [0-9]*: ' "$TMPD/ktop.out"; }

echo "flightrec soak: ${SECS}s, an incident every ${PERIOD_MS} ms ($NPERIODS), quota $QUOTA," \
	"store $MEMORY, sample every ${INTERVAL}s, incidents in $DIR"
# a safety net: ktop ends by itself even if this script is killed
"$KTOP" -b --arm "syscall>100ms,comm=$NAME" --incidents "$DIR" --incident-quota "$QUOTA" \
	--max-incidents $((NPERIODS * 2 + 100)) --pre 1 --post 0.3 --memory "$MEMORY" \
	--duration $((SECS + 300)) "${EXTRA[@]}" >"$TMPD/ktop.out" 2>"$TMPD/ktop.err" &
KTOP_PID=$!
for _ in $(seq 1 600); do
	grep -q '^ktop: armed ' "$TMPD/ktop.err" && break
	kill -0 "$KTOP_PID" 2>/dev/null || { echo "ktop ended: $(cat "$TMPD/ktop.err")"; exit 1; }
	sleep 0.1
done
grep -q '^ktop: armed ' "$TMPD/ktop.err" || { echo "ktop not armed in 60 s: $(cat "$TMPD/ktop.err")"; exit 1; }
"$WORKLOAD" spikes 120 "$NPERIODS" "$PERIOD_MS" "$NAME" >"$TMPD/wl.out" &
WL_PID=$!
t0=$(date +%s)
: >"$SAMPLES"
sample() {
	local r d
	r=$(rss_kb "$KTOP_PID") d=$(disk_bytes)
	[ -n "$r" ] && echo "$(($(date +%s) - t0)) $r ${d:-0} $(incidents) $(largest)" >>"$SAMPLES"
}
sample
next=$((t0 + INTERVAL))
while kill -0 "$WL_PID" 2>/dev/null; do
	kill -0 "$KTOP_PID" 2>/dev/null || { echo "ktop ended early: $(tail -5 "$TMPD/ktop.err")"; break; }
	if [ "$(date +%s)" -ge "$next" ]; then
		sample
		next=$((next + INTERVAL))
	fi
	sleep 1
done
wait "$WL_PID"
wlrc=$?
WL_PID=
slow=$(grep -c '^slow=' "$TMPD/wl.out")
late=$(grep -c '^late=' "$TMPD/wl.out")
# the last window is written --post and the reader's flush after the call: up to 30 s more
for _ in $(seq 1 300); do
	[ "$(incidents)" -ge "$slow" ] && break
	kill -0 "$KTOP_PID" 2>/dev/null || break
	sleep 0.1
done
sample
kill -INT "$KTOP_PID" 2>/dev/null
wait "$KTOP_PID"
krc=$?
left=$(ls -d /sys/kernel/tracing/instances/ktop-"$KTOP_PID" 2>/dev/null)
KTOP_PID=

echo "workload: exit $wlrc, $slow slow sleeps, $late 1 ms sleeps stretched past 50 ms by the load"
echo "ktop: exit $krc; $(incidents) incidents written; $(grep -c 'not written' "$TMPD/ktop.err") not written;" \
	"$(grep -c 'removed the oldest' "$TMPD/ktop.err") removed by the quota"
grep -v 'removed the oldest\|^ktop: armed ' "$TMPD/ktop.err" | sort | uniq -c | sort -rn | head -5 |
	sed 's/^/  stderr: /'
awk -v quota="$(bytes "$QUOTA")" '
	BEGIN { N = 0 }
	function fit(from,   i, n, sx, sy, sxx, sxy, x, y) {
		n = 0; sx = sy = sxx = sxy = 0
		for (i = 0; i < N; i++) {
			if (T[i] < from) continue
			x = T[i] / 3600; y = R[i] / 1024
			n++; sx += x; sy += y; sxx += x * x; sxy += x * y
		}
		if (n < 2 || n * sxx == sx * sx) return "-"
		return sprintf("%+.2f MB/h over %d samples", (n * sxy - sx * sy) / (n * sxx - sx * sx), n)
	}
	{ T[N] = $1; R[N] = $2; D[N] = $3; I[N] = $4; N++
	  if ($2 > rmax) rmax = $2; if ($3 > dmax) dmax = $3; if ($5 > imax) imax = $5 }
	END {
		if (!N) { print "no samples"; exit }
		printf "samples: %d over %d s\n", N, T[N - 1]
		printf "RSS: first %.1f MB, last %.1f MB, max %.1f MB; slope %s; second half %s\n",
			R[0] / 1024, R[N - 1] / 1024, rmax / 1024, fit(0), fit(T[N - 1] / 2)
		h = int(N / 2); per = "-"
		if (I[N - 1] > I[h])
			per = sprintf("%+.1f kB", (R[N - 1] - R[h]) / (I[N - 1] - I[h]))
		printf "RSS per incident, second half: %s\n", per
		printf "disk: max %.1f MB (du of the incidents directory) against the quota %.1f MB " \
			"and one incident being written (the largest seen %.1f MB): %s\n",
			dmax / 1048576, quota / 1048576, imax / 1048576,
			dmax <= quota + imax + 65536 ? "within" : "OVER"
	}' "$SAMPLES"
[ -z "$left" ] && echo "tracefs: ktop's instance is gone" || echo "tracefs: LEFT $left"
[ "$wlrc" = 0 ] && [ "$krc" = 0 ]
