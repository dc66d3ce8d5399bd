// Failed and degraded components, applied to a built Cluster before it is routed: what
// `gpufabric perf --fail SPEC --degrade SPEC=FRACTION` asks (docs/failures.md).
//
// Components are named as `topo` names them: a NIC "server3/nic5" (its fabric ports), a switch
// "leaf12" / "spine3" / "p1/leaf0" (every link it has), a link by its two ends "leaf12-spine3"
// (every parallel cable between them) and one cable of such a bundle "leaf12-spine3#2" (1-based).
// Parallel cables between two switches are separate links in the graph (the ECMP hash picks one),
// so a cable down or degraded touches only the flows hashed onto it, and routing spreads over the
// cables left (docs/failures.md).
//
// Two components stand for more than their links: a whole server "server3" (every link from its
// devices to the rest of the cluster: its NIC cables and NVLink-domain links, so its GPUs are cut
// off) and an NVSwitch chip, "server0/nvswitch2" on an NVSwitch baseboard (its GPU links) or
// "nvl-domain0/nvswitch5" / "nvl-domain0/switch-tray3" in an NVL72-style domain, whose chips are
// one plane node (topology/cluster_builder.cpp): there the chip's share of every GPU's bonded
// link to the plane is taken away instead (topology/whole_faults.hpp).
#pragma once

#include <string>
#include <vector>

#include "topology/cluster.hpp"

namespace gf {

struct FaultRequest {
  std::string flag;       // "--fail" or "--degrade": the key errors name
  std::string component;  // as topo names it, with an optional "#k"
  double keep = 0;        // fraction of bandwidth left: 0 = down, (0, 1) = degraded, 1 = latency or loss only
  Time extra_latency;     // "=latency:+5us": added to each direction's latency
  double loss = 0;        // "=loss:1e-4": packet loss rate, costed as go-back-N retransmission (loss_efficiency)
  Time loss_rtt;          // the round trip that sets the go-back-N window ("loss:1e-4,rtt=10us")
  // Set by a caller that runs the packet model: a loss keeps the links' bandwidth and is handed
  // on in AppliedFault::loss, for the packet model to drop packets at (PacketModel::set_link_loss)
  // instead of the flow model's average penalty (loss_efficiency).
  bool loss_as_drops = false;
};

// What a reliable-connection transport keeps of a link's bandwidth when a fraction `loss` of its
// packets is lost and every loss makes the sender go back N: RoCE and InfiniBand RC NICs retransmit
// from the lost packet's sequence number on a NAK (IBTA spec vol. 1, chapter 9.7, reliable service:
// a sequence-error NAK and retry from its PSN; Mittal et al., "Revisiting Network Support for
// RDMA", SIGCOMM 2018, section 2: go-back-N in RoCE NICs), so each loss resends what was in flight,
// N = ceil(bandwidth x rtt / MTU) packets of a 4096 B MTU. Go-back-N's link utilisation with the
// window covering the round trip is (1 - p) / (1 + (N - 1) p) (Stallings, Data and Computer
// Communications, ARQ performance: (1 - P) / (1 + 2aP), with 2a + 1 = N packets per round trip).
// Time-outs (a lost last packet of a message) are not counted.
double loss_efficiency(double loss, Bandwidth bw, Time rtt);

// What one request did, for the report.
struct AppliedFault {
  std::string component;
  std::string effect;         // "down: 2 links", "at 50% of 50 GB/s", "1 of 4 cables down"
  std::vector<LinkId> links;  // forward link of each pair it touched
  // What the component was, where that decides what NCCL does (workload/failure_timeline.hpp).
  enum class Scope { Links, Server, NvSwitch } scope = Scope::Links;
  int64_t server = -1;        // Scope::Server: the server that is down
  bool down = false;          // failed (--fail, an event's down), not degraded
  // A slow GPU (`--degrade server1/gpu3=0.5`): no link changes; that GPU reduces at `compute` of
  // its full rate, a resource its channels share (FlowModel::set_gpu_compute). kNoNode otherwise.
  NodeId gpu = kNoNode;
  double compute = 1;
  // A loss asked as packet drops (FaultRequest::loss_as_drops): `links` keep their bandwidth and
  // the packet model drops each packet crossing either direction of them at this rate. 0 otherwise.
  double loss = 0;
};

// "--fail X" -> {X, 0}; "--degrade X=F" with 0 < F < 1 (F = 0 is --fail; F = 1 changes nothing).
// Throws InputError naming `flag`.
FaultRequest parse_fault(const std::string& flag, const std::string& text);

// The forward links of the pairs a component name covers (see above), and the cable index k
// (0 when the name has no "#k"). Throws InputError with a did-you-mean for a name that matches
// nothing, a GPU or server-internal device (not a fabric component), or k beyond the bundle.
struct ComponentLinks {
  std::vector<LinkId> links;
  int cable = 0;
  AppliedFault::Scope scope = AppliedFault::Scope::Links;
  int64_t server = -1;  // Scope::Server
  // Scope::NvSwitch in an NVL72-style domain: the links are GPUs' bonded links to the switch
  // plane and `share` is the fraction of each that the named chips carry (0: the links are the
  // chip's own, taken down or degraded whole).
  double share = 0;
  std::string what;     // the effect's words for the report, e.g. "each GPU keeps 14 of 18 NVLinks"
};
ComponentLinks component_links(const Cluster& c, const std::string& name, const std::string& flag);

// Applies every request to `c` and re-finalizes it. Throws InputError as component_links does.
std::vector<AppliedFault> apply_faults(Cluster& c, const std::vector<FaultRequest>& faults);

// GPUs with no route left to `from` (a GPU): servers do not carry other servers' traffic and
// GPUs do not forward, as the Router's rules say. Empty when every GPU is still reachable.
std::vector<int64_t> unreachable_gpus(const Cluster& c, NodeId from);

}  // namespace gf
