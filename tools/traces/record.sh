#!/bin/bash
# tools/traces/record.sh WORKLOAD OUT.log [SECONDS]
# Records a real application's block I/O as the shipped traces were made:
# a new 256 MiB loop device (direct I/O, file on tmpfs) with ext4, mounted,
# `nvscope trace record` on it while WORKLOAD runs, then unmounted and
# removed.  WORKLOAD:
#   build   developer desktop: 48 C files including system headers compiled
#           with gcc -O1 (objects, dependency files), linked into a static
#           archive, then sync
#   sqlite  OLTP: SQLite (python3's sqlite3) with synchronous=FULL and a
#           rollback journal: 400 transactions of 5 updates/inserts on a
#           20k-row table, each commit fsynced
# Needs root, ext4 tools, gcc (build) or python3 (sqlite), and nvscope built
# (NVS_BIN, default ./nvscope).  The raw capture stays in OUT.log.raw/.
set -eu
wl=$1 out=$2 secs=${3:-8}
NVS_BIN=${NVS_BIN:-./nvscope}
case $wl in build | sqlite) ;; *) echo "usage: $0 build|sqlite OUT.log [SECONDS]" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 2; }
tmp=$(mktemp -d /dev/shm/nvscope-trace.XXXXXX)
dev= mnt=$tmp/mnt
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
truncate -s 256M "$tmp/img"
dev=$(losetup --direct-io=on -f --show "$tmp/img")
mkfs.ext4 -q -F "$dev"
mkdir "$mnt"
mount -o noatime "$dev" "$mnt"
command -v udevadm >/dev/null && udevadm settle -t 5 || true

workload() {
	case $wl in
	build)
		mkdir -p "$mnt/src" "$mnt/obj"
		for i in $(seq 1 48); do
			{
				echo "#include <stdio.h>"; echo "#include <stdlib.h>"; echo "#include <string.h>"
				echo "#include <math.h>"; echo "#include <pthread.h>"
				echo "int f$i(int x) { char b[64]; snprintf(b, sizeof b, \"%d\", x * $i);"
				echo "  return (int)strlen(b) + (int)sqrt((double)x); }"
			} >"$mnt/src/f$i.c"
		done
		sync
		for i in $(seq 1 48); do
			gcc -O1 -MMD -MF "$mnt/obj/f$i.d" -c "$mnt/src/f$i.c" -o "$mnt/obj/f$i.o"
		done
		ar rcs "$mnt/obj/libf.a" "$mnt"/obj/*.o
		sync
		;;
	sqlite)
		python3 - "$mnt/oltp.db" <<'PY'
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=DELETE"); db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE acct(id INTEGER PRIMARY KEY, bal INTEGER, note TEXT)")
db.execute("BEGIN")
db.executemany("INSERT INTO acct VALUES(?,?,?)", ((i, 1000, "x" * 80) for i in range(20000)))
db.execute("COMMIT")
r = random.Random(7)
for t in range(400):
    db.execute("BEGIN")
    for _ in range(4):
        db.execute("UPDATE acct SET bal = bal + ? WHERE id = ?", (r.randint(-50, 50), r.randrange(20000)))
    db.execute("INSERT INTO acct(bal, note) VALUES(?, ?)", (r.randint(0, 99), "h" * 40))
    db.execute("COMMIT")
db.close()
PY
		sync
		;;
	esac
}

"$NVS_BIN" trace record --target "$dev" --duration "${secs}s" -o "$out" --raw "$out.raw" &
rec=$!
sleep 1
workload
wait $rec
# the device's name is no use elsewhere (and fio would replay onto it): the
# file is "trace.img"; nvscope replays on --target, fio with replay_redirect
awk -v d="$dev" 'NR > 1 && $2 == d { $2 = "trace.img" } { print }' "$out" >"$tmp/out" &&
	cat "$tmp/out" >"$out"
"$NVS_BIN" trace show "$out"
