// Horizontal stacked bars for the HTML reports' time breakdowns: one bar per item (a call, a job,
// a training step, a size), split into the parts the run's result carries (a training step's
// phases, a call's time alone and what sharing added, the schedule's fixed latency and its
// transfers), each part a segment whose length is its share of the scale.
//
// Geometry (so a test can derive a segment's width by hand): the plot runs from x = kBarsLeft to
// x = width - kBarsRight. On an absolute chart the longest bar fills it: a segment of value v is
// v / (largest bar total) x plot width wide. On a `shares` chart every bar fills it: v / (its bar's
// total) x plot width. Segments follow each other left to right in the order given; a segment of
// value 0 is left out.
//
// The marks carry their data for the page's self-check and the browser test: each bar is a
// <g class="bar" data-label=... data-total=... data-segments=N> holding N <rect class="seg"
// data-name=... data-value=...> elements, each with a <title> tooltip.
#pragma once

#include <string>
#include <vector>

namespace gf::html {

constexpr int kBarsLeft = 230, kBarsRight = 110;

struct BarSegment {
  std::string name;  // legend text; segments of one name share a colour across bars
  double value = 0;  // seconds
  int colour = 0;    // palette index (svg_chart.hpp)
};

struct Bar {
  std::string label;  // shown left of the bar (escaped when written)
  std::vector<BarSegment> segments;
};

struct BarChart {
  std::string id;  // element id, [a-z0-9-] (not user text)
  std::string title;
  std::vector<Bar> bars;
  bool shares = false;  // every bar as 100 % of itself (parts of very different totals side by side)
  int width = 760;
};

// The width in pixels of a segment of `value` in a bar of `bar_total` on `chart`.
double segment_width(const BarChart& chart, double value, double bar_total);

// A time for a label: "412 ns", "3.21 us", "12.5 ms", "1.23 s" (three significant digits).
std::string seconds_text(double s);

// The whole <svg class="bars"> element. A chart whose bars are all empty says so in its place.
std::string svg_bars(const BarChart& chart);

}  // namespace gf::html
