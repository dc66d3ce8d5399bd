// The software and NIC stack NCCL drives a network technology through (its "transport": NCCL's
// IB verbs, its socket transport, or a net plugin), and what that stack adds to every network step
// of NCCL's pipeline beyond NCCL's own per-step NET figure and the path's wire and switch time.
// One table, every term with its citation or its fit (docs/models.md, "A network step, layer by
// layer"). A link technology carries its transport's term (LinkTech::transport_latency): its
// family's transport unless a cluster file names one (`transport:`) or sets the term itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/link_tech.hpp"

namespace gf {

enum class NicTransport : uint8_t {
  None,            // not a network technology
  IbVerbs,         // NCCL's IB transport on InfiniBand (net_ib.cc)
  RoceVerbs,       // NCCL's IB transport on RoCEv2 NICs
  Efa,             // AWS EFA through aws-ofi-nccl (libfabric, SRD)
  Socket,          // NCCL's socket transport (net_socket.cc): kernel TCP, host-staged
  GpuDirectTcpx,   // Google's GPUDirect-TCPX plugin (A3 High)
  GpuDirectTcpxo,  // Google's GPUDirect-TCPXO plugin (A3 Mega)
  GaudiRoce,       // Intel Gaudi's on-chip RoCE ports (HCCL)
};

// The YAML spelling (`transport: gpudirect-tcpxo`).
const char* transport_key(NicTransport t);
std::optional<NicTransport> parse_transport(const std::string& key);
std::vector<std::string> transport_keys();

// The transport a technology of `family` runs when its file names none: its family's own; Ethernet
// TCP is NCCL's socket transport.
NicTransport transport_of_family(LinkFamily family);
// Whether `t` can run on links of `family` (GPUDirect-TCPX/TCPXO and sockets on Ethernet TCP, the
// rest on their own family).
bool transport_fits_family(NicTransport t, LinkFamily family);
// Whether links of `family` cross a NIC (a network step), so a network transport's term applies.
bool is_network_family(LinkFamily family);

// A transport's per-step term, with its citation, or the set and row it was fitted to.
TransportLatency transport_term(NicTransport t);
// The term alone (no text), for the models' per-step costs.
Time transport_latency(NicTransport t);

}  // namespace gf
