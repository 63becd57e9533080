#!/bin/bash
# console_engine.sh - the custom form's engine field: Enter toggles
# io_uring / passthrough; passthrough runs on each marked namespace's
# generic node (/dev/ngXnY, found from its row), and a target without one
# is refused in words (which target, what to do), not with command-line
# advice and a placeholder.  (Passthrough itself on emulated NVMe: make
# check-vm.)
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
u_start 120 40 "$NVS_BIN" --no-settings --target "$LOOP" --results "$T_TMP/res"
u_wait 'engine +io_uring' 10
u_keys Tab Tab
u_wait '\[Custom workload\]' 5
u_keys End Enter
u_wait 'engine +passthrough' 5
u_keys r
u_wait "engine passthrough: $LOOP is not an NVMe namespace" 5
S=$(u_screen)
echo "$S" | grep -Eq 'XnY|--ioengine' && fail "placeholder or command-line advice in the message"
echo "$S" | grep -q 'RUNNING' && fail "a run started"
[ -e "$T_TMP/res" ] && fail "a refused run made its results directory"
u_keys Enter
u_wait 'engine +io_uring' 5
u_keys q
u_restored
ok "engine field: toggles, passthrough refused in words on a non-NVMe target"
