// A small helper the server builders use to write a ServerTemplate by name rather than by index.
#pragma once

#include <string>

#include "topology/server_template.hpp"

namespace gf {

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

 private:
  int add(ServerNode n) {
    t_.nodes.push_back(std::move(n));
    return static_cast<int>(t_.nodes.size() - 1);
  }
  ServerTemplate& t_;
};

}  // namespace gf
