#!/bin/bash
# Not exclusive since session 13: a refused run must leave its loop device's
# read count unmoved: another test's device scan (the console, list) reads
# every block device; now every test's scans see only its own devices
# (NVSCOPE_DEVICES, tests/lib.sh)
# safety_out.sh - output files and results directories (issue 8, items 1,
# 11, 12): a report never lands on a block device (one holding a mounted
# filesystem included), never through a planted symlink or hard link, never
# in a directory another user owns; outputs are opened and checked before
# any I/O (the target's /sys/block/*/stat does not move); a plan's results
# directory owned by another user is refused, symlinks in it never
# followed.  Every refusal exits 2.
. "$(dirname "$0")/../lib.sh"
B=$NVS_BIN
# no writer bypasses src/dev/safety_out.c: fopen for writing, O_CREAT,
# mkdir or rename only there (io/core/target.c creates a regular-file target
# under the target rule of safety.c; /dev/null is libnvme's quiet log;
# cmd/trace.c's mkdir makes a tracefs instance, a kernel interface)
bad=$(grep -rnE 'fopen\([^;]*"[wa]|O_CREAT|[^_a-z]creat\(|freopen|mkstemp|[^_a-z]mkdir\(|[^_a-z]rename\(' \
	"$NVS_TOP/src" | grep -v 'src/dev/safety_out.c:\|src/dev/safety.[ch]:\|src/io/core/target.c:\|"/dev/null"' |
	grep -v 'src/cmd/trace.c:[0-9]*:	if (mkdir(inst, 0700)) {$')
