// NCCL_NET=IB on NICs NCCL's IB transport cannot drive: refused, as NCCL itself fails.
//
// With NCCL_NET set, NCCL initialises only the network plugin whose name matches it without case
// (src/plugin/net.cc ncclNetInit: strcasecmp of the comm's netName with each plugin's name; IB and
// Socket are its two built-in ones). The IB plugin keeps only verbs devices whose active port's
// link layer is InfiniBand or Ethernet (src/transport/net_ib/init.cc ncclIbInitDevices); with none
// it reports no device, ncclNetPluginInit disables it, and ncclNetInit ends with "Failed to
// initialize any NET plugin" (ncclInvalidUsage): the job does not start. So:
//  - InfiniBand and RoCE NICs: the IB plugin drives them (what gpufabric runs on them already).
//  - EFA: the Linux efa driver reports its port's link layer as unspecified (drivers/infiniband/
//    hw/efa/efa_verbs.c efa_port_link_layer returns IB_LINK_LAYER_UNSPECIFIED), so the IB plugin
//    skips it; EFA is driven by the aws-ofi-nccl plugin, which registers its own name
//    ("Libfabric"; "AWS Libfabric" and "OFI" are accepted aliases: aws/aws-ofi-nccl,
//    nvidia_plugin_name_fixup).
//  - Plain TCP Ethernet (`rdma: false`): no verbs device at all; NCCL's Socket transport is the
//    built-in one that runs there.
//  - GPUDirect-TCPX/TCPXO (Ethernet without RDMA, GPU-direct through Google's own plugin): that
//    plugin's name, not IB.
//  - Gaudi's on-chip RoCE ports: driven by Habana's HCCL, not by NCCL.
// Which NICs count: the compute NICs NCCL uses (NCCL_IB_HCA already applied: topology/ib_hca.hpp).
#pragma once

#include <string>

#include "topology/link_tech.hpp"
#include "topology/server_template.hpp"

namespace gf {

struct NetRefusal {
  std::string message, hint;  // empty message: nothing to refuse
  bool refused() const { return !message.empty(); }
};

// Why NCCL_NET=IB cannot run on `server` (technologies looked up in `catalog`): the first NIC
// NCCL uses that the IB transport cannot drive, or no such NIC at all; empty when every NIC is
// InfiniBand or RoCE.
NetRefusal ib_transport_refusal(const ServerTemplate& server, const LinkCatalog& catalog);

// For NCCL_NET=IB set at `where` ("--env", "environment", a file): throws InputError there, key
// NCCL_NET, when ib_transport_refusal refuses; does nothing otherwise.
void check_ib_transport(const ServerTemplate& server, const LinkCatalog& catalog, const std::string& where);

}  // namespace gf
