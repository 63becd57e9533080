#!/bin/bash
# tests/vm/run.sh - `make check-vm`: boots a QEMU (TCG) guest with emulated
# NVMe controllers and runs tests/vm/guest.sh in it against $NVS_BIN.
#
# Two boots; the guest script asserts exactly these, through NVS_VM_*:
# 1. "basic": controller A  serial NVSCOPE-A1  ns1 64 MiB LBA 512,
#                                              ns2 32 MiB LBA 4096
#             controller B  serial NVSCOPE-B2  ns1 48 MiB LBA 512, SMART
#                           critical warning bit 0 injected
#             controller C  serial NVSCOPE-C3  ns1 32 MiB LBA 512+8 separate
#                           metadata, PI type 1; ns2 32 MiB LBA 4096+64
#                           extended LBA, PI type 1 (fio's uring-cmd-pi-sb/
#                           -ext examples); with the 64-bit guard (pif=2):
#                           ns3 LBA 512+16 separate metadata, PI type 1 last,
#                           ns4 LBA 4096+64 extended LBA, PI type 1 first;
#                           removed after its PI checks
# 2. "multipath": two controllers (serial NVSCOPE-MP) in one NVMe subsystem
#             sharing ns1 32 MiB LBA 512 and ns2 16 MiB LBA 4096: the block
#             devices follow the subsystem (nvme1 reaches nvme0n1).
# 3. "console": the console inside the guest on its serial line, driven
#             from tmux (TERM=vt100, no UTF-8, stty size): long serials and a
#             critical warning (boot_console), a Format of a namespace
#             with the typed serial (P); at 80x24 the health view (H), and
#             at 80x24, 100x30 and 200x55 (issue 22) the warned second
#             target's warning on a live run, both serials whole on the
#             Devices pane, and `--check --all-nvme` with each drive's
#             serial, verdict and first reason (the quick profile at
#             each size);
#             at each size also the event list (E), the purge menu and
#             dialog (P, Esc), the help (?) and a QD sweep 1..256 (the
#             per-QD table's rows QD 1 and 256 reached with g and G), and
#             at 80x24 and 100x30 a plan (/etc/vm/vmplan.ini: the step
#             list, its events).
# 4. "fdp": fio's fdp=1 and atomic=1 on bookworm-backports' QEMU 10 and
#             kernel 6.12, fetched into the cache (tests/vm/fdp.sh).
# NVS_VM_ONLY=basic|multipath|console|fdp runs only that boot; firstframe (not
# in the default run) times the console's first frame (bench/first-frame-vm.sh).
# Kernel: Debian's linux-image-amd64 .deb (apt-get download, dpkg -x into the
# cache, never installed), booted as the ELF vmlinux through PVH; nvme is a
# module there, loaded with busybox insmod.  Initramfs: busybox-static,
# nvscope and its ldd libraries, guest.sh.  QEMU is pinned to ONE host CPU:
# with its threads on two CPUs the emulated NVMe queues stall at random.
#
# Results: the guest writes its log to its 3rd serial port and its exit
# status to the 2nd; both come back as files (printed here).  Exit status:
# the guest's (0 pass), 77 when QEMU/KVM-less set-up is impossible, 124
# on timeout, 125 when the guest gave no status.
#
# Environment: NVS_BIN (binary, default ./nvscope), NVS_VM_CACHE (kernel
# and disk cache, default /tmp/nvscope-vm), NVS_VM_TIMEOUT (s, default 300),
# NVS_VM_KEEP=1 keeps the run directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
TOP=$PWD
BIN=$(readlink -f "${NVS_BIN:-./nvscope}")
CACHE=${NVS_VM_CACHE:-/tmp/nvscope-vm}
TMO=${NVS_VM_TIMEOUT:-300}
SER_A=NVSCOPE-A1 SER_B=NVSCOPE-B2 CW_B=1 SER_MP=NVSCOPE-MP SER_PI=NVSCOPE-C3

die() { echo "check-vm: $*" >&2; exit "${2:-125}"; }
[ -x "$BIN" ] || die "no binary $BIN (run make)" 2
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps-vm)" 77
[ -e /usr/share/qemu/qboot.rom ] || die "qboot.rom missing (qemu-system-x86)" 77
[[ $(file -L /bin/busybox 2>/dev/null) == *'statically linked'* ]] ||
	die "busybox-static missing (make deps-vm)" 77
mkdir -p "$CACHE"

