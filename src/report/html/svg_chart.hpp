// A small SVG chart writer for the HTML reports: log-log axes with ticks and grid, one polyline
// plus one mark per point for each series, an optional shaded band (an error band), and a legend.
// Written here rather than taken from a charting library so the report stays one self-contained
// file with nothing fetched or inlined from elsewhere (issue 22).
//
// The marks carry their data for the page's self-check and the browser test: each series is a
// <g class="series" data-name=... data-points=N> holding N <circle class="mark"> elements, each
// with a <title> tooltip.
#pragma once

#include <string>
#include <vector>

namespace gf::html {

// How an axis labels its ticks: sizes in bytes at powers of two (8, 1K, 32M, 2G, binary as
// nccl-tests' -b/-e read them), times given in microseconds (1 us, 10 ms, 1 s), or plain numbers
// at powers of ten (0.01, 1, 100).
enum class AxisKind { Bytes, Microseconds, Plain };

struct ChartPoint {
  double x = 0, y = 0;
  std::string tip;  // tooltip text (escaped when written)
  int colour = -1;  // a palette index for this mark alone (-1: the series' colour)
};

struct ChartSeries {
  std::string name;                // legend text
  std::vector<ChartPoint> points;  // in increasing x; points with x or y <= 0 are left out (log axes)
  int colour = 0;                  // palette index
  std::string dash;                // SVG stroke-dasharray ("" solid)
  bool emphasis = false;           // drawn thicker, on top, with larger marks (e.g. NCCL's automatic choice)
};

// A shaded area between lo and hi at each x (e.g. measured +- the accepted error).
struct ChartBand {
  std::string name;
  std::vector<double> x, lo, hi;
  int colour = 0;
};

struct Chart {
  std::string id;  // element id, [a-z0-9-] (not user text)
  std::string title, x_label, y_label;
  AxisKind x_kind = AxisKind::Bytes, y_kind = AxisKind::Plain;
  std::vector<ChartSeries> series;
  std::vector<ChartBand> bands;
  int width = 760, height = 420;
};

// Ten distinguishable colours (the Tableau 10 palette's values); index taken modulo 10.
const std::string& palette(int index);

// Tick positions for a log axis covering [lo, hi] (lo > 0): powers of two for Bytes (an exponent
// step chosen so there are at most 9), powers of ten otherwise. The axis spans from the first to
// the last tick, so every point lies inside.
std::vector<double> log_ticks(double lo, double hi, AxisKind kind);
// A coordinate or length in an SVG attribute: two decimals ("12.50").
std::string svg_num(double v);

// A tick's label: "8", "1K", "32M", "2G"; "1 us", "10 ms", "1 s"; "0.01", "100".
std::string tick_label(double value, AxisKind kind);

// The whole <svg> element. A chart with no plottable point says so in its place.
std::string svg_chart(const Chart& chart);

}  // namespace gf::html
