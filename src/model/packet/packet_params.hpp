// Everything the packet-level model can be told: packet size, buffers, link-level flow control,
// congestion control and load balancing. One documented struct with defaults in one place, each
// default's source beside it (docs/models.md, "Congestion control in the packet model", collects
// them). `auto` choices follow the fabric's technology (resolve_* below and, for congestion
// control, the scheme that claims the family: congestion_control.hpp): InfiniBand -> credit flow
// control, no end-to-end congestion control; RoCEv2 -> PFC + ECN/DCQCN; Ethernet TCP -> lossy
// queues + TCP. Each congestion-control scheme's own settings (DcqcnParams in dcqcn.hpp,
// IbCcParams in ib_cc.hpp, TcpParams in tcp.hpp) live in `cc`, read and checked by the scheme.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "model/packet/cc_settings.hpp"
#include "routing/routing_policy.hpp"
#include "topology/link_tech.hpp"

namespace gf {

class CongestionControl;

enum class FlowControl : uint8_t { Auto, None, Pfc, Credit };
// Per-packet path choice in the fabric. Auto follows the run's RoutingPolicy (ecmp -> Ecmp,
// spray -> Spray, adaptive -> Adaptive).
enum class LoadBalance : uint8_t { Auto, Ecmp, Spray, Flowlet, Adaptive };
// Which traffic class an egress port serves next (docs/models.md, "Traffic classes").
// RoundRobin: one packet per non-empty, sendable class in turn: IEEE 802.1Qaz ETS with equal
// weights, counted in packets (DWRR by bytes would give the same shares when packets are of one
// size; with mixed sizes a class of larger packets gets more bytes here). Strict: always the
// lowest-numbered sendable class (strict priority, 802.1Q; class 0 first).
enum class ClassScheduling : uint8_t { RoundRobin, Strict };

// Every name, in enum order (YAML values, error messages, did-you-mean suggestions).
inline constexpr std::array<std::string_view, 4> kFlowControlNames{"auto", "none", "pfc", "credit"};
inline constexpr std::array<std::string_view, 5> kLoadBalanceNames{"auto", "ecmp", "spray", "flowlet", "adaptive"};
inline constexpr std::array<std::string_view, 2> kClassSchedulingNames{"round_robin", "strict"};

inline std::string_view to_string(FlowControl v) { return kFlowControlNames[static_cast<size_t>(v)]; }
inline std::string_view to_string(LoadBalance v) { return kLoadBalanceNames[static_cast<size_t>(v)]; }
inline std::string_view to_string(ClassScheduling v) { return kClassSchedulingNames[static_cast<size_t>(v)]; }

// Exact names only; anything else is an InputError at `where`/`key` listing the valid names.
FlowControl parse_flow_control(std::string_view name, const SourceLocation& where, const std::string& key);
LoadBalance parse_load_balance(std::string_view name, const SourceLocation& where, const std::string& key);
ClassScheduling parse_class_scheduling(std::string_view name, const SourceLocation& where, const std::string& key);

// What `auto` means on a fabric of this technology; an explicit choice is returned unchanged.
//  flow control: InfiniBand and every scale-up link (NVLink, PCIe, xGMI) are credit-based and
//    never drop (InfiniBand Architecture Specification vol. 1, link-level
//    flow control; PCIe Base Specification section 2.6); RoCE -> PFC (RoCEv2 needs a
//    lossless class, IEEE 802.1Qbb); Ethernet TCP and EFA -> none (lossy queues).
//  congestion control: each scheme says which families it is `auto` for (congestion_control.hpp:
//    RoCE -> dcqcn, Ethernet TCP and EFA -> tcp, everything else -> none).
FlowControl resolve_flow_control(FlowControl chosen, LinkFamily fabric);
LoadBalance resolve_load_balance(LoadBalance chosen, RoutingPolicy policy);

// RED-style marking on the instantaneous egress queue depth (DCQCN paper, section 3.1 and the
// parameters of its section 5: Kmin = 5 KB, Kmax = 200 KB, Pmax = 1%; KB read as KiB, as
// gpufabric reads sizes everywhere, so `kmax: 200KB` in a file is the default).
struct EcnParams {
  Bytes kmin = Bytes::kib(5);    // no mark at or below this depth
  Bytes kmax = Bytes::kib(200);  // marking probability reaches pmax here; every packet above
  double pmax = 0.01;           // in (0, 1]
};

// IEEE 802.1Qbb priority flow control, per ingress queue. The thresholds are this project's
// choice (estimate), sized so that ECN marks (Kmax = 200 KB) before PFC pauses, as the DCQCN paper
// (section 5) requires, and Xoff + headroom fits a 512 KiB port buffer.
struct PfcParams {
  Bytes xoff = Bytes::kib(256);  // pause upstream when the ingress queue rises above this
  Bytes xon = Bytes::kib(128);   // resume when it falls to this or below (hysteresis: Xoff / 2)
  // Bytes that may still arrive after PAUSE is sent: IEEE 802.1Qbb Annex N's delay budget, two
  // cable delays at line rate plus two maximum frames plus response time. At 400 Gb/s (50 B/ns)
  // over 100 m of fibre (500 ns each way): 2 x 500 x 50 = 50,000 B + 2 x 4,160 B = 58,320 B,
  // rounded up for the response time to 64 KiB.
  Bytes headroom = Bytes::kib(64);
};

struct PacketParams {
  // 4096 B: the largest InfiniBand and RoCE path MTU (InfiniBand Architecture Specification vol. 1).
  Bytes mtu = Bytes(4096);
  // Per-packet header bytes on the wire: RoCEv2 is Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4
  // + FCS 4 = 62 B, rounded to 64 (InfiniBand's LRH + BTH + ICRC + VCRC is 26 B, so this
  // overstates IB's by under 1% of a 4 KiB packet).
  Bytes header = Bytes(64);
  // Buffers: an estimate of a shallow-buffered 400G switch (Broadcom Tomahawk 3: 64 MB shared by
  // 32 x 400G ports); 512 KiB dedicated per egress port, 32 MiB shared (0 = none).
  Bytes port_buffer = Bytes::kib(512);
  Bytes shared_buffer = Bytes::mib(32);
  FlowControl flow_control = FlowControl::Auto;
  // A registered scheme (congestion_control.hpp); nullptr is `auto`.
  const CongestionControl* congestion_control = nullptr;
  LoadBalance load_balance = LoadBalance::Auto;
  // Flowlet switching: a gap this long lets a flow take a new path without reordering. 50 us is
  // of the order of a datacenter RTT, the scale CONGA (Alizadeh et al., SIGCOMM 2014) sets it at.
  Time flowlet_gap = Time::us(50);
  // Traffic classes per port, 1..8: 802.1Qbb has 8 priorities; InfiniBand up to 15 data virtual
  // lanes, of which switches commonly run 8 or fewer. Each class has its own egress queue, PFC
  // state per (ingress port, class) with the thresholds below, and under credits an even share
  // of port_buffer (real switches configure each VL's share; an even split is this model's
  // choice). A transfer's class is ModelTransfer::traffic_class (a scenario job's `traffic_class`).
  int traffic_classes = 1;
  ClassScheduling class_scheduling = ClassScheduling::RoundRobin;
  EcnParams ecn;
  PfcParams pfc;
  // Each congestion-control scheme's own block (DcqcnParams, IbCcParams, TcpParams, ...).
  CcSettings cc;
  uint64_t seed = 0;  // ECN marking and hashing draws

  // Contradictions throw InputError at `where` whose key is the offending field's dotted name
  // relative to the packet block ("pfc.xon", "ecn.pmax"): Xon above Xoff, Kmin above Kmax, Pmax
  // outside (0, 1], a buffer smaller than one packet, an MTU larger than the port buffer,
  // traffic classes outside 1..8 or too many to give each class one packet of port_buffer,
  // non-positive rates or timers, each scheme's own checks (CongestionControl::validate, every
  // registered scheme's block whichever runs), and an explicit flow control + congestion control
  // pair that can lose packets for good (validate_resolved's rule).
  void validate(const SourceLocation& where) const;
  // The checks that need the choices `auto` resolved to on the actual fabric: a lossy fabric
  // (flow control none) needs a scheme that recovers losses (TCP, the only modelled transport
  // that retransmits); PFC needs Xoff + headroom to fit in the buffer an ingress queue may use.
  // `cc` nullptr is `auto`.
  void validate_resolved(FlowControl fc, const CongestionControl* cc, const SourceLocation& where) const;
};

// The wire size of one full packet: MTU payload plus header.
inline Bytes packet_wire_bytes(const PacketParams& p) { return p.mtu + p.header; }

}  // namespace gf
