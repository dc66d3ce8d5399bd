#include "topology/server_registry.hpp"

#include "topology/servers/more_servers.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

const std::vector<ServerPreset>& server_registry() {
  static const std::vector<ServerPreset> kServers = {
      {"dgx-a100", make_dgx_a100},
      {"hgx-a100", make_hgx_a100},
      {"oci-a100", make_oci_a100},
      {"dgx-h100", make_dgx_h100},
      {"hgx-h100", make_hgx_h100},
      {"hgx-h200", make_hgx_h200},
      {"hgx-h20", make_hgx_h20},
      {"h200-nvl", make_h200_nvl},
      {"aws-p5", make_aws_p5},
      {"gcp-a3-mega", make_gcp_a3_mega},
      {"dgx-b200", make_dgx_b200},
      {"hgx-b300", make_hgx_b300},
      {"oci-b300", make_oci_b300},
      {"gb200-nvl72", make_gb200_nvl72},
      {"gb300-nvl72", make_gb300_nvl72},
      {"pcie-8gpu", make_pcie_8gpu},
      {"pcie-8gpu-rootport", make_pcie_8gpu_rootport},
      {"a40-8gpu", make_a40_8gpu},
      {"mi300x", make_mi300x},
      {"mi325x", make_mi325x},
      {"mi355x", make_mi355x},
      {"gaudi2", make_gaudi2},
      {"gaudi3", make_gaudi3},
  };
  return kServers;
}

const ServerPreset* find_server(const std::string& name) {
  for (const auto& s : server_registry())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> server_names() {
  std::vector<std::string> out;
  for (const auto& s : server_registry()) out.push_back(s.name);
  return out;
}

}  // namespace gf
