#!/usr/bin/env python3
"""Checks a run or doctor page as Chromium left it (--dump-dom), as check_page.py checks the
perf page: the self-check passed, only the page's own script and no event-handler attribute,
the hostile text shown as text, the CSP hash equal to the script's SHA-256; then what the page
must draw, given as ID=N arguments counted here from the DOM (not from the page's own counts):

  heatmap:ID=N    the heatmap with element id ID has N cells (and its data-cells says N)
  findings=N      N findings (div.finding)
  shared:J<=N     job J's shared-link count (p.shared[data-job=J]) is at most N
  bars:ID=N       the stacked-bar chart with element id ID has N bars, each with at least one segment
  total:ID=V      its first bar's segments add up to V (relative 1e-6)

Every stacked-bar chart on the page is also measured: its segments follow each other from the
plot's left edge, each as wide as its value's share of the scale (the longest bar's total, or its
own bar's total on a chart of shares) of the plot's width, within 0.02 px.

usage: check_other_page.py WRITTEN.html DUMPED_DOM.html HOSTILE_TEXT [EXPECT ...]
"""
import base64
import hashlib
import re
import sys

from check_page import Dom, fail


class Page(Dom):
    def __init__(self):
        super().__init__()
        self.findings = 0
        self.shared = {}

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        a = dict(attrs)
        if tag == "div" and "finding" in a.get("class", "").split():
            self.findings += 1
        if tag == "p" and "shared" in a.get("class", "").split():
            self.shared[a.get("data-job")] = int(a.get("data-shared"))


def check_bar_geometry(chart, bars):
    left, plot = float(chart["data-plot-left"]), float(chart["data-plot-width"])
    totals = [sum(float(g["data-value"]) for g in segs) for _, segs in bars]
    for (bar, segs), total in zip(bars, totals):
        if abs(total - float(bar["data-total"])) > 1e-9 * max(1.0, total):
            fail("bar %r: segments add to %g, its total says %s" % (bar.get("data-label"), total, bar["data-total"]))
        scale = total if chart.get("data-shares") == "1" else max(totals)
        x = left
        for g in segs:
            want = float(g["data-value"]) / scale * plot
            if abs(float(g["x"]) - x) > 0.02 or abs(float(g["width"]) - want) > 0.02:
                fail("bar %r, %r: x %s width %s, expected x %.2f width %.2f" %
                     (bar.get("data-label"), g.get("data-name"), g["x"], g["width"], x, want))
            x += want


def main():
    written, dumped, hostile = sys.argv[1], sys.argv[2], sys.argv[3]
    src = open(written, encoding="utf-8").read()
    dom = Page()
    dom.feed(open(dumped, encoding="utf-8").read())
    checks = [t for t in dom.tags if t[1].get("id") == "selfcheck"]
    if not checks or checks[0][1].get("data-ok") != "1":
        fail("the page's self-check did not pass: " + "".join(dom.text).split("self-check")[-1][:300])
    if len([t for t in dom.tags if t[0] == "script"]) != 1:
        fail("more than the page's one script element")
    handlers = [(t, k) for t, a in dom.tags for k in a if k.lower().startswith("on")]
    if handlers:
        fail("event-handler attributes in the DOM: %r" % handlers[:5])
    if hostile and hostile not in "".join(dom.text):
        fail("the hostile name does not appear as text")
    m = re.search(r"script-src 'sha256-([A-Za-z0-9+/=]+)'", src)
    body = re.search(r"<script>(.*?)</script>", src, re.S)
    if not m or not body:
        fail("no script-src hash or no script in the written page")
    if base64.b64encode(hashlib.sha256(body.group(1).encode("utf-8")).digest()).decode() != m.group(1):
        fail("CSP hash is not the script's SHA-256")
    maps = {a.get("id"): (a, cells) for a, cells in dom.heatmaps}
    for a, cells in dom.heatmaps:
        if int(a.get("data-cells", -1)) != cells:
            fail("heatmap %s: %d cells drawn, %s declared" % (a.get("id"), cells, a.get("data-cells")))
    bar_charts = {a.get("id"): bars for a, bars in dom.bar_charts}
    for a, bars in dom.bar_charts:
        check_bar_geometry(a, bars)
    said = []
    for e in sys.argv[4:]:
        if e.startswith("heatmap:"):
            hid, n = e[len("heatmap:"):].split("=")
            if hid not in maps:
                fail("no heatmap %s (have %s)" % (hid, sorted(maps)))
            if maps[hid][1] != int(n):
                fail("heatmap %s has %d cells, expected %s" % (hid, maps[hid][1], n))
        elif e.startswith("findings="):
            if dom.findings != int(e.split("=")[1]):
                fail("%d findings drawn, expected %s" % (dom.findings, e.split("=")[1]))
        elif e.startswith("shared:"):
            job, n = e[len("shared:"):].split("<=")
            if job not in dom.shared or not 0 <= dom.shared[job] <= int(n):
                fail("job %s shares %r links, expected 0..%s" % (job, dom.shared.get(job), n))
        elif e.startswith("bars:"):
            bid, n = e[len("bars:"):].split("=")
            if bid not in bar_charts:
                fail("no bar chart %s (have %s)" % (bid, sorted(bar_charts)))
            bars = bar_charts[bid]
            if len(bars) != int(n) or any(not segs for _, segs in bars):
                fail("bar chart %s has %d bars (%d empty), expected %s" %
                     (bid, len(bars), sum(1 for _, s in bars if not s), n))
        elif e.startswith("total:"):
            bid, v = e[len("total:"):].split("=")
            bars = bar_charts.get(bid) or fail("no bar chart " + bid)
            got = float(bars[0][0]["data-total"])
            if abs(got - float(v)) > 1e-6 * float(v):
                fail("bar chart %s: first bar totals %g, expected %s" % (bid, got, v))
        else:
            fail("unknown expectation " + e)
        said.append(e)
    print("ok: %d heatmaps, %d findings, %d bar charts; %s" % (len(dom.heatmaps), dom.findings, len(dom.bar_charts),
                                                             ", ".join(said)))


if __name__ == "__main__":
    main()
