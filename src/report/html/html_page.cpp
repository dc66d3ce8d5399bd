#include "report/html/html_page.hpp"

#include "report/html/html_escape.hpp"

namespace gf::html {

namespace {

// Whatever the page shows needs no more than this: headings, tables, inline SVG.
const char* kStyle = R"CSS(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; max-width: 1100px; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 6px 0; }
td, th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts td:first-child { color: #666; white-space: nowrap; }
code, .cmd { font-family: ui-monospace, monospace; }
.cmd { background: #f5f5f5; padding: 6px 8px; display: block; white-space: pre-wrap; word-break: break-all; }
svg.chart { display: block; margin: 8px 0 16px; }
svg.chart .chart-title { font-size: 14px; font-weight: 600; }
svg.chart .tick, svg.chart .legend text { font-size: 11px; fill: #444; }
svg.chart .label { font-size: 12px; fill: #222; }
svg.heatmap { display: block; margin: 8px 0 14px; }
svg.bars { display: block; margin: 8px 0 16px; }
svg.bars .chart-title { font-size: 14px; font-weight: 600; }
svg.bars .label, svg.bars .legend text { font-size: 12px; fill: #222; }
svg.heatmap .chart-title { font-size: 13px; font-weight: 600; }
svg .tick { font-size: 11px; fill: #444; }
svg.chart .grid { stroke: #e6e6e6; }
svg.chart .frame { fill: none; stroke: #999; }
.note { color: #555; }
#selfcheck { color: #888; font-size: 12px; margin-top: 24px; }
)CSS";

}  // namespace

const std::string& selfcheck_script() {
  // Hashed into the Content-Security-Policy below: any change here changes the hash, which
  // tests/browser/html_report_test.sh recomputes and compares (and the browser enforces).
  static const std::string kScript = R"JS((function () {
  "use strict";
  var dialogs = 0;
  window.alert = window.confirm = window.prompt = function () { dialogs += 1; };
  document.addEventListener("DOMContentLoaded", function () {
    var problems = [];
    var scripts = document.getElementsByTagName("script").length;
    if (scripts !== 1) problems.push(scripts + " script elements");
    var all = document.getElementsByTagName("*");
    for (var i = 0; i < all.length; i++) {
      var attrs = all[i].attributes;
      for (var j = 0; j < attrs.length; j++)
        if (/^on/i.test(attrs[j].name)) problems.push(attrs[j].name + " on " + all[i].tagName);
    }
    if (dialogs) problems.push(dialogs + " dialogs opened");
    var series = document.querySelectorAll("svg.chart g.series");
    for (var k = 0; k < series.length; k++) {
      var want = Number(series[k].getAttribute("data-points"));
      var got = series[k].querySelectorAll("circle.mark").length;
      if (want !== got) problems.push(series[k].getAttribute("data-name") + ": " + got + " marks of " + want);
    }
    var maps = document.querySelectorAll("svg.heatmap");
    for (var m = 0; m < maps.length; m++) {
      var cells = Number(maps[m].getAttribute("data-cells"));
      var drawn = maps[m].querySelectorAll("rect.cell").length;
      if (cells !== drawn) problems.push(maps[m].getAttribute("data-name") + ": " + drawn + " cells of " + cells);
    }
    var bars = document.querySelectorAll("svg.bars");
    for (var b = 0; b < bars.length; b++) {
      var rows = bars[b].querySelectorAll("g.bar");
      if (rows.length !== Number(bars[b].getAttribute("data-bars")))
        problems.push(bars[b].getAttribute("data-name") + ": " + rows.length + " bars");
      for (var r = 0; r < rows.length; r++) {
        var segs = rows[r].querySelectorAll("rect.seg").length;
        if (segs !== Number(rows[r].getAttribute("data-segments")))
          problems.push(rows[r].getAttribute("data-label") + ": " + segs + " segments");
      }
    }
    var charts = document.querySelectorAll("svg.chart").length;
    var marks = document.querySelectorAll("svg.chart circle.mark").length;
    var out = document.getElementById("selfcheck");
    out.setAttribute("data-charts", String(charts));
    out.setAttribute("data-marks", String(marks));
    out.setAttribute("data-heatmaps", String(maps.length));
    out.setAttribute("data-bar-charts", String(bars.length));
    out.setAttribute("data-ok", problems.length ? "0" : "1");
    out.textContent = problems.length ? "self-check failed: " + problems.join("; ")
                                      : "self-check: " + charts + " charts, " + marks + " marks, " +
                                        maps.length + " heatmaps, " + bars.length + " bar charts, no injected markup";
  });
})();
)JS";
  return kScript;
}

const std::string& selfcheck_script_hash() {
  static const std::string kHash = "40VOGYKpLxf6hMYwhG1wIfBxomtbKH9K5PoLu/pKs5c=";
  return kHash;
}

std::string facts_table(const std::vector<std::pair<std::string, std::string>>& facts) {
  std::string out = "<table class=\"facts\">\n";
  for (const auto& [k, v] : facts) out += "<tr><td>" + escape(k) + "</td><td>" + escape(v) + "</td></tr>\n";
  return out + "</table>\n";
}

std::string page(const std::string& title, const ReportMeta& meta, const std::vector<Section>& sections) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:; script-src 'sha256-" +
      selfcheck_script_hash() + "'\">\n";
  out += "<title>" + escape(title) + "</title>\n<style>" + kStyle + "</style>\n";
  out += "<script>" + selfcheck_script() + "</script>\n</head>\n<body>\n";
  out += "<h1>" + escape(title) + "</h1>\n";
  out += "<code class=\"cmd\" id=\"command\">" + escape(meta.command_line) + "</code>\n";
  out += "<p class=\"note\">" + escape(meta.version) +
         ". Predicted figures are simulated: no hardware was run to make this page.</p>\n";
  for (const Section& s : sections)
    out += "<section id=\"" + s.id + "\">\n<h2>" + escape(s.title) + "</h2>\n" + s.body + "</section>\n";
  out += "<p id=\"selfcheck\" data-ok=\"0\">self-check did not run (scripts disabled?)</p>\n</body>\n</html>\n";
  return out;
}

}  // namespace gf::html
