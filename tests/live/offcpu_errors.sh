#!/bin/bash
# shellcheck disable=SC2016 # 'exec "$0" "$@"' is for the shell capsh starts
# The off-CPU profile's refusals and its fallback (ktop.1 OFF-CPU PROFILE, PRIVILEGES): each
# bad case ends with one line on stderr naming the cause and the way out, and nothing on
# stdout (lib.sh's refused):
#  - as nobody, and as root without CAP_BPF (nor CAP_SYS_ADMIN, which stands in for it):
#    exit 3 naming CAP_BPF;
#  - -p of a process that does not exist, --cgroup of a directory that is not one: exit 2;
#  - without the kernel's BTF (/sys/kernel/btf hidden under an empty tmpfs, in a mount
#    namespace of the test's own: what libbpf sees on a kernel built without
#    CONFIG_DEBUG_INFO_BTF), the typed variants are refused and the plain tracepoint
#    counts: exit 0, one line on stderr saying so with both refusals, stacks printed;
#    pinned to raw_tp, exit 1 with that refusal in one line.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
command -v capsh >/dev/null 2>&1 || skip "needs capsh (apt-get install libcap2-bin)"
command -v setpriv >/dev/null 2>&1 || skip "needs setpriv (util-linux)"
ATTACHED_RE='offcpu_open: attached via '

# nobody runs a copy of ktop in a directory of its own ($T is root's, mode 0700)
chmod 711 "$T"
mkdir "$T/nobody"
cp "$KTOP" "$T/nobody/ktop"
chown -R 65534:65534 "$T/nobody"
ROOT_KTOP=$KTOP
KTOP=$T/nobody/ktop
refused "as nobody" "CAP_BPF" setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all :: -b --off-cpu --duration 1
KTOP=$ROOT_KTOP
refused "root without CAP_BPF" "CAP_BPF" capsh --drop=cap_sys_admin,cap_bpf -- \
	-c 'exec "$0" "$@"' :: \
	-b --off-cpu --duration 1

# a pid that cannot exist (above pid_max), a cgroup that is no directory
REFUSED_RC=2
refused "-p of no process" "-p 99999999: no such process" :: -b --off-cpu -p 99999999 \
	--duration 1
refused "--cgroup of no cgroup" "ktop-no-such-cgroup" :: -b --off-cpu \
	--cgroup /ktop-no-such-cgroup --duration 1

# no BTF for user space to read: the tracepoint variant, said in one line
[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] || skip "needs unshare (util-linux) for a mount namespace"
[ -d /sys/kernel/btf ] || skip "no /sys/kernel/btf to hide"
mount -t tmpfs -o size=64k,mode=0755 none /sys/kernel/btf || fail "cannot hide /sys/kernel/btf"
start_ktop "$T/nobtf.out" "$T/nobtf.err" -b -v --log "$T/nobtf.klog" --off-cpu
wait_attached "$T/nobtf.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
sleep 0.5
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "without BTF: exit $KTOP_RC: $(head -c 600 "$T/nobtf.err")"
[ "$(wc -l <"$T/nobtf.err")" = 1 ] &&
	grep -q '^ktop: off-CPU profile via tracepoint (tp_btf: no kernel BTF at /sys/kernel/btf/vmlinux (.*CONFIG_DEBUG_INFO_BTF.*); raw_tp: no kernel BTF at .*)$' "$T/nobtf.err" ||
	fail "without BTF: not one line saying tracepoint and why: $(cat "$T/nobtf.err")"
grep -q '^# off-cpu: via=tracepoint unit=ns ' "$T/nobtf.out" ||
	fail "without BTF: no tracepoint counts: $(head -3 "$T/nobtf.out")"
[ "$(grep -c ' [0-9][0-9]*$' "$T/nobtf.out")" -gt 0 ] || fail "without BTF: no stacks"
assert_progs_gone "${PROGS[@]}"
log "without BTF: $(cat "$T/nobtf.err")"
REFUSED_RC=1
refused "raw_tp without BTF" "off-CPU profile: raw_tp: " :: -b --off-cpu=raw_tp --duration 1
grep -q 'no kernel BTF at /sys/kernel/btf/vmlinux (.*CONFIG_DEBUG_INFO_BTF' "$T/r.err" ||
	fail "raw_tp without BTF: the refusal does not name the file and the way out: $(cat "$T/r.err")"
umount /sys/kernel/btf
assert_clean
pass
