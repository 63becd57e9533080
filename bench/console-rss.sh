#!/bin/sh
# console-rss.sh - memory of the console's history for a long many-target run:
# builds bench/console-rss.c against nvscope's stats objects and runs it
# (default 24 targets x 16,000 simulated seconds; goal <= 64 MiB, issue 11).
#   bench/console-rss.sh [--copy] [TARGETS] [SECONDS]
# (--copy: the path before issue 11, the collector's series copied by the
# session every frame)
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${NVS_BUILD:-$TOP/build}
cd "$TOP"
make --no-print-directory -s BUILD="$B" all >/dev/null
OBJS=$(ls "$B"/src/stats/*.o "$B"/src/base/*.o)
cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -Isrc \
	-o "$B/console-rss" bench/console-rss.c $OBJS -lm -pthread
exec "$B/console-rss" "$@"
