#!/bin/bash
# tools/traces/vm-boot.sh OUT.log [SIZE] [boot|login|monday]
# Records a guest booting from an emulated NVMe disk, as presets/traces/
# vm-boot.log was made (docs/traces.md); with login or monday, a desktop
# user's session instead of the boot (the VDI review's login phases:
# vdi-login.log and vdi-monday.log, docs/traces.md "The login traces"):
#   login:  the user's first login: the profile made from /etc/skel, a
#           shell and the session started, the apps' first run (a browser-
#           like history database of 2,000 visits, 200 cache files of 4-64
#           KiB, a settings file, the profile indexed);
#   monday: the same user back after the weekend: the profile (made on this
#           host by the login session before the recording) read back, the
#           apps started on their caches and databases (400 visits added,
#           50 cache files rewritten, the settings updated), a session log;
# the boot's own steps:
#  1. a new loop device (SIZE, default 256M, file on tmpfs) gets ext4 and a
#     small root filesystem copied from this host: busybox-static, bash,
#     coreutils' ls/cat/sort, python3 with its standard library, their shared
#     libraries, /etc basics and /sbin/boot.sh (below); unmounted, flushed;
#  2. `nvscope trace record --target LOOP` starts (host side: blktrace, or
#     tracefs block_rq_issue where lockdown refuses blktrace);
#  3. ../shared/tools/run-vm.sh (QEMU/TCG, Debian's kernel, nvme and ext4
#     modules, crc32c for ext4's checksums) boots a guest whose one NVMe namespace IS the loop device,
#     opened with cache=none (O_DIRECT: each guest request reaches the loop
#     device as one host request, no host page cache in between);
#  4. the guest mounts /dev/nvme0n1 (ext4) and runs /sbin/boot.sh from it in
#     a chroot: what an init and its first services do - mount the API
#     filesystems, read /etc, start a shell that sources profile.d, list
#     /usr/lib, start python3 importing the modules a service imports
#     (json, email, http.client, sqlite3, logging, asyncio), write a boot
#     log, a random seed and a sorted cache file, sync; then it unmounts;
#  5. the recording ends when QEMU does.  From the tracefs capture only the
#     events issued by QEMU's threads and the block layer's kworkers are
#     kept (host tasks probing the device - udev/blkid, the recorder - and
#     QEMU's probe of sector 0 when it opens the disk are dropped and
#     counted), converted with `nvscope trace convert` to a fio
#     v3 iolog on file "vm-boot.img" (nvscope replays on --target; fio
#     needs --replay_redirect).
# Needs root, qemu-system-x86, busybox-static, e2fsprogs, python3, nvscope
# built (NVS_BIN, default ./nvscope) and the run-vm.sh of ../shared/tools
# (RUN_VM; the kernel .deb is fetched once with apt-get download into WORK,
# default /tmp/qemu-nvme-traces).  Takes ~1-2 min under TCG.
set -eu
out=${1:?usage: $0 OUT.log [SIZE] [boot|login|monday]} size=${2:-256M} mode=${3:-boot}
case $mode in boot | login | monday) ;; *) echo "mode: boot, login or monday" >&2; exit 2 ;; esac
NVS_BIN=$(readlink -f "${NVS_BIN:-./nvscope}")
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RUN_VM=${RUN_VM:-$TOP/../shared/tools/run-vm.sh}
[ -x "$RUN_VM" ] || RUN_VM=/work/shared/tools/run-vm.sh
[ -x "$RUN_VM" ] || { echo "no run-vm.sh (set RUN_VM)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 2; }
export WORK=${WORK:-/tmp/qemu-nvme-traces}
# reuse the kernel tests/vm already unpacked (same .deb, same layout)
if [ ! -e "$WORK/kernel-amd64/.done" ] && [ -e /tmp/nvscope-vm/kernel/.done ]; then
	mkdir -p "$WORK" && cp -a /tmp/nvscope-vm/kernel "$WORK/kernel-amd64"
fi
tmp=$(mktemp -d /dev/shm/nvscope-vmboot.XXXXXX)
dev= mnt=$tmp/mnt rec=
cleanup() {
	[ -n "$rec" ] && kill -INT "$rec" 2>/dev/null && wait "$rec" 2>/dev/null
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
truncate -s "$size" "$tmp/img"
dev=$(losetup --direct-io=on -f --show "$tmp/img")
mkfs.ext4 -q -F -L vmroot "$dev"
mkdir "$mnt"
mount "$dev" "$mnt"

# ---- the root filesystem
R=$mnt
mkdir -p "$R"/{bin,sbin,usr/bin,usr/lib,etc/profile.d,proc,sys,run,tmp,dev,var/log,var/lib,var/cache,root}
cp /bin/busybox "$R/bin/busybox"
bins="/usr/bin/bash /usr/bin/ls /usr/bin/cat /usr/bin/sort $(readlink -f /usr/bin/python3)"
for b in $bins; do cp -L --parents "$b" "$R"; done
ln -sf "$(readlink -f /usr/bin/python3)" "$R/usr/bin/python3"
# shellcheck disable=SC2086
for l in $(ldd $bins | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 !~ /:$/ {print $1}' | sort -u); do
	cp -L --parents "$l" "$R"
done
for d in lib lib64; do [ -e "/$d" ] && [ -L "/$d" ] && ln -sfn "usr/$d" "$R/$d"; done
py=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
mkdir -p "$R$py"
tar -C / --exclude='test' --exclude='tests' --exclude='idlelib' --exclude='tkinter' \
	--exclude='ensurepip' --exclude='site-packages' --exclude='dist-packages' \
	-cf - "${py#/}" | tar -C "$R" -xf -
# the libraries of python's extension modules (sqlite3, ssl, ...)
for l in $(find "$R$py/lib-dynload" -name '*.so' -exec ldd {} + 2>/dev/null |
	awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
	[ -e "$R$l" ] || cp -L --parents "$l" "$R"
done
for e in os-release hostname services protocols nsswitch.conf ld.so.cache; do
	[ -e "/etc/$e" ] && cp -L "/etc/$e" "$R/etc/$e"
done
printf 'root:x:0:0:root:/root:/usr/bin/bash\n' >"$R/etc/passwd"
printf 'root:x:0:\n' >"$R/etc/group"
printf '/dev/nvme0n1 / ext4 defaults 0 1\n' >"$R/etc/fstab"
for i in 1 2 3 4 5 6; do printf 'export VAR%s=%s\n' "$i" "$i" >"$R/etc/profile.d/$i.sh"; done
cat >"$R/sbin/boot.sh" <<'EOF'
#!/bin/busybox sh
# /sbin/boot.sh - a small boot: what an init and its first services do
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t tmpfs tmpfs /run
/usr/bin/cat /etc/os-release /etc/hostname /etc/fstab /etc/passwd >/dev/null
/usr/bin/bash -c 'for f in /etc/profile.d/*.sh; do . "$f"; done; echo "shell up: $VAR6"'
/usr/bin/ls -lR /usr/lib >/dev/null
/usr/bin/python3 -c 'import json, email.parser, http.client, sqlite3, logging, asyncio, \
    urllib.request, datetime, random; print("services up")'
{ echo "boot at $($B cut -d" " -f1 /proc/uptime)"; $B dmesg | $B tail -50; } >/var/log/boot.log
$B dd if=/dev/urandom of=/var/lib/random-seed bs=512 count=1 2>/dev/null
/usr/bin/sort /etc/services >/var/cache/services.sorted
$B sync
$B umount /run /sys /proc
EOF
chmod 755 "$R/sbin/boot.sh"
# a desktop user's session (login, monday): /etc/skel as a desktop's
# defaults, /sbin/session.sh what logging in does
mkdir -p "$R/etc/skel/.config/app" "$R/etc/skel/.local/share/app" "$R/etc/skel/Documents"
printf 'PS1="\\u@vdi$ "\nexport EDITOR=vi\n' >"$R/etc/skel/.bashrc"
for i in $(seq 40); do
	head -c $((512 * (i % 9 + 1))) /usr/share/common-licenses/GPL-3 >"$R/etc/skel/.config/app/default$i.conf"
done
for i in $(seq 12); do
	head -c $((8192 * i)) /usr/share/common-licenses/GPL-3 >"$R/etc/skel/Documents/welcome$i.txt" 2>/dev/null ||
		cp /usr/share/common-licenses/GPL-3 "$R/etc/skel/Documents/welcome$i.txt"
done
cat >"$R/sbin/session.sh" <<'EOF'
#!/bin/busybox sh
# /sbin/session.sh first|monday - a desktop user logging in
B=/bin/busybox
H=/home/user
$B mount -t proc proc /proc 2>/dev/null
$B mount -t tmpfs tmpfs /run 2>/dev/null
if [ "$1" = first ]; then
	$B mkdir -p $H
	$B cp -a /etc/skel/. $H/
else # the roaming profile loaded: every file of it read
	$B find $H -type f -exec $B cat {} + >/dev/null
fi
/usr/bin/bash -c ". $H/.bashrc; for f in /etc/profile.d/*.sh; do . \"\$f\"; done; echo session: \$EDITOR"
/usr/bin/python3 - "$1" <<'PY'
import json, os, random, sqlite3, sys, time
h, first = "/home/user", sys.argv[1] == "first"
random.seed(7 if first else 11)
os.makedirs(h + "/.cache/app", exist_ok=True)
db = sqlite3.connect(h + "/.local/share/app/history.sqlite")
db.execute("create table if not exists visit(id integer primary key, url text, t real)")
n = 2000 if first else 400
for i in range(n):
    db.execute("insert into visit(url, t) values(?, ?)", ("https://example.org/%d" % random.randrange(10**6), time.time()))
    if i % 100 == 99:
        db.commit()  # a browser commits as it goes
db.commit()
if not first:
    print("session: %d visits" % db.execute("select count(*) from visit").fetchone()[0])
names = ["%s/.cache/app/c%03d" % (h, i) for i in range(200)]
for p in (names if first else random.sample(names, 50)):
    with open(p, "wb") as f:
        f.write(os.urandom(random.choice([4096, 8192, 16384, 65536])))
if not first:
    for p in random.sample(names, 100):
        open(p, "rb").read()
sp = h + "/.config/app/settings.json"
st = {} if first else json.load(open(sp))
st.update({"k%d" % i: random.random() for i in range(5000 if first else 500)})
json.dump(st, open(sp, "w"))
with open(h + "/.cache/app/session.log", "a") as f:
    f.write("login %s at %f\n" % (sys.argv[1], time.time()))
PY
$B ls -lR $H >$H/.cache/index
$B sync
$B umount /run /proc 2>/dev/null
EOF
chmod 755 "$R/sbin/session.sh"
if [ "$mode" = monday ]; then # the first login's profile, made here before the recording
	chroot "$R" /bin/busybox sh /sbin/session.sh first >/dev/null
fi
du -sh "$R" | awk '{print "vm-boot: root filesystem " $1}'
umount "$mnt"
blockdev --flushbufs "$dev"
command -v udevadm >/dev/null && udevadm settle -t 5 || true

# ---- the guest: mount the NVMe disk, boot.sh in a chroot, unmount
cat >"$tmp/guest.sh" <<'EOF'
i=0
while [ ! -b /dev/nvme0n1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 /dev/nvme0n1 /mnt || exit 3
case $(cat /etc/vmboot-mode) in
boot) chroot /mnt /bin/busybox sh /sbin/boot.sh || exit 4 ;;
login) chroot /mnt /bin/busybox sh /sbin/session.sh first || exit 4 ;;
monday) chroot /mnt /bin/busybox sh /sbin/session.sh monday || exit 4 ;;
esac
umount /mnt || exit 5
echo "vm-boot: guest done"
EOF

"$NVS_BIN" trace record --target "$dev" --duration 600s -o "$out" --raw "$tmp/raw" &
rec=$!
sleep 1
kill -0 "$rec" || { echo "vm-boot: the recording did not start" >&2; exit 1; }
echo "$mode" >"$tmp/vmboot-mode"
RUN_DIR=$tmp/vm DISK_DIR=$tmp/disks "$RUN_VM" -c 0 -f "$tmp/vmboot-mode:/etc/vmboot-mode" -M crc32c_generic -M ext4 -t 500 -e "$tmp/guest.sh" \
	-Q "-drive file=$dev,if=none,id=boot,format=raw,cache=none -device nvme,id=nvme0,serial=VMBOOT0001 -device nvme-ns,drive=boot,bus=nvme0,nsid=1" ||
	{ tail -20 "$tmp/vm/console.log" >&2; echo "vm-boot: the guest failed" >&2; exit 1; }
grep -a 'up\|vm-boot\|session' "$tmp/vm/console.log" | tr -d '\r' | head -5
sleep 1
kill -0 "$rec" || { echo "vm-boot: the recording ended early" >&2; exit 1; }
kill -INT "$rec"
wait "$rec"
rec=
[ -n "${VMBOOT_KEEP_RAW:-}" ] && cp -r "$tmp/raw" "$VMBOOT_KEEP_RAW"
# the guest's I/O only: events issued by QEMU's threads or by the block
# layer's kworkers (requests QEMU queued); not those of host tasks that
# probe the device (udev/blkid, the recorder's start), nor QEMU's own reads
# of sector 0 when it opens the disk (its main thread, before any I/O
# thread - the guest's requests - shows up)
raw=$(ls "$tmp"/raw/*.block_rq_issue.txt 2>/dev/null || true)
if [ -n "$raw" ]; then
	awk '/^#/ { print; next }
	     { task = $1; tid = task; sub(/-[0-9]+$/, "", task); sub(/.*-/, "", tid) }
	     task == "qemu-system-x86" && !main { main = tid }
	     task == "qemu-system-x86" && tid != main { guest = 1 }
	     task == "qemu-system-x86" && tid == main && !guest { drop["qemu (opening the disk)"]++; next }
	     task ~ /^(qemu-system-x86|kworker\/)/ { print; next }
	     { drop[task]++ }
	     END { for (t in drop) printf "vm-boot: dropped %d events of host task %s\n", drop[t], t > "/dev/stderr" }' \
		"$raw" >"$tmp/guest.txt"
	img=vm-boot.img
	[ "$mode" = boot ] || img=vdi-$mode.img
	"$NVS_BIN" trace convert "$tmp/guest.txt" -o "$out" --file "$img"
else # blktrace's binary capture: no task filter, the whole recording
	awk -v d="$dev" 'NR > 1 && $2 == d { $2 = "vm-boot.img" } { print }' "$out" >"$tmp/out" &&
		cat "$tmp/out" >"$out"
fi
"$NVS_BIN" trace show "$out"
