// Everything the packet-level model can be told: packet size, buffers, link-level flow control,
// congestion control and load balancing. One documented struct with defaults in one place; the
// defaults' sources are cited beside each field in packet_params.cpp's validate() and in
// docs/models.md. `auto` choices follow the fabric's technology: InfiniBand -> credit flow control,
// no end-to-end congestion control; RoCEv2 -> PFC + ECN/DCQCN; Ethernet TCP -> lossy queues + TCP.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/units.hpp"

namespace gf {

enum class FlowControl : uint8_t { Auto, None, Pfc, Credit };
enum class CongestionControl : uint8_t { Auto, None, Dcqcn, Tcp };
// Per-packet path choice in the fabric. Auto follows the run's RoutingPolicy (ecmp -> Ecmp,
// spray -> Spray, adaptive -> Adaptive).
enum class LoadBalance : uint8_t { Auto, Ecmp, Spray, Flowlet, Adaptive };

struct EcnParams {  // RED-style marking on egress queue depth (DCQCN paper, section 3.1)
  Bytes kmin = Bytes::kib(100);
  Bytes kmax = Bytes::kib(400);
  double pmax = 0.2;
};

struct PfcParams {  // IEEE 802.1Qbb pause per ingress queue
  Bytes xoff = Bytes::kib(256);      // pause upstream when the ingress queue passes this
  Bytes xon = Bytes::kib(128);       // resume when it falls below this
  Bytes headroom = Bytes::kib(64);   // absorbs what is in flight after the pause is sent
};

struct DcqcnParams {  // Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015
  double g = 1.0 / 256;              // alpha gain
  Time alpha_timer = Time::us(55);   // alpha update period without CNPs
  Time rate_timer = Time::us(55);    // rate increase timer (paper: 55 us)
  Bytes byte_counter = Bytes::mib(10);
  int fast_recovery_steps = 5;       // F
  double rate_ai_gbps = 5;           // additive increase step
  double rate_hai_gbps = 50;         // hyper increase step
  Time cnp_interval = Time::us(50);  // at most one CNP per flow per interval (NP side)
  double min_rate_gbps = 0.1;
};

struct TcpParams {  // NewReno-style sender (RFC 5681, RFC 6582), RTO per RFC 6298
  int init_cwnd_packets = 10;        // RFC 6928
  Time min_rto = Time::ms(1);        // datacenter setting; RFC 6298 says 1 s for the Internet
  int dupack_threshold = 3;
};

struct PacketParams {
  Bytes mtu = Bytes(4096);               // payload per packet
  Bytes header = Bytes(64);              // per-packet header bytes on the wire
  Bytes port_buffer = Bytes::kib(512);   // per egress port, dedicated
  Bytes shared_buffer = Bytes::mib(32);  // per switch, shared by its ports (0 = none)
  FlowControl flow_control = FlowControl::Auto;
  CongestionControl congestion_control = CongestionControl::Auto;
  LoadBalance load_balance = LoadBalance::Auto;
  Time flowlet_gap = Time::us(50);       // flowlet switching: a gap this long allows a new path
  EcnParams ecn;
  PfcParams pfc;
  DcqcnParams dcqcn;
  TcpParams tcp;
  uint64_t seed = 0;                     // ECN marking and hashing draws

  // Contradictions (Xon above Xoff, Kmin above Kmax, a buffer smaller than one MTU, an MTU larger
  // than the buffer) throw InputError naming `where` and the key.
  void validate(const SourceLocation& where) const;
};

}  // namespace gf