[ -z "$bad" ] || fail "writers bypassing safety_out.c:
$bad"
ok "every output is opened through safety_out.c"
[ "$(id -u)" -eq 0 ] || skip "needs root (chown, loop devices)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
victim=$T_TMP/victim
echo "precious" >"$victim"
vsum() { md5sum <"$victim"; }
before=$(vsum)
untouched() { [ "$(vsum)" = "$before" ] || fail "$1: the victim file was written"; }
refused() { # refused WHAT: the last command's status in $rc must be 2
	[ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2: $(cat "$T_TMP/e")"
}
tgt=$T_TMP/target.img
truncate -s 16M "$tgt"
read1() { "$B" run --target "$tgt" --rw=randread --bs=4k --runtime=200ms --time_based -q "$@" \
	>/dev/null 2>"$T_TMP/e"; }

# 1. --output on a block device holding a mounted filesystem
t_loop 32M
fsdev=$LOOP
# no lazy inode-table or journal init, and mounted read-only without journal
# replay: the mounted filesystem must not write itself (ext4 commits every
# 5 s: seen under ASan) while its bytes are compared; mounted is mounted
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$fsdev" || fail "mkfs"
mkdir -p "$T_TMP/mnt"
mount -o ro,noload "$fsdev" "$T_TMP/mnt" || skip "cannot mount ext4"
sum0=$(md5sum <"$fsdev")
read1 --output-format=json --output "$fsdev"
rc=$?
sum1=$(md5sum <"$fsdev")
umount "$T_TMP/mnt"
refused "--output on a mounted block device"
grep -q "block device" "$T_TMP/e" || fail "message does not say why: $(cat "$T_TMP/e")"
[ "$sum0" = "$sum1" ] || fail "the block device was written"
sum1=$(md5sum <"$fsdev") # unmounting wrote it
read1 --csv "$fsdev"
rc=$?
refused "--csv on a block device"
[ "$(md5sum <"$fsdev")" = "$sum1" ] || fail "--csv wrote the block device"
ok "--output/--csv on a block device refused, device unchanged"

# 2. a planted symlink or hard link as the output file
ln -s "$victim" "$T_TMP/link.json"
read1 --output-format=json --output "$T_TMP/link.json"
rc=$?
refused "--output through a symlink"
untouched "--output symlink"
read1 --csv "$T_TMP/link.json"
rc=$?
refused "--csv through a symlink"
untouched "--csv symlink"
ln "$victim" "$T_TMP/hard.json"
read1 --output-format=json --output "$T_TMP/hard.json"
rc=$?
refused "--output on a hard link"
untouched "--output hard link"
ok "symlink and hard link outputs refused, the victim untouched"

# 3. a directory another user owns, a world-writable one without sticky bit,
# a file another user owns
mkdir "$T_TMP/theirs" "$T_TMP/open"
chown nobody "$T_TMP/theirs"
chmod 0777 "$T_TMP/open"
read1 --output-format=json --output "$T_TMP/theirs/r.json"
rc=$?
refused "--output in another user's directory"
[ ! -e "$T_TMP/theirs/r.json" ] || fail "wrote into another user's directory"
read1 --output-format=json --output "$T_TMP/open/r.json"
rc=$?
refused "--output in a world-writable directory"
touch "$T_TMP/their.json"
chown nobody "$T_TMP/their.json"
read1 --output-format=json --output "$T_TMP/their.json"
rc=$?
refused "--output over another user's file"
[ ! -s "$T_TMP/their.json" ] || fail "another user's file was written"
read1 --output-format=json --output "$T_TMP/ok.json" || fail "a plain output refused: $(cat "$T_TMP/e")"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T_TMP/ok.json" || fail "ok.json"
# another user's symlink on the way (/tmp/x -> /etc, with protected_symlinks
# off): not followed
mkdir "$T_TMP/etc"
ln -s "$T_TMP/etc" "$T_TMP/evil"
chown -h nobody "$T_TMP/evil"
read1 --output-format=json --output "$T_TMP/evil/r.json"
rc=$?
refused "--output through another user's symlinked directory"
[ ! -e "$T_TMP/etc/r.json" ] || fail "followed another user's symlink"
ok "other users' directories, files and symlinks refused; a plain output works"

# 4. outputs are checked before any I/O: the target's stat does not move
t_loop 32M
st=/sys/block/$(basename "$LOOP")/stat
# udev probes a new device: wait until its counters stand still
command -v udevadm >/dev/null && udevadm settle 2>/dev/null
s0=$(cat "$st")
for _ in $(seq 1 50); do
	t_nap 0.2
	s1=$(cat "$st")
	[ "$s1" = "$s0" ] && break
	s0=$s1
done
"$B" run --target "$LOOP" --rw=randread --bs=4k --runtime=1 --time_based -q \
	--output-format=json --output "$T_TMP/nowhere/r.json" >/dev/null 2>"$T_TMP/e"
rc=$?
refused "unwritable --output"
"$B" run --target "$LOOP" --rw=randread --bs=4k --runtime=1 --time_based -q \
	--csv "$T_TMP/link.json" >/dev/null 2>"$T_TMP/e"
rc=$?
refused "unwritable --csv"
[ "$(cat "$st")" = "$s0" ] || fail "I/O was done before the outputs were checked"
ok "unwritable outputs refused before any I/O"

# 5. plan results directories
plan=$T_TMP/read.ini
printf '[plan]\ndescription = read only\nruntime = 200ms\n\n[measure 4k-randread]\nrw = randread\nbs = 4k\niodepth = 1\n' >"$plan"
mkdir "$T_TMP/nobodys"
chown nobody "$T_TMP/nobodys"
"$B" plan "$plan" --target "$LOOP" --results "$T_TMP/nobodys" --quiet >/dev/null 2>"$T_TMP/e"
rc=$?
refused "plan into another user's empty directory"
[ -z "$(ls -A "$T_TMP/nobodys")" ] || fail "files written into another user's directory"
"$B" --results "$T_TMP/nobodys" </dev/null >/dev/null 2>"$T_TMP/e"
rc=$?
refused "console --results of another user"
grep -q "belongs to uid" "$T_TMP/e" || fail "console --results not checked: $(cat "$T_TMP/e")"
ln -s "$T_TMP/nobodys" "$T_TMP/dirlink"
"$B" plan "$plan" --target "$LOOP" --results "$T_TMP/dirlink" --quiet >/dev/null 2>"$T_TMP/e"
rc=$?
refused "plan into a symlinked directory"
[ "$(cat "$st")" = "$s0" ] || fail "a refused plan did I/O"
R=$T_TMP/res
"$B" plan "$plan" --target "$LOOP" --results "$R" --quiet >/dev/null 2>"$T_TMP/e" ||
	fail "plan failed: $(cat "$T_TMP/e")"
# rewind it to step 1, then plant symlinks to the victim where it writes
sed -i 's/"step":[[:space:]]*1,/"step": 0,/; s/"finished":[[:space:]]*true/"finished": false/' "$R/state.json"
cp -a "$R" "$T_TMP/res2"
ln -s "$victim" "$R/state.json.tmp"
ln -sf "$victim" "$R/meta.json"
ln -sf "$victim" "$R/device-after.json"
ln -sf "$victim" "$R/01-measure-4k-randread/qd1.json"
"$B" plan --resume "$R" --quiet >/dev/null 2>"$T_TMP/e"
rc=$?
untouched "symlinks planted in our own results directory"
cat "$T_TMP/e"

ok "symlinks planted in the results directory are not followed (exit $rc)"
# the same directory owned by another user: refused, nothing followed
R=$T_TMP/res2
ln -s "$victim" "$R/state.json.tmp"
chown -R nobody "$R"
"$B" plan --resume "$R" --quiet >/dev/null 2>"$T_TMP/e"
rc=$?
refused "--resume of another user's directory"
untouched "--resume of another user's directory"
ok "--resume of another user's directory refused"

# 6. report outputs
"$B" plan "$plan" --target "$LOOP" --results "$T_TMP/clean" --quiet >/dev/null 2>"$T_TMP/e" ||
	fail "plan failed: $(cat "$T_TMP/e")"
"$B" report "$T_TMP/clean" -o "$T_TMP/link.json" >/dev/null 2>"$T_TMP/e"
rc=$?
[ "$rc" -ne 0 ] || fail "report through a symlink"
untouched "report -o symlink"
[ -L "$T_TMP/link.json" ] || fail "report replaced the planted symlink"
"$B" report "$T_TMP/clean" -o "$fsdev" >/dev/null 2>"$T_TMP/e"
rc=$?
refused "report -o block device"
[ -b "$fsdev" ] && [ "$(md5sum <"$fsdev")" = "$sum1" ] || fail "report -o wrote or replaced the block device"
"$B" report "$T_TMP/clean" -o "$T_TMP/theirs/r.html" >/dev/null 2>"$T_TMP/e"
rc=$?
refused "report -o in another user's directory"
"$B" report "$T_TMP/clean" -o "$T_TMP/r.html" >/dev/null 2>"$T_TMP/e" || fail "report: $(cat "$T_TMP/e")"
ok "report outputs checked"
