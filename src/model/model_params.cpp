#include "model/model_params.hpp"

namespace gf {

double ModelParams::nvlink_efficiency(const std::string& arch) const {
  if (arch == "hopper") return 20.6 / 25.0;
  if (arch == "blackwell") return 40.1 / 50.0;
  return 20.0 / 25.0;
}

Time ModelParams::network_step_latency(const LinkTech& tech) const {
  return tech.transport_latency;
}

double ModelParams::efficiency(const LinkTech& tech, const std::string& arch) const {
  switch (tech.family) {
    case LinkFamily::NvLink:
    case LinkFamily::NvLinkC2C: return nvlink_efficiency(arch);
    case LinkFamily::Xgmi: return xgmi_efficiency;
    case LinkFamily::Pcie: return pcie_efficiency;
    case LinkFamily::InterSocket: return inter_socket_efficiency;
    case LinkFamily::InfiniBand:
    case LinkFamily::RoCE:
    case LinkFamily::EthernetTcp:
    case LinkFamily::Efa:
    case LinkFamily::GaudiRoce: return tech.rdma ? net_efficiency : tcp_efficiency;
  }
  return 1.0;
}

}  // namespace gf
