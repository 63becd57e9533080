#!/usr/bin/env python3
"""zbd_check.py LOG ZONESIZE [options] - replays a fio version 3 iolog (fio's
or nvscope's write_iolog) against fio's zonemode=zbd rules for emulated zones
and prints the figures as key=value.  Exit 1 on a broken rule:

- a write lands at its zone's write pointer, or at the zone's start when the
  zone had no room for one more smallest write (a reset; with --freq any
  write may reset its zone), and never past the zone's capacity;
- with --rbwp0, a read lies below its zone's write pointer;
- a trim is a whole zone at its start, of a zone holding data (a reset);
- with --max-open N, at most N zones are partly written at any time.

--unordered (several workers: their records merge by issue time, not by
the order of their claims on a zone; for runs without resets): the writes
of each zone, sorted, tile it from its start with no gap and no overlap.
"""
import argparse
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("log")
ap.add_argument("zonesize", type=int)
ap.add_argument("--cap", type=int, default=0)
ap.add_argument("--minbs", type=int, default=4096)
ap.add_argument("--freq", action="store_true")
ap.add_argument("--rbwp0", action="store_true")
ap.add_argument("--max-open", type=int, default=0)
ap.add_argument("--unordered", action="store_true")
a = ap.parse_args()
zs, cap = a.zonesize, a.cap or a.zonesize
wp = {}
st = dict(writes=0, reads=0, trims=0, resets=0, zones=0, maxopen=0, bad=0)
written = set()
why = []


def bad(msg):
    st["bad"] += 1
    if len(why) < 5:
        why.append(msg)


pieces = {}
for line in open(a.log):
    m = re.fullmatch(r"(?:\d+ )?\S+ (read|write|trim) (\d+) (\d+)", line.strip())
    if not m:
        continue
    op, off, ln = m.group(1), int(m.group(2)), int(m.group(3))
    z = off // zs
    start = z * zs
    w = wp.get(z, start)
    if op == "write" and a.unordered:
        st["writes"] += 1
        pieces.setdefault(z, []).append((off, ln))
        written.add(z)
        continue
    if op == "write":
        st["writes"] += 1
        if off == w:
            pass
        elif off == start and (w + a.minbs > start + cap or a.freq):
            st["resets"] += 1
        else:
            bad(f"write {off}+{ln}: zone {z} wp {w}")
        if off + ln > start + cap:
            bad(f"write {off}+{ln} past zone {z}'s capacity")
        wp[z] = off + ln
        written.add(z)
    elif op == "read":
        st["reads"] += 1
        if a.rbwp0 and off + ln > w:
            bad(f"read {off}+{ln}: zone {z} wp {w}")
    else:
        st["trims"] += 1
        if off != start or ln != zs or w == start:
            bad(f"trim {off}+{ln}: zone {z} wp {w}")
        st["resets"] += 1
        wp[z] = start
    nopen = sum(1 for k, v in wp.items() if k * zs < v < k * zs + cap)
    st["maxopen"] = max(st["maxopen"], nopen)
    if a.max_open and nopen > a.max_open:
        bad(f"{nopen} zones open (max {a.max_open})")
for z, ps in pieces.items():
    at = z * zs
    for off, ln in sorted(ps):
        if off != at:
            bad(f"zone {z}: a write at {off}, expected {at} (gap or overlap)")
            break
        at += ln
    if at > z * zs + cap:
        bad(f"zone {z}: written past its capacity")
    if a.max_open and at < z * zs + cap:
        st["maxopen"] += 1
if a.unordered and a.max_open and st["maxopen"] > a.max_open:
    bad(f"{st['maxopen']} zones partly written (max {a.max_open})")
st["zones"] = len(written)
print(" ".join(f"{k}={v}" for k, v in st.items()))
for w in why:
    print("  " + w, file=sys.stderr)
sys.exit(1 if st["bad"] else 0)
