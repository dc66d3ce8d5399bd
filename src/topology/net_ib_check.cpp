#include "topology/net_ib_check.hpp"

#include <optional>
#include <string>

#include "core/error.hpp"
#include "topology/ib_hca.hpp"

namespace gf {

namespace {

// What drives a NIC of family `f` (rdma: whether the technology carries RDMA), for the message:
// empty for the families NCCL's IB transport drives.
std::string driver_of(LinkFamily f, bool rdma) {
  switch (f) {
    case LinkFamily::InfiniBand:
    case LinkFamily::RoCE:
      return "";
    case LinkFamily::Efa:
      return "EFA, which NCCL's IB transport skips (its port reports no InfiniBand or Ethernet link "
             "layer); the aws-ofi-nccl plugin drives it and registers as 'Libfabric'";
    case LinkFamily::EthernetTcp:
      return rdma ? "GPUDirect-TCPX/TCPXO Ethernet without verbs, driven by Google's own NCCL net plugin"
                  : "plain TCP Ethernet without RDMA: no verbs device for NCCL's IB transport";
    case LinkFamily::GaudiRoce:
      return "a Gaudi on-chip RoCE port, driven by Habana's HCCL, not NCCL";
    default:
      return std::string("a ") + to_string(f) + " link, not a network NIC";
  }
}

}  // namespace

NetRefusal ib_transport_refusal(const ServerTemplate& server, const LinkCatalog& catalog) {
  int used = 0, verbs = 0;
  const ServerNode* bad = nullptr;
  const LinkTech* bad_tech = nullptr;
  for (const ServerNode& n : server.nodes) {
    if (!n.nccl_nic()) continue;
    ++used;
    const std::optional<TechId> id = catalog.find(n.tech);
    if (!id) continue;  // an unknown technology is the server's own error, reported where it is checked
    const LinkTech& t = catalog.tech(*id);
    if (driver_of(t.family, t.rdma).empty()) ++verbs;
    else if (!bad) bad = &n, bad_tech = &t;
  }
  if (used == 0)
    return {"NCCL_NET=IB names NCCL's InfiniBand verbs transport, but the server has no network NIC NCCL uses; NCCL "
            "would fail with 'Failed to initialize any NET plugin'",
            "drop NCCL_NET, or use a server with InfiniBand or RoCE NICs"};
  if (!bad) return {};
  const LinkTech& t = *bad_tech;
  NetRefusal r;
  r.message = "NCCL_NET=IB names NCCL's InfiniBand verbs transport, but NIC " + ib_name(*bad) + " (" + bad->name + ", " +
              t.name + ") is " + driver_of(t.family, t.rdma);
  // With no verbs NIC at all NCCL stops at init; with some, NCCL would run on those alone, which
  // NCCL_IB_HCA says here (gpufabric does not drop NICs silently).
  r.message += verbs == 0 ? "; NCCL would fail with 'Failed to initialize any NET plugin'"
                          : "; NCCL would use only the server's " + std::to_string(verbs) + " InfiniBand/RoCE NICs";
  if (verbs > 0)
    r.hint = "name the InfiniBand/RoCE NICs with NCCL_IB_HCA, or drop NCCL_NET (gpufabric runs each NIC's own transport)";
  else if (t.family == LinkFamily::EthernetTcp && !t.rdma)
    r.hint = "use NCCL_NET=Socket (NCCL's TCP transport), or drop NCCL_NET (gpufabric runs each NIC's own transport)";
  else
    r.hint = "drop NCCL_NET: gpufabric runs each NIC's own transport (the plugin's on " + t.name +
             "); NCCL_NET=Socket runs TCP over the same NICs";
  return r;
}

void check_ib_transport(const ServerTemplate& server, const LinkCatalog& catalog, const std::string& where) {
  const NetRefusal r = ib_transport_refusal(server, catalog);
  if (r.refused()) throw InputError({where, 0, 0}, "NCCL_NET", r.message, r.hint);
}

}  // namespace gf
