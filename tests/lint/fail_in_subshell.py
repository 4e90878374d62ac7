#!/usr/bin/env python3
"""Finds the suite's shell functions that can fail the test (call fail, skip or die, or such a
function) called inside $(...): there a fail only ends the subshell, and the caller goes on
with an empty value (an upper bound that silently never applies). Usage: fail_in_subshell.py
SRCDIR; prints each call as FILE:LINE and exits 1 when there is one."""
import glob, os, re, sys

top = sys.argv[1]
files = sorted(f for f in set(glob.glob(f"{top}/tests/**/*.sh", recursive=True) +
                              glob.glob(f"{top}/tests/lab/**/*", recursive=True))
               if os.path.isfile(f) and "/bench/" not in f)
src = {f: open(f, errors="replace").read() for f in files}
fdef = re.compile(r"^([A-Za-z_]\w*)[ \t]*\(\)[ \t]*\n?\{[ \t]*\n(.*?)^\}|"
                  r"^[ \t]*([A-Za-z_]\w*)[ \t]*\(\)[ \t]*\{([^\n]*)\}[ \t]*$", re.M | re.S)
cmdpos = r"(?:^\s*|\|\|\s*|&&\s*|;\s*|\{\s*|\bthen\s+|\belse\s+|\bdo\s+)"
defs = {f: {(m[1] or m[3]): (m[2] or m[4]) for m in fdef.finditer(s)} for f, s in src.items()}


def sourced(f):
    out = []
    # a test sources "$(dirname "$0")/X"; lib.sh its tiers' files, "$_lib_dir/X"
    for m in re.finditer(r'^\s*\.\s+"\$(?:\(dirname "\$0"\)|_lib_dir)/([^"]+)"', src[f], re.M):
        p = os.path.normpath(os.path.join(os.path.dirname(f), m[1]))
        if p in src:
            out += sourced(p) + [p]
    return out


bad = 0
for f in files:
    ns = {}
    for lib in sourced(f) + [f]:
        ns.update(defs[lib])
    failing = {"fail", "skip", "die"}
    grew = True
    while grew:
        grew = False
        for name, body in ns.items():
            if name not in failing and any(
                    re.search(cmdpos + re.escape(x) + r"\b(?!\s*\(\))", body, re.M) for x in failing):
                failing.add(name)
                grew = True
    for i, line in enumerate(src[f].split("\n"), 1):
        for m in re.finditer(r"\$\(\s*([A-Za-z_]\w*)", line):
            if m[1] in failing:
                print(f"{os.path.relpath(f, top)}:{i}: {m[1]} (it can fail) inside $(...)")
                bad += 1
sys.exit(1 if bad else 0)
