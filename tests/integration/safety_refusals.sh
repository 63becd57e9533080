#!/bin/bash
# safety_refusals.sh - "exit 2 = nothing touched", as a property (issue 20,
# causes 3, 4 and 6): each hostile command line below must be refused with
# exit status 2, and after each one
#  - the kernel's write counters (/sys/block/X/stat fields 5 and 7: writes
#    completed, sectors written) of every loop device the test made are
#    unchanged,
#  - the sha256 of every file under the test's tree is unchanged, and no
#    file or directory appeared (the per-command stderr files excepted).
# The lines: refusals that used to come after a write (a later run group, a
# later check phase, an engine or zone option on a file laid out first, a
# log that cannot be written), outputs aimed at the command's own inputs or
# targets or at the image behind a mounted loop device, an option that was
# silently ignored (replay_redirect), and a few of the older rules.
. "$(dirname "$0")/../lib.sh"
B=$NVS_BIN
T=$T_TMP
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
id nobody >/dev/null 2>&1 || skip "no user nobody"
MNT=""
trap '[ -n "$MNT" ] && umount "$MNT" 2>/dev/null; t_cleanup' EXIT

# L1: a blank device, the target of the writing jobs.  L2: an ext4 image
# in the tree, mounted (its image is what outputs must never hit).
t_loop 16M
L1=$LOOP
truncate -s 8M "$T/fs.img" || fail "truncate"
L2=$(losetup -f --show "$T/fs.img") || skip "losetup"
t_own_loop "$L2"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L2" || fail "mkfs"
mkdir "$T/mnt"
mount -o ro "$L2" "$T/mnt" || skip "cannot mount ext4"
MNT=$T/mnt

# inputs: a read-only image, a trace that writes, job files, profiles
head -c 1M /dev/urandom >"$T/ro.img"
head -c 1M /dev/urandom >"$T/other.img"
printf 'fio version 3 iolog\n0 x add\n0 x open\n1 x write 0 4096\n2 x write 8192 4096\n3 x close\n' >"$T/w.log"
for i in 2 3 4 5 6; do cp "$T/w.log" "$T/w$i.log"; done
cp "$T/w.log" "$T/lg_bw.1.log" # the name write_bw_log=lg gives job 1 # one per line that reads one
printf '[w]\nfilename=%s\nrw=write\nbs=64k\nsize=1m\nioengine=io_uring\ndirect=1\n' "$L1" >"$T/good.fio"
printf '[r]\nfilename=%s\nrw=read\nbs=4k\nsize=1m\nno_such_option=1\n' "$L1" >"$T/bad.fio"
# two run groups: the first writes, the second is refused
group2() { # group2 OPTION-LINES...: a writing group, then a group with them
	printf '[w]\nfilename=%s\nrw=write\nbs=64k\nsize=1m\nioengine=io_uring\ndirect=1\n' "$L1"
	printf '[r]\nstonewall\nfilename=%s\nrw=read\nbs=4k\nsize=1m\nioengine=io_uring\n' "$L1"
	printf '%s\n' "$@"
}
group2 'iodepth=40000' >"$T/deep.fio"
group2 'write_bw_log=/nonexistent-dir/bw' >"$T/badlog.fio"
mkdir "$T/theirs"
chown nobody "$T/theirs"
group2 "write_lat_log=$T/theirs/lat" >"$T/theirlog.fio"
# a run group of two jobs, one with a histogram log it would not write
printf '[w]\nfilename=%s\nrw=write\nbs=64k\nsize=1m\n[r]\nfilename=%s\nrw=read\nbs=4k\nsize=1m\nwrite_hist_log=%s\n' \
	"$L1" "$L1" "$T/hist" >"$T/histgroup.fio"
# one job's write_iolog over another job's read-only target / input trace
printf '[r]\nfilename=%s\nrw=read\nbs=4k\nsize=256k\n[w]\nfilename=%s\nrw=write\nbs=64k\nsize=1m\nwrite_iolog=%s\n' \
	"$T/ro.img" "$L1" "$T/ro.img" >"$T/iolog_target.fio"