# ---- kernel: download + unpack once, into the cache
KDIR=$CACHE/kernel
if [ ! -e "$KDIR/.done" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-/{print $2; exit}') || true
	if [ -z "$pkg" ]; then
		apt-get update -qq >&2 || true
		pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
	fi
	[ -n "$pkg" ] || die "cannot resolve linux-image-amd64" 77
	rm -rf "$KDIR" "$CACHE/pkg" && mkdir -p "$CACHE/pkg"
	(cd "$CACHE/pkg" && apt-get download -qq "$pkg" >&2 2>/dev/null) ||
		(cd "$CACHE/pkg" && apt-get download "$pkg" >&2) || die "apt-get download $pkg failed" 77
	dpkg -x "$CACHE"/pkg/"$pkg"_*.deb "$KDIR"
	rm -rf "$CACHE/pkg"
	kver=$(ls "$KDIR/lib/modules")
	depmod -b "$KDIR" "$kver"
	# the XZ bzImage costs seconds to unpack under TCG: keep the ELF vmlinux
	bz=$KDIR/boot/vmlinuz-$kver
	pos=$({ LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" || true; } | head -1 | cut -d: -f1)
	if [ -n "$pos" ] && grep -q '^CONFIG_PVH=y' "$KDIR/boot/config-$kver"; then
		tail -c +$((pos + 1)) "$bz" >"$KDIR/vmlinux.xz"
		xz -dc --single-stream "$KDIR/vmlinux.xz" >"$KDIR/vmlinux" 2>/dev/null || true
		rm -f "$KDIR/vmlinux.xz"
		[[ $(file "$KDIR/vmlinux") == *'ELF 64-bit'* ]] || rm -f "$KDIR/vmlinux"
	fi
	echo "$pkg" >"$KDIR/.done"
fi
KVER=$(ls "$KDIR/lib/modules")
KERNEL=$KDIR/boot/vmlinuz-$KVER
[ -e "$KDIR/vmlinux" ] && KERNEL=$KDIR/vmlinux
MODDIR=$KDIR/lib/modules/$KVER

# ---- initramfs
RUN=$(mktemp -d "$CACHE/run.XXXXXX")
cleanup() {
	tmux -L "nvs-vm-$$" kill-server 2>/dev/null || true # boot_console's terminal
	[ "${NVS_VM_KEEP:-0}" = 1 ] && echo "check-vm: kept $RUN" >&2 || rm -rf "$RUN"
}
trap cleanup EXIT
R=$RUN/root
mkdir -p "$R"/{usr/bin,usr/lib,usr/lib64,proc,sys,dev,tmp,run,root,etc/vm}
for d in bin sbin lib lib64; do ln -s usr/$d "$R/$d"; done
cp /bin/busybox "$R/usr/bin/busybox"
/bin/busybox --install -s "$R/usr/bin"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$R/etc/passwd"
cp "$BIN" "$R/usr/bin/nvscope"
cp "$TOP/tests/vm/guest.sh" "$R/etc/vm/guest.sh"
mkdir -p "$R/usr/share/nvscope/presets/checks"
cp "$TOP/presets/checks/"*.ini "$R/usr/share/nvscope/presets/checks/"
# the console boot's plan at 80x24 and 100x30: a precondition that cannot
# reach steady state (limits of 0%: the step list and the event say which
# criterion failed), then a read at QD 1; a quarter second each
cat >"$R/etc/vm/vmplan.ini" <<'PLAN'
[plan]
description = check-vm: a precondition that fails, a read at QD 1
runtime = 250ms

[precondition nope]
rw = randwrite
bs = 4k
iodepth = 4
round = 250ms
max_rounds = 2
window = 2
range = 0
slope = 0

[measure rd]
rw = randread
bs = 4k
iodepth = 1
PLAN
# terminfo for the console on the serial line (TERM=vt100)
for t in /lib/terminfo/v/vt100 /usr/share/terminfo/v/vt100; do
	[ -e "$t" ] && cp -L --parents -t "$R" "$t"
done
libs=$(ldd "$BIN" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
# shellcheck disable=SC2086
cp -L --parents -t "$R" $libs
# nvme and its dependencies, in load order, decompressed for busybox insmod
: >"$R/etc/vm/modules"
# copy_nvme_mods ROOT MODDIR: the nvme driver and the modules it needs,
# unpacked into ROOT/lib/modules and listed in ROOT/etc/vm/modules in load
# order (also the fdp boot's, tests/vm/fdp.sh)
copy_nvme_mods() {
	local root=$1 md=$2 line p
	line=$(grep -E '(^|/)nvme\.ko(\.[a-z]+)?:' "$md/modules.dep" | head -1)
	for p in $(echo "${line#*:}" | tr ' ' '\n' | tac) "${line%%:*}"; do
		[ -n "$p" ] || continue
		mkdir -p "$root/lib/modules/$(dirname "$p")"
		case $p in
		*.xz) xz -dc "$md/$p" >"$root/lib/modules/${p%.xz}"; p=${p%.xz} ;;
		*.zst) zstd -qdc "$md/$p" >"$root/lib/modules/${p%.zst}"; p=${p%.zst} ;;
		*) cp "$md/$p" "$root/lib/modules/$p" ;;
		esac
		echo "/lib/modules/$p" >>"$root/etc/vm/modules"
	done
}
if grep -q '^CONFIG_BLK_DEV_NVME=m' "$KDIR/boot/config-$KVER"; then
	copy_nvme_mods "$R" "$MODDIR"
fi
cat >"$R/etc/vm/env" <<EOF
NVS_VM_SER_A=$SER_A
NVS_VM_SER_B=$SER_B
NVS_VM_CW_B=$CW_B
NVS_VM_SER_MP=$SER_MP
NVS_VM_SER_PI=$SER_PI
NVS_VM_SER_D=NVSCOPE-LONGSER-B2
NVS_VM_SER_C=NVSCOPE-LONG-A0001
EOF
# zoned namespace (guest.sh zns_checks): its serial, util-linux's blkzone
# (libc only) to read the write pointers independently, and the head of an
# ext4 image to plant a filesystem signature on a zone
SER_Z=NVSCOPE-ZNS
echo "NVS_VM_SER_Z=$SER_Z" >>"$R/etc/vm/env"
cp /usr/sbin/blkzone "$R/usr/bin/blkzone"
mkfs.ext4 -q -F "$RUN/sig.img" 8M >/dev/null 2>&1 && head -c 4096 "$RUN/sig.img" >"$R/etc/vm/ext4.head" && rm -f "$RUN/sig.img"
cat >"$R/init" <<'EOF'
#!/bin/sh
export PATH=/usr/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
while read -r m; do
	case $m in */nvme-core.ko|*/nvme_core.ko) insmod "$m" io_timeout=120 admin_timeout=120 ;;
	*) insmod "$m" ;; esac || echo "init: insmod $m failed"
