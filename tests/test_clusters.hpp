// Small clusters the topology and routing tests build: a tiny server whose numbers are easy to
// follow by hand, and a ClusterSpec of N copies of a server on a given fabric.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "topology/cluster_spec.hpp"

namespace gftest {

// One GPU and `nics` NDR NICs (400 Gb/s each, rails 0..nics-1) under one PCIe Gen5 switch.
// Nodes in order: gpu0, pcie0, nic0, nic1, ...
inline gf::ServerTemplate small_server(int nics = 1) {
  gf::ServerTemplate t;
  t.name = "test-1gpu";
  t.gpu = {"test-gpu", "hopper", gf::Bandwidth::gBps(1000), 100, "test"};
  t.nodes.push_back({"gpu0", gf::NodeKind::Gpu, 0, -1, "", "", ""});
  t.nodes.push_back({"pcie0", gf::NodeKind::PcieSwitch, 0, -1, "", "", ""});
  t.links.push_back({0, 1, "pcie-gen5-x16", 1});
  for (int r = 0; r < nics; ++r) {
    t.nodes.push_back({"nic" + std::to_string(r), gf::NodeKind::Nic, 0, r, "ib-ndr", "", ""});
    t.links.push_back({static_cast<int>(t.nodes.size()) - 1, 1, "pcie-gen5-x16", 1});
  }
  return t;
}

// `servers` copies of `server` on a fabric of `kind` (default: FabricSpec's), its switches of
// `radix` ports (0: the switch model's own). Other fabric fields keep FabricSpec's defaults.
inline gf::ClusterSpec spec_of(gf::ServerTemplate server, int64_t servers,
                               const std::string& kind = gf::FabricSpec{}.kind, int radix = 0) {
  gf::ClusterSpec s;
  s.server = std::move(server);
  s.servers = servers;
  s.fabric.kind = kind;
  s.fabric.switch_radix = radix;
  return s;
}

}  // namespace gftest
