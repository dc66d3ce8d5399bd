// A collective algorithm turns one call into a Schedule for a communicator, and declares the traits
// NCCL's tuner knows it by. One algorithm per file in algorithms/, each registered by one line in
// algorithm_registry.cpp; everything else (the tuner, `--algo` checks, `gpufabric list algorithms`,
// the latencies a schedule is charged) reads the registry and never names an algorithm.
//
// Traits that have no sensible default are types without a default constructor (NcclLatencies,
// ProtocolSet, AutoChoice) or pure virtual functions, so an algorithm that forgets one does not
// compile; the registry checks the rest (names, text, finite latencies) when it is built.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "core/protocol.hpp"

namespace gf {

struct AlgorithmOptions {
  Protocol proto = Protocol::Simple;
  int channels = 1;  // parallel channels (NCCL's nChannels); each carries bytes / channels
};

// NCCL's latency constants for one algorithm (NVIDIA/nccl src/graph/tuning.cc baseLat and hwLat, as
// transcribed in ../shared/validation/README.md sections 1-2), microseconds, per protocol in
// Protocol order (LL, LL128, Simple).
struct NcclLatencies {
  using PerProtocol = std::array<double, kProtocols>;
  NcclLatencies(PerProtocol base, PerProtocol nvlink, PerProtocol pci, PerProtocol net, bool nvlink_once_per_call)
      : base_us(base), hw_us{nvlink, pci, net}, nvlink_once(nvlink_once_per_call) {}
  PerProtocol base_us;                 // once per call
  std::array<PerProtocol, 3> hw_us;    // per step, by link class {NVLink, PCI, NET}
  // NCCL charges NVLS's NVLink latency once per call (latency = intraLat), not per step: the figure
  // goes into the base and NVLink steps cost only their wire time.
  bool nvlink_once;
};

// The protocols an algorithm runs. NCCL's own rule that LL128 needs an NVLink intra-node path is
// the tuner's, applied to every algorithm alike.
class ProtocolSet {
 public:
  explicit ProtocolSet(std::initializer_list<Protocol> protocols) : list_(protocols) {}
  const std::vector<Protocol>& list() const { return list_; }

 private:
  std::vector<Protocol> list_;  // in Protocol order
};

// Whether `--algo auto` may choose the algorithm and, among equal estimates, in which order (lower
// ranks win). The order is gpufabric's: in-switch reduction first (NVLS, NVLS tree, CollNet direct,
// chain), then ring, tree, pat and the all-to-all and send/recv patterns. NCCL itself keeps the
// first minimum in its enum order (tree, ring, collnet direct, collnet chain, nvls, nvls tree, pat:
// src/include/device.h, tuning.cc); exact ties are rare outside single-candidate calls.
class AutoChoice {
 public:
  static AutoChoice tie_rank(int rank) { return AutoChoice(rank); }
  static AutoChoice never() { return AutoChoice(0); }
  bool allowed() const { return rank_ > 0; }
  int rank() const { return rank_; }

 private:
  explicit AutoChoice(int rank) : rank_(rank) {}
  int rank_;
};

// Where an algorithm reduces, when not in the GPUs: NCCL enables each kind by its own switch
// (NCCL_NVLS_ENABLE, NCCL_COLLNET_ENABLE), which the tuner honours.
enum class InNetwork : uint8_t { None, Nvls, CollNet };

struct AlgorithmTraits {
  std::string name;         // the NCCL_ALGO spelling where NCCL has one ("ring", "nvlstree", ...)
  std::string description;  // one line
  std::string source;       // where its communication pattern comes from
  std::vector<CollectiveKind> collectives;  // what it implements (unsupported() refuses the rest)
  ProtocolSet protocols;
  NcclLatencies latency;
  AutoChoice automatic;
  InNetwork in_network;