printf '[t]\nfilename=%s\nread_iolog=%s\n[w]\nstonewall\nfilename=%s\nrw=write\nbs=64k\nsize=1m\nwrite_iolog=%s\n' \
	"$L1" "$T/w2.log" "$L1" "$T/w2.log" >"$T/iolog_trace.fio"
# check profiles: a verify phase first, then a phase that is refused
printf '[check]\ndescription=t\nselftest=none\n[verify-a/b]\nrw=write\nbs=64k\nsize=1m\n' >"$T/badname.ini"
printf '[check]\ndescription=t\nselftest=none\n[verify-w]\nrw=write\nbs=64k\nsize=1m\n[read-deep]\nrw=read\nbs=4k\nsize=1m\niodepth=40000\n' \
	>"$T/deepcheck.ini"
printf '[check]\ndescription=t\nselftest=none\n[read-r]\nrw=read\nbs=64k\nsize=1m\n' >"$T/read.ini"
truncate -s 2M "$T/ext4.img" && mkfs.ext4 -q -F "$T/ext4.img" || fail "mkfs image"
# a plan: a fill step, then a step refused only when it ran
printf '[plan]\ndescription = t\nruntime = 200ms\n\n[fill w]\nrw = write\nbs = 64k\nsize = 1m\n\n[measure r]\nrw = randread\nbs = 4k\nzonemode = zbd\n' \
	>"$T/plan.ini"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/link.json"

command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
sync

counters() { # the write counters of both devices (fields 5 and 7)
	local d f
	for d in "$L1" "$L2"; do
		read -r -a f <"/sys/block/${d##*/}/stat"
		echo "${d##*/} ${f[4]} ${f[6]}"
	done
}
snapshot() { # the sha256 of every file, every other path by kind (~3 MB; in
	# find's order, which an unchanged tree keeps: no sort, few processes)
	find "$T" ! -name '*.err' \( -type f -exec sha256sum {} + -o -printf '%y %p\n' \)
}
# the mounted filesystem and udev may write a little after set-up: wait
# until the counters stand still
c0=$(counters)
for _ in $(seq 50); do
	t_nap 0.1
	c1=$(counters)
	[ "$c1" = "$c0" ] && break
	c0=$c1
done
mkdir "$T/rawfull" && : >"$T/rawfull/kept" # trace record's --raw: not empty
s0=$(snapshot)
n=0 bad=()
# refused NAME CMD...: exit 2, no write counted, no file changed or new
refused() {
	local name=$1 rc c s
	shift
	n=$((n + 1))
	"$@" </dev/null >/dev/null 2>"$T/$n.err"
	rc=$?
	c=$(counters)
	s=$(snapshot)
	if [ "$rc" -ne 2 ]; then
		bad+=("$name: exit $rc, not 2: $(head -c 300 "$T/$n.err")")
	elif [ "$c" != "$c0" ]; then
		bad+=("$name: a device was written: $(echo "$c0" | tr '\n' ' ')-> $(echo "$c" | tr '\n' ' ')")
	elif [ "$s" != "$s0" ]; then
		bad+=("$name: the tree changed: $(diff <(echo "$s0") <(echo "$s") | grep '^[<>]' | head -3 | tr '\n' ' ')")
	else
		echo "ok: refused, nothing touched: $name"
	fi
	c0=$c s0=$s # one failure does not fail the lines after it
}
W=(--rw=write --bs=64k --size=1m -q)
R=(--rw=read --bs=4k --size=256k -q)

