# tests/vm/fdp.sh - sourced by tests/vm/run.sh: the "fdp" boot (issue 13:
# fio's fdp=1 and atomic=1), which needs newer emulation than the others:
# QEMU 10 from Debian's bookworm-backports (FDP since QEMU 8.0: nvme-subsys
# fdp=on, nvme-ns fdp.ruhs; atomic write parameters since 9.2) and the
# backports kernel (6.12: RWF_ATOMIC since 6.11, the NVMe driver's atomic
# write unit from AWUPF).  Neither is installed: a private apt
# configuration under the cache (its own sources.list naming only
# bookworm-backports, its own lists, the system's keyring) downloads the
# .debs, `dpkg -x` unpacks them into the cache; the system's QEMU 7.2 and
# its apt sources stay as they are.  QEMU 10's libraries are bookworm's
# (the same Depends as 7.2).  nvme-cli (bookworm's, unpacked the same way)
# runs in the guest as the oracle that is not nvscope: the FDP
# configuration, statistics and reclaim unit handle status it reads.
#
# 4. "fdp": controller F (serial NVSCOPE-FDP) in subsystem nvscope-fdp with
#           FDP on: 1 reclaim group, 8 reclaim unit handles, reclaim units
#           of 16 MiB; ns1 64 MiB LBA 4096 with placement handles 0-7.
#           Controller G (serial NVSCOPE-ATOM) with AWUPF 15 (atomic writes
#           up to 16 LBAs): ns1 32 MiB LBA 4096.
#
# When the packages cannot be fetched the boot is skipped (said so, exit
# 0) unless NVS_VM_REQUIRE_FDP=1 (.ci/run sets it): then it fails.
# NVS_VM_BPO_MIRROR: the Debian mirror (default http://deb.debian.org/debian).

