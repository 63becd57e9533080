#!/usr/bin/env python3
"""pagecheck.py PAGE.html [WIDTH] - a report page as a reader's browser lays
it out: Debian's Chromium (headless) loads a copy of the page with a script
appended that measures it, and prints one JSON object:
  charts: [{cls, title, labels: [axis label texts], w, h, nodata}] for each
          <svg class="chart ..."> and heat map <svg class="heat ..."> (its
          drawn size on the page),
  overflow: [what] for each table wider than its column (its right edge past
          its parent's, or a cell whose content is wider than the cell),
  width: the page's scroll width (a page wider than the window scrolls).
The page itself has no script; the copy's lives in the checker only."""
import html as htmlmod
import json
import os
import re
import subprocess
import sys
import tempfile

SCRIPT = r"""
<script>
(function () {
  var out = {charts: [], overflow: [], width: document.documentElement.scrollWidth};
  document.querySelectorAll("svg.chart, svg.heat").forEach(function (s) {
    var r = s.getBoundingClientRect();
    var t = s.querySelector("text.title");
    out.charts.push({cls: s.getAttribute("class"), title: t ? t.textContent : "",
      labels: Array.prototype.map.call(s.querySelectorAll("text.label"),
                                       function (x) { return x.textContent; }),
      w: r.width, h: r.height, nodata: !!s.querySelector(".nodata")});
  });
  document.querySelectorAll("table").forEach(function (t, i) {
    var r = t.getBoundingClientRect(), p = t.parentElement.getBoundingClientRect();
    var name = (t.getAttribute("class") || "table") + "#" + i;
    if (r.width > 0 && r.right > p.right + 1)
      out.overflow.push(name + " " + Math.round(r.right - p.right) + "px past its column");
    t.querySelectorAll("td, th").forEach(function (c) {
      if (c.scrollWidth > c.clientWidth + 1)
        out.overflow.push(name + " cell '" + c.textContent.slice(0, 40) + "' cut");
    });
  });
  var pre = document.createElement("pre");
  pre.id = "nvs-pagecheck";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def measure(page, width=1280):
    """The page laid out by Chromium: the JSON object above, as a dict."""
    html = open(page, encoding="utf-8").read()
    html = html.replace("</body>", SCRIPT + "</body>") if "</body>" in html else html + SCRIPT
    d = os.path.dirname(os.path.abspath(page))
    with tempfile.NamedTemporaryFile("w", suffix=".html", dir=d, delete=False) as f:
        f.write(html)
        copy = f.name
    prof = tempfile.mkdtemp(prefix="nvs-chromium-")
    try:
        r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + prof, "--window-size=%d,1000" % width,
                            "--virtual-time-budget=5000", "--dump-dom", "file://" + copy],
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(copy)
        subprocess.run(["rm", "-rf", prof])
    m = re.search(r'<pre id="nvs-pagecheck">(.*?)</pre>', r.stdout, re.S)
    if not m:
        raise RuntimeError("no measurement from chromium (rc %d): %s" % (r.returncode, r.stderr[-400:]))
    return json.loads(htmlmod.unescape(m.group(1)))


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1280)))
