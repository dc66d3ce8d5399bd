#include "bom/bom.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "report/table.hpp"

namespace gf {
namespace {

struct Run {
  double length_m = 0;
  int64_t count = 0;
  bool crosses_rows = false;
};

// Where each cable class runs (docs/bom.md, "Geometry"): the servers fill racks in order and the
// racks fill rows; every row has a network rack at its middle holding its leaves; the tiers above
// stand in a network row at the middle of the hall.
struct Layout {
  Geometry g;
  int64_t servers = 0, racks = 0, rows = 0;

  int64_t servers_in_rack(int64_t r) const { return std::min(g.servers_per_rack, servers - r * g.servers_per_rack); }
  int64_t racks_in_row(int64_t row) const { return std::min(g.racks_per_row, racks - row * g.racks_per_row); }
  int64_t servers_in_row(int64_t row) const {
    int64_t n = 0;
    for (int64_t r = row * g.racks_per_row; r < row * g.racks_per_row + racks_in_row(row); ++r) n += servers_in_rack(r);
    return n;
  }
  // Half a row's length: a run from a rack to its row's end.
  double half_row_m() const { return static_cast<double>(std::min(g.racks_per_row, racks)) / 2 * g.rack_width_m; }

  // Server to its row's network rack: the rack offset from the row's middle, plus one rack's width
  // to reach into the network rack itself.
  std::vector<Run> to_row_network(int64_t count) const {
    std::map<double, int64_t> by_length;
    const int64_t per_server = count / servers;
    int64_t left = count - per_server * servers;  // a remainder (none in the built-in fabrics) goes to rack 0
    for (int64_t r = 0; r < racks; ++r) {
      const int64_t row = r / g.racks_per_row, pos = r % g.racks_per_row;
      const double mid = static_cast<double>(racks_in_row(row)) / 2;
      const double off = std::fabs(static_cast<double>(pos) + 0.5 - mid) + 0.5;
      by_length[off * g.rack_width_m + g.slack_m] += per_server * servers_in_rack(r) + left;
      left = 0;
    }
    std::vector<Run> out;
    for (const auto& [len, n] : by_length) out.push_back({len, n, false});
    return out;
  }
  // Leaf to the tier above: inside the one network rack when the hall is a single row, else across
  // rows to the network row, along a row to its end on the way.
  std::vector<Run> to_network_row(int64_t count) const {
    if (rows <= 1) return {{g.slack_m, count, false}};
    std::map<double, int64_t> by_length;
    int64_t assigned = 0;
    for (int64_t row = 0; row < rows; ++row) {
      const double off = std::fabs(static_cast<double>(row) + 0.5 - static_cast<double>(rows) / 2) + 0.5;
      // cables of this row's leaves: its share of the servers
      const int64_t n = row + 1 == rows ? count - assigned : count * servers_in_row(row) / servers;
      assigned += n;
      by_length[off * g.row_pitch_m + half_row_m() + g.slack_m] += n;
    }
    std::vector<Run> out;
    for (const auto& [len, n] : by_length) out.push_back({len, n, true});
    return out;
  }
  std::vector<Run> runs(const CableCount& c) const {
    const std::string& b = c.between;
    if (b == "nic-nic") return {{g.rack_width_m + g.slack_m, c.count, false}};  // neighbours: the next rack
    if (b.rfind("nic-", 0) == 0) return to_row_network(c.count);
    if (b == "leaf-spine" || b.find("global") != std::string::npos) return to_network_row(c.count);
    if (b == "spine-core") return {{rows <= 1 ? g.slack_m : half_row_m() + g.slack_m, c.count, false}};
    return {{g.slack_m, c.count, false}};  // inside one network rack (a dragonfly group's local links)
  }
};

std::string metres(double m) { return fmt::format("{:.1f} m", m); }

void price(BomLine& l, const PriceTable& t, std::vector<std::string>& unpriced) {
  if (const PriceEntry* e = t.find(l.item)) {
    l.priced = true;
    l.unit = e->unit;
    l.unit_usd = e->usd;
    l.unit_typical_w = e->typical_w;
    l.unit_max_w = e->max_w;
    return;
  }
  const std::string category = l.item.substr(0, l.item.find('/'));
  for (const auto& c : price_categories())
    if (c.name == category) l.unit = c.unit;
  if (std::find(unpriced.begin(), unpriced.end(), l.item) == unpriced.end()) unpriced.push_back(l.item);
}

std::string switch_model(const ClusterSpec& spec, const ClusterCounts& counts) {
  if (!spec.fabric.switch_model.empty()) return spec.fabric.switch_model;
  const std::string link = spec.fabric.link.empty() ? counts.shape.nic_tech : spec.fabric.link;
  if (auto s = spec.catalog.default_switch_for(link)) return s->name;
  return link;
}

}  // namespace

BomTotals Bom::totals() const {
  BomTotals t;
  t.gpus = counts.gpus;
  for (const auto& l : lines) t.usd += l.usd(), t.typical_w += l.typical_w(), t.max_w += l.max_w();
  return t;
}

Bom make_bom(const ClusterSpec& spec, const PriceTable& prices) {
  Bom b;
  b.name = spec.name;
  b.counts = count_cluster(spec);
  b.geometry = resolve_geometry(spec, prices.geometry());
  b.prices_origin = prices.origin();
  const ClusterCounts& c = b.counts;
  Layout lay{b.geometry, c.servers, 0, 0};
  lay.racks = (c.servers + lay.g.servers_per_rack - 1) / lay.g.servers_per_rack;
  lay.rows = (lay.racks + lay.g.racks_per_row - 1) / lay.g.racks_per_row;
  b.racks = lay.racks;
  b.rows = lay.rows;

  auto add = [&](BomLine l) {
    price(l, prices, b.unpriced);
    b.lines.push_back(std::move(l));
  };
  const std::string server_item = "server/" + spec.server.name;
  const PriceEntry* server_price = prices.find(server_item);
  add({"compute", server_item, "server (" + std::to_string(c.shape.gpus_per_server) + " GPUs each)", "",
       static_cast<double>(c.servers)});
  // GPUs are bought inside their servers: counted here, priced there.
  BomLine gpus{"compute", "gpu/" + spec.server.gpu.model, "GPU, in the server's price", "",
               static_cast<double>(c.gpus)};
  gpus.included = true;
  b.lines.push_back(gpus);
  if (c.nics > 0) {
    BomLine nic{"scale-out", "nic/" + c.shape.nic_tech, "NIC port", "", static_cast<double>(c.nics)};
    if (server_price && server_price->includes_nics) {
      nic.included = true;
      nic.what = "NIC port, in the server's price";
      b.lines.push_back(nic);
    } else {
      add(nic);
    }
  }

  if (spec.server.scale_up) {
    const auto& d = *spec.server.scale_up;
    const int64_t domains = (c.servers + d.servers_per_domain - 1) / d.servers_per_domain;
    const int64_t trays = (c.scale_up_switches + lay.g.nvlink_chips_per_tray - 1) / lay.g.nvlink_chips_per_tray;
    add({"nvlink", "nvlink-switch-tray/" + d.tech,
         std::to_string(lay.g.nvlink_chips_per_tray) + " NVSwitch chips per tray", "", static_cast<double>(trays)});
    add({"nvlink", "nvlink-spine/" + d.tech,
         "copper spine, " + with_commas(d.servers_per_domain * spec.server.count(NodeKind::Gpu) * d.links_per_gpu) +
             " NVLinks per domain",
         "", static_cast<double>(domains)});
  }

  const std::string model = switch_model(spec, c);
  for (const auto& t : c.fabric.tiers) {
    if (t.switches == 0) continue;
    add({"switches", "switch/" + model, t.name + " switch (" + std::to_string(t.radix) + " ports)", "",
         static_cast<double>(t.switches)});
  }

  for (const auto& cc : c.fabric.cables) {
    // One line per kind: the longest run of that kind is its reach.
    std::map<CableKind, std::pair<int64_t, double>> kinds;  // count, longest
    double fibre_m = 0;
    for (const Run& r : lay.runs(cc)) {
      const CableKind k = cable_kind(lay.g, r.length_m, r.crosses_rows);
      auto& [n, longest] = kinds[k];
      n += r.count;
      longest = std::max(longest, r.length_m);
      if (k == CableKind::Optics) fibre_m += static_cast<double>(r.count) * r.length_m;
    }
    for (const auto& [k, nl] : kinds) {
      const auto [n, longest] = nl;
      b.cables += n;
      const std::string reach = "<= " + metres(longest);
      if (k == CableKind::Optics) {
        b.transceivers += 2 * n;
        add({"cabling", "transceiver/" + cc.tech, cc.between + ", both ends of " + with_commas(n) + " links", reach,
             static_cast<double>(2 * n)});
        add({"cabling", "fibre/" + cc.tech, cc.between + ", " + with_commas(n) + " runs", reach, fibre_m});
      } else {
        add({"cabling", std::string(to_string(k)) + "/" + cc.tech, cc.between + " cable", reach,
             static_cast<double>(n)});
      }
    }
  }
  return b;
}

}  // namespace gf
