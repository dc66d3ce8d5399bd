// A heatmap of values in [0, 1] (link utilisation), drawn as inline SVG: one small square per
// cell, in order, wrapped into rows, coloured on a sequential scale with a legend. Each cell
// carries a <title> tooltip. Too many cells for a page are merged into buckets of consecutive
// cells (coloured by the bucket's largest value; its tooltip says which cells and their mean), so
// a 16,384-GPU fabric stays a page, not megabytes.
//
// For the page's self-check: <svg class="heatmap" data-name=... data-cells=N> holds N
// <rect class="cell"> elements.
#pragma once

#include <string>
#include <vector>

namespace gf::html {

struct HeatCell {
  double value = 0;  // clamped to [0, 1] when coloured
  std::string tip;   // tooltip (escaped when written)
};

struct Heatmap {
  std::string id;     // element id, [a-z0-9-] (not user text)
  std::string title;  // plain text
  std::vector<HeatCell> cells;
  int columns = 64;           // cells per row
  size_t max_cells = 4096;    // beyond this, consecutive cells are merged into buckets
};

// The scale's colour for `value`: light grey for exactly 0 (idle), then ColorBrewer's YlOrRd
// sequential scheme (Brewer, colorbrewer2.org; stops #ffffb2, #fd8d3c, #bd0026) from just above 0
// to 1, interpolated in RGB.
std::string heat_colour(double value);

// How many cells one square stands for: 1, or ceil(n / max_cells).
size_t heat_bucket(size_t n, size_t max_cells);

std::string svg_heatmap(const Heatmap& h);

}  // namespace gf::html
