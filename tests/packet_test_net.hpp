// Hand-built networks for the packet model's tests: GPUs and switches joined by one test
// technology (default 100 Gb/s = 12.5e9 B/s, so 80 ps per byte, and 1 us), with network and PCIe
// efficiency 1, so a full packet (4096 B payload + 64 B header) serializes in 4160 x 80 ps.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/packet/packet_model.hpp"

namespace gf::testnet {

constexpr int64_t kSerPs = 4160 * 80;  // one full packet's serialization at 100 Gb/s, ps

struct Done final : CompletionSink {
  std::vector<std::pair<TransferId, Time>> order;
  void completed(TransferId id, Time at) override { order.emplace_back(id, at); }
};

struct Net {
  Cluster c;
  TechId tech;
  std::vector<NodeId> gpu, sw;
  Net(int gpus, int switches, LinkFamily family, Time latency = Time::us(1))
      : c(LinkCatalog::builtin(), ServerTemplate{"hand", "", "", {"g", "hopper", Bandwidth::gBps(1000), 0, ""}, {}, {}, {}, "", {}}, 0) {
    LinkCatalog& cat = const_cast<LinkCatalog&>(c.catalog());
    tech = cat.add({"test-100g", family, Bandwidth::gbps(100), latency, true, "test", "hand-built test link"});
    for (int i = 0; i < gpus; ++i) gpu.push_back(c.add_fabric_node(NodeKind::Gpu, 0, -1, "g" + std::to_string(i)));
    for (int i = 0; i < switches; ++i) sw.push_back(c.add_fabric_node(NodeKind::Switch, 1, -1, "s" + std::to_string(i)));
  }
  LinkId link(NodeId a, NodeId b) { return c.connect(a, b, tech); }
};

inline ModelParams params() {
  ModelParams p;
  p.net_efficiency = 1.0;
  p.pcie_efficiency = 1.0;
  return p;
}

inline ModelTransfer transfer(std::vector<LinkId> links, Bytes b) {
  ModelTransfer t;
  Route r(1);
  r[0].path.links = std::move(links);
  t.route = std::make_shared<const Route>(std::move(r));
  t.bytes = b;
  return t;
}

// Runs the model until idle; each transfer's completion time (infinity if it never finished).
inline std::vector<Time> drain(Model& m, size_t n) {
  Done d;
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  std::vector<Time> out(n, Time::infinity());
  for (auto [id, at] : d.order) out[static_cast<size_t>(id)] = at;
  return out;
}

}  // namespace gf::testnet
