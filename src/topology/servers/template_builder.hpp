// A small helper the server builders use to write a ServerTemplate by name rather than by index.
#pragma once

#include <string>
#include <vector>

#include "topology/server_template.hpp"

namespace gf {

// One PCIe host bridge (root complex) of a CPU socket: the NUMA node it belongs to and the cores
// nvidia-smi lists as that node's CPU affinity.
struct HostBridge {
  int numa;
  std::string affinity;
};

class TemplateBuilder {
 public:
  explicit TemplateBuilder(ServerTemplate& t) : t_(t) {}
  int cpu(const std::string& name, int numa, const std::string& affinity) {
    return add({name, NodeKind::Cpu, numa, -1, "", affinity, ""});
  }
  int gpu(const std::string& name, int numa) { return add({name, NodeKind::Gpu, numa, -1, "", "", ""}); }
  int nvswitch(const std::string& name) { return add({name, NodeKind::NvSwitch, -1, -1, "", "", ""}); }
  int pcie_switch(const std::string& name, int numa) { return add({name, NodeKind::PcieSwitch, numa, -1, "", "", ""}); }
  int nic(const std::string& name, int numa, int rail, const std::string& tech, const std::string& label) {
    return add({name, NodeKind::Nic, numa, rail, tech, "", label});
  }
  void link(int a, int b, const std::string& tech, int lanes = 1) { t_.links.push_back({a, b, tech, lanes}); }

  // The root complexes of every socket (one inner vector per socket), returned in the same shape.
  // Bridges of one socket are joined in a full mesh of `on_die` links (nvidia-smi: NODE when they
  // share a NUMA node, SYS otherwise); the first bridge of each socket is joined to the first of
  // every other socket by `between` (UPI / socket-to-socket Infinity Fabric). A socket with one
  // bridge names it "cpu<s>", several "cpu<s>_<k>".
  std::vector<std::vector<int>> sockets(const std::vector<std::vector<HostBridge>>& bridges,
                                        const std::string& between, const std::string& on_die = "host-bridge") {
    std::vector<std::vector<int>> out;
    for (size_t s = 0; s < bridges.size(); ++s) {
      std::vector<int> ids;
      for (size_t k = 0; k < bridges[s].size(); ++k) {
        std::string name = "cpu" + std::to_string(s);
        if (bridges[s].size() > 1) name += "_" + std::to_string(k);
        ids.push_back(cpu(name, bridges[s][k].numa, bridges[s][k].affinity));
      }
      for (size_t i = 0; i < ids.size(); ++i)
        for (size_t j = i + 1; j < ids.size(); ++j) link(ids[i], ids[j], on_die);
      for (const auto& prev : out) link(prev.front(), ids.front(), between);
      out.push_back(std::move(ids));
    }
    return out;
  }

 private:
  int add(ServerNode n) {
    t_.nodes.push_back(std::move(n));
    return static_cast<int>(t_.nodes.size() - 1);
  }
  ServerTemplate& t_;
};

// The core list nvidia-smi prints for `count` cores starting at `first`, with their SMT siblings
// `smt_offset` further on (0: no SMT): cores(0, 56, 112) == "0-55,112-167".
inline std::string cores(int first, int count, int smt_offset) {
  auto range = [](int a, int n) { return std::to_string(a) + "-" + std::to_string(a + n - 1); };
  std::string s = range(first, count);
  if (smt_offset > 0) s += "," + range(first + smt_offset, count);
  return s;
}

}  // namespace gf
