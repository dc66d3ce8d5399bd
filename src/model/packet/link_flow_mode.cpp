#include "model/packet/link_flow_mode.hpp"

namespace gf {

LinkFlowMode link_flow_mode(FlowControl fc, LinkFamily family) {
  switch (family) {
    case LinkFamily::InfiniBand:
    case LinkFamily::RoCE:
    case LinkFamily::EthernetTcp:
    case LinkFamily::Efa:
    case LinkFamily::GaudiRoce: break;
    default: return LinkFlowMode::Lossless;  // in-server and scale-up links
  }
  switch (fc) {
    case FlowControl::Credit:
    case FlowControl::Pfc: return LinkFlowMode::Lossless;
    case FlowControl::None: return LinkFlowMode::Lossy;
    case FlowControl::Auto: break;
  }
  return family == LinkFamily::EthernetTcp || family == LinkFamily::Efa ? LinkFlowMode::Lossy : LinkFlowMode::Lossless;
}

}  // namespace gf
