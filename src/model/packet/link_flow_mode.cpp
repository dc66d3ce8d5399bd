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
  switch (resolve_flow_control(fc, family)) {
    case FlowControl::Pfc: return LinkFlowMode::Pfc;
    case FlowControl::None: return LinkFlowMode::Lossy;
    default: return LinkFlowMode::Lossless;
  }
}

}  // namespace gf