  bool implements(CollectiveKind kind) const;
};

// What NCCL's closed-form estimate needs of a communicator, computed once per call by the tuner
// (nccl/nccl_estimate.hpp says how each figure is taken from the topology).
struct EstimateInput {
  int nranks = 0, nnodes = 0, ppn = 0;
  bool nvlink = false;
  std::string arch;
  double bw_intra = 0;     // GB/s per GPU to its server's other GPUs
  double bw_inter = 0;     // GB/s per server: ppn x one GPU's network bandwidth
  double transport_us = 0; // what the network transport adds to every inter-node step
  CollectiveKind kind = CollectiveKind::AllReduce;
  Bytes bytes;

  bool all_reduce() const { return kind == CollectiveKind::AllReduce; }
  // busBw as NCCL's tuner starts from it: bwIntra on one server, else min(bwIntra, bwInter).
  double bus() const;
  // Ring steps of the call (2(n-1) for AllReduce, n-1 for AllGather/ReduceScatter, else n) and
  // the busBw -> algBw factor n / steps.
  int nsteps() const;
  double ring_factor() const;
  double log2_nodes() const;
};

// An algorithm's per-step latencies for the estimate: {intra (NVLink or PCI), inter (NET +
// transport)}, microseconds.
struct StepLatency {
  double intra = 0, inter = 0, base = 0;
};
StepLatency step_latency(const NcclLatencies& l, Protocol p, const EstimateInput& in);

// NCCL's estimate, time = latency + bytes / algBw (microseconds, GB/s); nullopt when algBw <= 0.
std::optional<Time> nccl_time(double latency_us, double alg_bw_gbps, Bytes bytes);

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual const AlgorithmTraits& traits() const = 0;
  const std::string& name() const { return traits().name; }
  const std::string& description() const { return traits().description; }
  const std::string& source() const { return traits().source; }

  // "" when it can run this collective on this communicator; otherwise why not, in words a user
  // can act on ("NVLS needs NVSwitch with in-switch reduction (Hopper or later)").
  virtual std::string unsupported(const Communicator& comm, CollectiveKind kind) const = 0;
  // Only called when unsupported() is "". Per-rank payload follows CollectiveCall::bytes.
  virtual Schedule build(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const = 0;

  // Channels NCCL would run this algorithm on for this communicator (its topology search result,
  // simplified: nccl_search_channels() for most).
  virtual int channels(const Communicator& comm) const = 0;
  // NCCL's closed-form estimate of one call (tuning.cc), or nullopt where NCCL has no such
  // algorithm or protocol for this collective: the tuner then runs the schedule instead.
  virtual std::optional<Time> estimate(const EstimateInput& in, Protocol p, int channels) const = 0;
  // Transfers the step-by-step schedule would have (exact, from the loops that build it), so the
  // steady form is chosen before anything is built; kNoSteadyForm for algorithms without one.
  virtual int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const = 0;
  static constexpr int64_t kNoSteadyForm = -1;
  // The steady-state form (collective/steady_state.hpp), at any size; only for algorithms whose
  // step_transfers() is not kNoSteadyForm (the others throw std::logic_error).
  virtual Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const;

  // Sets `s`'s base latency and per-step latencies from this algorithm's NCCL constants.
  void apply_latencies(Schedule& s, Protocol p) const;
};

// The registry, in the order `gpufabric list algorithms` prints. Building it checks every
// algorithm's traits (std::logic_error naming the algorithm and the trait when one is missing).
const std::vector<std::unique_ptr<Algorithm>>& algorithm_registry();
const Algorithm* find_algorithm(const std::string& name);  // nullptr if unknown
std::vector<std::string> algorithm_names();
// Checks one algorithm's traits as the registry does: "" when complete, else what is missing.
std::string traits_problem(const Algorithm& a);

// Channels NCCL's topology search gives a communicator's network algorithms (ring, tree, CollNet,
// and the rest): what matters to the models is only that the data is split evenly, so a small
// count per NIC (2 per NIC, NCCL's default on rail-optimized systems) and 16 inside NVSwitch boxes.
int nccl_search_channels(const Communicator& comm);

// Payload each rank contributes or receives in total, from nccl-tests' printed size: for
// AllGather/ReduceScatter/AllToAll the printed size already counts all ranks' pieces.
// Splits `total` into `parts` nearly equal pieces (the first `total % parts` get one more byte).
Bytes piece(Bytes total, int parts, int index);

}  // namespace gf
