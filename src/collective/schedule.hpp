// A Schedule is what one collective call does on the wire: a DAG of Transfers. Algorithms build
// it (one per file in this folder); models run it and never learn which algorithm it came from.
//
// A Transfer moves `bytes` from one endpoint to another once all its dependencies have finished.
// Endpoints are ranks (>= 0) or, for in-network reduction (NVLS on NVSwitch, CollNet/SHARP on
// InfiniBand switches), a group of ranks (< 0: group -1 - g of Schedule::groups): a transfer from a
// group reduces every member's `bytes` inside the switch and delivers one copy; a transfer to a
// group multicasts one copy to every member.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/protocol.hpp"
#include "core/units.hpp"

namespace gf {

using Rank = int32_t;
using TransferId = int32_t;

// Where a group's in-network reduction happens.
enum class ReductionPoint : uint8_t { NvSwitch, NetworkSwitch };

struct RankGroup {
  std::vector<Rank> ranks;
  ReductionPoint where = ReductionPoint::NvSwitch;
  bool operator==(const RankGroup&) const = default;
};

struct Transfer {
  int32_t src = 0;       // rank, or -1 - group index
  int32_t dst = 0;       // rank, or -1 - group index
  Bytes bytes;           // payload (before protocol overhead)
  Bytes reduce;          // bytes the receiving GPU reduces on arrival (0 for a copy)
  int16_t channel = 0;   // which of the schedule's parallel channels carries it
  int16_t step = 0;      // the algorithm's step number, for reports
  // Pipeline steps this transfer stands for: a steady form (one long-lived transfer per edge) sets
  // many, so a model charges the per-step latency that many times; 0 for a pipelined chunk whose
  // latency overlaps the previous chunk's on its edge (algorithms/patterns.hpp add_chunk).
  int32_t steps = 1;
};

constexpr int32_t group_endpoint(int g) { return -1 - g; }
constexpr bool is_group(int32_t endpoint) { return endpoint < 0; }
constexpr int group_index(int32_t endpoint) { return -1 - endpoint; }

class Schedule {
 public:
  Schedule(std::string algorithm, int nranks, int channels, Protocol proto);

  // Adds a transfer that may start once every transfer in `deps` has finished.
  TransferId add(const Transfer& t, std::span<const TransferId> deps = {});
  TransferId add(const Transfer& t, std::initializer_list<TransferId> deps) {
    return add(t, std::span<const TransferId>(deps.begin(), deps.size()));
  }
  int add_group(RankGroup g);
  // Room for this many transfers and dependencies in all, for a builder that knows its size:
  // growing by doubling copies and touches every byte about twice (33 million transfers in a
  // step-by-step ring at 4,096 ranks).
  void reserve(size_t transfers, size_t dependencies);

  const std::string& algorithm() const { return algorithm_; }
  int nranks() const { return nranks_; }
  int channels() const { return channels_; }  // parallel channels sharing the same links
  Protocol protocol() const { return proto_; }
  size_t size() const { return transfers_.size(); }
  const Transfer& transfer(TransferId id) const { return transfers_[static_cast<size_t>(id)]; }
  const std::vector<Transfer>& transfers() const { return transfers_; }
  std::span<const TransferId> deps(TransferId id) const;
  const std::vector<RankGroup>& groups() const { return groups_; }

  // Bytes rank r puts on the wire (as a source or a group member), summed over transfers.
  Bytes bytes_sent(Rank r) const;
  Bytes bytes_received(Rank r) const;
  // Longest chain of dependent transfers (steps on the critical path).
  int depth() const;

  // Fixed cost of the call before any data moves (kernel launch and setup; NCCL's per-algorithm
  // "base latency"), added once to the schedule's run time.
  void set_base_latency(Time t) { base_latency_ = t; }
  Time base_latency() const { return base_latency_; }
  // Latency each transfer pays per step, by the link class it crosses {NVLink, PCI, NET} (NCCL's
  // per-algorithm hardware latencies; see nccl_constants.hpp). Zero until an algorithm sets it.
  void set_step_latency(std::array<Time, 3> by_class) { step_latency_ = by_class; }
  const std::array<Time, 3>& step_latency() const { return step_latency_; }
  // Fraction of link bandwidth transfers to or from a rank group (in-network reduction) reach.
  void set_in_network_efficiency(double e) { in_network_efficiency_ = e; }
  double in_network_efficiency() const { return in_network_efficiency_; }
  // Fraction of link bandwidth a transfer reaches when its whole path stays inside the scale-up
  // (NVLink/xGMI) domain; 1 unless the algorithm sets it (all-to-all: kAllToAllScaleUpEfficiency).
  void set_scale_up_efficiency(double e) { scale_up_efficiency_ = e; }
  double scale_up_efficiency() const { return scale_up_efficiency_; }
  // Traffic class every transfer runs in (default 0). NCCL_IB_TC / NCCL_IB_SL are per process, so
  // one communicator's traffic shares one class; only the packet model reads it.
  void set_traffic_class(uint8_t c) { traffic_class_ = c; }
  uint8_t traffic_class() const { return traffic_class_; }
  // Whether a transfer to a GPU in another server leaves through the NIC on the receiver's rail,
  // relayed to it over NVLink first (NCCL's PXN, which NCCL uses for send/recv; Router::pxn_relay
  // says where it applies). Off unless the algorithm turns it on.
  void set_pxn(bool on) { pxn_ = on; }
  bool pxn() const { return pxn_; }

 private:
  std::string algorithm_;
  int nranks_, channels_;
  Protocol proto_;
  std::vector<Transfer> transfers_;
  std::vector<uint32_t> dep_begin_{0};
  std::vector<TransferId> deps_;
  std::vector<RankGroup> groups_;
  Time base_latency_ = Time::zero();
  std::array<Time, 3> step_latency_{};
  double in_network_efficiency_ = 1.0;
  double scale_up_efficiency_ = 1.0;
  uint8_t traffic_class_ = 0;
  bool pxn_ = false;
};

}  // namespace gf