SER_FDP=NVSCOPE-FDP SER_ATOM=NVSCOPE-ATOM
# fdp_apt ARGS...: apt-get with the private backports configuration
fdp_apt() {
	local a=$CACHE/bpo/apt
	"$@" -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts=- \
		-o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache" \
		-o Dir::State::Status=/var/lib/dpkg/status -o Debug::NoLocking=1
}
# fdp_fetch: the backports QEMU, kernel and nvme-cli under $CACHE/bpo, once.
# Sets FDP_QEMU, FDP_QDATA, FDP_KERNEL, FDP_KDIR, FDP_KVER, FDP_NVME.  0, or 1
# with the reason on stderr.
fdp_fetch() {
	local b=$CACHE/bpo a=$CACHE/bpo/apt tmp kpkg d f pos bz kver
	if [ ! -e "$b/.done" ]; then
		rm -rf "$b" && mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${NVS_VM_BPO_MIRROR:-http://deb.debian.org/debian} bookworm-backports main" \
			>"$a/sources.list"
		fdp_apt apt-get update -qq >/dev/null 2>&1
		ls "$a"/lists/*backports*Packages* >/dev/null 2>&1 ||
			{ echo "no bookworm-backports package list from ${NVS_VM_BPO_MIRROR:-http://deb.debian.org/debian}" >&2; return 1; }
		kpkg=$(fdp_apt apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
		[ -n "$kpkg" ] || { echo "no backports linux-image-amd64" >&2; return 1; }
		tmp=$b/dl && mkdir -p "$tmp"
		(cd "$tmp" && fdp_apt apt-get download -qq "qemu-system-x86/bookworm-backports" \
			"qemu-system-data/bookworm-backports" "$kpkg" >&2 2>/dev/null) ||
			{ echo "apt-get download of the backports QEMU/kernel failed" >&2; return 1; }
		(cd "$tmp" && apt-get download -qq nvme-cli >&2 2>/dev/null) ||
			{ echo "apt-get download nvme-cli failed" >&2; return 1; }
		for f in "$tmp"/qemu-system-*.deb; do dpkg -x "$f" "$b/qemu" || return 1; done
		dpkg -x "$tmp"/nvme-cli_*.deb "$b/nvme-cli" || return 1
		d=$b/kernel
		dpkg -x "$tmp"/"$kpkg"_*.deb "$d" || return 1
		rm -rf "$tmp" "$a/cache"
		kver=$(ls "$d/lib/modules")
		depmod -b "$d" "$kver" || return 1
		bz=$d/boot/vmlinuz-$kver # as run.sh: the ELF vmlinux boots faster
		pos=$({ LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" || true; } | head -1 | cut -d: -f1)
		if [ -n "$pos" ] && grep -q '^CONFIG_PVH=y' "$d/boot/config-$kver"; then
			tail -c +$((pos + 1)) "$bz" | xz -dc --single-stream >"$d/vmlinux" 2>/dev/null || true
			[[ $(file "$d/vmlinux") == *'ELF 64-bit'* ]] || rm -f "$d/vmlinux"
		fi
		: >"$b/.done"
	fi
	FDP_QEMU=$b/qemu/usr/bin/qemu-system-x86_64 FDP_QDATA=$b/qemu/usr/share/qemu
	FDP_KDIR=$b/kernel FDP_KVER=$(ls "$b/kernel/lib/modules") FDP_NVME=$b/nvme-cli/usr/sbin/nvme
	FDP_KERNEL=$FDP_KDIR/boot/vmlinuz-$FDP_KVER
	[ -e "$FDP_KDIR/vmlinux" ] && FDP_KERNEL=$FDP_KDIR/vmlinux
	"$FDP_QEMU" -device nvme-subsys,help 2>/dev/null | grep -q 'fdp=' ||
		{ echo "$FDP_QEMU has no FDP" >&2; return 1; }
	"$FDP_QEMU" -device nvme,help 2>/dev/null | grep -q 'atomic.awupf' ||
		{ echo "$FDP_QEMU has no atomic write parameters" >&2; return 1; }
}

# fdp_initrd: the run's initramfs with the backports kernel's nvme modules
# and nvme-cli (and its libraries) -> $RUN/initrd-fdp.cpio
fdp_initrd() {
	local R2=$RUN/root-fdp line p md=$FDP_KDIR/lib/modules/$FDP_KVER libs
	rm -rf "$R2" && cp -a "$R" "$R2"
	rm -rf "$R2/usr/lib/modules" && : >"$R2/etc/vm/modules"
	copy_nvme_mods "$R2" "$md"
	# nvme_core without native multipath: 6.12's multipath head does not
	# stack the atomic write limits (6.13 does), its paths do
	# shellcheck disable=SC2016 # the $m is init's
	sed -i 's/insmod "\$m" io_timeout=/insmod "$m" multipath=0 io_timeout=/' "$R2/init"
	grep -q 'multipath=0' "$R2/init" || echo "check-vm: fdp: init not patched (multipath)" >&2
	cp "$FDP_NVME" "$R2/usr/bin/nvme"
	libs=$(ldd "$FDP_NVME" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
	# shellcheck disable=SC2086
	cp -L --parents -t "$R2" $libs
	cp "$TOP/tests/vm/guest-fdp.sh" "$R2/etc/vm/guest-fdp.sh"
	printf 'NVS_VM_SER_FDP=%s\nNVS_VM_SER_ATOM=%s\n' "$SER_FDP" "$SER_ATOM" >>"$R2/etc/vm/env"
	(cd "$R2" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$RUN/initrd-fdp.cpio"
	rm -rf "$R2"
}

# boot_fdp: the boot; returns the guest's status (0 also when skipped)
boot_fdp() {
	local rc=0 why
	if ! fdp_fetch >/dev/null 2>"$RUN/fdp-fetch.err"; then
		why=$(grep -v '^ *$' "$RUN/fdp-fetch.err" | tail -2 | tr '\n' ' ')
		if [ "${NVS_VM_REQUIRE_FDP:-0}" = 1 ]; then
			echo "check-vm: fdp boot: cannot fetch bookworm-backports' QEMU/kernel: $why" >&2
			return 77
		fi
		echo "check-vm: fdp boot SKIPPED: bookworm-backports' QEMU/kernel not fetched: $why"
		return 0
	fi
	fdp_initrd
	mk f1 64M; mk g1 32M
	# the guest's kernel and initramfs are the backports ones; boot()
	# runs qemu-system-x86_64 from PATH: QEMU 10 first, its data with -L
	# (-audio none: no audio probe, which would try 7.2's modules)
	local qbin=$RUN/qbin
	mkdir -p "$qbin" && ln -sf "$FDP_QEMU" "$qbin/qemu-system-x86_64"
	# boot() boots $RUN/initrd.cpio: this boot's in its place meanwhile
	mv "$RUN/initrd.cpio" "$RUN/initrd-main.cpio"
	mv "$RUN/initrd-fdp.cpio" "$RUN/initrd.cpio"
	KERNEL=$FDP_KERNEL PATH=$qbin:$PATH \
		boot "FDP and atomic writes (QEMU $("$FDP_QEMU" --version | awk 'NR==1{print $4}'), kernel $FDP_KVER)" fdp 2 \
		-L "$FDP_QDATA" -audio none \
		-device nvme-subsys,id=fsub,nqn=nvscope-fdp,fdp=on,fdp.nrg=1,fdp.nruh=8,fdp.runs=16M \
		-device "nvme,id=cf,serial=$SER_FDP,subsys=fsub" \
		-drive "$(d f1)" -device "nvme-ns,drive=f1,bus=cf,nsid=1,logical_block_size=4096,physical_block_size=4096,fdp.ruhs=0-7" \
		-device "nvme,id=cg,serial=$SER_ATOM,atomic.awupf=15,atomic.awun=15" \
		-drive "$(d g1)" -device "$(ns g1 cg 1 4096)" || rc=$?
	mv "$RUN/initrd-main.cpio" "$RUN/initrd.cpio"
	rm -f "$RUN"/f1.img "$RUN"/g1.img
	return "$rc"
}
