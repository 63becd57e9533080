#!/bin/sh
# tests/vm/guest.sh - runs INSIDE the check-vm guest (busybox sh), against
# the topology tests/vm/run.sh configured (serials in $NVS_VM_SER_A/B):
#   A: ns1 64 MiB LBA 512, ns2 32 MiB LBA 4096;  B: ns1 48 MiB LBA 512,
#   SMART critical warning $NVS_VM_CW_B injected.
# Prints "ok: ..." / "FAIL: ..." lines; exits 1 when anything failed.
# Every check tests what nvscope reports against what the host configured,
# or data on the emulated media (zeros after format/trim, pattern after a
# passthrough write), not nvscope against itself.
PASS=0 FAILS=0
ok() { echo "ok: $*"; PASS=$((PASS + 1)); }
bad() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
check() { # check DESCRIPTION CMD...: passes when CMD exits 0
	d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}
# expect_rc RC DESCRIPTION CMD...: the command must exit with RC
expect_rc() {
	want=$1 d=$2; shift 2
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$d (exit $rc)"; else
		bad "$d: exit $rc, wanted $want"; sed 's/^/   /' /tmp/err | head -5; fi
}
# Flattens `nvscope list --json` into one line per namespace:
# serial|model|nsid|size_bytes|lba_size|metadata_size|ctrl|block|generic|transport
flat() {
	awk '
	/"block_devices":/ { exit }
	{
		l = $0; sub(/^[ \t]+/, "", l)
		if (!match(l, /^"[a-z_]+":/)) next
		k = substr(l, 2, RLENGTH - 3); v = substr(l, RLENGTH + 1)
		sub(/^[ \t]+/, "", v); sub(/,$/, "", v); gsub(/"/, "", v)
		if (k == "path" && v ~ /^\/dev\/nvme[0-9]+$/) ctrl = v
		else if (k == "serial") ser = v
		else if (k == "model") model = v
		else if (k == "transport") tr = v
		else if (k == "nsid") nsid = v
		else if (k == "block_device") blk = v
		else if (k == "generic_device") gen = v
		else if (k == "size_bytes") size = v
		else if (k == "lba_size") lba = v
		else if (k == "metadata_size")
			print ser "|" model "|" nsid "|" size "|" lba "|" v "|" ctrl "|" blk "|" gen "|" tr
	}' "$@"
}
# jsum KEY FILE: sum of the numbers after "KEY": in a JSON file
jsum() { awk -v k="\"$1\":" '$1 == k { gsub(/,/, "", $2); s += $2 } END { printf "%.0f\n", s }' "$2"; }
field() { echo "$1" | cut -d'|' -f"$2"; }
flush() { blockdev --flushbufs "$1" 2>/dev/null; echo 3 >/proc/sys/vm/drop_caches; }
is_zero() { flush "$1"; cmp -s -n 1048576 "$1" /dev/zero; } # first MiB all zeros?
scribble() { dd if=/dev/urandom of="$1" bs=1M count=1 conv=fsync 2>/dev/null; flush "$1"; }

A=$NVS_VM_SER_A B=$NVS_VM_SER_B
echo "guest: kernel $(uname -r), $(ls /sys/class/nvme | wc -l) controllers, mode ${NVS_VM_MODE:-basic}"
# the fdp boot (tests/vm/fdp.sh) has its own script
[ "${NVS_VM_MODE:-basic}" = fdp ] && exec sh /etc/vm/guest-fdp.sh

# ---- native multipath: block devices follow the subsystem, not the controller
if [ "${NVS_VM_MODE:-basic}" = multipath ]; then
	M=$NVS_VM_SER_MP
	expect_rc 0 "list --json" nvscope list --json
	flat /tmp/out >/tmp/ns.txt
	sed 's/^/   /' /tmp/ns.txt
	n=$(wc -l </tmp/ns.txt)
	if [ "$n" = 4 ]; then ok "2 controllers x 2 shared namespaces"; else bad "namespace rows: $n, wanted 4"; fi
	# the same namespace (same block and generic device) through both controllers
	for nsl in "1|33554432|512" "2|16777216|4096"; do
		r0=$(grep -F "$M|QEMU NVMe Ctrl|$nsl|0|/dev/nvme0|" /tmp/ns.txt | cut -d'|' -f8-9)
		r1=$(grep -F "$M|QEMU NVMe Ctrl|$nsl|0|/dev/nvme1|" /tmp/ns.txt | cut -d'|' -f8-9)
		if [ -n "$r0" ] && [ "$r0" = "$r1" ] && [ -b "${r0%|*}" ] && [ -c "${r0#*|}" ]; then
			ok "ns $nsl reached by nvme0 and nvme1 as $r0"
		else bad "ns $nsl: nvme0 '$r0', nvme1 '$r1'"; fi
	done
	MB1=$(grep -F "$M|QEMU NVMe Ctrl|1|" /tmp/ns.txt | head -1 | cut -d'|' -f8)
	MG2=$(grep -F "$M|QEMU NVMe Ctrl|2|" /tmp/ns.txt | head -1 | cut -d'|' -f9)
	if grep -q "nvme[0-9]c[0-9]n" /tmp/ns.txt; then bad "hidden path devices listed"; else ok "no per-path devices listed"; fi
	expect_rc 0 "health through the second controller" nvscope health /dev/nvme1 --json
	check "temperature" grep -qE '"temperature_c":[[:space:]]*[0-9]' /tmp/out
	expect_rc 0 "passthrough run on the shared namespace" nvscope run --target "$MG2" \
		--rw=randread --bs=4k --iodepth=4 --runtime=1 --ioengine=io_uring_cmd --output-format=json
	expect_rc 0 "check --all-nvme on a multipath subsystem" nvscope check --all-nvme --profile rma -o /tmp/chkmp
	n=$(grep -c "^$M " /tmp/out)
	if [ "$n" = 1 ] && grep -q "^1 drive: 1 PASS" /tmp/out; then ok "one drive per serial (two controllers, one subsystem)"; else
		bad "multipath check rows: $n"; sed 's/^/   /' /tmp/out; fi
	expect_rc 2 "trim through nvme1 without confirmation" nvscope purge /dev/nvme1 --method=trim
	scribble "$MB1"
	expect_rc 0 "trim through nvme1" nvscope purge /dev/nvme1 --method=trim --yes-destroy-data="$M"
	check "shared namespace reads zeros" is_zero "$MB1"
	echo "guest: $PASS passed, $FAILS failed"
	[ "$FAILS" = 0 ]
	exit
fi

# ---- NVMe protection information on passthrough (controller C: fio's
# md_per_io_size, pi_act, pi_chk, apptag; issue 13).  C1: LBA 512 + 8 bytes
# of separate metadata, PI type 1 (the kernel's block layer checks its PI
# too: an oracle that is not nvscope); C2: LBA 4096 + 64 interleaved
# (extended LBA), PI type 1, which the kernel shows as 0 bytes.  Called
# right after discovery; controller C is removed afterwards, so the rest
# of the boot sees controllers A and B only.
pi_checks() {
	C=$NVS_VM_SER_PI
	for want in "$C|QEMU NVMe Ctrl|1|33030144|512|8|" "$C|QEMU NVMe Ctrl|2|33034240|4096|64|"; do
		if grep -qF "$want" /tmp/ns.txt; then ok "PI namespace $want"; else bad "missing PI namespace $want"; fi
	done
	LC1=$(grep -F "$C|QEMU NVMe Ctrl|1|" /tmp/ns.txt | head -1)
	LC2=$(grep -F "$C|QEMU NVMe Ctrl|2|" /tmp/ns.txt | head -1)
	CC=$(field "$LC1" 7) C1=$(field "$LC1" 8) C1G=$(field "$LC1" 9) C2G=$(field "$LC2" 9)
	echo "guest: C=$CC ($C1 $C1G, $C2G)"
	P="--ioengine=io_uring_cmd --iodepth=4 --output-format=json"
	SB="--md_per_io_size=64 --pi_act=0"
	# shellcheck disable=SC2086
	{
	expect_rc 0 "PI sb: write with nvscope's PI (pi_act=0, GUARD,REFTAG,APPTAG)" nvscope run \
		--target "$C1G" --rw=write --bs=4k --size=1m $P $SB --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0888
	if [ "$(jsum io_bytes /tmp/out)" = 1048576 ]; then ok "PI sb: 1 MiB written"; else bad "PI sb: io_bytes $(jsum io_bytes /tmp/out)"; fi
	expect_rc 0 "PI sb: read back, checked by the controller and by nvscope" nvscope run \
		--target "$C1G" --rw=read --bs=4k --size=1m $P $SB --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0888
	if [ "$(jsum io_bytes /tmp/out)" = 1048576 ]; then ok "PI sb: 1 MiB read"; else bad "PI sb: read io_bytes $(jsum io_bytes /tmp/out)"; fi
	flush "$C1"
	check "PI sb: the kernel's T10 PI check reads nvscope's blocks" \
		dd if="$C1" of=/dev/null bs=64k count=16 iflag=direct
	expect_rc 1 "PI sb: a wrong apptag caught by the controller" nvscope run --target "$C1G" \
		--rw=read --bs=4k --size=1m $P $SB --pi_chk=APPTAG --apptag=0x0999
	check "names the NVMe status (sct=0x2 sc=0x83, application tag)" grep -q "sct=0x2 sc=0x83" /tmp/err
	expect_rc 2 "PI sb: pi_act=0 without a metadata buffer refused" nvscope run --target "$C1G" \
		--rw=read --bs=4k --size=1m $P --pi_act=0
	check "says md_per_io_size (fio's words)" grep -q "md_per_io_size should be at least 64 bytes" /tmp/err
	# the whole namespace through the kernel (its PI checked by the
	# controller and the block layer): nothing outside what was written
	# reads as a PI error
	flush "$C1"
	check "PI sb: the whole namespace reads through the kernel" dd if="$C1" of=/dev/null bs=1M
	# pi_act=1 with no metadata buffer: the controller writes the PI (8
	# bytes of metadata, nothing moves), nvscope's check of it passes: its
	# CRC16 is the controller's
	expect_rc 0 "PI sb: pi_act=1 write without a metadata buffer" nvscope run --target "$C1G" \
		--rw=write --bs=4k --offset=2m --size=1m $P --pi_act=1 --pi_chk=GUARD,REFTAG
	expect_rc 0 "PI sb: the controller's PI passes nvscope's check" nvscope run --target "$C1G" \
		--rw=read --bs=4k --offset=2m --size=1m $P $SB --pi_chk=GUARD,REFTAG
	# fio's uring-cmd-pi-sb.fio, only filename and size changed
	sed -e "s|^filename=.*|filename=$C1G|" -e 's|^size=.*|size=1m|' >/tmp/pi-sb.fio <<'FIO'
[global]
filename=/dev/ng0n1
ioengine=io_uring_cmd
cmd_type=nvme
size=1G
iodepth=32
bs=4096
md_per_io_size=64
pi_act=0
pi_chk=GUARD,APPTAG,REFTAG
apptag=0x0888
apptag_mask=0xFFFF
thread=1
stonewall=1

[write]
rw=write

[read]
rw=read
FIO
	expect_rc 0 "PI sb: fio's uring-cmd-pi-sb.fio" nvscope run /tmp/pi-sb.fio --output-format=json
	if [ "$(jsum io_bytes /tmp/out)" = 2097152 ]; then ok "PI sb: the example wrote and read 1 MiB"; else
		bad "PI sb example: io_bytes $(jsum io_bytes /tmp/out)"; fi

	# a write that leaves the guard zero (only the application tag asked):
	# caught by the controller on a guard-checked read, as fio reports it,
	# and by the kernel's own check
	expect_rc 0 "PI sb: a write with a bad guard (pi_chk=APPTAG only)" nvscope run --target "$C1G" \
		--rw=write --bs=4k --offset=8m --size=64k $P $SB --pi_chk=APPTAG
	expect_rc 1 "PI sb: the bad guard caught by the controller" nvscope run --target "$C1G" \
		--rw=read --bs=4k --offset=8m --size=64k $P $SB --pi_chk=GUARD
	check "names the NVMe status (sct=0x2 sc=0x82, guard)" grep -q "sct=0x2 sc=0x82" /tmp/err
	flush "$C1"
	if dd if="$C1" of=/dev/null bs=64k skip=128 count=1 iflag=direct 2>/dev/null; then
		bad "PI sb: the kernel read a bad guard"; else ok "PI sb: the kernel's check refuses the bad guard too"; fi

	# extended LBA 4096+64: the block device shows 0 bytes, so what the
	# namespace holds cannot be probed: a write needs --force-destroy
	X="--bs=4160 --size=1064960 --pi_act=0 --pi_chk=GUARD,APPTAG,REFTAG --apptag=0x0888"
	expect_rc 2 "PI ext: write refused without --force-destroy (0-byte block device)" nvscope run \
		--target "$C2G" --rw=write $P $X
	check "the refusal says why" grep -q "shows 0 bytes" /tmp/err
	expect_rc 0 "PI ext: write with nvscope's PI in the data buffer" nvscope run --target "$C2G" \
		--rw=write $P $X --force-destroy
	if [ "$(jsum io_bytes /tmp/out)" = 1064960 ]; then ok "PI ext: 256 LBAs of 4160 written"; else bad "PI ext: io_bytes $(jsum io_bytes /tmp/out)"; fi
	expect_rc 0 "PI ext: read back, checked" nvscope run --target "$C2G" --rw=read $P $X
	expect_rc 1 "PI ext: a wrong apptag caught by the controller" nvscope run --target "$C2G" \
		--rw=read $P --bs=4160 --size=1064960 --pi_act=0 --pi_chk=APPTAG --apptag=0x0999
	check "names the NVMe status (sc=0x83)" grep -q "sct=0x2 sc=0x83" /tmp/err
	expect_rc 2 "PI ext: bs=4k refused with fio's hint" nvscope run --target "$C2G" --rw=read $P \
		--bs=4k --size=1m --pi_act=0
	check "suggests 4160" grep -q "did you mean a block size of 4160" /tmp/err
	expect_rc 0 "PI ext: pi_act=1 write (the controller's PI, 64 bytes still moved)" nvscope run \
		--target "$C2G" --rw=write $P --bs=4160 --offset=4259840 --size=1064960 --pi_act=1 \
		--pi_chk=GUARD,REFTAG --force-destroy
	expect_rc 0 "PI ext: the controller's PI passes nvscope's check" nvscope run --target "$C2G" \
		--rw=read $P --bs=4160 --offset=4259840 --size=1064960 --pi_act=0 --pi_chk=GUARD,REFTAG
	sed -e "s|^filename=.*|filename=$C2G|" -e 's|^size=.*|size=1064960|' >/tmp/pi-ext.fio <<'FIO'
[global]
filename=/dev/ng0n1
ioengine=io_uring_cmd
cmd_type=nvme
size=1G
iodepth=32
bs=4160
pi_act=0
pi_chk=GUARD,APPTAG,REFTAG
apptag=0x0888
apptag_mask=0xFFFF
thread=1
stonewall=1

[write]
rw=write

[read]
rw=read
FIO
	expect_rc 0 "PI ext: fio's uring-cmd-pi-ext.fio" nvscope run /tmp/pi-ext.fio --force-destroy \
		--output-format=json
	if [ "$(jsum io_bytes /tmp/out)" = 2129920 ]; then ok "PI ext: the example wrote and read 256 LBAs"; else
		bad "PI ext example: io_bytes $(jsum io_bytes /tmp/out)"; fi
	}
	pi64_checks
	dmesg | grep -iE "nvme2|tag error|guard" | tail -8 | sed 's/^/   dmesg: /'
	echo 1 >"/sys/class/nvme/${CC#/dev/}/device/remove"
	sleep 1
	n=$(nvscope list --json | flat | grep -vc "^NVSCOPE-ZNS|") # (the zoned one: zns_checks)
	if [ "$n" = 3 ]; then ok "controller C removed: 3 namespaces left"; else bad "after removing C: $n namespaces"; fi
}

# ---- the 64-bit guard (NVMe 2.0 ELBAF PIF 2: CRC-64/NVMe, 48-bit reference
# tag; fio master's 64b helpers), on controller C before its removal.  C3:
# LBA 512 + 16 bytes of separate metadata, PI type 1 last (the kernel's
# block layer checks its CRC64 too); C4: LBA 4096 + 64 interleaved, PI
# type 1 first (the tuple right after the data).  Called from pi_checks.
pi64_checks() {
	C=$NVS_VM_SER_PI
	for want in "$C|QEMU NVMe Ctrl|3|16252928|512|16|" "$C|QEMU NVMe Ctrl|4|16515072|4096|64|"; do
		if grep -qF "$want" /tmp/ns.txt; then ok "PI64 namespace $want"; else bad "missing PI64 namespace $want"; fi
	done
	LC3=$(grep -F "$C|QEMU NVMe Ctrl|3|" /tmp/ns.txt | head -1)
	LC4=$(grep -F "$C|QEMU NVMe Ctrl|4|" /tmp/ns.txt | head -1)
	C3=$(field "$LC3" 8) C3G=$(field "$LC3" 9) C4G=$(field "$LC4" 9)
	echo "guest: PI64 ($C3 $C3G, $C4G)"
	P="--ioengine=io_uring_cmd --iodepth=4 --output-format=json"
	SB="--md_per_io_size=128 --pi_act=0"
	# shellcheck disable=SC2086
	{
	expect_rc 0 "PI64 sb: write with nvscope's 64-bit guard PI (GUARD,REFTAG,APPTAG)" nvscope run \
		--target "$C3G" --rw=write --bs=4k --size=1m $P $SB --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0888
	if [ "$(jsum io_bytes /tmp/out)" = 1048576 ]; then ok "PI64 sb: 1 MiB written"; else bad "PI64 sb: io_bytes $(jsum io_bytes /tmp/out)"; fi
	expect_rc 0 "PI64 sb: read back, checked by the controller and by nvscope" nvscope run \
		--target "$C3G" --rw=read --bs=4k --size=1m $P $SB --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0888
	flush "$C3"
	check "PI64 sb: the kernel's CRC64 PI check reads nvscope's blocks" \
		dd if="$C3" of=/dev/null bs=64k count=16 iflag=direct
	expect_rc 1 "PI64 sb: a wrong apptag caught by the controller" nvscope run --target "$C3G" \
		--rw=read --bs=4k --size=1m $P $SB --pi_chk=APPTAG --apptag=0x0999
	check "names the NVMe status (sct=0x2 sc=0x83, application tag)" grep -q "sct=0x2 sc=0x83" /tmp/err
	# pi_act=1: the 16 bytes are the PI alone, nothing moves; the
	# controller's CRC64 passes nvscope's check (one CRC-64/NVMe)
	expect_rc 0 "PI64 sb: pi_act=1 write without a metadata buffer" nvscope run --target "$C3G" \
		--rw=write --bs=4k --offset=2m --size=256k $P --pi_act=1 --pi_chk=GUARD,REFTAG
	expect_rc 0 "PI64 sb: the controller's PI passes nvscope's check" nvscope run --target "$C3G" \
		--rw=read --bs=4k --offset=2m --size=256k $P $SB --pi_chk=GUARD,REFTAG
	# a write whose guard is left unset (only the application tag asked)
	expect_rc 0 "PI64 sb: a write with a bad guard (pi_chk=APPTAG only)" nvscope run --target "$C3G" \
		--rw=write --bs=4k --offset=8m --size=64k $P $SB --pi_chk=APPTAG
	expect_rc 1 "PI64 sb: the bad guard caught by the controller" nvscope run --target "$C3G" \
		--rw=read --bs=4k --offset=8m --size=64k $P $SB --pi_chk=GUARD
	check "names the NVMe status (sct=0x2 sc=0x82, guard)" grep -q "sct=0x2 sc=0x82" /tmp/err
	flush "$C3"
	if dd if="$C3" of=/dev/null bs=64k skip=128 count=1 iflag=direct 2>/dev/null; then
		bad "PI64 sb: the kernel read a bad guard"; else ok "PI64 sb: the kernel's check refuses the bad guard too"; fi

	# extended LBA 4096+64, the tuple first: guard over the data alone
	X="--bs=4160 --size=532480 --pi_act=0 --pi_chk=GUARD,APPTAG,REFTAG --apptag=0x0888"
	expect_rc 0 "PI64 ext: write with nvscope's PI in the data buffer" nvscope run --target "$C4G" \
		--rw=write $P $X --force-destroy
	if [ "$(jsum io_bytes /tmp/out)" = 532480 ]; then ok "PI64 ext: 128 LBAs of 4160 written"; else bad "PI64 ext: io_bytes $(jsum io_bytes /tmp/out)"; fi
	expect_rc 0 "PI64 ext: read back, checked" nvscope run --target "$C4G" --rw=read $P $X
	expect_rc 1 "PI64 ext: a wrong apptag caught by the controller" nvscope run --target "$C4G" \
		--rw=read $P --bs=4160 --size=532480 --pi_act=0 --pi_chk=APPTAG --apptag=0x0999
	check "names the NVMe status (sc=0x83)" grep -q "sct=0x2 sc=0x83" /tmp/err
	expect_rc 0 "PI64 ext: pi_act=1 write (the controller's PI)" nvscope run --target "$C4G" \
		--rw=write $P --bs=4160 --offset=4259840 --size=532480 --pi_act=1 --pi_chk=GUARD,REFTAG \
		--force-destroy
	expect_rc 0 "PI64 ext: the controller's PI passes nvscope's check" nvscope run --target "$C4G" \
		--rw=read $P --bs=4160 --offset=4259840 --size=532480 --pi_act=0 --pi_chk=GUARD,REFTAG
	}
}

# ---- discovery
expect_rc 0 "list --json" nvscope list --json
cp /tmp/out /tmp/list.json
flat /tmp/list.json >/tmp/ns.txt
sed 's/^/   /' /tmp/ns.txt
n=$(grep -vc "^NVSCOPE-ZNS|" /tmp/ns.txt) # (the zoned one: zns_checks)
if [ "$n" = 7 ]; then ok "seven namespaces listed (C's four with PI)"; else bad "namespaces listed: $n, wanted 7"; fi
for want in "$A|QEMU NVMe Ctrl|1|67108864|512|0|" "$A|QEMU NVMe Ctrl|2|33554432|4096|0|" \
	"$B|QEMU NVMe Ctrl|1|50331648|512|0|"; do
	if grep -qF "$want" /tmp/ns.txt; then ok "namespace $want"; else bad "missing namespace $want"; fi
done
LA1=$(grep -F "$A|QEMU NVMe Ctrl|1|" /tmp/ns.txt | head -1)
LA2=$(grep -F "$A|QEMU NVMe Ctrl|2|" /tmp/ns.txt | head -1)
LB1=$(grep -F "$B|QEMU NVMe Ctrl|1|" /tmp/ns.txt | head -1)
CA=$(field "$LA1" 7) CB=$(field "$LB1" 7)
A1=$(field "$LA1" 8) A1G=$(field "$LA1" 9) A2=$(field "$LA2" 8) A2G=$(field "$LA2" 9)
B1=$(field "$LB1" 8)
echo "guest: A=$CA ($A1 $A1G, $A2 $A2G) B=$CB ($B1)"
if [ -n "$CA" ] && [ -n "$CB" ] && [ "$CA" != "$CB" ]; then ok "two distinct controllers"; else bad "controllers '$CA' '$CB'"; fi
pi_checks
if [ "$(field "$LA1" 10)" = pcie ]; then ok "transport pcie"; else bad "transport '$(field "$LA1" 10)'"; fi
check "generic devices exist" test -c "$A1G" -a -c "$A2G"
if grep -q '"address":[[:space:]]*"0000:' /tmp/list.json; then ok "PCIe address"; else bad "no PCIe address"; fi
if grep -q '"serial":[[:space:]]*"NVSCOPE-A1"' /tmp/list.json; then ok "serial trimmed"; else bad "serial not trimmed"; fi
expect_rc 0 "list (table)" nvscope list
check "table names serial A" grep -q "$A" /tmp/out
expect_rc 0 "list --tree" nvscope list --tree
check "tree shows ns 2 of A" grep -q "ns 2  $A2" /tmp/out

# ---- health
expect_rc 0 "health --json $CA" nvscope health "$CA" --json
check "composite temperature present" grep -qE '"temperature_c":[[:space:]]*[0-9]' /tmp/out
check "A: critical_warning 0" grep -qE '"critical_warning":[[:space:]]*0,' /tmp/out
check "A: no HCTMA, thermal management N/A" grep -qE '"thermal_mgmt_t1_transitions":[[:space:]]*null' /tmp/out
check "A: WCTEMP reported, warning time valid" grep -qE '"warning_temp_minutes":[[:space:]]*[0-9]' /tmp/out
expect_rc 0 "health --json $CB" nvscope health "$CB" --json
check "B: injected critical_warning $NVS_VM_CW_B" grep -qE "\"critical_warning\":[[:space:]]*$NVS_VM_CW_B," /tmp/out
check "B: warning decoded" grep -q '"available_spare"' /tmp/out
expect_rc 0 "health of a namespace" nvscope health "$A2"
check "human health report" grep -q "power_on_hours" /tmp/out
expect_rc 0 "health of a generic device" nvscope health "$A1G" --json
expect_rc 2 "health of a non-NVMe path" nvscope health /dev/null
expect_rc 2 "health without a device" nvscope health

# ---- nvscope check: a verdict per serial
# verdicts: "SERIAL=VERDICT" per drive of a check --json output
verdicts() { awk '/^\t\t\t"serial":/ { s = $2; gsub(/[",]/, "", s) }
	/^\t\t\t"verdict":/ { v = $2; gsub(/[",]/, "", v); print s "=" v }' "$1" | grep -v "^NVSCOPE-ZNS=" | sort | tr '\n' ' '; }
# the shipped quick profile with its perf jobs capped at one rate: the speed
# of TCG emulation is not under test here (the outlier rule is, on loop
# devices with one throttled: tests/integration/check_loop.sh)
awk '{ print } /^time_based$/ { print "rate_iops=500" }' /usr/share/nvscope/presets/checks/quick.ini >/tmp/quick.ini
check "quick profile capped" grep -q rate_iops /tmp/quick.ini
expect_rc 1 "check --all-nvme --profile quick --json" nvscope check --all-nvme --profile /tmp/quick.ini --json -o /tmp/chk1
cp /tmp/out /tmp/chk1.json
v=$(verdicts /tmp/chk1.json)
if [ "$v" = "$A=PASS $B=FAIL " ]; then ok "check quick: $v"; else bad "check quick verdicts: '$v'"; grep -E '"(serial|text)"' /tmp/chk1.json | sed 's/^/   /'; fi
w=$(awk '/^\t\t\t"serial":/ { s = $2; gsub(/[",]/, "", s) }
	/^\t\t\t"reasons":.*"critical warning: spare below threshold"/ { print s }' /tmp/chk1.json)
if [ "$w" = "$B" ]; then ok "check names B's warning: critical warning: spare below threshold"; else bad "warning reason for '$w'"; fi
check "check saved per-serial verdicts" test -s "/tmp/chk1/$A/verdict.json" -a -s "/tmp/chk1/$B/verdict.csv"
check "check saved health before and after" test -s "/tmp/chk1/$B/health-before.json" -a -s "/tmp/chk1/$B/health-after.json"
expect_rc 1 "check --profile rma (self-test, error log)" nvscope check --all-nvme --profile rma --json -o /tmp/chk2
v=$(verdicts /tmp/out)
if [ "$v" = "$A=PASS $B=FAIL " ]; then ok "check rma: $v"; else bad "check rma verdicts: '$v'"; grep -E '"(serial|text)"' /tmp/out | sed 's/^/   /'; fi
if grep -qE '"self-test: not supported"|"self-test short: completed without error"' /tmp/out; then
	ok "self-test result: $(grep -oE 'self-test[^"]*' /tmp/out | head -1)"; else bad "no self-test result"; fi
expect_rc 0 "check rma of one drive: the table" nvscope check --target "$A1" --profile rma -o /tmp/chk3
check "table row for A" grep -qE "^$A +QEMU NVMe Ctrl .* PASS " /tmp/out
check "check's test bed: health before and after" grep -qE '"health_after":[[:space:]]*\{' /tmp/chk3/meta.json
scribble "$A1"
sum0=$(md5sum <"$A1")
expect_rc 2 "check burn-in without the serial" nvscope check --target "$A1" --profile burn-in -o /tmp/chk4
check "refusal names the serial" grep -q "yes-destroy-data=$A" /tmp/err
expect_rc 2 "check burn-in confirmed by path (NVMe needs the serial)" nvscope check --target "$A1" \
	--profile burn-in --yes-destroy-data="$A1" -o /tmp/chk4
flush "$A1"
if [ "$(md5sum <"$A1")" = "$sum0" ]; then ok "refused check wrote nothing"; else bad "refused check changed $A1"; fi

# ---- workloads: block layer and passthrough
R="--rw=randrw --bs=4k --iodepth=4 --runtime=2 --output-format=json"
# shellcheck disable=SC2086
expect_rc 0 "run io_uring on $A1" nvscope run --target "$A1" $R --ioengine=io_uring
cp /tmp/out /tmp/run1.json
if [ "$(jsum io_bytes /tmp/run1.json)" -gt 0 ]; then ok "block run moved data"; else bad "block run: no io_bytes"; sed 's/^/   /' /tmp/err | head; fi
for g in "$A2G" "$A1G"; do
	# shellcheck disable=SC2086
	expect_rc 0 "run io_uring_cmd on $g" nvscope run --target "$g" $R --ioengine=io_uring_cmd
	cp /tmp/out /tmp/run2.json
	if [ "$(jsum io_bytes /tmp/run2.json)" -gt 0 ]; then ok "passthrough run on $g moved data"; else
		bad "passthrough run on $g: no io_bytes"; head -c 600 /tmp/run2.json; fi
done
# a passthrough write must land on the media of the right namespace
dd if=/dev/zero of="$A2" bs=1M count=1 conv=fsync 2>/dev/null
check "$A2 zeroed" is_zero "$A2"
expect_rc 0 "passthrough sequential write of 1 MiB" nvscope run --target "$A2G" --rw=write \
	--bs=4k --iodepth=4 --size=1m --ioengine=io_uring_cmd --output-format=json
if is_zero "$A2"; then bad "passthrough write did not reach $A2"; else ok "passthrough write reached $A2"; fi
expect_rc 2 "io_uring_cmd on a block device is refused" nvscope run --target "$A1" $R --ioengine=io_uring_cmd

# ---- io_uring_cmd: fio's write_mode and num_range (NVMe commands, checked on
# the media: QEMU's namespace A2, LBA 4096).  md5 of COUNT 4k blocks at SKIP.
blkmd5() { flush "$1"; dd if="$1" bs=4k skip="$2" count="$3" 2>/dev/null | md5sum | cut -d' ' -f1; }
Z128=$(dd if=/dev/zero bs=4k count=128 2>/dev/null | md5sum | cut -d' ' -f1)
dd if=/dev/urandom of="$A2" bs=1M count=2 conv=fsync 2>/dev/null
p_head=$(blkmd5 "$A2" 0 64) p_mid=$(blkmd5 "$A2" 64 128) p_tail=$(blkmd5 "$A2" 192 320)
W="--ioengine=io_uring_cmd --rw=write --bs=16k --iodepth=4 --offset=256k --size=512k --output-format=json"
# shellcheck disable=SC2086
expect_rc 0 "write_mode=zeroes over [256k, 768k)" nvscope run --target "$A2G" $W --write_mode=zeroes
if [ "$(jsum io_bytes /tmp/out)" = 524288 ] && [ "$(jsum total_ios /tmp/out)" = 32 ]; then
	ok "write_mode=zeroes counted as 32 writes of 16k (fio: writes)"; else
	bad "write_mode=zeroes counts: $(jsum io_bytes /tmp/out) bytes, $(jsum total_ios /tmp/out) I/Os"; fi
check "the zeroed range reads zeros" [ "$(blkmd5 "$A2" 64 128)" = "$Z128" ]
check "around it unchanged" [ "$(blkmd5 "$A2" 0 64)$(blkmd5 "$A2" 192 320)" = "$p_head$p_tail" ]
dd if=/dev/urandom of="$A2" bs=4k seek=64 count=128 conv=fsync 2>/dev/null
p_mid=$(blkmd5 "$A2" 64 128)
# Verify: the drive reads and checks, nothing is written (not a write for
# the safety rule: past it even over a signature, without --force-destroy).
# QEMU 7.2 implements the command but its ONCS lacks bit 7: then a clear
# refusal, from the capability check, not the safety rule
mkswap "$A2" >/dev/null 2>&1
p_head=$(blkmd5 "$A2" 0 64)
# shellcheck disable=SC2086
nvscope run --target "$A2G" $W --write_mode=verify >/tmp/out 2>/tmp/err
rc=$?
if [ "$rc" = 2 ] && grep -q "Verify (Identify Controller ONCS bit 7); nothing was sent" /tmp/err; then
	ok "write_mode=verify refused (ONCS), past the safety rule: $(cat /tmp/err)"
elif [ "$rc" = 0 ] && [ "$(jsum total_ios /tmp/out)" = 32 ]; then
	ok "write_mode=verify over a swap signature: 32 commands, no override needed"
else
	bad "write_mode=verify: exit $rc, $(jsum total_ios /tmp/out) I/Os: $(cat /tmp/err)"
fi
check "verify changed nothing" [ "$(blkmd5 "$A2" 0 64)$(blkmd5 "$A2" 64 128)$(blkmd5 "$A2" 192 320)" = "$p_head$p_mid$p_tail" ]
# Write Zeroes destroys data: the safety rule's override is needed over a signature
# shellcheck disable=SC2086
expect_rc 2 "write_mode=zeroes over a swap signature refused" nvscope run --target "$A2G" $W --write_mode=zeroes
check "refusal names the signature" grep -q "swap" /tmp/err
# shellcheck disable=SC2086
expect_rc 2 "a mix with zeroes over a swap signature refused" nvscope run --target "$A2G" $W --write_mode=verify/90:zeroes/10
check "refused zeroes changed nothing" [ "$(blkmd5 "$A2" 0 64)$(blkmd5 "$A2" 64 128)" = "$p_head$p_mid" ]
# shellcheck disable=SC2086
expect_rc 0 "write_mode=zeroes (deac) with --force-destroy" nvscope run --target "$A2G" $W --write_mode=zeroes --deac=1 --force-destroy
check "zeroes with DEAC reads zeros" [ "$(blkmd5 "$A2" 64 128)" = "$Z128" ]
dd if=/dev/zero of="$A2" bs=64k count=1 conv=fsync 2>/dev/null # the signature gone
# Write Uncorrectable: QEMU 7.2 does not report it (ONCS bit 1): a clear
# refusal before any I/O; where it does, the range must then fail to read
dd if=/dev/urandom of="$A2" bs=4k seek=256 count=4 conv=fsync 2>/dev/null
u0=$(blkmd5 "$A2" 256 4)
nvscope run --target "$A2G" --ioengine=io_uring_cmd --rw=write --bs=4k --offset=1m --size=16k \
	--write_mode=uncor >/tmp/out 2>/tmp/err
rc=$?
if [ "$rc" = 2 ] && grep -q "Write Uncorrectable (Identify Controller ONCS bit 1)" /tmp/err; then
	ok "write_mode=uncor refused: $(cat /tmp/err)"
	check "refused uncor changed nothing" [ "$(blkmd5 "$A2" 256 4)" = "$u0" ]
elif [ "$rc" = 0 ]; then
	flush "$A2"
	if dd if="$A2" bs=4k skip=256 count=1 iflag=direct of=/dev/null 2>/dev/null; then
		bad "write_mode=uncor ran but the block still reads"; else ok "write_mode=uncor: the block fails to read"; fi
	dd if=/dev/zero of="$A2" bs=4k seek=256 count=4 oflag=direct conv=fsync 2>/dev/null
else
	bad "write_mode=uncor: exit $rc: $(cat /tmp/err)"
fi
# num_range: Dataset Management of 8 ranges per command, each bs long (fio:
# one I/O per command, its bytes the ranges' total)
for rw in trim randtrim; do
	dd if=/dev/urandom of="$A2" bs=1M count=2 conv=fsync 2>/dev/null
	p_tail=$(blkmd5 "$A2" 256 256)
	expect_rc 0 "rw=$rw num_range=8 over the first MiB" nvscope run --target "$A2G" \
		--ioengine=io_uring_cmd --rw=$rw --bs=4k --iodepth=4 --num_range=8 --size=1m --output-format=json
	if [ "$(jsum io_bytes /tmp/out)" = 1048576 ] && [ "$(jsum total_ios /tmp/out)" = 32 ]; then
		ok "$rw num_range=8: 32 commands, 1 MiB"; else
		bad "$rw num_range=8: $(jsum io_bytes /tmp/out) bytes in $(jsum total_ios /tmp/out) I/Os"; fi
	check "$rw num_range=8: the MiB reads zeros" [ "$(blkmd5 "$A2" 0 128)$(blkmd5 "$A2" 128 128)" = "$Z128$Z128" ]
	check "$rw num_range=8: the next MiB unchanged" [ "$(blkmd5 "$A2" 256 256)" = "$p_tail" ]
done
# fio's example (uring-cmd-trim-multi-range.fio): bssplit sizes, 8 ranges a
# command: the same offsets and sizes as one range a command (same seed),
# in a eighth of the commands (the last may hold fewer)
dd if=/dev/urandom of="$A2" bs=1M count=2 conv=fsync 2>/dev/null
p_tail=$(blkmd5 "$A2" 256 256)
for n in 1 8; do
	expect_rc 0 "rw=trim bssplit num_range=$n" nvscope run --target "$A2G" --ioengine=io_uring_cmd \
		--rw=trim --bssplit=4k/10:64k/50:32k/40 --iodepth=32 --num_range=$n --size=1m --randseed=7 \
		--output-format=json
	eval "tb$n=$(jsum io_bytes /tmp/out) ti$n=$(jsum total_ios /tmp/out)"
done
echo "   bssplit trims: $tb1 bytes in $ti1 commands (1 range), $tb8 in $ti8 (8 ranges)"
if [ "$tb1" = "$tb8" ] && [ "$tb1" -gt 983040 ] && [ "$tb1" -le 1048576 ] &&
	[ "$ti8" = $(((ti1 + 7) / 8)) ]; then ok "num_range=8 groups the same trims by 8"; else
	bad "bssplit trims: $tb1/$ti1 vs $tb8/$ti8"; fi
check "bssplit trims: the first 960k reads zeros" [ "$(blkmd5 "$A2" 0 240)" = "$(blkmd5 /dev/zero 0 240)" ]
check "bssplit trims: the next MiB unchanged" [ "$(blkmd5 "$A2" 256 256)" = "$p_tail" ]

# ---- safety on passthrough: the namespace's block device is what counts
mkswap "$A2" >/dev/null 2>&1
expect_rc 2 "passthrough write over a swap signature refused" nvscope run --target "$A2G" \
	--rw=randwrite --bs=4k --runtime=1 --ioengine=io_uring_cmd
check "refusal names the signature and the block device" grep -q "swap.*$A2\|$A2.*swap" /tmp/err
expect_rc 0 "passthrough write with --force-destroy" nvscope run --target "$A2G" --rw=randwrite \
	--bs=4k --runtime=1 --size=1m --ioengine=io_uring_cmd --force-destroy -q
# (whatever is left of the swap header would make the format below, which
# acts on every namespace, need --force-destroy: docs/safety.md)
dd if=/dev/zero of="$A2" bs=64k count=1 conv=fsync 2>/dev/null

# ---- purge: format
scribble "$A1"
if is_zero "$A1"; then bad "scribble on $A1"; fi
expect_rc 2 "format without confirmation" nvscope purge "$A1" --method=format
expect_rc 2 "format with the wrong serial" nvscope purge "$A1" --method=format --yes-destroy-data="$B"
if is_zero "$A1"; then bad "refused format changed data"; else ok "refused format left the data"; fi
expect_rc 0 "format with confirmation" nvscope purge "$A1" --method=format --yes-destroy-data="$A"
check "formatted namespace reads zeros" is_zero "$A1"
scribble "$A1"
expect_rc 0 "format with user-data erase (ses 1)" nvscope purge "$A1" --method=format --ses=1 --yes-destroy-data="$A"
check "erased namespace reads zeros" is_zero "$A1"
expect_rc 2 "crypto-erase format where FNA says no" nvscope purge "$A1" --method=format --ses=2 --yes-destroy-data="$A"
check "says FNA" grep -q "FNA" /tmp/err
nvscope list --json | flat >/tmp/ns2.txt
check "format kept LBA sizes" grep -qF "$A|QEMU NVMe Ctrl|2|33554432|4096|" /tmp/ns2.txt
expect_rc 2 "sanitize where unsupported" nvscope purge "$CA" --method=sanitize-crypto --yes-destroy-data="$A"
if grep -q "not supported" /tmp/err; then ok "says why: $(cat /tmp/err)"; else bad "no reason: $(cat /tmp/err)"; fi

# ---- purge: trim (NVMe deallocate)
scribble "$B1"
expect_rc 2 "trim without confirmation" nvscope purge "$B1" --method=trim
if is_zero "$B1"; then bad "refused trim changed data"; else ok "refused trim left the data"; fi
expect_rc 0 "trim with confirmation" nvscope purge "$B1" --method=trim --yes-destroy-data="$B"
check "trimmed namespace reads zeros" is_zero "$B1"
scribble "$A2"
expect_rc 0 "trim a whole controller" nvscope purge "$CA" --method=trim --yes-destroy-data="$A"
check "all namespaces of the controller trimmed" is_zero "$A2"
expect_rc 2 "purge a non-device" nvscope purge /dev/null --method=trim --yes-destroy-data=/dev/null
expect_rc 2 "unknown method" nvscope purge "$B1" --method=shred --yes-destroy-data="$B"

# ---- a plan that purges an NVMe namespace needs the controller's serial
cat >/tmp/tiny-plan.ini <<'PLAN'
[plan]
description = purge then a short measurement
runtime = 1s
[purge]
method = trim
[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,4
PLAN
expect_rc 2 "plan purge confirmed by path only" nvscope plan /tmp/tiny-plan.ini --target "$B1" \
	--yes-destroy-data="$B1" --results /tmp/plan1 --quiet
check "refusal names the serial" grep -q "$B" /tmp/err
scribble "$B1"
expect_rc 0 "plan purge confirmed by serial" nvscope plan /tmp/tiny-plan.ini --target "$B1" \
	--yes-destroy-data="$B" --results /tmp/plan2 --quiet
check "plan trimmed the namespace" is_zero "$B1"
check "plan wrote its per-QD results" test -s /tmp/plan2/02-measure-4k-randread/summary.json
# meta.json's test bed: the NVMe health before and after the run (a
# SMART log each), the PCIe link key (its figures are QEMU's)
check "test bed: health before the run" grep -qE '"health_before":[[:space:]]*\{' /tmp/plan2/meta.json
check "test bed: health after the run" grep -qE '"health_after":[[:space:]]*\{' /tmp/plan2/meta.json
check "test bed: the PCIe link recorded" grep -q '"pcie_link":' /tmp/plan2/meta.json

# ---- health reflects a running workload (read from another process meanwhile)
hrc() { nvscope health "$1" --json | awk '$1 == "\"host_read_commands\":" { gsub(/,/, "", $2); print $2 }'; }
h0=$(hrc "$CB")
nvscope run --target "$B1" --rw=randread --bs=4k --iodepth=4 --runtime=3 --time_based --output-format=json >/tmp/bg.json 2>&1 &
bg=$!
sleep 1.5
h1=$(hrc "$CB")
wait $bg
h2=$(hrc "$CB")
echo "   host_read_commands: $h0 -> $h1 (during) -> $h2"
# (under TCG the "during" reading may come late: it must show reads, the
# last one no fewer)
if [ -n "$h0" ] && [ "${h1:-0}" -gt "$h0" ] && [ "${h2:-0}" -ge "$h1" ]; then
	ok "health during a run shows the reads"; else bad "host_read_commands $h0 -> $h1 -> $h2"; fi

# ---- a controller that vanishes mid-run
nvscope run --target "$B1" --rw=randread --bs=4k --iodepth=4 --runtime=5 --time_based --output-format=json >/tmp/gone.json 2>/tmp/gone.err &
bg=$!
sleep 1.5
echo 1 >"/sys/class/nvme/${CB#/dev/}/device/remove"
wait $bg
rc=$?
if [ "$rc" != 0 ] && [ "$rc" -lt 128 ]; then ok "run on a vanished controller ends with exit $rc: $(head -1 /tmp/gone.err)"; else
	bad "run on a vanished controller: exit $rc"; head -3 /tmp/gone.err; fi
expect_rc 2 "health of the vanished controller" nvscope health "$CB"
expect_rc 0 "list after the removal" nvscope list --json
n=$(flat /tmp/out | grep -vc "^NVSCOPE-ZNS|") # (not the zoned one, below)
if [ "$n" = 2 ]; then ok "list shows the remaining 2 namespaces"; else bad "after removal: $n namespaces"; fi

# ---- zoned namespace (run.sh: 16 zones of 1 MiB, capacity 768 KiB, max
# open 4, max active 6): zonemode=zbd on the zoned block device and through
# io_uring_cmd on its generic device; write pointers read back with
# util-linux's blkzone, not with nvscope
zns_checks() {
	. /etc/vm/env
	nvscope list --json >/tmp/zl 2>/dev/null
	zl=$(flat /tmp/zl | grep "^$NVS_VM_SER_Z|" | head -1)
	ZB=$(field "$zl" 8) ZG=$(field "$zl" 9)
	if [ -z "$ZB" ] || [ -z "$ZG" ]; then bad "zoned: no namespace of $NVS_VM_SER_Z ($zl)"; return; fi
	q=/sys/block/${ZB#/dev/}/queue
	if [ "$(cat $q/zoned)" = host-managed ] && [ "$(cat $q/max_open_zones)" = 4 ]; then
		ok "zoned: $ZB is host-managed, max_open_zones 4 (scheduler: $(cat $q/scheduler))"; else
		bad "zoned: $ZB: $(cat $q/zoned) max_open $(cat $q/max_open_zones)"; return; fi
	# wps: the 16 write pointers (sectors from each zone's start; F: full)
	wps() { blkzone report -c 16 "$ZB" | while read -r l; do
		case $l in *"(fu)"*) printf 'F ' ;; *wptr*)
			h=${l#*wptr 0x}; printf '%d ' $((0x${h%% *})) ;; esac; done; }
	nz() { n=0; for w in $(wps); do [ "$w" != 0 ] && n=$((n + 1)); done; echo $n; }
	sumwp() { s=0; for w in $(wps); do [ "$w" = F ] && w=1536; s=$((s + w * 512)); done; echo $s; }
	zrun() { nvscope run --zonemode=zbd --output-format=json "$@"; }
	zpt() { zrun --target "$ZG" --ioengine=io_uring_cmd --cmd_type=nvme --iodepth=1 "$@"; }
	F4="F F F F 0 0 0 0"

	# 1. data on a zone: every write and every reset is refused, through
	# both paths, and the zone keeps its data and write pointer
	blkzone reset "$ZB"
	dd if=/etc/vm/ext4.head of="$ZB" bs=4096 count=1 conv=fsync 2>/dev/null
	flush "$ZB"
	w0=$(wps)
	case $w0 in "8 0 "*) ok "zoned: an ext4 superblock planted in zone 0" ;;
	*) bad "zoned: planting the signature: wps $w0" ;; esac
	expect_rc 2 "zoned: sequential write on a device holding ext4 refused" \
		zrun --target "$ZB" --rw=write --bs=64k --size=2M
	expect_rc 2 "zoned: zone resets (randtrim) on it refused" \
		zrun --target "$ZB" --rw=randtrim --bs=1M --size=4M
	expect_rc 2 "zoned: io_uring_cmd write on it refused" zpt --rw=write --bs=64k --size=2M
	expect_rc 2 "zoned: io_uring_cmd zone resets on it refused" zpt --rw=randtrim --bs=1M --size=4M
	expect_rc 2 "zoned: random writes (resets of full zones) on it refused" \
		zrun --target "$ZB" --rw=randwrite --bs=4k --size=16M --io_size=1M
	flush "$ZB"
	if [ "$(wps)" = "$w0" ] && cmp -s -n 4096 "$ZB" /etc/vm/ext4.head; then
		ok "zoned: after the refusals the write pointers and the ext4 superblock are unchanged"; else
		bad "zoned: refusals changed the device: wps $(wps) (were $w0)"; fi
	expect_rc 0 "zoned: --force-destroy overrides" \
		zrun --target "$ZB" --rw=randtrim --bs=1M --size=1M --force-destroy
	case $(wps) in "0 0 "*) ok "zoned: the forced reset emptied zone 0" ;;
	*) bad "zoned: forced reset: wps $(wps)" ;; esac

	# 2. sequential writes: the write pointers hold exactly what was written
	blkzone reset "$ZB"
	expect_rc 0 "zoned: sequential write of 4 zones (block device)" \
		zrun --target "$ZB" --rw=write --bs=64k --size=4M
	b=$(jsum io_bytes /tmp/out) w=$(wps)
	case $w in "$F4 0 0 0 0 0 0 0 0 ") ok "zoned: zones 0-3 written to their capacity ($b bytes)" ;;
	*) bad "zoned: sequential write: wps $w" ;; esac
	if [ "$b" = "$(sumwp)" ] && [ "$b" = 3145728 ]; then ok "zoned: bytes written = the write pointers' sum"; else
		bad "zoned: wrote $b bytes, write pointers hold $(sumwp)"; fi
	expect_rc 0 "zoned: the same through io_uring_cmd at 8M" zpt --rw=write --bs=64k --offset=8M --size=4M
	bp=$(jsum io_bytes /tmp/out) w=$(wps)
	if [ "$w" = "$F4 $F4 " ] && [ "$bp" = "$b" ]; then
		ok "zoned: passthrough and block device paths agree (zones 8-11 as 0-3, $bp bytes)"; else
		bad "zoned: passthrough write: wps $w, $bp bytes"; fi
	# full zones written again: each is reset on the device first
	expect_rc 0 "zoned: rewriting full zones resets them (block device)" \
		zrun --target "$ZB" --rw=write --bs=64k --size=4M
	b=$(jsum io_bytes /tmp/out)
	expect_rc 0 "zoned: rewriting full zones resets them (io_uring_cmd)" \
		zpt --rw=write --bs=64k --offset=8M --size=4M
	if [ "$(wps)" = "$F4 $F4 " ] && [ "$b" = 3145728 ] && [ "$(jsum io_bytes /tmp/out)" = 3145728 ]; then
		ok "zoned: after the rewrites, the same write pointers"; else
		bad "zoned: rewrites: wps $(wps), $b and $(jsum io_bytes /tmp/out) bytes"; fi
	expect_rc 0 "zoned: sequential read of what was written" zrun --target "$ZB" --rw=read --bs=64k --size=4M
	if [ "$(jsum io_bytes /tmp/out)" = 3145728 ]; then ok "zoned: the read job read the 3 MiB below the write pointers"; else
		bad "zoned: read $(jsum io_bytes /tmp/out) bytes"; fi

	# 3. a reset job (randtrim: fio resets zones) on both paths
	expect_rc 0 "zoned: randtrim resets zones 0-3 (block device)" zrun --target "$ZB" --rw=randtrim --bs=1M --size=4M
	expect_rc 0 "zoned: randtrim resets zones 8-11 (io_uring_cmd)" zpt --rw=randtrim --bs=1M --offset=8M --size=4M
	case $(wps) in "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ") ok "zoned: every zone empty after the reset jobs" ;;
	*) bad "zoned: after the resets: wps $(wps)" ;; esac

	# 4. open zone limits: the job's max_open_zones, else the device's 4
	blkzone reset "$ZB"
	expect_rc 0 "zoned: randwrite max_open_zones=2" \
		zrun --target "$ZB" --rw=randwrite --bs=4k --size=12M --io_size=512k --max_open_zones=2
	if [ "$(nz)" = 2 ] && [ "$(sumwp)" = 524288 ]; then ok "zoned: 512 KiB of random writes in 2 zones"; else
		bad "zoned: max_open_zones=2: $(nz) zones hold data, wps $(wps)"; fi
	blkzone reset "$ZB"
	expect_rc 0 "zoned: randwrite without max_open_zones (the device's 4)" \
		zrun --target "$ZB" --rw=randwrite --bs=4k --size=12M --io_size=512k
	if [ "$(nz)" -le 4 ] && [ "$(nz)" -ge 2 ] && [ "$(sumwp)" = 524288 ]; then ok "zoned: random writes in $(nz) zones (<= 4)"; else
		bad "zoned: device max open 4: $(nz) zones hold data, wps $(wps)"; fi
	expect_rc 2 "zoned: max_open_zones above the device's refused" \
		zrun --target "$ZB" --rw=randwrite --bs=4k --size=1M --max_open_zones=5
	expect_rc 2 "zoned: zonesize other than the device's refused" \
		zrun --target "$ZB" --rw=write --bs=4k --size=1M --zonesize=2M
	expect_rc 2 "zoned: io_uring_cmd writes at QD4 refused" \
		zpt --rw=write --bs=4k --size=1M --iodepth=4
	expect_rc 2 "zoned: block device writes at QD4 refused (fio: one write in flight per zone)" \
		zrun --target "$ZB" --rw=write --bs=4k --size=1M --iodepth=4
	expect_rc 0 "zoned: reads at QD4 run" zrun --target "$ZB" --rw=randread --bs=4k --size=4M --iodepth=4 \
		--read_beyond_wp=1 --io_size=1M
	# several writers at once: their claims in one zone could reach the
	# device out of order (fio serializes them with zone locks): refused
	expect_rc 2 "zoned: writes from numjobs=2 refused" \
		zrun --target "$ZB" --rw=write --bs=4k --size=1M --numjobs=2
	printf '[global]\nfilename=%s\nzonemode=zbd\nbs=4k\nsize=1M\ndirect=1\n[a]\nrw=write\n[b]\nrw=randwrite\n' \
		"$ZB" >/tmp/zw2.fio
	expect_rc 2 "zoned: two writer jobs of one run group refused" nvscope run /tmp/zw2.fio
	grep -q "another job of this run group writes this zoned device" /tmp/err ||
		bad "zoned: two writers: $(head -2 /tmp/err)"
	printf '[global]\nfilename=%s\nzonemode=zbd\nbs=4k\nsize=1M\ndirect=1\n[a]\nrw=write\n[b]\nstonewall\nrw=randwrite\n' \
		"$ZB" >/tmp/zw2.fio
	blkzone reset "$ZB"
	expect_rc 0 "zoned: the same two writers with a stonewall run" nvscope run /tmp/zw2.fio

	# 5. verify=crc32c (fio's uring-cmd-zoned.fio): the job's zones are
	# reset on the device before it writes (data left by a job before it),
	# no zone is written twice, each block written is read back and good:
	# 4 zones of capacity 768k hold 48 blocks of 64k, through both paths
	blkzone reset "$ZB"
	expect_rc 0 "zoned: random writes leave data in zones 0-3" \
		zrun --target "$ZB" --rw=randwrite --bs=64k --size=4M --io_size=640k
	expect_rc 0 "zoned: verify=crc32c randwrite over them (block device)" \
		zrun --target "$ZB" --rw=randwrite --bs=64k --size=4M --verify=crc32c
	vb=$(jsum blocks /tmp/out) vw=$(jsum io_bytes /tmp/out)
	expect_rc 0 "zoned: verify=crc32c write (io_uring_cmd, zones 8-11)" \
		zpt --rw=write --bs=64k --offset=8M --size=4M --verify=crc32c
	if [ "$vb" = 48 ] && [ "$(jsum blocks /tmp/out)" = 48 ] && [ "$(wps)" = "$F4 $F4 " ]; then
		ok "zoned: verify: 48 blocks written once and read back good on each path, the zones full"; else
		bad "zoned: verify: $vb and $(jsum blocks /tmp/out) blocks checked ($vw bytes), wps $(wps)"; fi
	expect_rc 2 "zoned: verify_only on a zoned device refused" \
		zrun --target "$ZB" --rw=write --bs=64k --size=4M --verify=crc32c --verify_only
	blkzone reset "$ZB"
}
zt0=$(date +%s)
zns_checks
echo "   zoned checks: $(($(date +%s) - zt0)) s"
# ---- fio's uring-cmd-ng.fio: it needs an NVMe generic device (/dev/ngXnY),
# so the host's fio_examples.sh cannot run it on a loop device; here on
# controller A's ns2 (4 KiB LBAs), only filename and size changed: three
# stonewalled jobs of 1 MiB each (randwrite, randread, write), 3 MiB in all
if [ -c "$A2G" ]; then
	sed -e "s|^filename=.*|filename=$A2G|" -e 's|^size=.*|size=1m|' >/tmp/uring-cmd-ng.fio <<'FIO'
