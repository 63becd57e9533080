#!/bin/bash
# console_mbps.sh - the IOPS strip in MB/s (`m`): its scale is the run's
# bandwidth (the Numbers pane's MB/s), not garbage (the strip read a 64-bit
# bandwidth field as a 32-bit float).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
F=$T_TMP/bw.img
truncate -s 64M "$F"
u_start 120 40 "$NVS_BIN" --no-settings --target "$F" --rw=read --bs=128k --direct=0 \
	--size=64m --runtime=3s --time_based --results "$T_TMP/res"
u_wait 'DONE' 20
u_keys m
# the strip redrawn in MB/s (its title) before the screen is read
u_wait 'MB/s \((linear|log)\) +now' 10
S=$(u_screen)
# the Numbers pane: "MB/s   now   avg"
avg=$(echo "$S" | grep -Eo 'MB/s +[0-9]+ +[0-9]+' | head -1 | awk '{print $3}')
[ -n "$avg" ] && [ "$avg" -gt 0 ] || { echo "$S" >&2; fail "no MB/s average in Numbers"; }
# the strip's value axis: the labels left of its rule, from the strip's
# title row to the Latency strip's (bytes/s units: 5GB/s, 800MB/s, 0B/s)
labels=$(echo "$S" | sed -n '/MB\/s (/,/Latency/p' | grep -Eo '^ *-?[0-9.]+ ?[kMGT]?B/s[┤+|]' |
	grep -Eo -- '-?[0-9.]+ ?[kMGT]?B/s')
[ -n "$labels" ] || { echo "$S" >&2; fail "no bandwidth axis labels"; }
python3 - "$avg" $labels <<'PY' || { echo "$S" >&2; fail "strip scale ($(echo $labels)) vs average $avg MB/s"; }
import re, sys
avg = float(sys.argv[1]) * 1e6
vals = []
for lab in sys.argv[2:]:
    m = re.match(r"(-?[0-9.]+) ?([kMGT]?)B/s", lab)
    vals.append(float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)])
assert min(vals) >= 0, vals
assert 0.5 * avg <= max(vals) <= 10 * avg, (vals, avg)
PY
top=$(echo "$labels" | head -1)
u_keys q
u_restored
ok "MB/s strip: its scale is the run's bandwidth ($top vs $avg MB/s)"
