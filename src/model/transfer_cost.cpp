#include "model/transfer_cost.hpp"

#include <algorithm>
#include <cmath>

#include "model/gdr_flush.hpp"
#include "topology/nic_transport.hpp"

namespace gf {

HopClass hop_class(const Cluster& c, const Path& p) {
  bool nvlink = false;
  for (LinkId l : p.links) {
    switch (c.catalog().tech(c.link(l).tech).family) {
      case LinkFamily::InfiniBand:
      case LinkFamily::RoCE:
      case LinkFamily::EthernetTcp:
      case LinkFamily::Efa:
      case LinkFamily::GaudiRoce: return HopClass::Net;
      case LinkFamily::NvLink:
      case LinkFamily::NvLinkC2C:
      case LinkFamily::Xgmi: nvlink = true; break;
      default: break;
    }
  }
  return nvlink ? HopClass::NvLink : HopClass::Pci;
}

TransferCost::TransferCost(const Cluster& c, ModelParams params) : c_(c), params_(params) {
  const std::string& arch = c.server_template().gpu.arch;
  capacity_.resize(c.links().size());
  // NCCL_NET=Socket (topology/net_transport.hpp): NCCL's TCP transport over the same NICs, so
  // every network link runs at the socket transport's fraction, as a `rdma: false` link does.
  const bool socket = c.server_template().transport.net.socket;
  // The efficiency depends on the link's technology only: found once per technology, since a
  // model is built for every collective timed (replay times thousands on one cluster).
  const std::vector<LinkTech>& techs = c.catalog().techs();
  std::vector<double> eff(techs.size());
  for (size_t t = 0; t < techs.size(); ++t) {
    LinkTech tech = techs[t];
    if (socket && tech.rdma) tech.rdma = false;
    eff[t] = params_.efficiency(tech, arch);
  }
  for (size_t i = 0; i < capacity_.size(); ++i) {
    const Link& k = c.links()[i];
    capacity_[i] = k.bandwidth.bytes_per_second() * eff[static_cast<size_t>(k.tech)];
  }
  if (arch_flushes_gdr(arch)) gdr_receive_.emplace(c);
}

double TransferCost::inflation(const ModelTransfer& t) const {
  double e = params_.protocol_efficiency[static_cast<size_t>(t.proto)] * t.efficiency;
  if (t.scale_up_efficiency != 1.0 && inside_scale_up(t)) e *= t.scale_up_efficiency;
  return 1.0 / e;
}

bool TransferCost::inside_scale_up(const ModelTransfer& t) const {
  if (!t.route || t.legs().empty()) return false;
  for (const Leg& leg : t.legs())
    if (hop_class(c_, leg.path) != HopClass::NvLink) return false;
  return true;
}

Time TransferCost::alpha(const ModelTransfer& t) const {
  double a = 0;
  const bool may_flush = gdr_receive_ && t.proto == Protocol::Simple;
  for (const Leg& leg : t.legs()) {
    double physical = 0;
    // The slowest network transport's own per-step latency, twice on a step NCCL flushes
    // (model/gdr_flush.hpp: Simple, received by GPUDirect RDMA, GPU older than Hopper).
    // Under NCCL_NET=Socket every network step runs NCCL's socket transport, whatever the NIC's
    // own transport: its term (topology/nic_transport.hpp) replaces the technology's.
    const bool socket = c_.server_template().transport.net.socket;
    Time transport = Time::zero();
    for (LinkId l : leg.path.links) {
      physical += static_cast<double>(c_.link(l).latency.picoseconds()) * 1e-12;
      const LinkTech& tech = c_.catalog().tech(c_.link(l).tech);
      const Time term = socket && is_network_family(tech.family) ? transport_latency(NicTransport::Socket)
                                                                 : params_.network_step_latency(tech);
      transport = std::max(transport, term);
    }
    if (may_flush && transport > Time::zero())
      transport = transport * transport_terms_per_step(t.proto, true, (*gdr_receive_)(leg.path));
    const HopClass hc = hop_class(c_, leg.path);
    const double step = t.step_latency[static_cast<size_t>(hc)].to_s();
    // A network step pays NCCL's per-step figure (host and proxy time), its transport's own term and
    // the wire and switch time of its path on top: the switches differ by technology (Quantum-2
    // 130 ns, Spectrum-4 and Tomahawk 600-700 ns a hop; link_catalog.cpp). Inside a server the
    // NVLink/PCIe step figures already exceed the path's ~100 ns hops, as before.
    a = std::max(a, hc == HopClass::Net ? step + transport.to_s() + physical : std::max(step, physical));
  }
  return seconds_to_time(a * std::max(0, t.steps));
}

double TransferCost::reduce_seconds(const ModelTransfer& t) {
  return t.reduce.count() > 0 && t.reduce_rate.bytes_per_second() > 0
             ? static_cast<double>(t.reduce.count()) / t.reduce_rate.bytes_per_second()
             : 0.0;
}

Time seconds_to_time(double s) { return Time::ps_rounded(s * 1e12); }  // saturates past int64

}  // namespace gf
