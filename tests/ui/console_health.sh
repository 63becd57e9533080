#!/bin/bash
# console_health.sh - the per-drive health view (issue 22): `H` on a
# Devices row opens it, and on a loop device it says plainly that there is
# no NVMe health (not a blank screen); Esc gives the Devices pane back.  At
# 80x24 on a vt100 (no colour, no UTF-8), with the key in the key bar and
# in the generated help.  The NVMe side (every field, scrolling) is the
# QEMU rig's console boot (tests/vm/run.sh).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 16M
u_start 80 24 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --no-settings --target "$LOOP" \
	--results "$T_TMP/res"
u_wait 'Devices' 10
u_screen | tail -n 1 | grep -q 'HHealth' || { u_screen >&2; fail "H not in the key bar"; }
u_keys H
u_wait "No NVMe health for $LOOP: it is not an NVMe device" 5
u_screen | grep -q 'has no SMART / health log' || { u_screen >&2; fail "no reason given"; }
u_screen | grep -q 'Esc q close' || { u_screen >&2; fail "no key line in the view"; }
u_keys Escape
u_gone 'No NVMe health' 5
u_wait 'HHealth' 5
ok "H on a loop device: no NVMe health, said; Esc returns"
u_keys '?'
u_wait 'keys of the setup screen' 5
H=$(u_screen)
echo "$H" | grep -q 'H  *Devices: SMART health view' || { echo "$H" >&2; fail "H not in the help"; }
echo "$H" | grep -q 'more keys' && { echo "$H" >&2; fail "the setup help does not fit 80x24"; }
u_keys x
u_gone 'keys of the setup screen' 5
u_keys q
u_restored
ok "H in the generated help, whole at 80x24"
