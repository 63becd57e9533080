#!/bin/bash
# console_hosts.sh - the console watching three other hosts over ssh (docs/
# hosts.md, "The console"), real sshd on loopback addresses (tests/lib/
# sshd.sh), on an 80x24 screen: the Devices pane groups the drives by host
# (this host's, then each host's line: up, its drive count, its clock
# offset); a host blackholed (iptables) is shown LOST within 5 s and said in
# the events while the two others stay up (their heartbeats keep coming);
# its drives stay listed as last seen while h1's and h3's listings go on
# (a filesystem made meanwhile shows in their rows); once the link is back
# it reconnects on its own, says so and lists again; another host's drive is never a target
# of this console (Space says why) and a HOST:PATH target is refused.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
. "$NVS_TOP/tests/lib/sshd.sh"
host() { sshd_host "$@" --setenv "NVSCOPE_PRESETS=$NVS_TOP/presets"; }
t_loop 16M
L=$(basename "$LOOP")
host h1
host h2
host h3

# a HOST:PATH target: refused before the screen opens
"$NVS_BIN" --target "h1:$LOOP" --host h1 2>"$T_TMP/err" && fail "a HOST:PATH target was taken"
grep -q "h1:$LOOP: another host's drive is not a target of the console yet" "$T_TMP/err" ||
	fail "the HOST:PATH refusal: $(cat "$T_TMP/err")"
ok "a HOST:PATH target is refused by name"

u_start 80 24 "$NVS_BIN" --no-settings --host h1 --host h2 --host h3 --connect-timeout 3s \
	--remote-nvscope "$NVS_BIN" --results "$T_TMP/res"
for h in h1 h2 h3; do
	u_wait "^ +$h +up, 1 drive, clock [-+][0-9]+\.[0-9] ms \(rtt [0-9.]+ ms\)" 30
done
u_match "^ +this host +local" || fail "no line for this host"
# each host's drive is under its line (h3's below the pane's fold at
# 80x24: the cursor's last row scrolls to it)
under() { # HOST: its line, then its drive (waited for: a scroll is drawn a frame later)
	for _ in $(seq 50); do
		u_screen >"$T_TMP/s1"
		grep -A1 -E "^ +$1 +up" "$T_TMP/s1" | tail -1 | grep -Eq "^.? +$L +17MB +512 " &&
			return 0
		t_nap 0.1
	done
	fail "$1's drive is not under its line: $(cat "$T_TMP/s1")"
}
under h1
under h2
u_keys End
under h3
u_keys Home
ok "three hosts up, each with its drive and clock, grouped under its line"

# another host's drive: never marked.  The rows: this host's line, its
# loop device, h1's line, h1's drive (the cursor starts on the first)
u_keys Down Down Down
u_keys Space
u_wait "another host's drives are shown, not tested from this console" 5
ok "another host's drive is not marked (Space says why)"

# h2 blackholed: lost within 5 s, the others stay up
sshd_blackhole h2
t0=${EPOCHREALTIME/./}
u_wait '^ +h2 +LOST [0-9]+ s: no answer for 3 s' 8
took=$(((${EPOCHREALTIME/./} - t0) / 1000))
[ "$took" -le 5000 ] || fail "h2 shown lost after $took ms, wanted <= 5 s"
u_match '^ +h1 +up' && u_match '^ +h3 +up' || fail "h1 or h3 not up when h2 was lost"
ok "blackholed h2 shown lost in $took ms; h1 and h3 up"
# the others stay live: a filesystem made on the drive now shows in h1's
# and h3's rows at their next listing (every 10 s), while h2's row keeps
# what it last saw; and their heartbeats keep them up (3 s deadline)
# (wiped again on any exit, before the device is detached)
wipe() { wipefs -a -q "$LOOP" 2>/dev/null; blockdev --flushbufs "$LOOP" 2>/dev/null; }
T_CLEANUP+=(wipe)
mkfs.ext4 -q -F "$LOOP" || fail "mkfs.ext4 $LOOP"
u_keys End # the rows from h1's line to h3's drive in the pane
drive_of() { # HOST: its drive's row
	u_screen | grep -A1 -E "^ +$1 +(up|LOST)" | tail -1
}
for _ in $(seq 150); do
	u_cap
	[[ $(drive_of h1) == *ext4* && $(drive_of h3) == *ext4* ]] && break
	t_nap 0.1
done
[[ $(drive_of h1) == *ext4* && $(drive_of h3) == *ext4* ]] ||
	fail "h1's or h3's listing did not go on beside lost h2: $(u_screen)"
u_match '^ +h1 +up' && u_match '^ +h3 +up' || fail "h1 or h3 lost beside h2: $(u_screen)"
u_match '^ +h2 +LOST' || fail "h2 no longer lost while blackholed"
[[ $(drive_of h2) != *ext4* ]] || fail "lost h2's row changed: $(u_screen)"
ok "h1 and h3 stay up and listed (the new ext4 shows), lost h2 keeps its last listing"

# the link back: reconnected on its own, said in the events
sshd_unblackhole h2
u_wait '^ +h2 +up, 1 drive' 40
for _ in $(seq 150); do # its listing caught up on reconnecting
	u_cap
	[[ $(drive_of h2) == *ext4* ]] && break
	t_nap 0.1
done
[[ $(drive_of h2) == *ext4* ]] || fail "h2's listing after the reconnect: $(u_screen)"
# the filesystem goes before the device is given back: no later test that
# gets this loop number may meet it (cached) as its own drive's data
wipefs -a -q "$LOOP" || fail "wipefs $LOOP"
blockdev --flushbufs "$LOOP"

u_keys E
u_wait 'h2: lost: no answer' 5
u_wait 'h2: back after [0-9]+ s \(reconnected\)' 5
u_keys E
ok "h2 reconnected on its own; the events say lost and back"

# o: each host one line (a rack on 80x24), o again: the drives back
u_keys o
u_wait 'hosts folded: one line each' 5
u_wait '^ +h3 +up, 1 drive' 5
u_screen | grep -A1 -E '^ +h1 +up' | tail -1 | grep -Eq '^ +h2 +up' ||
	fail "folded: h2's line is not right under h1's: $(u_screen)"
u_keys o
u_wait 'hosts unfolded' 5
u_screen | grep -A1 -E '^ +h1 +up' | tail -1 | grep -Eq "^ +$L " ||
	fail "unfolded: h1's drive is not back under its line: $(u_screen)"
ok "o folds the hosts to one line each and back"

u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
# no ssh of the console's left behind (each killed with its group at quit)
for _ in 1 2 3 4 5 6 7 8 9 10; do
	pgrep -f -- "-F $SSHD_CFG" >/dev/null || break
	t_nap 0.2
done
! pgrep -af -- "-F $SSHD_CFG" || fail "an ssh of the console outlived it"
ok "quit: exit 0, no ssh left"
