#!/usr/bin/env python3
"""Checks one HTML report as Chromium left it (--dump-dom output) against the page the writer
made: the self-check ran and passed, each chart's NCCL-choice series has one mark per size, no
series has more, only the page's own script exists, the hostile name is shown as text, and the
Content-Security-Policy hash is the SHA-256 of that script.

usage: check_page.py WRITTEN.html DUMPED_DOM.html SIZES HOSTILE_TEXT
SIZES 0: each chart's emphasised series (the prediction) has as many marks as the chart's other
series (the measured rows), as on the validate page. HOSTILE_TEXT "" skips that check.
"""
import base64
import hashlib
import re
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []          # (tag, attrs dict)
        self.text = []
        self.series = []        # [attrs, marks]
        self.charts = 0
        self.heatmaps = []      # [attrs, cells]
        self.bar_charts = []    # [attrs, [[bar attrs, [segment attrs]]]]
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "svg" and "chart" in a.get("class", "").split():
            self.charts += 1
        if tag == "g" and "series" in a.get("class", "").split():
            self.series.append([a, 0, self.charts])
        if tag == "circle" and a.get("class") == "mark" and self.series:
            self.series[-1][1] += 1
        if tag == "svg" and "heatmap" in a.get("class", "").split():
            self.heatmaps.append([a, 0])
        if tag == "rect" and a.get("class") == "cell" and self.heatmaps:
            self.heatmaps[-1][1] += 1
        if tag == "svg" and "bars" in a.get("class", "").split() and "data-plot-left" in a:
            self.bar_charts.append([a, []])
        if tag == "g" and a.get("class") == "bar" and self.bar_charts:
            self.bar_charts[-1][1].append([a, []])
        if tag == "rect" and a.get("class") == "seg" and self.bar_charts and self.bar_charts[-1][1]:
            self.bar_charts[-1][1][-1][1].append(a)

    def handle_data(self, data):
        self.text.append(data)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    written, dumped, sizes, hostile = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    src = open(written, encoding="utf-8").read()
    dom = Dom()
    dom.feed(open(dumped, encoding="utf-8").read())

    checks = [t for t in dom.tags if t[1].get("id") == "selfcheck"]
    if not checks:
        fail("no #selfcheck element in the DOM")
    verdict = checks[0][1]
    if verdict.get("data-ok") != "1":
        fail("the page's self-check did not pass: " + "".join(dom.text).split("self-check")[-1][:300])
    scripts = [t for t in dom.tags if t[0] == "script"]
    if len(scripts) != 1:
        fail("%d script elements (the page has one)" % len(scripts))
    handlers = [(t, k) for t, a in dom.tags for k in a if k.lower().startswith("on")]
    if handlers:
        fail("event-handler attributes in the DOM: %r" % handlers[:5])
    if dom.charts == 0:
        fail("no chart")
    chosen = [s for s in dom.series if "emphasis" in s[0].get("class", "").split()]
    if len(chosen) != dom.charts:
        fail("%d charts but %d NCCL-choice series" % (dom.charts, len(chosen)))
    for attrs, marks, chart in chosen:
        want = sizes
        if sizes == 0:
            others = [m for a, m, c in dom.series if c == chart and a is not attrs]
            want = others[0] if others else -1
        if marks != want or marks < 1:
            fail("series %r has %d marks, expected one per size (%d)" % (attrs.get("data-name"), marks, want))
    for attrs, marks, chart in dom.series:
        if marks < 1 or (sizes and marks > sizes):
            fail("series %r has %d marks (1..%d expected)" % (attrs.get("data-name"), marks, sizes))
    if hostile and hostile not in "".join(dom.text):
        fail("the hostile name does not appear as text")
    m = re.search(r"script-src 'sha256-([A-Za-z0-9+/=]+)'", src)
    body = re.search(r"<script>(.*?)</script>", src, re.S)
    if not m or not body:
        fail("no script-src hash or no script in the written page")
    digest = base64.b64encode(hashlib.sha256(body.group(1).encode("utf-8")).digest()).decode()
    if digest != m.group(1):
        fail("CSP hash %s is not the script's SHA-256 %s" % (m.group(1), digest))
    print("ok: %d charts, %d series, choice has %s marks each, %s" %
          (dom.charts, len(dom.series), sizes or "as many as measured", verdict.get("data-marks") + " marks counted by the page"))


if __name__ == "__main__":
    main()
