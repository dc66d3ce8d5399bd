#include "report/html/doctor_html.hpp"

#include <algorithm>
#include <cstdio>

#include "report/doctor_report.hpp"
#include "report/html/html_escape.hpp"
#include "report/number_text.hpp"

namespace gf::html {

namespace {

std::string size_text(Bytes size) { return binary_size_text(static_cast<double>(size.count())); }

// Severity colours: red, orange, grey-blue (Tableau 10's, as the charts use).
const char* severity_colour(Severity s) {
  return s == Severity::Critical ? "#e15759" : s == Severity::Warning ? "#f28e2b" : "#4e79a7";
}

// Two horizontal bars, now and with the fix, on one scale (the larger of the two is full width).
std::string prediction_bars(const Prediction& p, const std::string& with) {
  constexpr int kWidth = 420, kLabel = 150;
  const double top = std::max(p.busbw_before_gBps, p.busbw_after_gBps);
  auto bar = [&](int y, double v, const std::string& label, const char* colour) {
    const int w = top > 0 ? static_cast<int>(v / top * kWidth) : 0;
    return "<text class=\"tick\" x=\"0\" y=\"" + std::to_string(y + 11) + "\">" + escape(label) + "</text><rect x=\"" +
           std::to_string(kLabel) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
           "\" height=\"14\" fill=\"" + colour + "\"/><text class=\"tick\" x=\"" + std::to_string(kLabel + w + 6) +
           "\" y=\"" + std::to_string(y + 11) + "\">" + fixed_text(v, 1) + " GB/s</text>";
  };
  return "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kLabel + kWidth + 90) +
         "\" height=\"40\" role=\"img\">" + bar(2, p.busbw_before_gBps, "busbw now", "#bab0ac") +
         bar(22, p.busbw_after_gBps, "with the fix", "#59a14f") + "</svg>\n<p class=\"note\">" +
         escape(p.collective + " " + size_text(p.size) + " on " + std::to_string(p.ranks) +
                " ranks, nccl-tests busbw; with: " + with) +
         (p.busbw_before_gBps > 0 ? escape(" (" + fixed_text(p.busbw_after_gBps / p.busbw_before_gBps, 2) + "x)") : "") +
         "</p>\n";
}

}  // namespace

std::string doctor_html(const DoctorReport& r, const ReportMeta& meta) {
  std::vector<std::pair<std::string, std::string>> facts = {{"cluster", r.cluster}, {"findings", doctor_tally(r)}};
  for (const std::string& n : r.notes) facts.push_back({"note", n});
  std::string body;
  if (r.findings.empty()) body = "<p>No findings: every rule passed.</p>\n";
  for (const Finding& f : r.findings) {
    body += "<div class=\"finding\" data-severity=\"" + std::string(to_string(f.severity)) +
            "\" style=\"border-left: 4px solid " + severity_colour(f.severity) + "; padding-left: 10px; margin: 14px 0\">\n";
    body += "<h3>" + escape(to_string(f.severity)) + ": " + escape(f.rule) + "</h3>\n<p>" + escape(f.summary) + "</p>\n";
    if (!f.evidence.empty()) {
      body += "<p class=\"note\">Evidence</p>\n<ul class=\"evidence\">\n";
      for (const std::string& e : f.evidence) body += "<li>" + escape(e) + "</li>\n";
      body += "</ul>\n";
    }
    if (f.predicted) body += prediction_bars(*f.predicted, f.compare ? f.compare->after_what : "the fix");
    else if (f.compare) body += "<p class=\"note\">Prediction: not computed.</p>\n";
    if (!f.fix.empty()) body += "<p><b>Fix:</b> " + escape(f.fix) + "</p>\n";
    body += "</div>\n";
  }
  return page("gpufabric doctor " + r.cluster, meta,
              {{"summary", "The cluster", facts_table(facts)}, {"findings", "Findings", body}});
}

}  // namespace gf::html
