#!/bin/sh
# tests/vm/guest-fdp.sh - runs INSIDE the check-vm "fdp" boot (tests/vm/fdp.sh):
# fio's fdp=1 and atomic=1 (issue 13) on QEMU 10's controllers
#   F ($NVS_VM_SER_FDP): FDP on, 8 reclaim unit handles (placement ids 0-7),
#     reclaim units of 16 MiB (4096 LBAs of 4096), ns1 64 MiB;
#   G ($NVS_VM_SER_ATOM): AWUPF 15, ns1 32 MiB LBA 4096 (atomic writes up to
#     64 KiB).
# The oracles are not nvscope: nvme-cli's reclaim unit handle status (each
# handle's available media writes drop by the LBAs written through it) and
# FDP statistics, the kernel's sysfs atomic write unit, and the kernel's own
# refusal of a misaligned RWF_ATOMIC write.
# shellcheck disable=SC1091 # the guest's, written by run.sh
. /etc/vm/env
PASS=0 FAILS=0
ok() { echo "ok: $*"; PASS=$((PASS + 1)); }
bad() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
check() { d=$1; shift; if "$@"; then ok "$d"; else bad "$d"; fi; }
expect_rc() {
	want=$1 d=$2; shift 2
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$d (exit $rc)"; else
		bad "$d: exit $rc, wanted $want"; sed 's/^/   /' /tmp/err | head -5; fi
}
jsum() { awk -v k="\"$1\":" '$1 == k { gsub(/,/, "", $2); s += $2 } END { printf "%.0f\n", s }' "$2"; }
flush() { blockdev --flushbufs "$1" 2>/dev/null; echo 3 >/proc/sys/vm/drop_caches; }
md5mib() { flush "$1"; dd if="$1" bs=1M count=1 2>/dev/null | md5sum | cut -d' ' -f1; }
ctrl_of() { for c in /sys/class/nvme/nvme*; do grep -q "$1" "$c/serial" && echo "${c##*/}"; done; }

