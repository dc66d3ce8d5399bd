// Name parsing, `auto` resolution and the consistency checks of the packet model's parameters.
// The defaults and their sources are in packet_params.hpp; the rules checked here are the ones the
// mechanisms need to work at all (docs/models.md, "Congestion control in the packet model").
#include "model/packet/packet_params.hpp"

#include "model/packet/congestion_control.hpp"

namespace gf {
namespace {

template <typename Enum, size_t N>
Enum parse_name(const std::array<std::string_view, N>& names, std::string_view name, const SourceLocation& where,
                const std::string& key, const char* what) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  const std::vector<std::string> valid(names.begin(), names.end());
  throw InputError(where, key, std::string("unknown ") + what + " '" + std::string(name) + "'",
                   suggest(std::string(name), valid));
}

std::string str(Bytes b) { return std::to_string(b.count()) + " B"; }

// Auto (nullptr) passes: validate_resolved runs again on what it resolves to.
bool lossy_partner_ok(const CongestionControl* cc) { return cc == nullptr || cc->recovers_losses(); }

}  // namespace

FlowControl parse_flow_control(std::string_view name, const SourceLocation& where, const std::string& key) {
  return parse_name<FlowControl>(kFlowControlNames, name, where, key, "flow control");
}

LoadBalance parse_load_balance(std::string_view name, const SourceLocation& where, const std::string& key) {
  return parse_name<LoadBalance>(kLoadBalanceNames, name, where, key, "load balancing");
}

ClassScheduling parse_class_scheduling(std::string_view name, const SourceLocation& where, const std::string& key) {
  return parse_name<ClassScheduling>(kClassSchedulingNames, name, where, key, "class scheduling");
}

FlowControl resolve_flow_control(FlowControl chosen, LinkFamily fabric) {
  if (chosen != FlowControl::Auto) return chosen;
  switch (fabric) {
    case LinkFamily::RoCE:
    case LinkFamily::GaudiRoce: return FlowControl::Pfc;
    case LinkFamily::EthernetTcp:
    case LinkFamily::Efa: return FlowControl::None;
    default: return FlowControl::Credit;  // InfiniBand and every scale-up / in-server link
  }
}

LoadBalance resolve_load_balance(LoadBalance chosen, RoutingPolicy policy) {
  if (chosen != LoadBalance::Auto) return chosen;
  switch (policy) {
    case RoutingPolicy::Spray: return LoadBalance::Spray;
    case RoutingPolicy::Adaptive: return LoadBalance::Adaptive;
    case RoutingPolicy::Ecmp: break;
  }
  return LoadBalance::Ecmp;
}

