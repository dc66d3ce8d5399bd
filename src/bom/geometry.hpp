// Where the hardware stands, as far as cable lengths need it: servers fill racks, racks fill rows,
// each row has its leaf switches in a network rack at its middle, and the switches above the
// leaves stand in a network row of their own at the middle of the hall. Every figure is an
// assumption a user can override (a price file's `geometry:` block); docs/bom.md states each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gf {

struct ClusterSpec;

struct Geometry {
  int64_t servers_per_rack = 4;       // DGX H100: 4 per rack (about 41 kW at 10.2 kW each); NVLink
                                      // domains: one domain's servers (an NVL72 rack holds 18 trays)
  int64_t racks_per_row = 8;          // compute racks per row (a SuperPOD SU of 32 DGX is one row of 8)
  double rack_width_m = 0.6;          // 600 mm racks, the common width
  double row_pitch_m = 2.4;           // row to row: a 1.2 m rack depth plus a 1.2 m aisle
  double slack_m = 3;                 // every cable: up into the overhead tray, down, and a service loop
  double dac_max_m = 3;               // passive copper reaches this far at 400G (estimate)
  double aec_max_m = 5;               // active copper beyond it; longer runs inside a row are AOC
  int64_t nvlink_chips_per_tray = 2;  // GB200 NVL72: 18 NVSwitch chips in 9 switch trays
};

struct GeometryOverrides {
  std::optional<int64_t> servers_per_rack, racks_per_row, nvlink_chips_per_tray;
  std::optional<double> rack_width_m, row_pitch_m, slack_m, dac_max_m, aec_max_m;
};

// The defaults for this cluster (servers per rack follows an NVLink domain), then the overrides.
Geometry resolve_geometry(const ClusterSpec& spec, const GeometryOverrides& over);

// How one cable class is built, from its length.
enum class CableKind { Dac, Aec, Aoc, Optics };  // Optics: a transceiver at each end + fibre
const char* to_string(CableKind k);              // "dac", "aec", "aoc", "transceiver"
CableKind cable_kind(const Geometry& g, double length_m, bool crosses_rows);

}  // namespace gf
