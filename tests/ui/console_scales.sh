#!/bin/bash
# console_scales.sh - per-target strips on loop devices: two targets get two
# strips with a scale each (value labels and their max), at 120x40 and
# 80x24; a trace storm gets a strip per copy ("copy i").
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
A=$LOOP
t_loop 64M
B=$LOOP

# two targets, two scales: each strip has its value labels and its max
scales_ok() {
	u_screen | python3 -c '
import re, sys
s = sys.stdin.read()
pane = s[s.index("Per target IOPS"):]
heads = re.findall(r"(loop\d+) ([0-9.]+[kM]?)-* *max ([0-9.]+[kM]?)-", pane)
assert len(heads) == 2, "want two strip titles with their max: %r" % heads
assert len(re.findall(r" 0\|", pane)) >= 2, "want a value axis per strip"
'
}
check_scales() { # a frame may be caught half drawn: a few tries
	local n
	for n in 1 2 3 4 5; do scales_ok 2>/dev/null && return 0; sleep 0.5; done
	scales_ok || { u_screen >&2; fail "$1: two targets, two scales"; }
}
u_start 120 40 "$NVS_BIN" --target "$A" --target "$B" --rw=randread --iodepth=4 \
	--runtime=4 --time_based --ramp_time=0 --ascii --results "$T_TMP/two"
u_wait 'RUNNING custom' 10
u_wait "$(basename "$B") [1-9]" 10
u_wait 'max [1-9]' 5
check_scales "120x40"
ok "two targets: a scale each"
u_resize 80 24
sleep 1
u_wait 'Per target IOPS' 5
check_scales "80x24"
ok "two targets at 80x24"
u_wait 'DONE custom' 15
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"

# a trace storm: a strip per copy
TR=$T_TMP/t.log
{
	echo "fio version 3 iolog"
	echo "0 /dev/sdz add"
	for i in $(seq 0 99); do echo "$((i * 20)) /dev/sdz read $(((i % 40) * 65536)) 4096"; done
	echo "2100 /dev/sdz close"
} >"$TR"
u_start 120 40 "$NVS_BIN" --target "$A" --read_iolog="$TR" --trace_copies=3 --ascii \
	--results "$T_TMP/storm"
# the console asks for the typed path before a trace on a device
u_wait "Type $A to DESTROY|Per copy IOPS" 20
if u_screen | grep -q "Type $A to DESTROY"; then
	u_text "$A"
	u_keys Enter
fi
u_wait 'Per copy IOPS' 20
u_wait 'x3 copies' 5
for c in 0 1 2; do u_wait "copy $c [0-9]" 10; done
ok "trace storm: a strip per copy"
u_wait 'DONE custom' 15
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
grep -q '^2 copy 2$' "$T_TMP/storm/targets.txt" || fail "targets.txt does not name the copies"
u_start 120 40 "$NVS_BIN" replay "$T_TMP/storm" --ascii
u_wait '(REPLAY|PAUSED) storm' 10
u_keys G
u_wait 'PAUSED' 5
u_wait 'Per copy IOPS' 5
for c in 0 1 2; do u_wait "copy $c [0-9]" 5; done
u_keys q
u_restored
ok "replayed storm: a strip per copy"


# more targets than room at 80x24: pages, and the title says k/n
args=()
for n in 1 2 3 4 5 6; do args+=(--target "$T_TMP/f$n.img"); done
u_start 80 24 "$NVS_BIN" "${args[@]}" --size=8m --direct=0 --rw=randread --iodepth=1 \
	--runtime=3 --time_based --ramp_time=0 --ascii --results "$T_TMP/six"
u_wait 'RUNNING custom' 10
u_wait 'Per target IOPS -+ 1/[2-6] \(n p\)' 10
P=$(u_screen | sed -n 's/.*Per target IOPS -* 1\/\([0-9]\) (n p).*/\1/p')
u_keys n
u_wait "Per target IOPS -+ 2/$P \\(n p\\)" 5
ok "six targets at 80x24: page 1/$P, n shows 2/$P"
u_wait 'DONE custom' 15
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