void PacketParams::validate(const SourceLocation& where) const {
  auto fail = [&](const std::string& key, const std::string& msg, const std::string& hint) {
    throw InputError(where, key, msg, hint);
  };
  auto positive_time = [&](const std::string& key, Time t) {
    if (t <= Time::zero()) fail(key, "must be longer than 0, got " + to_string(t), "give a time such as 50us");
  };
  const Bytes packet = packet_wire_bytes(*this);

  // Packets and buffers.
  if (mtu.count() <= 0) fail("mtu", "must be at least 1 byte, got " + str(mtu), "4096 is the RoCE and InfiniBand maximum");
  if (header.count() < 0) fail("header", "cannot be negative, got " + str(header), "RoCEv2 headers are 62 B: use 64");
  if (mtu > port_buffer)
    fail("mtu", "MTU " + str(mtu) + " is larger than the port buffer " + str(port_buffer) + ": no packet fits",
         "lower mtu or raise port_buffer to at least mtu + header = " + str(packet));
  if (port_buffer < packet)
    fail("port_buffer", str(port_buffer) + " holds less than one packet (mtu + header = " + str(packet) + ")",
         "raise port_buffer to at least " + str(packet));
  if (shared_buffer.count() < 0 || (shared_buffer.count() > 0 && shared_buffer < packet))
    fail("shared_buffer", str(shared_buffer) + " holds less than one packet (mtu + header = " + str(packet) + ")",
         "use 0 for no shared buffer, or at least " + str(packet));
  positive_time("flowlet_gap", flowlet_gap);

  // Traffic classes: 802.1Qbb's 8 priorities (InfiniBand's VLs beyond 8 are not modelled); under
  // credits each class gets port_buffer / traffic_classes, which must hold one packet.
  if (traffic_classes < 1 || traffic_classes > 8)
    fail("traffic_classes", "must be 1 to 8, got " + std::to_string(traffic_classes),
         "1 is one queue per port (the default); RoCE deployments use 2 or 3 (RDMA, CNPs, other traffic), up to 8 priorities");
  if (port_buffer.count() / traffic_classes < packet.count())
    fail("traffic_classes", std::to_string(traffic_classes) + " classes split port_buffer " + str(port_buffer) + " into " +
                                str(Bytes(port_buffer.count() / traffic_classes)) + " each, less than one packet (" + str(packet) + ")",
         "use fewer classes or raise port_buffer to at least " + str(Bytes(packet.count() * traffic_classes)));

  // ECN marking (DCQCN paper section 3.1): a ramp from Kmin to Kmax.
  if (ecn.kmin.count() < 0) fail("ecn.kmin", "cannot be negative, got " + str(ecn.kmin), "the paper uses 5KB");
  if (ecn.kmin > ecn.kmax)
    fail("ecn.kmin", "Kmin " + str(ecn.kmin) + " is above Kmax " + str(ecn.kmax) + ": the marking ramp runs backwards",
         "make kmin at most kmax (the DCQCN paper uses kmin 5KB, kmax 200KB)");
  if (!(ecn.pmax > 0 && ecn.pmax <= 1))
    fail("ecn.pmax", "must be a probability in (0, 1], got " + std::to_string(ecn.pmax),
         "the DCQCN paper uses 0.01; 1 marks every packet at Kmax");

  // PFC (IEEE 802.1Qbb): pause above Xoff, resume at Xon, headroom for what is in flight.
  if (pfc.xoff.count() <= 0) fail("pfc.xoff", "must be above 0, got " + str(pfc.xoff), "e.g. 256KiB");
  if (pfc.xon.count() < 0) fail("pfc.xon", "cannot be negative, got " + str(pfc.xon), "e.g. 128KiB");
  if (pfc.xon > pfc.xoff)
    fail("pfc.xon", "Xon " + str(pfc.xon) + " is above Xoff " + str(pfc.xoff) + ": a paused queue would resume while still above the pause threshold",
         "make xon at most xoff (e.g. xon = xoff / 2)");
  if (pfc.headroom < packet)
    fail("pfc.headroom", "headroom " + str(pfc.headroom) + " is smaller than one packet (" + str(packet) + "): the packet on the wire when PAUSE leaves would not fit",
         "headroom must cover two cable delays at line rate plus two packets; 64KiB suits 400G over 100 m");

  // Each congestion-control scheme's own block, in block-name order (dcqcn, ibcc, tcp).
  for (const CongestionControl* scheme : congestion_control_blocks()) scheme->validate(cc, where);

  if (flow_control != FlowControl::Auto || congestion_control != nullptr)
    validate_resolved(flow_control, congestion_control, where);
}

void PacketParams::validate_resolved(FlowControl fc, const CongestionControl* cc, const SourceLocation& where) const {
  if (fc == FlowControl::None && !lossy_partner_ok(cc))
    throw InputError(where, "congestion_control",
                     "'" + congestion_control_name(cc) + "' on a lossy fabric (flow_control: none) never resends a dropped packet",
                     "use congestion_control: tcp, or a lossless flow_control (pfc, credit)");
  if (fc == FlowControl::Pfc && pfc.xoff + pfc.headroom > port_buffer + shared_buffer)
    throw InputError(where, "pfc.xoff",
                     "Xoff + headroom = " + str(pfc.xoff + pfc.headroom) + " is more than the buffer an ingress queue can use (port_buffer + shared_buffer = " +
                         str(port_buffer + shared_buffer) + "): PFC could not keep the fabric lossless",
                     "lower pfc.xoff or pfc.headroom, or raise the buffers");
}

}  // namespace gf
