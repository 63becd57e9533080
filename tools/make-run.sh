#!/bin/sh
# make-run.sh - what `make run` starts: the console on a sensible default
# target.  NVSCOPE_TARGET picks one; otherwise a scratch file (never a disk
# that may hold data) with the read-only 4k-randread preset.  Without a
# terminal (CI, a pipe) it runs the same workload headless for a few seconds.
set -e
cd "$(dirname "$0")/.."
target=${NVSCOPE_TARGET:-${TMPDIR:-/var/tmp}/nvscope-scratch.dat}
if [ -t 0 ] && [ -t 1 ]; then
	exec ./nvscope --target "$target" --size=256m --preset 4k-randread "$@"
fi
echo "make run: no terminal; running the preset headless for 3 s on $target"
exec ./nvscope run --target "$target" --size=256m --preset 4k-randread --runtime=3 "$@"
