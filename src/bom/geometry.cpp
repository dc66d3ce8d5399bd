#include "bom/geometry.hpp"

#include "topology/cluster_spec.hpp"

namespace gf {

Geometry resolve_geometry(const ClusterSpec& spec, const GeometryOverrides& over) {
  Geometry g;
  // An NVLink domain is built as one rack (GB200 NVL72: 18 compute trays and 9 switch trays in one
  // rack, NVIDIA GB200 NVL72 datasheet), so a rack holds exactly one domain's servers.
  if (spec.server.scale_up) g.servers_per_rack = spec.server.scale_up->servers_per_domain;
  if (over.servers_per_rack) g.servers_per_rack = *over.servers_per_rack;
  if (over.racks_per_row) g.racks_per_row = *over.racks_per_row;
  if (over.nvlink_chips_per_tray) g.nvlink_chips_per_tray = *over.nvlink_chips_per_tray;
  if (over.rack_width_m) g.rack_width_m = *over.rack_width_m;
  if (over.row_pitch_m) g.row_pitch_m = *over.row_pitch_m;
  if (over.slack_m) g.slack_m = *over.slack_m;
  if (over.dac_max_m) g.dac_max_m = *over.dac_max_m;
  if (over.aec_max_m) g.aec_max_m = *over.aec_max_m;
  return g;
}

const char* to_string(CableKind k) {
  switch (k) {
    case CableKind::Dac:
      return "dac";
    case CableKind::Aec:
      return "aec";
    case CableKind::Aoc:
      return "aoc";
    case CableKind::Optics:
      return "transceiver";
  }
  return "?";
}

// Copper while it reaches (passive, then active); inside a row an active optical cable, a single
// part; between rows separate transceivers and structured fibre, which is laid once through the
// trays and patched, rather than pulling a fixed-length AOC across the hall.
CableKind cable_kind(const Geometry& g, double length_m, bool crosses_rows) {
  if (crosses_rows) return CableKind::Optics;
  if (length_m <= g.dac_max_m) return CableKind::Dac;
  if (length_m <= g.aec_max_m) return CableKind::Aec;
  return CableKind::Aoc;
}

}  // namespace gf
