// Which links are lossless, from PacketParams::flow_control and each link's technology family.
//  - Links inside a server and NVLink domains (NVLink, C2C, xGMI, PCIe, inter-socket) are always
//    lossless: PCIe and NVLink use credit-based link-level flow control in hardware (PCI Express
//    Base Specification, "Flow Control"; NVLink likewise), whatever the fabric's setting.
//  - Network links: Credit or Pfc -> lossless, None -> lossy; Auto by family: InfiniBand -> credits
//    (IBTA InfiniBand Architecture Specification Vol. 1, 7.9 "Flow control": a sender transmits
//    only against credits the receiver advertised), RoCE and Gaudi RoCE -> PFC (pause frames at
//    Xoff/Xon, congestion_hooks.hpp), EthernetTcp and EFA (SRD over lossy Ethernet) -> lossy
//    (resolve_flow_control in packet_params.hpp).
#pragma once

#include "model/packet/packet_params.hpp"
#include "model/packet/port.hpp"
#include "topology/link_tech.hpp"

namespace gf {

LinkFlowMode link_flow_mode(FlowControl fc, LinkFamily family);

}  // namespace gf
