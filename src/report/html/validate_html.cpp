#include "report/html/validate_html.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "report/html/html_escape.hpp"
#include "report/html/svg_chart.hpp"
#include "report/number_text.hpp"

namespace gf::html {

namespace {

std::string signed_pct(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%+.1f%%", v);
  return buf;
}

std::string abs_pct(const std::optional<double>& v) { return v ? fixed_text(*v, 1) + "%" : "n/a"; }

std::string verdict(const std::optional<bool>& ok) { return !ok ? "n/a" : *ok ? "met" : "missed"; }

// An element id from a data-set name: [a-z0-9-] only (the name itself is shown escaped).
std::string slug(const std::string& name, size_t index) {
  std::string s = "set-" + std::to_string(index) + "-";
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '-';
  return s;
}

std::string set_chart(const ValidationResult& v, const std::string& id) {
  Chart c;
  c.id = id;
  c.title = v.dataset.name + ": busbw, predicted against measured";
  c.x_label = "size per rank (bytes)";
  c.y_label = "busbw (GB/s)";
  ChartSeries measured{"measured", {}, 0, "", false};
  ChartSeries predicted{"predicted (" + v.dataset.algo + "/" + v.dataset.proto + ")", {}, 2, "", true};
  ChartBand band{"measured +-" + fixed_text(kBusbwTargetPct, 0) + "% (target)", {}, {}, {}, 0};
  for (const ComparedRow& r : v.rows) {
    if (!r.compared()) continue;
    const double x = static_cast<double>(r.size);
    const std::string at = to_string(Bytes(r.size));
    measured.points.push_back({x, r.measured_busbw, "measured at " + at + ": " + fixed_text(r.measured_busbw, 2) + " GB/s"});
    predicted.points.push_back({x, r.predicted_busbw,
                                "predicted at " + at + ": " + fixed_text(r.predicted_busbw, 2) + " GB/s (" +
                                    signed_pct(r.error_pct) + "), " + r.algorithm + "/" + r.protocol});
    if (r.size >= kBusbwMinSize) {
      band.x.push_back(x);
      band.lo.push_back(r.measured_busbw * (1 - kBusbwTargetPct / 100));
      band.hi.push_back(r.measured_busbw * (1 + kBusbwTargetPct / 100));
    }
  }
  c.series = {measured, predicted};
  if (!band.x.empty()) c.bands = {band};
  return svg_chart(c);
}

std::string rows_table(const ValidationResult& v) {
  std::string t =
      "<table class=\"rows\">\n<tr><th class=\"num\">size</th><th class=\"num\">measured (us)</th><th class=\"num\">"
      "predicted (us)</th><th class=\"num\">measured busbw</th><th class=\"num\">predicted busbw</th><th "
      "class=\"num\">error</th><th>choice</th></tr>\n";
  for (const ComparedRow& r : v.rows) {
    const std::string key = r.label.empty() ? to_string(Bytes(r.size)) : r.label;
    const std::string err = !r.skipped.empty()  ? "skipped: " + r.skipped
                            : !r.failed.empty() ? "failed: " + r.failed
                                                : signed_pct(r.error_pct);
    t += "<tr><td class=\"num\">" + escape(key) + "</td><td class=\"num\">" + fixed_text(r.measured_us, 2) +
         "</td><td class=\"num\">" + fixed_text(r.predicted_us, 2) + "</td><td class=\"num\">" + fixed_text(r.measured_busbw, 2) +
         "</td><td class=\"num\">" + fixed_text(r.predicted_busbw, 2) + "</td><td class=\"num\">" + escape(err) +
         "</td><td>" +
         escape(r.compared() ? r.algorithm + "/" + r.protocol + " (" + std::to_string(r.channels) + " ch)" : "") +
         "</td></tr>\n";
  }
  return t + "</table>\n";
}

}  // namespace

std::string validate_html(const ValidationReport& rep, const ReportMeta& meta) {
  int bw_met = 0, bw_counted = 0, floor_met = 0, floor_counted = 0;
  std::string summary =
      "<table class=\"rows\">\n<tr><th>data set</th><th>cluster</th><th>collective</th><th class=\"num\">ranks</th>"
      "<th class=\"num\">median |busbw error|</th><th class=\"num\">max</th><th>busbw target</th><th class=\"num\">"
      "latency floor</th><th>floor target</th><th>calibration</th></tr>\n";
  std::vector<Section> sections;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    const ValidationResult& v = rep.results[i];
    const std::string id = slug(v.dataset.name, i);
    if (auto ok = v.busbw_ok()) ++bw_counted, bw_met += *ok ? 1 : 0;
    if (auto ok = v.floor_ok()) ++floor_counted, floor_met += *ok ? 1 : 0;
    summary += "<tr><td>" + escape(v.dataset.name) + "</td><td>" + escape(v.cluster_name) + "</td><td>" +
               escape(to_string(v.dataset.collective)) + "</td><td class=\"num\">" +
               (v.nranks ? std::to_string(v.nranks) : std::string("per row")) + "</td><td class=\"num\">" +
               abs_pct(v.busbw.median_abs_pct) + "</td><td class=\"num\">" + abs_pct(v.busbw.max_abs_pct) +
               "</td><td>" + verdict(v.busbw_ok()) + "</td><td class=\"num\">" +
               (v.floor ? signed_pct(v.floor->error_pct) : std::string("n/a")) + "</td><td>" + verdict(v.floor_ok()) +
               "</td><td>" + (v.held_out() ? "held out" : "fitted") + "</td></tr>\n";

    std::string body = "<p class=\"note\">" + escape(v.dataset.file) +
                       (v.dataset.title.empty() ? "" : ", table '" + escape(v.dataset.title) + "'") + "; cluster " +
                       escape(v.dataset.cluster) + " (" + escape(v.cluster_name) + ")" +
                       (v.dataset.note.empty() ? "" : ". " + escape(v.dataset.note)) + "</p>\n";
    for (const std::string& w : v.warnings) body += "<p class=\"note\">warning: " + escape(w) + "</p>\n";
    if (!v.error.empty()) {
      body += "<p class=\"note\">not predicted: " + escape(v.error) + "</p>\n";
    } else if (v.nranks == 0) {
      body += "<p class=\"note\">A scaling summary (one busbw per rank count, no size axis): the rows only.</p>\n";
    } else {
      body += set_chart(v, id);
    }
    body += rows_table(v);
    sections.push_back({id, v.dataset.name, body});
  }
  summary += "</table>\n";
  std::string head =
      "<p>Model: " + escape(rep.model) + "; manifest " + escape(rep.manifest) + ". " + std::to_string(bw_met) + " of " +
      std::to_string(bw_counted) + " data sets meet the busbw target (median |error| at most " +
      fixed_text(kBusbwTargetPct, 0) + "% over sizes from 64 KiB); " + std::to_string(floor_met) + " of " +
      std::to_string(floor_counted) + " latency floors meet theirs (at most " + fixed_text(kFloorTargetPct, 0) +
      "% at the smallest size, up to 4 KiB). Error % = (predicted / measured busbw - 1) x 100: + is "
      "optimistic.</p>\n" +
      summary;
  sections.insert(sections.begin(), Section{"summary", "Summary", head});
  return page("gpufabric validate", meta, sections);
}

}  // namespace gf::html
