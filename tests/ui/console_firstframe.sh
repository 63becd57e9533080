#!/bin/bash
# console_firstframe.sh - draw first, scan after (issue 25 item 2): with a
# device whose probe cannot answer (tests/stall.inc: a loop device over a
# FUSE file that stalls), the console's first frame - title, panes, the
# Devices pane "scanning" - is on the screen while discovery is held up:
# the stalled device is listed but its probe has not answered, so its row
# reads "probing... [in use]" (unknown, so in use), and a purge of it is
# refused meanwhile.  Then it reads "not responding" (the probe's
# deadline), and once the device answers again it is filled in (free).
# Before issue 25 the first frame came only after the scan and its probes'
# deadline: no "probing" row, no "scanning" title was ever drawn.
. "$(dirname "$0")/../lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
. "$NVS_TOP/tests/stall.inc"

st_setup $((16 << 20))
sname=$(basename "$SDEV")
st_stall

# --target: the stalled device is marked and under the cursor (purge: P)
u_start 160 40 "$NVS_BIN" --no-settings --target "$SDEV" --results "$T_TMP/res"
# listed, not probed yet: the frame came first
u_wait "$sname .*probing\.\.\. \[in use\]" 10
S=$(u_screen)
echo "$S" | grep -E " $sname "
echo "$S" | grep -q 'Devices: scanning' || fail "no 'scanning' state in the Devices pane: $S"
echo "$S" | grep -q 'Presets' || fail "the first frame lacks the Presets pane"
# a purge of a device whose use is not known yet: refused (the probe's
# deadline may have passed under load: then the purge box says in use)
u_keys P
u_wait "purge: $SDEV is still being probed|in use \(unknown: not responding" 5
u_screen | grep -q 'still being probed' && ok "P while $sname is probed: waits for the scan"
u_keys Escape
ok "first frame while discovery is held up: $sname probing, in use"

# the probe's deadline: not responding (in use); answered again: filled in
u_wait "$sname .*unknown: not respond" 10
u_gone 'Devices: scanning' 5
# its probe helper, still stuck on the device (dev/probe.h): a fork of the
# helpers' parent, which is nvscope started afresh (posix_spawn, not a fork
# of the threaded console); a process group of its own (the parent's, not
# the console's), the terminating signals ignored, holding no descriptor
# of the console's (its answer pipe, and what it opened itself)
cons=$(pgrep -P "$(u_tmux display -p -t ui '#{pane_pid}')" | head -1)
sp=$(pgrep -P "$cons" -f -- "--nvscope-probe-helper .*$SDEV( |\$)" | head -1)
[ -n "$sp" ] || { ps -o pid,ppid,pgid,stat,args --ppid "$cons" >&2; fail "no probe of $SDEV started afresh"; }
hp="" # the one that has the device open (another stalled one may have one too)
for c in $(pgrep -P "$sp"); do
	for f in /proc/"$c"/fd/*; do [ "$(readlink "$f")" = "$SDEV" ] && hp=$c; done
done
[ -n "$hp" ] || { ps -o pid,ppid,pgid,stat,args --ppid "$sp" >&2; fail "no helper of $SDEV under $sp"; }
[ "$(ps -o pgid= -p "$hp" | tr -d ' ')" = "$sp" ] || fail "helper $hp: not in its parent's own group"
[ "$(ps -o pgid= -p "$cons" | tr -d ' ')" != "$sp" ] || fail "helper $hp: in the console's group"
ign=$(awk '/^SigIgn:/ {print $2}' "/proc/$hp/status")
for sig in INT QUIT HUP TERM PIPE; do
	(( 0x$ign & (1 << ($(kill -l $sig) - 1)) )) || fail "helper $hp does not ignore SIG$sig"
done
fds="" np=0
for f in /proc/"$hp"/fd/*; do
	l=$(readlink "$f")
	fds+="${f##*/}:$l "
	[[ $l == pipe:* ]] && np=$((np + 1)) && continue
	[ "$l" = "$SDEV" ] || fail "helper $hp holds ${f##*/} -> $l (all: $fds)"
done
[ "$np" = 1 ] || fail "helper $hp: $np pipes, not its answer's alone: $fds"
ok "the stuck helper: its parent started afresh, own group, signals ignored, descriptors $fds"
st_release
u_wait " $sname .* - *\$" 10
u_screen | grep -E " $sname " | grep -q 'not respond' && fail "$sname still not responding"
ok "$sname filled in once it answers"
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
ok "quits on q"