[global]
filename=/dev/ng0n1
ioengine=io_uring_cmd
cmd_type=nvme
size=1G
iodepth=32
bs=4K
thread=1
stonewall=1

[rand-write]
rw=randwrite
sqthread_poll=1

[rand-read]
rw=randread

[write-opts]
rw=write
sqthread_poll=1
sqthread_poll_cpu=0
nonvectored=1
registerfiles=1
FIO
	expect_rc 0 "fio's uring-cmd-ng.fio on $A2G" nvscope run /tmp/uring-cmd-ng.fio --output-format=json
	if [ "$(jsum io_bytes /tmp/out)" = 3145728 ] && [ "$(grep -c '"jobname"' /tmp/out)" = 3 ]; then
		ok "uring-cmd-ng.fio: 3 jobs, 3 MiB"; else
		bad "uring-cmd-ng.fio: $(grep -c '"jobname"' /tmp/out) jobs, io_bytes $(jsum io_bytes /tmp/out)"; fi
else
	bad "uring-cmd-ng.fio: no generic device for controller A's ns2 ($A2G)"
fi

if dmesg | grep -E "nvme.*(I/O.*timeout|reset)"; then bad "NVMe timeouts/resets in dmesg"; fi
echo "guest: $PASS passed, $FAILS failed"
[ "$FAILS" = 0 ]