done </etc/vm/modules
NVS_VM_MODE=basic NBLK=3
for a in $(cat /proc/cmdline); do
	case $a in nvs_mode=*) NVS_VM_MODE=${a#*=} ;; nvs_nblk=*) NBLK=${a#*=} ;; esac
done
i=0
while [ "$(ls /dev | grep -cE '^nvme[0-9]+n[0-9]+$')" -lt "$NBLK" ] && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
stty -F /dev/ttyS2 raw -echo 2>/dev/null
. /etc/vm/env
if [ "$NVS_VM_MODE" = console ]; then
	# the console at the rack: on the serial line, TERM=vt100, no UTF-8,
	# the size set with stty (the guest cannot learn the host's); first the
	# setup screen, then a read run on the namespace of the controller with
	# the critical warning (its health strip)
	stty -F /dev/ttyS0 rows 30 cols 132
	setsid cttyhack sh -c 'cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --results /tmp/res'
	rc=$?
	stty -F /dev/ttyS0 rows 24 cols 80 # the second run at 80x24
	# the warned controller's namespace second: its warning must reach the
	# live screen as the first target's would
	for c in /sys/class/nvme/nvme*; do
		grep -q "$NVS_VM_SER_D" "$c/serial" && t=/dev/${c##*/}n1
		grep -q "$NVS_VM_SER_C" "$c/serial" && tc=/dev/${c##*/}n1
	done
	setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --target $tc \
		--target $t --rw=randread --iodepth=4 --runtime=600s --time_based --results /tmp/res2"
	rc2=$?
	[ "$rc" = 0 ] && rc=$rc2
	# the tray check at the rack, still at 80x24: one line, every NVMe
	# namespace, each drive's serial, verdict and first reason on screen
	setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --check quick --all-nvme"
	rc2=$?
	[ "$rc" = 0 ] && rc=$rc2
	# qd_plan COLS [noplan]: at this size, a QD sweep 1,2,...,256 (9
	# depths of 100 ms, as tests/ui/console_80x24.sh) on controller C's namespace (the per-QD table), then
	# /etc/vm/vmplan.ini on it unless noplan (issue 22)
	qd_plan() {
		setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --target $tc \
			--rw=randread --iodepth=1,2,4,8,16,32,64,128,256 --runtime=100ms --results /tmp/qd-$1"
		rc2=$?
		[ "$rc" = 0 ] && rc=$rc2
		[ "${2:-}" = noplan ] && return 0
		setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --plan \
			/etc/vm/vmplan.ini --target $tc --yes-destroy-data=$NVS_VM_SER_C --results /tmp/plan-$1"
		rc2=$?
		[ "$rc" = 0 ] && rc=$rc2
	}
	qd_plan 80
	# the same at 100x30 and 200x55 (issue 22): the live run with the warned
	# target second, then the tray check, the quick profile as at 80x24
	for sz in "30 100" "55 200"; do
		stty -F /dev/ttyS0 rows ${sz% *} cols ${sz#* }
		setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope --target $tc \
			--target $t --rw=randread --iodepth=4 --runtime=600s --time_based --results /tmp/res-${sz#* }"
		rc2=$?
		[ "$rc" = 0 ] && rc=$rc2
		setsid cttyhack sh -c "cd /tmp && exec env TERM=vt100 LANG=C LC_ALL=C nvscope \
			--check quick --all-nvme"
		rc2=$?
		[ "$rc" = 0 ] && rc=$rc2
		if [ "${sz#* }" = 200 ]; then qd_plan 200 noplan; else qd_plan "${sz#* }"; fi
	done
	echo "$rc" >/dev/ttyS1
	sync
	poweroff -f
fi
if [ "$NVS_VM_MODE" = firstframe ]; then
	# bench/first-frame-vm.sh: a shell on the serial line at 80x24 that the
	# host types into (boot_firstframe); its exit ends the boot
	stty -F /dev/ttyS0 rows 24 cols 80
	setsid cttyhack env TERM=vt100 LANG=C LC_ALL=C PS1='ff$ ' sh
	echo 0 >/dev/ttyS1
	sync
	poweroff -f
fi
export NVS_VM_SER_A NVS_VM_SER_B NVS_VM_CW_B NVS_VM_SER_MP NVS_VM_SER_PI NVS_VM_MODE
sh /etc/vm/guest.sh >/dev/ttyS2 2>&1
rc=$?
echo "$rc" >/dev/ttyS1
: >/dev/ttyS2
sync
poweroff -f
EOF
chmod 755 "$R/init"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$RUN/initrd.cpio"

# ---- disks and machines
# boot_firstframe (NVS_VM_ONLY=firstframe, bench/first-frame-vm.sh; not in
# `make check-vm`): 24 namespaces (two controllers of 12), a shell on the
# guest's serial line at 80x24 in a tmux pane; NVS_VM_FF_ROUNDS rounds of
# a trivial command (echo) and the console, alternating, each timed from
# its Enter to its output on the pane (the console: its Presets pane
# drawn; filled: 'scanning' gone).  Prints the medians.  Defined below.
mk() { rm -f "$RUN/$1.img"; truncate -s "$2" "$RUN/$1.img"; }
CPU=$(awk '/^Cpus_allowed_list:/{split($2, a, "[-,]"); print a[1]}' /proc/self/status)
d() { echo "file=$RUN/$1.img,if=none,id=$1,format=raw,cache=unsafe,discard=unmap"; }
ns() { echo "nvme-ns,drive=$1,bus=$2,nsid=$3,logical_block_size=$4,physical_block_size=$4"; }
# boot NAME MODE NBLK QEMU-DEVICE-ARGS...: one guest run; prints its log,
# returns the guest's exit status
boot() {
	local name=$1 mode=$2 nblk=$3 qrc rc
	shift 3
	: >"$RUN/status"; : >"$RUN/out"
	echo "== check-vm: $name"
	set +e
	timeout "$TMO" taskset -c "$CPU" qemu-system-x86_64 -machine q35 -accel tcg -cpu max \
		-m 1G -smp 1 -bios /usr/share/qemu/qboot.rom -vga none -display none -nic none \
		-no-reboot -serial "file:$RUN/console.log" -serial "file:$RUN/status" \
		-serial "file:$RUN/out" -monitor none -kernel "$KERNEL" -initrd "$RUN/initrd.cpio" \
		-append "console=ttyS0 quiet panic=-1 nvme_core.io_timeout=120 nvs_mode=$mode nvs_nblk=$nblk" \
		"$@" </dev/null
	qrc=$?
	set -e
	tr -d '\r' <"$RUN/out"
	if [ "$qrc" = 124 ]; then tail -20 "$RUN/console.log" >&2; echo "check-vm: $name: timeout after ${TMO}s" >&2; return 124; fi
	rc=$(tr -dc '0-9\n' <"$RUN/status" | head -1)
	if [ -z "$rc" ]; then
		tail -30 "$RUN/console.log" >&2
		echo "check-vm: $name: no exit status from the guest (qemu exit $qrc)" >&2
		return 125
	fi
	return "$rc"
}

boot_firstframe() {
	local sock=nvs-vm-ff-$$ n=${NVS_VM_FF_ROUNDS:-5} args="" c i r
	: >"$RUN/status"
	for c in 0 1; do
		args+=" -device nvme,id=f$c,serial=NVSCOPE-FF$c"
		for i in $(seq 12); do
			mk "f$c-$i" 8M
			args+=" -drive $(d "f$c-$i") -device $(ns "f$c-$i" "f$c" "$i" 512)"
		done
	done
	echo "== check-vm: first frame, 24 namespaces, $n rounds"
	tmux -L "$sock" -f /dev/null new-session -d -s vm -x 80 -y 24 \
		"timeout --foreground $TMO taskset -c $CPU qemu-system-x86_64 -machine q35 -accel tcg -cpu max \
		-m 1G -smp 1 -bios /usr/share/qemu/qboot.rom -vga none -display none -nic none \
		-no-reboot -chardev stdio,id=s0,signal=off -serial chardev:s0 \
		-serial file:$RUN/status -serial file:$RUN/out -monitor none \
		-kernel $KERNEL -initrd $RUN/initrd.cpio \
		-append 'console=ttyS0 quiet panic=-1 nvme_core.io_timeout=120 nvs_mode=firstframe nvs_nblk=24' \
		$args; echo VM-EXIT; sleep 600" || { echo "check-vm: tmux failed" >&2; return 1; }
	ff() { tmux -L "$sock" "$@"; }
	scr() { ff capture-pane -p -t vm; }
	now() { date +%s%N; }
	waitfor() { # ERE SECONDS: 0 when it is on the screen (polled every 5 ms)
		local end=$((SECONDS + $2))
		while [ $SECONDS -lt $end ]; do
			scr | grep -Eq -- "$1" && return 0
			sleep 0.005
		done
		return 1
	}
	prompt() { ff send-keys -t vm clear Enter; waitfor '^ff\$ *$' 30; }
	waitfor '^ff\$' 240 || { scr >&2; echo "check-vm: no shell prompt" >&2; ff kill-server; return 1; }
	local triv="" first="" filled="" t0 t1 t2
	for ((r = 1; r <= n; r++)); do
		for k in $([ $((r % 2)) = 1 ] && echo "t c" || echo "c t"); do
			prompt || { scr >&2; ff kill-server; return 1; }
			sleep 0.5
			if [ "$k" = t ]; then
				t0=$(now); ff send-keys -t vm "echo FF-$r" Enter
				waitfor "^FF-$r *\$" 30 || { scr >&2; ff kill-server; return 1; }
				triv+="$(( ($(now) - t0) / 1000000 )) "
				continue
			fi
			t0=$(now); ff send-keys -t vm "nvscope --no-settings --results /tmp/ff$r" Enter
			waitfor 'Presets' 30 || { scr >&2; ff kill-server; return 1; }
			t1=$(now)
			local end=$((SECONDS + 60))
			while [ $SECONDS -lt $end ] && scr | grep -q 'scanning'; do sleep 0.005; done
			t2=$(now)
			first+="$(( (t1 - t0) / 1000000 )) " filled+="$(( (t2 - t0) / 1000000 )) "
			ff send-keys -t vm q
			waitfor '^ff\$|y/n' 10 && scr | grep -q 'y/n' && ff send-keys -t vm y
			waitfor '^ff\$' 20 || { scr >&2; ff kill-server; return 1; }
		done
	done
	ff send-keys -t vm exit Enter
	sleep 2
	ff kill-server 2>/dev/null
	med() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2), a[1], a[NR]}'; }
	echo "first frame in the TCG guest, 24 namespaces, 80x24 on the serial line; ms from Enter (median min max of $n):"
	echo "  trivial (echo)   $(echo "$triv" | med)"
	echo "  console frame    $(echo "$first" | med)"
	echo "  console filled   $(echo "$filled" | med)   (the scan done: no 'scanning')"
	return 0
}

# boot_console: the console inside the guest on its serial line, driven
# from a tmux pane that is the technician's terminal (TERM=vt100, no
# colour, no UTF-8): two controllers with long serials, one with SMART
# critical warning bit 2 (reliability degraded).  Asserts the warning named
# on the main screen, both serials whole, the generic node listed, the
# cursor row visible without colour (reverse video).  Returns 0 or 1.
SER_C=NVSCOPE-LONG-A0001 SER_D=NVSCOPE-LONGSER-B2
boot_console() {
	local sock=nvs-vm-$$ fail=0 n scr
	: >"$RUN/status"
	mk c1 32M; mk d1 32M
	echo "== check-vm: console on the serial line"
	local tc0=$SECONDS
	tmux -L "$sock" -f /dev/null new-session -d -s vm -x 132 -y 30 \
		"timeout --foreground $TMO taskset -c $CPU qemu-system-x86_64 -machine q35 -accel tcg -cpu max \
		-m 1G -smp 1 -bios /usr/share/qemu/qboot.rom -vga none -display none -nic none \
		-no-reboot -chardev stdio,id=s0,signal=off -serial chardev:s0 \
		-serial file:$RUN/status -serial file:$RUN/out -monitor none \
		-kernel $KERNEL -initrd $RUN/initrd.cpio \
		-append 'console=ttyS0 quiet panic=-1 nvme_core.io_timeout=120 nvs_mode=console nvs_nblk=2' \
		-device nvme,id=cc,serial=$SER_C -drive $(d c1) -device $(ns c1 cc 1 512) \
		-device nvme,id=cd,serial=$SER_D,smart_critical_warning=4 \
		-drive $(d d1) -device $(ns d1 cd 1 512); echo VM-EXIT; sleep 600" ||
		{ echo "check-vm: tmux failed" >&2; return 1; }
	tmux -L "$sock" set-option -t vm window-size manual >/dev/null 2>&1 || true
	vscreen() { tmux -L "$sock" capture-pane -p -t vm; }
	vwait() { # REGEX SECONDS (read every 0.2 s: a key's redraw is 0.1-0.6 s)
		local i=$(($2 * 5))
		while [ $i -gt 0 ]; do
			vscreen | grep -Eq -- "$1" && return 0
			sleep 0.2; i=$((i - 1))
		done
		return 1
	}
	vcheck() { # NAME COMMAND...
		local name=$1; shift
		if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fail=1; fi
	}
	# a Format of controller C's namespace from the console (P on its row):
	# Sanitize greyed with the reason when the emulated controller has none,
	# the path refused as the token, the serial accepted, the end an event
	console_purge() {
		local rows hdr nsl ns k f=0
		scr=$(vscreen)
		hdr=$(grep -n 'Device ' <<<"$scr" | head -1 | cut -d: -f1)
		nsl=$(grep -nE "^[ *]+nvme[0-9]+n1 .*$SER_C" <<<"$scr" | head -1 | cut -d: -f1)
		ns=$(grep -oE "nvme[0-9]+n1 .*$SER_C" <<<"$scr" | head -1 | cut -d' ' -f1)
		if [ -z "$hdr" ] || [ -z "$nsl" ]; then
			echo "FAIL: console purge: no namespace row of $SER_C"; return 1
		fi
		for ((k = hdr + 1; k < nsl; k++)); do tmux -L "$sock" send-keys -t vm j; done
		tmux -L "$sock" send-keys -t vm P
		if ! vwait "Purge /dev/$ns: DESTROYS DATA" 30; then
			echo "FAIL: console purge: no menu for /dev/$ns"; vscreen; return 1
		fi
		sleep 1
		scr=$(vscreen)
		echo "$scr"
		vcheck "console purge: Format offered" grep -q '> Format NVM, no secure erase' <<<"$scr"
		if grep -q 'Sanitize, block erase .*- .*not supported (SANICAP)' <<<"$scr"; then
			echo "ok: console purge: sanitize greyed with the reason (SANICAP)"
		elif grep -qE '^ *. +Sanitize, block erase *. *$' <<<"$scr"; then
			echo "ok: console purge: sanitize offered (the controller has it)"
		else
			echo "FAIL: console purge: sanitize neither offered nor greyed with a reason"; f=1
		fi
		tmux -L "$sock" send-keys -t vm Enter
		vwait "Type $SER_C to DESTROY the data on /dev/$ns" 30 ||
			{ echo "FAIL: console purge: the serial not asked"; vscreen; return 1; }
		tmux -L "$sock" send-keys -t vm -l "/dev/$ns"
		tmux -L "$sock" send-keys -t vm Enter
		vcheck "console purge: the path is not the token" \
			vwait "purge not confirmed: nothing erased on /dev/$ns" 30
		tmux -L "$sock" send-keys -t vm P
		vwait "Purge /dev/$ns" 30 && tmux -L "$sock" send-keys -t vm Enter
		vwait "Type $SER_C to DESTROY" 30 || { echo "FAIL: console purge: no dialog"; return 1; }
		tmux -L "$sock" send-keys -t vm -l "$SER_C"
		tmux -L "$sock" send-keys -t vm Enter
		vcheck "console purge: format with the typed serial done" \
			vwait "purge: format of /dev/$ns done" 120
		vscreen
		# a write workload on the same namespace (marked, then the custom
		# form's rw set to randwrite and run with r) asks for the serial;
		# the path typed instead writes nothing
		sleep 1
		tmux -L "$sock" send-keys -t vm Space
		sleep 0.5
		tmux -L "$sock" send-keys -t vm Tab Tab # Devices -> Presets -> form
		sleep 0.5
		tmux -L "$sock" send-keys -t vm Enter C-u # edit the first field, rw
		tmux -L "$sock" send-keys -t vm -l randwrite
		tmux -L "$sock" send-keys -t vm Enter
		sleep 0.5
		tmux -L "$sock" send-keys -t vm r
		if vwait "Type $SER_C to DESTROY the data on /dev/$ns" 30; then
			echo "ok: console: a write workload on the namespace asks for its serial"
			tmux -L "$sock" send-keys -t vm -l "/dev/$ns"
			tmux -L "$sock" send-keys -t vm Enter
			vcheck "console: the write refused without the serial" \
				vwait "not confirmed: nothing written" 30
		else
			echo "FAIL: console: a write workload did not ask for the serial"; vscreen; f=1
		fi
		tmux -L "$sock" send-keys -t vm Tab # back to Devices
		vscreen
		return "$f"
	}
	# the health view (H) of the warned controller at 80x24 (issue 22): its
	# serial, the warning's label, the spare with its threshold, the error
	# counters; the lines below counted, G reaches the last field, q closes
	console_health() {
		local hdr dl k top bot f=0
		scr=$(vscreen)
		hdr=$(grep -n 'Device ' <<<"$scr" | head -1 | cut -d: -f1)
		dl=$(grep -n -- "$SER_D" <<<"$scr" | awk -F: -v h="${hdr:-999}" '$1 > h {print $1; exit}')
		if [ -z "$hdr" ] || [ -z "$dl" ]; then
			echo "FAIL: console health: no row of $SER_D"; return 1
		fi
		tmux -L "$sock" send-keys -t vm g
		for ((k = hdr + 1; k < dl; k++)); do tmux -L "$sock" send-keys -t vm j; done
		tmux -L "$sock" send-keys -t vm H
		if ! vwait "Health of nvme[0-9]+, serial $SER_D" 30; then
			echo "FAIL: console health: no view of $SER_D"; vscreen; return 1
		fi
		# the reading runs on its own thread: the view opens at once with
		# "Reading the health log...", the fields come when it is done
		vwait "^ Serial +$SER_D" 30 || true
		top=$(vscreen)
		echo "$top"
		vcheck "console health: the serial (80x24)" grep -Eq "^ Serial +$SER_D" <<<"$top"
		vcheck "console health: the warning's label" \
			grep -Eq 'bit 2 +reliability degraded' <<<"$top"
		vcheck "console health: available spare with its threshold" \
			grep -Eq 'Available spare +[0-9]+% \(threshold [0-9]+%' <<<"$top"
		vcheck "console health: the lines below counted" grep -Eq 'v[0-9]+ more \(k j\)' <<<"$top"
		tmux -L "$sock" send-keys -t vm G
		vwait 'Most recent self-test +[^ ]' 30 || true # the last line: redrawn
		bot=$(vscreen)
		echo "$bot"
		vcheck "console health: scrolling reaches the last field" \
			grep -Eq 'Most recent self-test +[^ ]' <<<"$bot"
		vcheck "console health: media errors" \
			grep -Eq 'Media and data integrity errors +[0-9]+' <<<"$top$bot"
		vcheck "console health: unsafe shutdowns" grep -Eq 'Unsafe shutdowns +[0-9]+' <<<"$top$bot"
		tmux -L "$sock" send-keys -t vm q
		for ((k = 60; k > 0; k--)); do
			vscreen | grep -q 'Health of nvme' || break
			sleep 0.5
		done
		vcheck "console health: q closes the view" [ "$k" -gt 0 ]
		return "$f"
	}
	vgone() { # REGEX SECONDS: waits until the screen no longer matches
		local i=$(($2 * 5))
		while [ $i -gt 0 ]; do
			vscreen | grep -Eq -- "$1" || return 0
			sleep 0.2; i=$((i - 1))
		done
		return 1
	}
	# vbox FIRST-LINE-REGEX: the text inside the ASCII box (+--+, |) whose
	# first inner line matches, each line without its frame and blanks
	vbox() {
		vscreen | awk -v re="$1" '!f && $0 ~ re {f = 1} f && /\+-+\+/ {exit} f' |
			sed -E 's/^[^|]*\| ?//; s/ *\|[^|]*$//; s/ +$//'
	}
	# vevents: the event list (E) as it is on the screen, one event a line:
	# a line without its time goes on the event above (joined by a blank,
	# as the list wrapped it)
	vevents() {
		vscreen | sed -n '/^-* Events /,$p' | sed '1d;$d' | awk '
			/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] / {
				if (e != "") print e
				e = substr($0, 10); next }
			{ sub(/^ +/, ""); if ($0 != "") e = e " " $0 }
			END { if (e != "") print e }' | sed 's/ *$//'
	}
	# vtimed FUNCTION ARGS...: runs it and says how long it took (the
	# boot's budget: what each view's checks cost)
	vtimed() {
		local t=$SECONDS r
		"$@"
		r=$?
		echo "check-vm: console: $* took $((SECONDS - t)) s"
		return "$r"
	}
	# console_events SIZE: in the check view after the batch (issue 22):
	# E lists each drive's verdict and the batch's end whole (the serial
	# never broken), E closes the list
	console_events() {
		local sz=$1 ev fail=0 # vcheck's fail: this view's
		tmux -L "$sock" send-keys -t vm E
		if ! vwait '^-* Events .* E closes' 30; then
			echo "FAIL: console: no event list in the check view ($sz)"; vscreen; return 1
		fi
		vwait 'check done: ' 10 || true
		ev=$(vevents)
		grep -Eq "^check [a-z-]+: $SER_D \(QEMU NVMe Ctrl, /dev/nvme[0-9]+n1\) FAIL: critical warning: reliability degraded" <<<"$ev" ||
			fail=1
		grep -Eq "^check [a-z-]+: $SER_C \(QEMU NVMe Ctrl, /dev/nvme[0-9]+n1\) (PASS|WARN|N/A)" <<<"$ev" || fail=1
		grep -Eq '^check done: [0-9]+ PASS, [0-9]+ WARN, [0-9]+ FAIL, [0-9]+ N/A: results in results/check-[a-z-]+-[0-9]{8}-[0-9]{6}$' <<<"$ev" ||
			fail=1
		if [ "$fail" = 0 ]; then
			echo "ok: console: E lists each verdict and the batch's end whole ($sz)"
		else
			echo "FAIL: console: the event list does not hold each verdict whole ($sz)"
			vscreen; echo "(events as read:)"; echo "$ev"
		fi
		tmux -L "$sock" send-keys -t vm E
		vcheck "console: E closes the event list ($sz)" vgone '^-* Events .* E closes' 30
		return "$fail"
	}
	# console_setup_views SIZE: the setup screen after the check view
	# closed, at this size (issue 22: every view at 80x24 and 100x30): the
	# purge menu of controller C's namespace (P) with the serial and every
	# method, its dialog with the serial whole on one line, Esc erasing
	# nothing; the setup screen's help (?) with no key left out
	console_setup_views() {
		local sz=$1 hdr nsl ns k box fail=0 bad=0
		scr=$(vscreen)
		hdr=$(grep -n 'Device ' <<<"$scr" | head -1 | cut -d: -f1)
		nsl=$(grep -nE "^[ *]+nvme[0-9]+n1 .*$SER_C" <<<"$scr" | head -1 | cut -d: -f1)
		ns=$(grep -oE "nvme[0-9]+n1 .*$SER_C" <<<"$scr" | head -1 | cut -d' ' -f1)
		if [ -z "$hdr" ] || [ -z "$nsl" ]; then
			echo "FAIL: console: no namespace row of $SER_C on the setup screen ($sz)"; echo "$scr"; return 1
		fi
		tmux -L "$sock" send-keys -t vm g
		for ((k = hdr + 1; k < nsl; k++)); do tmux -L "$sock" send-keys -t vm j; done
		tmux -L "$sock" send-keys -t vm P
		if ! vwait "Purge /dev/$ns: DESTROYS DATA" 30 || ! vwait 'Esc close' 10; then
			echo "FAIL: console: no purge menu for /dev/$ns ($sz)"; vscreen; return 1
		fi
		box=$(vbox "Purge /dev/$ns: DESTROYS DATA")
		for k in "serial $SER_C\$" '^> Format NVM, no secure erase$' 'Format NVM, user-data erase' \
			'Format NVM, cryptographic erase' 'Sanitize, block erase' 'Sanitize, crypto erase' \
			'Sanitize, overwrite' 'Trim \(deallocate every LBA\)' 'Esc close$'; do
			grep -Eq -- "$k" <<<"$box" || { echo "FAIL: console: purge menu ($sz): no /$k/"; bad=1; }
		done
		[ "$bad" = 0 ] && echo "ok: console: the purge menu whole, with the serial ($sz)"
		[ "$bad" = 0 ] || { fail=1; vscreen; echo "(box as read:)"; echo "$box"; }
		tmux -L "$sock" send-keys -t vm Enter
		if vwait "Type $SER_C to DESTROY the data on /dev/$ns" 30 && vwait 'THIS PURGE DESTROYS DATA' 10; then
			# its lines joined by blanks: the text whole, the serial not
			# broken (a line break inside it would read as a blank)
			box=$(vbox 'THIS PURGE DESTROYS DATA')
			k=$(sed '1d; /^$/d' <<<"$box" | tr '\n' ' ' | sed 's/ $//')
			if grep -Eq "^format of /dev/$ns \(nvme[0-9]+ QEMU NVMe Ctrl, serial $SER_C\): every namespace formatted is lost\. Type the NVMe controller's serial\.\$" <<<"$k"; then
				echo "ok: console: the purge dialog whole, the serial not broken ($sz)"
			else
				echo "FAIL: console: the purge dialog breaks the serial or is cut ($sz)"; fail=1
				vscreen; echo "(box as read:)"; echo "$box"
			fi
		else
			echo "FAIL: console: no purge dialog ($sz)"; fail=1; vscreen
		fi
		tmux -L "$sock" send-keys -t vm Escape
		vcheck "console: Esc in the purge dialog erases nothing ($sz)" \
			vwait "purge not confirmed: nothing erased on /dev/$ns" 30
		tmux -L "$sock" send-keys -t vm '?'
		if vwait 'keys of the setup screen' 30 && vwait 'TERM=vt100 has:' 10; then
			scr=$(vscreen)
			for k in 'Devices: purge \(erase\)' 'Devices: SMART health view' 'Devices: drive check' \
				'Presets: jump to a name' 'form: run the workload' 'quit \(asks while work runs\)'; do
				grep -Eq -- "$k" <<<"$scr" || { echo "FAIL: console: setup help ($sz): no /$k/"; bad=1; }
			done
			grep -q 'more keys' <<<"$scr" && { echo "FAIL: console: setup help ($sz): keys left out"; bad=1; }
			[ "$bad" = 0 ] && echo "ok: console: the setup screen's help whole ($sz)"
			[ "$fail" = 0 ] || echo "$scr"
		else
			echo "FAIL: console: no help on the setup screen ($sz)"; fail=1; vscreen
		fi
		tmux -L "$sock" send-keys -t vm x # any key closes it
		vcheck "console: the help closes ($sz)" vgone 'keys of the setup screen' 30
		return "$fail"
	}
	# vqd: the per-QD table and what is below it (its rows begin with
	# their depth; the strips' value labels above are left out); vqdrows:
	# the depths of its rows with figures
	vqd() { vscreen | sed -n '/^-* Per queue depth /,$p'; }
	vqdrows() { vqd | grep -oE '^ +[0-9]+ +[0-9.]+[kM]? ' | awk '{print $1}'; }
	vqdwait() { # REGEX SECONDS
		local i=$(($2 * 5))
		while [ $i -gt 0 ]; do
			vqd | grep -Eq -- "$1" && return 0
			sleep 0.2; i=$((i - 1))
		done
		return 1
	}
	# console_qd SIZE (issue 22 item 6): after a QD sweep 1,2,4,...,256 (9
	# depths) at this size the per-QD table reaches every row with the
	# console's keys - g the first (QD 1), G the last (QD 256) - and counts
	# the rows out of sight in its header ("^4 more", "v4 more") where they
	# do not all fit; then the live screen's help (?) whole
	console_qd() {
		local sz=$1 fail=0 bad=0 seen q t k
		if ! vwait '^ nvscope \| DONE ' 120; then
			echo "FAIL: console: the QD sweep did not end ($sz)"; vscreen; return 1
		fi
		vqdwait '^ +256 +[0-9.]+[kM]? ' 10 || true
		t=$(vqd)
		echo "$t"
		seen=$(vqdrows)
		if grep -Eq '^ +1 +[0-9.]+[kM]? ' <<<"$t"; then # all in sight: nothing counted
			vcheck "console: per-QD: all rows in sight, none said out of it ($sz)" \
				test -z "$(grep -E '(\^|v)[0-9]+ more' <<<"$t")"
		else
			vcheck "console: per-QD: the rows above counted ($sz)" \
				grep -Eq '\^[0-9]+ more \(k j g G\)' <<<"$t"
			tmux -L "$sock" send-keys -t vm g
			if vqdwait '^ +1 +[0-9.]+[kM]? ' 30; then
				t=$(vqd)
				echo "$t"
				echo "ok: console: per-QD: g reaches QD 1 ($sz)"
				vcheck "console: per-QD: the rows below counted ($sz)" \
					grep -Eq 'v[0-9]+ more \(k j g G\)' <<<"$t"
				seen="$seen"$'\n'"$(vqdrows)"
			else
				echo "FAIL: console: per-QD: g did not reach QD 1 ($sz)"; vqd; fail=1
			fi
			tmux -L "$sock" send-keys -t vm G
			vcheck "console: per-QD: G back to QD 256 ($sz)" vqdwait '^ +256 +[0-9.]+[kM]? ' 30
		fi
		q=$(sort -nu <<<"$seen" | tr '\n' ' ')
		vcheck "console: per-QD: rows QD 1..256 each reached ($sz: $q)" \
			test "$q" = "1 2 4 8 16 32 64 128 256 "
		tmux -L "$sock" send-keys -t vm '?'
		if vwait 'keys of the live screen' 30 && vwait 'TERM=vt100 has:' 10; then
			scr=$(vscreen)
			for k in 'per-QD: up / down' 'per-QD: page, first, last' 'event list \(on / off\)' \
				'setup / live screen' 'follow the newest data'; do
				grep -Eq -- "$k" <<<"$scr" || { echo "FAIL: console: live help ($sz): no /$k/"; bad=1; }
			done
			grep -q 'more keys' <<<"$scr" && { echo "FAIL: console: live help ($sz): keys left out"; bad=1; }
			[ "$bad" = 0 ] && echo "ok: console: the live screen's help whole ($sz)"
			[ "$fail" = 0 ] || echo "$scr"
		else
			echo "FAIL: console: no help on the live screen ($sz)"; fail=1; vscreen
		fi
		tmux -L "$sock" send-keys -t vm x
		vcheck "console: the help closes ($sz)" vgone 'keys of the live screen' 30
		return "$fail"
	}
	# console_plan SIZE (issue 22 item 5): `nvscope --plan` with
	# /etc/vm/vmplan.ini at this size: the step list marks the failed
	# precondition (x) with the criterion that failed and the read done
	# (+); E lists the step's verdict and the plan's end with its results
	# directory, whole
	console_plan() {
		local sz=$1 dir=$2 fail=0 ev
		if ! vwait '^ nvscope \| DONE vmplan' 120; then
			echo "FAIL: console: the plan did not end ($sz)"; vscreen; return 1
		fi
		vwait ' \+ +2 measure rd' 10 || true
		scr=$(vscreen)
		echo "$scr"
		vcheck "console: plan: the read step done (+) ($sz)" grep -Eq ' \+ +2 measure rd' <<<"$scr"
		vcheck "console: plan: the failed precondition marked (x) with the criterion that failed ($sz)" \
			grep -Eq ' x +1 [a-z~ ]+ (range|slope)( [-0-9.e+]+%)?>0%' <<<"$scr"
		tmux -L "$sock" send-keys -t vm E
		if vwait '^-* Events .* E closes' 30; then
			ev=$(vevents)
			vcheck "console: plan: E lists the step's verdict whole ($sz)" grep -Eq \
				'^step 1/2 precondition nope: NOT steady: (range|slope) [-0-9.e+]+% > 0%, (range|slope) [-0-9.e+]+% (>|<=) 0% \(2 rounds\)$' \
				<<<"$ev"
			vcheck "console: plan: E lists the plan's end with its results directory whole ($sz)" \
				grep -Eq "^plan vmplan done: results in $dir\$" <<<"$ev"
			[ "$fail" = 0 ] || { vscreen; echo "(events as read:)"; echo "$ev"; }
			tmux -L "$sock" send-keys -t vm E
			vcheck "console: plan: E closes the event list ($sz)" vgone '^-* Events .* E closes' 30
		else
			echo "FAIL: console: plan: no event list ($sz)"; fail=1; vscreen
		fi
		return "$fail"
	}
	# console_size COLS ROWS [NEXT-COLS NEXT-ROWS] (issue 22): at a size
	# other than 80x24 (the guest's stty, the window already resized), the
	# live run with the warned target second (its warning on the health
	# strip and on the Devices pane, both serials whole), then the tray
	# check, `--check quick --all-nvme` as at 80x24 (each drive's serial,
	# verdict and first reason, the results directory); the window takes the
	# next size before the last q
	console_size() {
		local sz=$1x$2 fail=0 # vcheck's fail: this size's
		if vwait 'Health .*(1 CRITICAL: |!)nvme[0-9]+ reliability degraded' 120; then
			echo "ok: console: the second target's critical warning named on the health strip ($sz)"
		else
			echo "FAIL: console: the critical warning not on the health strip ($sz)"; vscreen; fail=1
		fi
		vcheck "console: the live run's title says RUNNING ($sz)" grep -Eq '^ nvscope \| RUNNING ' <<<"$(vscreen)"
		# the Devices pane (v): waited for by its warned row (the health
		# strip names the warned controller too: a screen read then may be
		# mid-redraw)
		tmux -L "$sock" send-keys -t vm v
		if vwait "^ +nvme[0-9]+ +$SER_D .*reliability degraded" 30 && vwait "$SER_C" 10; then
			echo "ok: console: the critical warning named on the Devices pane ($sz)"
		else
			echo "FAIL: console: the critical warning not on the Devices pane ($sz)"; fail=1
		fi
		scr=$(vscreen)
		vcheck "console: serial $SER_C whole on the Devices pane ($sz)" grep -q -- "$SER_C" <<<"$scr"
		vcheck "console: serial $SER_D whole on the Devices pane ($sz)" grep -q -- "$SER_D" <<<"$scr"
		[ "$fail" = 0 ] || echo "$scr"
		tmux -L "$sock" send-keys -t vm q
		vwait '\(y/n\)' 30 && tmux -L "$sock" send-keys -t vm y
		if vwait 'DONE: [0-9]+ PASS, [0-9]+ WARN, [0-9]+ FAIL, [0-9]+ N/A' 300; then
			scr=$(vscreen)
			vcheck "console: --check quick --all-nvme: $SER_D FAIL with its reason ($sz)" \
				grep -Eq "^ $SER_D .*FAIL +critical warning: reliability degraded" <<<"$scr"
			vcheck "console: --check quick --all-nvme: $SER_C's serial and verdict ($sz)" \
				grep -Eq "^ $SER_C .*(PASS|WARN|N/A)( |$)" <<<"$scr"
			vcheck "console: --check quick: the results directory whole ($sz)" \
				grep -Eq "^ results: results/check-quick-[0-9]{8}-[0-9]{6} *$" <<<"$scr"
			# drawn at the guest's size: the key line on the window's last row
			vcheck "console: the check view drawn at $sz (keys on row $2)" \
				[ "$(grep -n '^ q close' <<<"$scr" | tail -1 | cut -d: -f1)" = "$2" ]
			[ "$fail" = 0 ] || echo "$scr"
			vtimed console_events "$sz" || fail=1
		else
			echo "FAIL: console: --check --all-nvme did not end ($sz)"; fail=1; vscreen
		fi
		tmux -L "$sock" send-keys -t vm q
		vwait 'Presets' 30
		vtimed console_setup_views "$sz" || fail=1
		tmux -L "$sock" send-keys -t vm q
		# the QD sweep; then the plan, but at the last size (the guest's
		# qd_plan)
		vtimed console_qd "$sz" || fail=1
		if [ -n "${3:-}" ]; then
			tmux -L "$sock" send-keys -t vm q
			vtimed console_plan "$sz" "/tmp/plan-$1" || fail=1
			tmux -L "$sock" resize-window -t vm -x "$3" -y "$4" >/dev/null 2>&1
		fi
		tmux -L "$sock" send-keys -t vm q
		return "$fail"
	}
	if vwait 'Devices' "$TMO"; then
		vwait 'CRITICAL' 30 || true
		sleep 2
		scr=$(vscreen)
		vcheck "console: the critical warning named (reliability degraded)" \
			grep -q 'CRITICAL: reliability degraded' <<<"$scr"
		vcheck "console: serial $SER_C whole" grep -q -- "$SER_C" <<<"$scr"
		vcheck "console: serial $SER_D whole" grep -q -- "$SER_D" <<<"$scr"
		vcheck "console: generic node listed under its namespace" \
			grep -Eq '^ +ng[0-9]+n1 ' <<<"$scr"
		local esc
		esc=$(tmux -L "$sock" capture-pane -p -e -t vm)
		# the cursor row: reverse video from its first column on
		n=$(sed '1d;$d' <<<"$esc" | grep -E $'^\e\\[([0-9;]*;)?7[;m]' | grep -c nvme || true)
		vcheck "console: cursor row in reverse video without colour" [ "$n" -ge 1 ]
		n=$(grep -c $'\e\\[[0-9;]*3[0-7][;m]' <<<"$esc" || true)
		vcheck "console: no colour sent" [ "$n" = 0 ]
		vscreen # the screen, for the log
		console_purge || fail=1
		tmux -L "$sock" resize-window -t vm -x 80 -y 24 >/dev/null 2>&1 || true
		tmux -L "$sock" send-keys -t vm q
		# the run on two controllers' namespaces, the warned one second, at
		# 80x24: the health strip names it, then the Devices pane (v)
		if vwait 'Health .*(1 CRITICAL: |!)nvme[0-9]+ reliability degraded' 120; then
			echo "ok: console: the second target's critical warning named on the health strip (80x24)"
		else
			echo "FAIL: console: the critical warning not on the health strip"; fail=1
		fi
		vcheck "console: the live run's title says RUNNING (80x24)" grep -Eq '^ nvscope \| RUNNING ' <<<"$(vscreen)"
		vscreen
		tmux -L "$sock" send-keys -t vm v
		# waited for by the pane's row (the health strip names the warned
		# controller too: a screen read then may be mid-redraw)
		if vwait "^ +nvme[0-9]+ +$SER_D .*reliability degraded" 30 && vwait "$SER_C" 10; then
			echo "ok: console: the critical warning named on the Devices pane at 80x24"
		else
			echo "FAIL: console: the critical warning cut at 80x24"; fail=1
		fi
		scr=$(vscreen)
		echo "$scr"
		# the serials are the tray's labels and the purge tokens: whole at
		# 80 columns (the model every row shares gives way, to the title)
		vcheck "console: serial $SER_C whole at 80x24" grep -q -- "$SER_C" <<<"$scr"
		vcheck "console: serial $SER_D whole at 80x24" grep -q -- "$SER_D" <<<"$scr"
		console_health || fail=1
		tmux -L "$sock" send-keys -t vm q
		vwait '\(y/n\)' 30 && tmux -L "$sock" send-keys -t vm y
		# nvscope --check quick --all-nvme at 80x24 (issue 22): the warned
		# drive FAILs with its reason, the other has its verdict, the counts
		# and the results directory stay
		if vwait 'DONE: [0-9]+ PASS, [0-9]+ WARN, [0-9]+ FAIL, [0-9]+ N/A' 300; then
			scr=$(vscreen)
			echo "$scr"
			vcheck "console: --check --all-nvme: $SER_D FAIL with its reason (80x24)" \
				grep -Eq "^ $SER_D .*FAIL +critical warning: reliability degraded" <<<"$scr"
			vcheck "console: --check --all-nvme: $SER_C's serial and verdict (80x24)" \
				grep -Eq "^ $SER_C .*(PASS|WARN|N/A) " <<<"$scr"
			vcheck "console: --check: the results directory whole" \
				grep -Eq "^ results: results/check-quick-[0-9]{8}-[0-9]{6} *$" <<<"$scr"
			vtimed console_events 80x24 || fail=1
		else
			echo "FAIL: console: --check quick --all-nvme did not end"; fail=1
			vscreen | tail -24 >&2
		fi
		tmux -L "$sock" send-keys -t vm q
		vwait 'Presets' 30
		vtimed console_setup_views 80x24 || fail=1
		tmux -L "$sock" send-keys -t vm q
		# the QD sweep, then the plan (the guest's qd_plan)
		vtimed console_qd 80x24 || fail=1
		tmux -L "$sock" send-keys -t vm q
		vtimed console_plan 80x24 /tmp/plan-80 || fail=1
		# the next session's size first: the window never smaller than
		# what the guest draws
		tmux -L "$sock" resize-window -t vm -x 100 -y 30 >/dev/null 2>&1 || true
		tmux -L "$sock" send-keys -t vm q
		console_size 100 30 200 55 || fail=1
		console_size 200 55 || fail=1
	else
		echo "FAIL: console: never drawn"; fail=1
		vscreen | tail -20 >&2
	fi
	vwait 'VM-EXIT' 120 || { echo "FAIL: console: the guest did not end"; fail=1; }
	vcheck "console: quit with status 0" [ "$(tr -dc '0-9\n' <"$RUN/status" | head -1)" = 0 ]
	echo "check-vm: console boot: $((SECONDS - tc0)) s"
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -f "$RUN"/*.img
	return "$fail"
}
case ${NVS_VM_ONLY:-} in "" | basic | multipath | console | fdp | firstframe) ;;
*) die "NVS_VM_ONLY=$NVS_VM_ONLY: basic, multipath, console, fdp or firstframe" 2 ;;
esac
# 4. FDP and atomic writes on bookworm-backports' QEMU and kernel
# (tests/vm/fdp.sh: boot_fdp)
. "$TOP/tests/vm/fdp.sh"
if [ "${NVS_VM_ONLY:-}" = fdp ]; then
	rc4=0
	boot_fdp || rc4=$?
	exit "$rc4"
fi
if [ "${NVS_VM_ONLY:-}" = console ]; then
	rc3=0
	boot_console || rc3=$?
	exit "$rc3"
fi
if [ "${NVS_VM_ONLY:-}" = firstframe ]; then
	rc3=0
	boot_firstframe || rc3=$?
	exit "$rc3"
fi

# 1. two controllers with distinct serials, LBA sizes 512 and 4096
# C's images: QEMU keeps the metadata after the data, and reports an
# unwritten LBA's PI as "not checked" (all FFh) only while the host file has
# a hole there: the data's end on a 4 KiB boundary (64512 LBAs of 512+8,
# 8065 of 4096+64), else the last data block shares a file block with the
# first metadata written and reads back as a reference tag error
mk a1 64M; mk a2 32M; mk b1 48M; mk c1 $((64512 * 520)); mk c2 32M
mk c3 $((31744 * 528)); mk c4 16M # 64-bit guard: 31744 LBAs of 512+16, 4032 of 4096+64
rc1=0 rc2=0 rc3=0
want() { [ -z "${NVS_VM_ONLY:-}" ] || [ "$NVS_VM_ONLY" = "$1" ]; }
mk z1 16M # zoned: 16 zones of 1 MiB, capacity 768 KiB, 4 open / 6 active at most
T0=$SECONDS
want basic && { boot "two controllers" basic 8 \
	-device "nvme,id=ca,serial=$SER_A" \
	-drive "$(d a1)" -device "$(ns a1 ca 1 512)" -drive "$(d a2)" -device "$(ns a2 ca 2 4096)" \
	-device "nvme,id=cb,serial=$SER_B,smart_critical_warning=$CW_B" \
	-drive "$(d b1)" -device "$(ns b1 cb 1 512)" \
	-device "nvme,id=cc,serial=$SER_PI" \
	-drive "$(d c1)" -device "$(ns c1 cc 1 512),ms=8,mset=0,pi=1,pil=0" \
	-drive "$(d c2)" -device "$(ns c2 cc 2 4096),ms=64,mset=1,pi=1,pil=0" \
	-drive "$(d c3)" -device "$(ns c3 cc 3 512),ms=16,mset=0,pi=1,pil=0,pif=2" \
	-drive "$(d c4)" -device "$(ns c4 cc 4 4096),ms=64,mset=1,pi=1,pil=1,pif=2" \
	-device "nvme,id=cz,serial=$SER_Z" -drive "$(d z1)" -device "$(ns z1 cz 1 512),zoned=true,zoned.zone_size=1M,zoned.zone_capacity=768K,zoned.max_open=4,zoned.max_active=6" || rc1=$?; }
rm -f "$RUN"/*.img
T1=$SECONDS
# 2. native multipath: two controllers of one subsystem share two namespaces
mk m1 32M; mk m2 16M
want multipath && { boot "multipath subsystem" multipath 2 \
	-device nvme-subsys,id=sub0,nqn=nvscope-mp \
	-device "nvme,id=m0,serial=$SER_MP,subsys=sub0" -device "nvme,id=m1,serial=$SER_MP,subsys=sub0" \
	-drive "$(d m1)" -device "nvme-ns,drive=m1,nsid=1" \
	-drive "$(d m2)" -device "nvme-ns,drive=m2,nsid=2,logical_block_size=4096,physical_block_size=4096" || rc2=$?; }
rm -f "$RUN"/*.img
T2=$SECONDS
# 3. the console on the guest's serial line (tmux is the terminal)
if [ -n "${NVS_VM_ONLY:-}" ]; then
	: # one boot only
elif command -v tmux >/dev/null; then
	boot_console || rc3=$?
else
	echo "check-vm: console on the serial line skipped (no tmux)"
fi
rc4=0
T3=$SECONDS
[ -n "${NVS_VM_ONLY:-}" ] || boot_fdp || rc4=$?
echo "check-vm: two controllers: exit $rc1 ($((T1 - T0)) s), multipath: exit $rc2 ($((T2 - T1)) s)," \
	"console: exit $rc3 ($((T3 - T2)) s; kernel $KVER), fdp: exit $rc4 ($((SECONDS - T3)) s)"
[ "$rc1" = 0 ] || exit "$rc1"
[ "$rc2" = 0 ] || exit "$rc2"
[ "$rc3" = 0 ] || exit "$rc3"
exit "$rc4"
