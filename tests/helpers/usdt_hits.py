#!/usr/bin/env python3
# usdt_hits.py FILE GROUP TARGET_PID N: checks a --json capture of tests/helpers/usdt_target
# probed by --usdt ktop_test:hit (arg3:string) and its library's ktop_test:twice in the uprobe
# group GROUP: exactly N hits of GROUP:hit, from TARGET_PID, with the int, the long and the
# string the target passed (i * 7 - 3, 10^12 + i, "ktop-usdt-<i>"), then twice's two sites,
# twice and twice_2, with 1 and 2, and nothing lost. Prints what is wrong; exit 1 then.
import json
import sys

path, group, tgt, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = [json.loads(line) for line in open(path) if line.strip()]
summary = rows.pop()["summary"]
rows = [r for r in rows if "event" in r]  # not the probes' hit counts ({"probe":...})
hits = [r for r in rows if r["event"] == f"{group}:hit"]
twice = [(r["event"], r["fields"]["arg1"]) for r in rows if r["event"] != f"{group}:hit"]
errors = []
if twice != [(f"{group}:twice", 1), (f"{group}:twice_2", 2)]:
    errors.append(f"the two sites of twice: {twice}")
if len(hits) != n:
    errors.append(f"{len(hits)} hits, expected {n}")
if [r["fields"]["arg1"] for r in hits] != [i * 7 - 3 for i in range(n)]:
    errors.append(f"int args {[r['fields']['arg1'] for r in hits][:6]}...")
if [r["fields"]["arg2"] for r in hits] != [10**12 + i for i in range(n)]:
    errors.append(f"long args {[r['fields']['arg2'] for r in hits][:6]}...")
if [r["fields"]["arg3"] for r in hits] != [f"ktop-usdt-{i}" for i in range(n)]:
    errors.append(f"string args {[r['fields']['arg3'] for r in hits][:6]}...")
if any(r["pid"] != tgt for r in hits):
    errors.append("hits from another pid")
if summary["lost"]:
    errors.append(f"lost {summary['lost']}")
for e in errors:
    print("usdt:", e)
sys.exit(1 if errors else 0)
