#include "report/html/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html/html_escape.hpp"

namespace gf::html {

namespace {

constexpr int kCell = 10, kGap = 1, kTop = 26, kLegend = 34;

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v * 100);
  return buf;
}

}  // namespace

std::string heat_colour(double value) {
  if (!(value > 0)) return "#eeeeee";
  const double v = std::min(1.0, value);
  struct Rgb {
    double r, g, b;
  };
  static const Rgb kStops[3] = {{255, 255, 178}, {253, 141, 60}, {189, 0, 38}};
  const double at = v * 2;  // 0..2 across the two segments
  const int i = std::min(1, static_cast<int>(at));
  const double f = at - i;
  const Rgb& a = kStops[i];
  const Rgb& b = kStops[i + 1];
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(a.r + (b.r - a.r) * f)),
                static_cast<int>(std::lround(a.g + (b.g - a.g) * f)), static_cast<int>(std::lround(a.b + (b.b - a.b) * f)));
  return buf;
}

size_t heat_bucket(size_t n, size_t max_cells) {
  if (max_cells == 0 || n <= max_cells) return 1;
  return (n + max_cells - 1) / max_cells;
}

std::string svg_heatmap(const Heatmap& h) {
  const size_t n = h.cells.size();
  const size_t per = heat_bucket(n, h.max_cells);
  const size_t squares = (n + per - 1) / per;
  const int columns = std::max(1, h.columns);
  const int cols_used = static_cast<int>(std::min<size_t>(squares, static_cast<size_t>(columns)));
  const int rows = static_cast<int>((squares + static_cast<size_t>(columns) - 1) / static_cast<size_t>(columns));
  const int width = std::max(360, cols_used * (kCell + kGap) + 2);
  const int height = kTop + rows * (kCell + kGap) + kLegend;
  std::string out = "<svg class=\"heatmap\" id=\"" + h.id + "\" data-name=\"" + escape(h.title) + "\" data-cells=\"" +
                    std::to_string(squares) + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" role=\"img\">\n";
  std::string caption = h.title + ": " + std::to_string(n) + " links";
  if (per > 1) caption += ", " + std::to_string(per) + " per square (colour: the largest)";
  out += "<text class=\"chart-title\" x=\"0\" y=\"16\">" + escape(caption) + "</text>\n";
  for (size_t s = 0; s < squares; ++s) {
    const size_t first = s * per, last = std::min(n, first + per);
    double top = 0, sum = 0;
    for (size_t i = first; i < last; ++i) {
      top = std::max(top, h.cells[i].value);
      sum += h.cells[i].value;
    }
    std::string tip = per == 1 ? h.cells[first].tip
                               : h.cells[first].tip + " ... " + h.cells[last - 1].tip + " (" +
                                     std::to_string(last - first) + " links, mean " +
                                     pct(sum / static_cast<double>(last - first)) + ", largest " + pct(top) + ")";
    const int x = 1 + static_cast<int>(s % static_cast<size_t>(columns)) * (kCell + kGap);
    const int y = kTop + static_cast<int>(s / static_cast<size_t>(columns)) * (kCell + kGap);
    out += "<rect class=\"cell\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           std::to_string(kCell) + "\" height=\"" + std::to_string(kCell) + "\" fill=\"" + heat_colour(top) +
           "\"><title>" + escape(tip) + "</title></rect>\n";
  }
  // The legend: idle, then the scale from 0 to 100 % in ten steps.
  const int ly = kTop + rows * (kCell + kGap) + 10;
  out += "<g class=\"legend\"><rect x=\"1\" y=\"" + std::to_string(ly) + "\" width=\"12\" height=\"10\" fill=\"" +
         heat_colour(0) + "\"/><text class=\"tick\" x=\"16\" y=\"" + std::to_string(ly + 9) + "\">idle</text>";
  for (int i = 1; i <= 10; ++i)
    out += "<rect x=\"" + std::to_string(40 + i * 16) + "\" y=\"" + std::to_string(ly) +
           "\" width=\"16\" height=\"10\" fill=\"" + heat_colour(i / 10.0) + "\"/>";
  out += "<text class=\"tick\" x=\"56\" y=\"" + std::to_string(ly + 22) + "\">10%</text><text class=\"tick\" x=\"" +
         std::to_string(40 + 10 * 16 - 10) + "\" y=\"" + std::to_string(ly + 22) +
         "\">100% utilisation</text></g>\n</svg>\n";
  return out;
}

}  // namespace gf::html
