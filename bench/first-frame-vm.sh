#!/bin/bash
# first-frame-vm.sh - the console's first frame in the TCG guest with 24
# emulated NVMe namespaces (issue 25: <= 0.5 s), on the guest's serial line
# at 80x24 driven from tmux as a rack console is: a trivial command (echo)
# and the console typed in turn at the guest's shell, each timed from its
# Enter to its output on the screen (the console: its Presets pane; filled:
# its scan of the 24 namespaces done).  Medians of N rounds.
#   bench/first-frame-vm.sh [-n ROUNDS]
# Not a test: QEMU (TCG, one host CPU) shares the machine; read medians.
set -u
cd "$(dirname "$0")/.." || exit 1
N=5
while getopts "n:h" o; do
	case $o in
	n) N=$OPTARG ;; *) sed -n '2,10p' "$0"; exit 0 ;;
	esac
done
make -s all || exit 1
NVS_VM_ONLY=firstframe NVS_VM_FF_ROUNDS=$N exec tests/vm/run.sh
