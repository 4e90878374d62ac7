#!/bin/bash
# ktop --doctor: exits 0 where ktop's core works; reports tracefs, tracepoints, kprobe,
# uprobe, BPF and PMU items, each "ok" or "no" with a reason, agreeing with what this kernel
# really has; --json is one valid JSON object saying the same; it changes nothing in the
# kernel. Without privileges, the reasons name the missing privilege, not a kernel option.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_python

run_ktop 60 "$T/doc.out" "$T/doc.err" --doctor
[ "$KTOP_RC" = 0 ] || fail "ktop --doctor exited $KTOP_RC as root on a kernel with tracefs; stderr: $(head -c 300 "$T/doc.err")"
[ -s "$T/doc.err" ] && fail "ktop --doctor wrote to stderr: $(head -c 300 "$T/doc.err")"
assert_clean

run_ktop 60 "$T/json.out" "$T/json.err" --doctor --json
[ "$KTOP_RC" = 0 ] || fail "ktop --doctor --json exited $KTOP_RC"
assert_clean

# What the kernel has, for the report to agree with.
have_kprobe=0 have_uprobe=0 have_hwpmu=0
[ -e "$TRACEFS/kprobe_events" ] && have_kprobe=1
[ -e "$TRACEFS/uprobe_events" ] && have_uprobe=1
[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] && have_hwpmu=1
# Tracepoints: available_events without the dynamic events' groups.
dyn_groups=$(sed -n 's/^[^:]*:\([^/]*\)\/.*/\1/p' "$(_dynevents_file)" 2>/dev/null | sort -u | tr '\n' ' ')
n_tp=$(awk -F: -v dyn=" $dyn_groups" 'index(dyn, " " $1 " ") == 0 { n++ } END { print n + 0 }' "$TRACEFS/available_events")

python3 - "$T/doc.out" "$T/json.out" "$TRACEFS" "$have_kprobe" "$have_uprobe" "$have_hwpmu" "$n_tp" <<'EOF' || fail "doctor report check failed (see above)"
import json, os, re, sys

text_path, json_path, tracefs = sys.argv[1:4]
have_kprobe, have_uprobe, have_hwpmu, n_tp = (int(x) for x in sys.argv[4:8])
errors = []
items = {}
for i, line in enumerate(open(text_path).read().splitlines(), 1):
    if not line.strip():
        continue
    m = re.match(r"^(ok|no)\s+([A-Za-z0-9_.-]+):\s*(.*)$", line)
    if not m:
        errors.append(f"line {i} is not 'ok|no name: detail': {line!r}")
        continue
    items[m.group(2)] = (m.group(1) == "ok", m.group(3))

def find(pattern, what):
    hits = {k: v for k, v in items.items() if re.search(pattern, k, re.I)}
    if not hits:
        errors.append(f"no {what} item (names: {sorted(items)})")
    return hits

for name, (ok, detail) in items.items():
    if not ok and len(detail) < 10:
        errors.append(f"{name}: absent without a reason: {detail!r}")

for name, (ok, detail) in find(r"^tracefs$", "tracefs").items():
    if not ok or tracefs not in detail:
        errors.append(f"{name}: should be ok and name {tracefs}: {detail!r}")
for name, (ok, detail) in find(r"tracepoint", "tracepoints").items():
    if name.startswith("bpf"):
        continue
    m = re.search(r"(\d+) tracepoints", detail)
    if not ok or not m:
        errors.append(f"{name}: should be ok with a count: {detail!r}")
    elif int(m.group(1)) != n_tp:
        errors.append(f"{name}: says {m.group(1)} tracepoints, available_events has {n_tp}")
for name, (ok, detail) in find(r"^kprobe", "kprobe").items():
    if ok != bool(have_kprobe):
        errors.append(f"{name}: says {'ok' if ok else 'no'}, but kprobe_events {'exists' if have_kprobe else 'does not exist'}")
    if not have_kprobe and not re.search(r"CONFIG_KPROBE", detail):
        errors.append(f"{name}: absent without the config option as the reason: {detail!r}")