FC=$(ctrl_of "$NVS_VM_SER_FDP") GC=$(ctrl_of "$NVS_VM_SER_ATOM")
FB=/dev/${FC}n1 FG=/dev/ng${FC#nvme}n1 GB=/dev/${GC}n1 GG=/dev/ng${GC#nvme}n1
echo "guest: F=$FC ($FB $FG) G=$GC ($GB $GG)"
check "FDP namespace and generic device" test -b "$FB" -a -c "$FG"

# ruamw: "pid=ruamw" of every handle, from nvme-cli's RUH status
ruamw() {
	nvme fdp status "$FB" --namespace-id=1 -o json |
		awk -F: '/"pid"/ { gsub(/[", ]/, ""); p = $2 } /"ruamw"/ { gsub(/[", ]/, ""); printf "%s=%s ", p, $2 }'
}
# used BEFORE AFTER: the LBAs each handle took ("pid:n" for each of 0-7)
used() {
	for p in 0 1 2 3 4 5 6 7; do
		b=$(echo "$1" | tr ' ' '\n' | awk -F= -v p="$p" '$1 == p { print $2 }')
		a=$(echo "$2" | tr ' ' '\n' | awk -F= -v p="$p" '$1 == p { print $2 }')
		# a reclaim unit filled up starts a new one of 4096 LBAs
		[ "$a" -gt "$b" ] 2>/dev/null && b=$((b + 4096))
		printf '%s:%s ' "$p" $((b - a))
	done
}
hbmw() { nvme fdp stats "/dev/$FC" --endgrp-id=1 -o json | awk -F: '/"hbmw"/ { gsub(/[", ]/, ""); print $2 }'; }

echo "   configuration (nvme-cli):"; nvme fdp configs "/dev/$FC" --endgrp-id=1 | sed 's/^/   /' | head -8
r0=$(ruamw)
echo "   RUH status before: $r0"
if [ "$(echo "$r0" | wc -w)" = 8 ]; then ok "8 reclaim unit handles (nvme-cli)"; else bad "RUH status: '$r0'"; fi

P="--ioengine=io_uring_cmd --rw=write --bs=4k --iodepth=4 --output-format=json"
# shellcheck disable=SC2086
{
# round-robin over placement ids 0-3: 64 writes, 16 LBAs a handle
h0=$(hbmw)
expect_rc 0 "fdp=1 plids=0,1,2,3 round-robin, 64 writes" nvscope run --target "$FG" $P --size=256k \
	--fdp=1 --plids=0,1,2,3
r1=$(ruamw); u=$(used "$r0" "$r1")
echo "   LBAs per handle: $u"
if [ "$u" = "0:16 1:16 2:16 3:16 4:0 5:0 6:0 7:0 " ]; then ok "round-robin: 16 LBAs on each of handles 0-3, none elsewhere"; else bad "round-robin placement: $u"; fi
h1=$(hbmw)
if [ "$((h1 - h0))" = 262144 ]; then ok "FDP statistics: 256 KiB host writes"; else bad "FDP statistics hbmw $h0 -> $h1"; fi
# random over ids 4-7 (fdp_pli_select=random): 256 writes, every one of them
# on 4-7, not evenly (fixed seed)
expect_rc 0 "fdp=1 fdp_pli=4-7 fdp_pli_select=random, 256 writes" nvscope run --target "$FG" $P \
	--size=1m --fdp=1 --fdp_pli=4-7 --fdp_pli_select=random --randseed=42
r2=$(ruamw); u=$(used "$r1" "$r2")
echo "   LBAs per handle: $u"
n=$(echo "$u" | tr ' ' '\n' | awk -F: 'NF != 2 { next } $1 >= 4 { s += $2; if ($2 > 0) k++ } $1 < 4 && $2 != 0 { o++ }
	END { print s + 0, k + 0, o + 0 }')
if [ "$n" = "256 4 0" ] && [ "$u" != "0:0 1:0 2:0 3:0 4:64 5:64 6:64 7:64 " ]; then
	ok "random: 256 LBAs over handles 4-7, unevenly, none on 0-3"; else bad "random placement: $u ($n)"; fi
# no plids: every handle the namespace reports, in its order
expect_rc 0 "fdp=1 without plids, 8 writes" nvscope run --target "$FG" $P --size=32k --offset=2m --fdp=1
r3=$(ruamw); u=$(used "$r2" "$r3")
if [ "$u" = "0:1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 " ]; then ok "no plids: one write on each of the 8 handles"; else bad "all handles: $u"; fi
# reads carry no directive and place nothing
expect_rc 0 "fdp=1 on a read job" nvscope run --target "$FG" --ioengine=io_uring_cmd --rw=read --bs=4k \
	--size=256k --fdp=1
check "reads took no handle" [ "$(ruamw)" = "$r3" ]
# an index past the handles: fio's refusal, from the RUH status read
expect_rc 2 "plids=8 with 8 handles refused" nvscope run --target "$FG" $P --size=64k --fdp=1 --plids=0,8
check "says fio's words" grep -q "PID index 8 must be smaller than 8" /tmp/err
check "with the FDP configuration log's (20h) figures, as nvme-cli reads them" \
	grep -q "configuration 0 of 1: 8 reclaim unit handles, 1 reclaim groups, reclaim units of 16777216 bytes" /tmp/err
check "refused run placed nothing" [ "$(ruamw)" = "$r3" ]
expect_rc 2 "fdp=1 on the block device (io_uring) refused" nvscope run --target "$FB" \
	--rw=write --bs=4k --size=64k --fdp=1
check "says io_uring_cmd" grep -q "needs ioengine=io_uring_cmd" /tmp/err
expect_rc 2 "fdp=1 on a controller without FDP refused" nvscope run --target "$GG" $P --size=64k --fdp=1
check "names CTRATT" grep -q "no Flexible Data Placement (Identify Controller CTRATT bit 19)" /tmp/err

# ---- SAFETY: an FDP write over a signature is refused before any command
mkswap "$FB" >/dev/null 2>&1
m0=$(md5mib "$FB") r4=$(ruamw)
expect_rc 2 "fdp write over a swap signature refused" nvscope run --target "$FG" $P --size=256k \
	--fdp=1 --plids=0,1
check "refusal names the signature" grep -q "swap" /tmp/err
check "refused FDP write: the data unchanged" [ "$(md5mib "$FB")" = "$m0" ]
check "refused FDP write: no handle took a write" [ "$(ruamw)" = "$r4" ]
dd if=/dev/zero of="$FB" bs=64k count=1 conv=fsync 2>/dev/null

# ---- fio's examples
r5=$(ruamw)
sed -e "s|^filename=.*|filename=$FG|" -e 's|^runtime=.*|runtime=1|' >/tmp/uring-cmd-fdp.fio <<'FIO'
[global]
filename=/dev/ng0n1
ioengine=io_uring_cmd
cmd_type=nvme
iodepth=32
bs=4K
fdp=1
time_based=1
runtime=1000

[write-heavy]
rw=randrw
rwmixwrite=90
fdp_pli=0,1,2,3
offset=0%
size=30%

[write-mid]
rw=randrw
rwmixwrite=30
fdp_pli=4,5
offset=30%
size=30%

[write-light]
rw=randrw
rwmixwrite=10
fdp_pli=6
offset=60%
size=30%
FIO
expect_rc 0 "fio's uring-cmd-fdp.fio (runtime 1 s)" nvscope run /tmp/uring-cmd-fdp.fio --output-format=json
r6=$(ruamw); u=$(used "$r5" "$r6")
echo "   LBAs per handle: $u"
n=$(echo "$u" | tr ' ' '\n' | awk -F: 'NF != 2 { next } $1 <= 6 && $2 > 0 { k++ } $1 == 7 && $2 != 0 { o++ } END { print k + 0, o + 0 }')
if [ "$n" = "7 0" ]; then ok "uring-cmd-fdp.fio: handles 0-6 written, 7 not"; else bad "uring-cmd-fdp.fio placement: $u"; fi
# xnvme-fdp.fio as given: no ioengine (fio's default psync), refused at
# its fdp= line as fio refuses it (psync lacks fetch ruhs); with the engine
# set to io_uring_cmd (what its --ioengine=xnvme --xnvme_async=io_uring_cmd
# does through xNVMe) it runs
cat >/tmp/xnvme-fdp.fio <<'FIO'
[global]
rw=randwrite
size=2M
iodepth=1
bs=4K
thread=1
fdp=1
fdp_pli=4,5

[default]
FIO
expect_rc 2 "xnvme-fdp.fio as given (psync) refused" nvscope run /tmp/xnvme-fdp.fio --target "$FG"
check "at its fdp= line" grep -q "xnvme-fdp.fio:7: fdp: an option of ioengine=io_uring_cmd" /tmp/err
sed -i 's/^\[global\]$/[global]\nioengine=io_uring_cmd/' /tmp/xnvme-fdp.fio
expect_rc 0 "xnvme-fdp.fio on io_uring_cmd" nvscope run /tmp/xnvme-fdp.fio --target "$FG" --output-format=json
r7=$(ruamw); u=$(used "$r6" "$r7")
if [ "$u" = "0:0 1:0 2:0 3:0 4:256 5:256 6:0 7:0 " ]; then ok "xnvme-fdp.fio: 2 MiB round-robin on handles 4 and 5"; else bad "xnvme-fdp.fio placement: $u"; fi

# ---- atomic=1 (RWF_ATOMIC) on G
amax=$(cat "/sys/block/${GB#/dev/}/queue/atomic_write_unit_max_bytes")
if [ "$amax" = 65536 ]; then ok "the kernel reports G's atomic write unit: 64 KiB (AWUPF 15)"; else bad "atomic_write_unit_max_bytes $amax"; fi
A="--rw=randwrite --direct=1 --iodepth=4 --output-format=json"
expect_rc 0 "atomic=1 bs=16k" nvscope run --target "$GB" $A --bs=16k --size=1m --atomic=1
if [ "$(jsum io_bytes /tmp/out)" = 1048576 ]; then ok "atomic=1: 1 MiB written"; else bad "atomic io_bytes $(jsum io_bytes /tmp/out)"; fi
expect_rc 0 "atomic=1 bs=64k (the unit)" nvscope run --target "$GB" $A --bs=64k --size=1m --atomic=1
m0=$(md5mib "$GB")
expect_rc 2 "atomic=1 bs=128k refused" nvscope run --target "$GB" $A --bs=128k --size=1m --atomic=1
check "names the unit" grep -q "atomic_write_unit_max_bytes 65536" /tmp/err
check "refused atomic write: nothing written" [ "$(md5mib "$GB")" = "$m0" ]
# the flag reaches the kernel: an 8k write at 4k is not naturally aligned,
# which the kernel refuses for RWF_ATOMIC only
W="--rw=write --direct=1 --bs=8k --blockalign=4k --offset=4k --size=64k --output-format=json"
expect_rc 0 "8k writes at 4k offsets without atomic" nvscope run --target "$GB" $W
expect_rc 1 "the same with atomic=1: the kernel refuses each write" nvscope run --target "$GB" $W --atomic=1
check "as invalid (EINVAL)" grep -qi "invalid argument" /tmp/err
expect_rc 2 "atomic=1 on io_uring_cmd refused (fio refuses it)" nvscope run --target "$GG" \
	--ioengine=io_uring_cmd --rw=write --bs=4k --size=64k --atomic=1
# SAFETY: an atomic write over a signature
mkswap "$GB" >/dev/null 2>&1
m0=$(md5mib "$GB")
expect_rc 2 "atomic write over a swap signature refused" nvscope run --target "$GB" $A --bs=16k --size=1m --atomic=1
check "refusal names the signature" grep -q "swap" /tmp/err
check "refused atomic write: the data unchanged" [ "$(md5mib "$GB")" = "$m0" ]
dd if=/dev/zero of="$GB" bs=64k count=1 conv=fsync 2>/dev/null
# fio's atomic-verify.fio (writes verified by crc64, RWF_ATOMIC,
# verify_write_sequence=0), its size 1 MiB, ONE job: its ten racing jobs
# overwrite each other's blocks, which nvscope's verify reports by their
# header seed (fio's verify_header_seed, not implemented here)
sed -e "s|^filename=.*|filename=$GB|" >/tmp/atomic-verify.fio <<'FIO'
[write-and-verify]
rw=randwrite
bs=4k
direct=1
ioengine=libaio
iodepth=16
verify=crc64
atomic=1
verify_write_sequence=0
numjobs=1
size=1m
filename=/dev/XXX
FIO
expect_rc 0 "fio's atomic-verify.fio" nvscope run /tmp/atomic-verify.fio --output-format=json
}

if dmesg | grep -E "nvme.*(I/O.*timeout|reset)"; then bad "NVMe timeouts/resets in dmesg"; fi
echo "guest: $PASS passed, $FAILS failed"
[ "$FAILS" = 0 ]
