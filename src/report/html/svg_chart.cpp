#include "report/html/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "report/html/html_escape.hpp"

namespace gf::html {

std::string svg_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

namespace {

// Plot area margins: room for tick labels on the left and below, the legend on the right.
constexpr int kLeft = 72, kRight = 190, kTop = 34, kBottom = 52;

// "%g" with up to 6 significant digits: 0.01, 100, 2.5e-05.
std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

struct Scale {
  double lo, hi;    // log10 of the axis ends
  double from, to;  // pixel ends
  double operator()(double v) const { return from + (std::log10(v) - lo) / (hi - lo) * (to - from); }
};

bool plottable(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

const std::string& palette(int index) {
  static const std::string kColours[10] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kColours[((index % 10) + 10) % 10];
}

std::vector<double> log_ticks(double lo, double hi, AxisKind kind) {
  std::vector<double> out;
  if (!(lo > 0) || !(hi >= lo)) return out;
  const double base = kind == AxisKind::Bytes ? 2.0 : 10.0;
  const double lb = std::log(base);
  // A small tolerance so that exact powers (8 = 2^3) are not pushed a step outward by rounding.
  int first = static_cast<int>(std::floor(std::log(lo) / lb + 1e-9));
  int last = static_cast<int>(std::ceil(std::log(hi) / lb - 1e-9));
  if (last == first) last = first + 1;
  const int step = std::max(1, (last - first + 7) / 8);
  // Extend the top so that it lands on a tick.
  last = first + ((last - first + step - 1) / step) * step;
  for (int e = first; e <= last; e += step) out.push_back(std::pow(base, e));
  return out;
}

std::string tick_label(double v, AxisKind kind) {
  if (kind == AxisKind::Bytes) {
    static const char* kUnits[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    while (v >= 1024 && u < 5) {
      v /= 1024;
      ++u;
    }
    return shortest(v) + kUnits[u];
  }
  if (kind == AxisKind::Microseconds) {
    if (v >= 1e6) return shortest(v / 1e6) + " s";
    if (v >= 1e3) return shortest(v / 1e3) + " ms";
    if (v >= 1) return shortest(v) + " us";
    return shortest(v * 1e3) + " ns";
  }
  return shortest(v);
}

std::string svg_chart(const Chart& c) {
  double xlo = std::numeric_limits<double>::infinity(), xhi = 0, ylo = xlo, yhi = 0;
  auto take = [&](double x, double y) {
    if (!plottable(x) || !plottable(y)) return;
    xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
  };
  for (const ChartSeries& s : c.series)
    for (const ChartPoint& p : s.points) take(p.x, p.y);
  for (const ChartBand& b : c.bands)
    for (size_t i = 0; i < b.x.size(); ++i) take(b.x[i], b.lo[i]), take(b.x[i], b.hi[i]);

  std::string out = "<svg class=\"chart\" id=\"" + c.id + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(c.width) + "\" height=\"" + std::to_string(c.height) + "\" viewBox=\"0 0 " +
                    std::to_string(c.width) + " " + std::to_string(c.height) + "\" role=\"img\">\n";
  out += "<title>" + escape(c.title) + "</title>\n";
  out += "<text class=\"chart-title\" x=\"" + std::to_string(kLeft) + "\" y=\"20\">" + escape(c.title) + "</text>\n";
  if (!(xhi > 0) || !(yhi > 0)) {
    out += "<text x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(c.height / 2) +
           "\">no point to plot</text>\n</svg>\n";
    return out;
  }
  const std::vector<double> xt = log_ticks(xlo, xhi, c.x_kind), yt = log_ticks(ylo, yhi, c.y_kind);
  const double right = c.width - kRight, bottom = c.height - kBottom;
  const Scale sx{std::log10(xt.front()), std::log10(xt.back()), static_cast<double>(kLeft), right};
  const Scale sy{std::log10(yt.front()), std::log10(yt.back()), bottom, static_cast<double>(kTop)};

  // Grid and ticks.
  out += "<g class=\"axes\">\n";
  for (double t : xt) {
    const std::string x = svg_num(sx(t));
    out += "<line class=\"grid\" x1=\"" + x + "\" y1=\"" + svg_num(kTop) + "\" x2=\"" + x + "\" y2=\"" + svg_num(bottom) +
           "\"/><text class=\"tick\" x=\"" + x + "\" y=\"" + svg_num(bottom + 16) + "\" text-anchor=\"middle\">" +
           escape(tick_label(t, c.x_kind)) + "</text>\n";
  }
  for (double t : yt) {
    const std::string y = svg_num(sy(t));
    out += "<line class=\"grid\" x1=\"" + svg_num(kLeft) + "\" y1=\"" + y + "\" x2=\"" + svg_num(right) + "\" y2=\"" + y +
           "\"/><text class=\"tick\" x=\"" + svg_num(kLeft - 6) + "\" y=\"" + y + "\" dy=\"4\" text-anchor=\"end\">" +
           escape(tick_label(t, c.y_kind)) + "</text>\n";
  }
  out += "<rect class=\"frame\" x=\"" + svg_num(kLeft) + "\" y=\"" + svg_num(kTop) + "\" width=\"" + svg_num(right - kLeft) +
         "\" height=\"" + svg_num(bottom - kTop) + "\"/>\n";
  out += "<text class=\"label\" x=\"" + svg_num((kLeft + right) / 2) + "\" y=\"" + svg_num(c.height - 12) +
         "\" text-anchor=\"middle\">" + escape(c.x_label) + "</text>\n";
  out += "<text class=\"label\" transform=\"translate(16 " + svg_num((kTop + bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape(c.y_label) + "</text>\n</g>\n";

  for (const ChartBand& b : c.bands) {
    std::string pts;
    for (size_t i = 0; i < b.x.size(); ++i)
      if (plottable(b.x[i]) && plottable(b.lo[i])) pts += svg_num(sx(b.x[i])) + "," + svg_num(sy(b.lo[i])) + " ";
    for (size_t i = b.x.size(); i-- > 0;)
      if (plottable(b.x[i]) && plottable(b.hi[i])) pts += svg_num(sx(b.x[i])) + "," + svg_num(sy(b.hi[i])) + " ";
    out += "<polygon class=\"band\" data-name=\"" + escape(b.name) + "\" fill=\"" + palette(b.colour) +
           "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"" + pts + "\"/>\n";
  }

  // Emphasised series last, so they are drawn on top.
  std::vector<size_t> order(c.series.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(), [&](size_t i) { return !c.series[i].emphasis; });
  for (size_t i : order) {
    const ChartSeries& s = c.series[i];
    std::string line, marks;
    int n = 0;
    for (const ChartPoint& p : s.points) {
      if (!plottable(p.x) || !plottable(p.y)) continue;
      const std::string x = svg_num(sx(p.x)), y = svg_num(sy(p.y));
      line += x + "," + y + " ";
      marks += "<circle class=\"mark\" cx=\"" + x + "\" cy=\"" + y + "\" r=\"" + (s.emphasis ? "4.5" : "2.5") +
               "\" fill=\"" + palette(p.colour >= 0 ? p.colour : s.colour) + "\"" +
               (s.emphasis ? " stroke=\"#222\" stroke-width=\"1.2\"" : "") + "><title>" + escape(p.tip) +
               "</title></circle>\n";
      ++n;
    }
    out += "<g class=\"series" + std::string(s.emphasis ? " emphasis" : "") + "\" data-name=\"" + escape(s.name) +
           "\" data-points=\"" + std::to_string(n) + "\">\n";
    out += "<polyline fill=\"none\" stroke=\"" + (s.emphasis ? std::string("#222") : palette(s.colour)) +
           "\" stroke-width=\"" + (s.emphasis ? "2.5" : "1.5") + "\"" +
           (s.dash.empty() ? "" : " stroke-dasharray=\"" + s.dash + "\"") + " points=\"" + line + "\"/>\n";
    out += marks + "</g>\n";
  }

  // Legend: one line per series and band, beside the plot.
  out += "<g class=\"legend\">\n";
  double ly = kTop + 6;
  auto entry = [&](const std::string& name, const std::string& swatch) {
    out += swatch + "<text x=\"" + svg_num(right + 40) + "\" y=\"" + svg_num(ly + 4) + "\">" + escape(name) + "</text>\n";
    ly += 16;
  };
  for (size_t i : order) {
    const ChartSeries& s = c.series[i];
    const std::string stroke = s.emphasis ? std::string("#222") : palette(s.colour);
    entry(s.name, "<line x1=\"" + svg_num(right + 10) + "\" y1=\"" + svg_num(ly) + "\" x2=\"" + svg_num(right + 34) + "\" y2=\"" +
                      svg_num(ly) + "\" stroke=\"" + stroke + "\" stroke-width=\"" + (s.emphasis ? "2.5" : "1.5") + "\"" +
                      (s.dash.empty() ? "" : " stroke-dasharray=\"" + s.dash + "\"") + "/>");
  }
  for (const ChartBand& b : c.bands)
    entry(b.name, "<rect x=\"" + svg_num(right + 10) + "\" y=\"" + svg_num(ly - 5) + "\" width=\"24\" height=\"10\" fill=\"" +
                      palette(b.colour) + "\" fill-opacity=\"0.18\"/>");
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace gf::html
