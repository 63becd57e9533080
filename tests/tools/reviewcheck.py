#!/usr/bin/env python3
"""reviewcheck.py SEED PAGE DOC - a review's report as its reader sees it:
the row of SEED in DOC's table "The five reviews, scaled down" lists the
charts (in backticks, last column) the report must hold; PAGE is laid out
by Chromium (pagecheck.py) at 1280 px and each listed chart must be there,
drawn (not "no data"), with its axis labels (a heat map: its size only);
no table may run past its column or cut a cell, and the page may not be
wider than the window.  Prints one line per chart kind; exits 1 on the
first failure."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pagecheck  # noqa: E402


def charts_of(doc, seed):
    text = open(doc, encoding="utf-8").read()
    sec = text[text.index("## The five reviews, scaled down"):]
    sec = sec[:sec.index("\n## ", 1)]
    row = next(l for l in sec.splitlines() if l.startswith("| %s |" % seed))
    return re.findall(r"`([a-z0-9-]+)`", row.rstrip(" |").rsplit("|", 1)[1])


def main():
    seed, page, doc = sys.argv[1:4]
    want = charts_of(doc, seed)
    assert want, "no charts listed for seed %s" % seed
    m = pagecheck.measure(page, 1280)
    bad = []
    if m["width"] > 1280:
        bad.append("the page is %d px wide in a 1280 px window" % m["width"])
    bad += ["table overflow: " + o for o in m["overflow"]]
    for name in want:
        got = [c for c in m["charts"] if name in c["cls"].split()]
        if not got:
            bad.append("no %s" % name)
            continue
        for c in got:
            if c["nodata"] or c["w"] < 100 or c["h"] < 80:
                bad.append("%s '%s' not drawn (%dx%d px)" % (name, c["title"], c["w"], c["h"]))
            if name.startswith("chart-") and (len(c["labels"]) < 2 or not all(c["labels"])):
                bad.append("%s '%s' without its axis labels: %s" % (name, c["title"], c["labels"]))
        print("ok: %d %s, drawn, labelled" % (len(got), name))
    if bad:
        sys.exit("review %s: %s" % (seed, "; ".join(bad[:8])))


main()
