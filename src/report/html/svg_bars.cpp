#include "report/html/svg_bars.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "report/html/html_escape.hpp"
#include "report/html/svg_chart.hpp"

namespace gf::html {

namespace {

constexpr int kTop = 34, kRow = 26, kBarHeight = 18, kLegendRow = 16;

// Full precision for the data attributes the tests read back.
std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

double total(const Bar& b) {
  double t = 0;
  for (const BarSegment& s : b.segments)
    if (s.value > 0) t += s.value;
  return t;
}

}  // namespace

double segment_width(const BarChart& chart, double value, double bar_total) {
  const double plot = chart.width - kBarsLeft - kBarsRight;
  double scale = bar_total;
  if (!chart.shares)
    for (const Bar& b : chart.bars) scale = std::max(scale, total(b));
  return scale > 0 && value > 0 ? value / scale * plot : 0;
}

std::string seconds_text(double s) {
  char buf[32];
  const double a = std::fabs(s);
  if (a >= 1) std::snprintf(buf, sizeof buf, "%.3g s", s);
  else if (a >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else if (a >= 1e-6) std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  else std::snprintf(buf, sizeof buf, "%.3g ns", s * 1e9);
  return buf;
}

std::string svg_bars(const BarChart& c) {
  // The legend: each segment name once, in order of first appearance, with its colour.
  std::vector<std::pair<std::string, int>> legend;
  std::map<std::string, bool> seen;
  for (const Bar& b : c.bars)
    for (const BarSegment& s : b.segments)
      if (s.value > 0 && !seen[s.name]) {
        seen[s.name] = true;
        legend.push_back({s.name, s.colour});
      }
  const int bars_end = kTop + static_cast<int>(c.bars.size()) * kRow;
  const int height = bars_end + 14 + static_cast<int>(legend.size()) * kLegendRow + 8;
  std::string out = "<svg class=\"bars\" id=\"" + c.id + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(c.width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
                    std::to_string(c.width) + " " + std::to_string(height) + "\" data-name=\"" + escape(c.title) +
                    "\" data-bars=\"" + std::to_string(c.bars.size()) + "\" data-shares=\"" + (c.shares ? "1" : "0") +
                    "\" data-plot-left=\"" + std::to_string(kBarsLeft) + "\" data-plot-width=\"" +
                    std::to_string(c.width - kBarsLeft - kBarsRight) + "\">\n";
  out += "<text class=\"chart-title\" x=\"" + std::to_string(kBarsLeft) + "\" y=\"20\">" + escape(c.title) + "</text>\n";
  if (legend.empty()) return out + "<text class=\"label\" x=\"" + std::to_string(kBarsLeft) + "\" y=\"" +
                             std::to_string(kTop + 14) + "\">nothing to draw: every part is zero</text>\n</svg>\n";
  for (size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    const double t = total(b);
    const int y = kTop + static_cast<int>(i) * kRow;
    size_t drawn = 0;
    for (const BarSegment& s : b.segments) drawn += s.value > 0;
    out += "<g class=\"bar\" data-label=\"" + escape(b.label) + "\" data-total=\"" + exact(t) + "\" data-segments=\"" +
           std::to_string(drawn) + "\">\n";
    out += "<text class=\"label\" x=\"" + std::to_string(kBarsLeft - 8) + "\" y=\"" + std::to_string(y + 13) +
           "\" text-anchor=\"end\">" + escape(b.label) + "</text>\n";
    double x = kBarsLeft;
    for (const BarSegment& s : b.segments) {
      if (!(s.value > 0)) continue;
      const double w = segment_width(c, s.value, t);
      out += "<rect class=\"seg\" x=\"" + svg_num(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + svg_num(w) +
             "\" height=\"" + std::to_string(kBarHeight) + "\" fill=\"" + palette(s.colour) + "\" data-name=\"" +
             escape(s.name) + "\" data-value=\"" + exact(s.value) + "\"><title>" +
             escape(b.label + ": " + s.name + " " + seconds_text(s.value) + " (" + svg_num(100 * s.value / t) + " %)") +
             "</title></rect>\n";
      x += w;
    }
    out += "<text class=\"tick\" x=\"" + svg_num(x + 6) + "\" y=\"" + std::to_string(y + 13) + "\">" +
           escape(seconds_text(t)) + "</text>\n</g>\n";
  }
  out += "<g class=\"legend\">\n";
  for (size_t i = 0; i < legend.size(); ++i) {
    const int y = bars_end + 14 + static_cast<int>(i) * kLegendRow;
    out += "<rect x=\"" + std::to_string(kBarsLeft) + "\" y=\"" + std::to_string(y - 10) + "\" width=\"12\" height=\"12\" fill=\"" +
           palette(legend[i].second) + "\"/><text x=\"" + std::to_string(kBarsLeft + 18) + "\" y=\"" + std::to_string(y) +
           "\">" + escape(legend[i].first) + "</text>\n";
  }
  return out + "</g>\n</svg>\n";
}

}  // namespace gf::html