for name, (ok, detail) in find(r"^uprobe", "uprobe").items():
    if ok != bool(have_uprobe):
        errors.append(f"{name}: says {'ok' if ok else 'no'}, but uprobe_events {'exists' if have_uprobe else 'does not exist'}")
have_lock = all(os.path.isdir(f"{tracefs}/events/lock/contention_{e}") for e in ("begin", "end"))
for name, (ok, detail) in find(r"^lock_contention$", "lock-contention").items():
    if ok != have_lock:
        errors.append(f"{name}: says {'ok' if ok else 'no'}, but lock:contention_begin/end {'exist' if have_lock else 'do not exist'}")
    if not have_lock and "--hist lock-contention cannot run" not in detail:
        errors.append(f"{name}: absent without saying what cannot run: {detail!r}")
find(r"bpf", "BPF")
pmu = find(r"pmu", "PMU")
hw = {k: v for k, v in pmu.items() if re.search(r"hard|hw", k, re.I)}
if not hw:
    errors.append(f"no hardware-PMU item among {sorted(pmu)}")
for name, (ok, detail) in hw.items():
    if ok != bool(have_hwpmu):
        errors.append(f"{name}: says {'ok' if ok else 'no'}, but the cpu PMU {'exists' if have_hwpmu else 'does not exist'}")

try:
    doc = json.load(open(json_path))
except ValueError as e:
    errors.append(f"--doctor --json is not one JSON document: {e}")
    doc = None
if doc is not None:
    if not isinstance(doc, dict):
        errors.append(f"--doctor --json is a {type(doc).__name__}, not an object")
    else:
        for name, (ok, detail) in items.items():
            j = doc.get(name)
            if not isinstance(j, dict) or j.get("ok") is not ok or not isinstance(j.get("detail"), str):
                errors.append(f"json {name}: {j!r} does not match the text ({'ok' if ok else 'no'})")
        extra = set(doc) - set(items)
        if extra:
            errors.append(f"json items not in the text: {sorted(extra)}")
for e in errors:
    print("doctor:", e, file=sys.stderr)
if not errors:
    print(f"doctor: {len(items)} items agree with the kernel; json matches", file=sys.stderr)
sys.exit(1 if errors else 0)
EOF

# ---- without privileges: the reasons name the privilege ------------------------------------
if command -v setpriv >/dev/null 2>&1; then
	XDG_CONFIG_HOME=/nonexistent/ktop-test-$$ setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all "$KTOP" --doctor >"$T/nobody.out" 2>"$T/nobody.err" </dev/null &
	KTOP_PID=$!
	KTOP_PIDS+=("$KTOP_PID")
	wait_pid_exit "$KTOP_PID" 60 || fail "ktop --doctor as nobody still running after 60s"
	[ "$WAIT_RC" = 1 ] || fail "ktop --doctor as nobody exited $WAIT_RC, expected 1 (tracefs unusable)"
	python3 - "$T/doc.out" "$T/nobody.out" <<'EOF' || fail "doctor as nobody: misleading reasons (see above)"
import re, sys

def parse(path):
    items = {}
    for line in open(path).read().splitlines():
        m = re.match(r"^(ok|no)\s+([A-Za-z0-9_.-]+):\s*(.*)$", line)
        if m:
            items[m.group(2)] = (m.group(1) == "ok", m.group(3))
    return items

root, nobody = parse(sys.argv[1]), parse(sys.argv[2])
errors = []
if not nobody:
    errors.append("no report at all")
priv = re.compile(r"root|CAP_|[Pp]ermission|not permitted|privilege|sudo|EPERM|EACCES", re.I)
for name, (ok, detail) in sorted(root.items()):
    if name not in nobody:
        errors.append(f"{name}: missing from the report as nobody")
        continue
    nok, ndetail = nobody[name]
    # What root has and nobody lacks is lacking for want of privilege: the reason must say
    # so, not blame the kernel's build.
    if ok and not nok and not priv.search(ndetail):
        errors.append(f"{name}: ok as root, but as nobody the reason is {ndetail!r} (should name the missing privilege)")
for e in errors:
    print("doctor (nobody):", e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
	assert_clean
else
	log "no setpriv: the unprivileged doctor is not tested"
fi
pass