# cause 3: every refusal before the first write
refused "a second job file with a bad option" "$B" run "$T/good.fio" "$T/bad.fio"
refused "a second run group over the ring's depth" "$B" run "$T/deep.fio"
refused "a second run group logging into a missing directory" "$B" run "$T/badlog.fio"
refused "a second run group logging into another user's directory" "$B" run "$T/theirlog.fio"
refused "io_uring_cmd on a file to be laid out" "$B" run --target "$T/new1.img" --ioengine=io_uring_cmd "${W[@]}"
refused "zonemode=zbd without zonesize on a file to be laid out" "$B" run --target "$T/new2.img" --zonemode=zbd "${W[@]}"
refused "iodepth over the ring's limit on a file to be laid out" "$B" run --target "$T/new3.img" --iodepth=40000 "${W[@]}"
refused "write_iolog into a missing directory" "$B" run --target "$L1" --write_iolog="$T/nodir/w.log" "${W[@]}"
refused "write_bw_log into a missing directory" "$B" run --target "$L1" --write_bw_log="$T/nodir/bw" "${W[@]}"
refused "write_iops_log into another user's directory" "$B" run --target "$L1" --write_iops_log="$T/theirs/x" "${W[@]}"
refused "check: a job name that is no file name" "$B" check --target "$L1" --profile "$T/badname.ini" \
	-o "$T/res1" --yes-destroy-data="$L1" -q
refused "check: a later phase over the ring's depth" "$B" check --target "$L1" --profile "$T/deepcheck.ini" \
	-o "$T/res2" --yes-destroy-data="$L1" -q
refused "plan: a later step refused only when it ran" "$B" plan "$T/plan.ini" --target "$L1" \
	--results "$T/pres" --yes-destroy-data="$L1" --quiet
# cause 4: outputs never hit inputs, targets or files in use
refused "--output naming the --read_iolog trace" "$B" run --target "$L1" --read_iolog="$T/w.log" \
	--output-format=json --output "$T/w.log" -q
refused "--csv naming the --read_iolog trace" "$B" run --target "$L1" --read_iolog="$T/w3.log" --csv "$T/w3.log" -q
refused "--output naming the job file" "$B" run "$T/good.fio" --output "$T/good.fio"
refused "--csv naming a target" "$B" run --target "$T/other.img" "${R[@]}" --csv "$T/other.img"
refused "write_bw_log whose file is the --read_iolog trace" "$B" run --target "$L1" \
	--read_iolog="$T/lg_bw.1.log" --write_bw_log="$T/lg" -q
refused "write_iolog naming another job's read-only target" "$B" run "$T/iolog_target.fio"
refused "write_iolog naming another job's input trace" "$B" run "$T/iolog_trace.fio"
refused "write_iolog onto the image of a mounted loop device" "$B" run --target "$L1" "${W[@]}" \
	--write_iolog="$T/fs.img"
refused "--output onto the image of a mounted loop device" "$B" run --target "$L1" "${R[@]}" --output "$T/fs.img"
refused "trace convert -o onto the image of a mounted loop device" "$B" trace convert "$T/w6.log" -o "$T/fs.img"
refused "trace convert -o onto its own input" "$B" trace convert "$T/w5.log" -o "$T/w5.log"
refused "trace record into a --raw directory that is not empty" "$B" trace record --target "$L1" \
	--duration 1s -o "$T/rec.log" --raw "$T/rawfull"
refused "check --csv onto the image of a mounted loop device" "$B" check --target "$L1" --profile "$T/read.ini" \
	-o "$T/res3" --csv "$T/fs.img" -q
# cause 6: an option takes effect or is refused
refused "--replay_redirect naming another file than --target" "$B" run --target "$L1" \
	--read_iolog="$T/w4.log" --replay_redirect="$T/other.img" -q
refused "write_hist_log in a run group (never written)" "$B" run "$T/histgroup.fio"
# the older rules, held by the same property
# (a write to the mounted device itself waits 3 s for its claim: tested by
# safety.sh)
refused "a write to the image of a mounted loop device" "$B" run --target "$T/fs.img" "${W[@]}"
refused "a write over an ext4 image, not forced" "$B" run --target "$T/ext4.img" "${W[@]}"
refused "--output on a block device" "$B" run --target "$T/other.img" "${R[@]}" --output "$L1"
refused "--csv through a symlink" "$B" run --target "$T/other.img" "${R[@]}" --csv "$T/link.json"
refused "--output through a symlink" "$B" run --target "$L1" "${R[@]}" --output-format=json --output "$T/link.json"

[ ${#bad[@]} -eq 0 ] || fail "$((${#bad[@]})) of $n refusals touched something or were not refusals:
$(printf '  %s\n' "${bad[@]}")"
ok "all $n hostile command lines refused with exit 2, no device written, no file changed or made"
