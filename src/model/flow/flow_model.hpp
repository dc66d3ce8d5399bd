// The flow-level model: every leg of every transfer is a flow along its path, and all flows in
// flight share every link max-min fairly (MaxMinSolver), recomputed at each flow start and end for
// only the flows connected to the change.
//
// A transfer started at t first waits its latency alpha (TransferCost::alpha: NCCL's per-step
// latency or the path's propagation, whichever is larger, times the steps it stands for), then
// each leg becomes a flow of (payload x share x protocol inflation) wire bytes. Links' capacities
// are TransferCost::capacity. The receiving GPU's reduction caps each leg's rate at its wire bytes
// / reduction time, so an uncontended transfer takes exactly the analytical model's
// alpha + max(wire, reduce). The transfer completes when its last leg's flow drains.
//
// Latency first, then bandwidth, is SimGrid's CM02 semantics and the peer benchmark's; a flow in
// its latency phase uses no bandwidth.
//
// Event order at one instant (integer picoseconds): flow completions first, then activations,
// each in increasing id order; one solve follows the whole batch, and completed transfers are
// reported in id order.
//
// Identical flows are merged: legs activated at the same instant with the same links, wire bytes
// and rate cap (the C channels of one ring step, the channels of an all-to-all pair) behave
// identically under max-min, so they become one solver variable of weight k whose rate is k
// times one flow's. This changes no result and divides the solver's work by the channel count.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "core/instant_queue.hpp"
#include "model/flow/maxmin_solver.hpp"
#include "model/model.hpp"
#include "model/transfer_cost.hpp"

namespace gf {

class FlowModel final : public Model {
 public:
  FlowModel(const Cluster& cluster, ModelParams params = {});
  std::string name() const override { return "flow"; }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override { return events_.next_time(); }
  void advance_to(Time t, CompletionSink& done) override;
  const std::vector<double>& carried_bytes() const override { return carried_; }
  // Flows crossing the link per byte/s of its capacity.
  double link_load(LinkId l) const override;

  // Flow events processed so far (activations and completions), for benchmarks.
  size_t events_processed() const { return events_processed_; }
  size_t peak_flows() const { return peak_flows_; }

 private:
  // A transfer in flight lives in a reused slot, so memory follows what is in flight, not the
  // schedule's size (a 4,096-rank step-by-step ring has 33 million transfers).
  struct Pending {
    TransferId id = -1;
    int legs_left = 0;
    std::shared_ptr<const Route> route;  // released once every leg has drained
    double bytes = 0;         // payload; a leg carries bytes x its share x inflation on the wire
    double inflation = 1;     // TransferCost::inflation
    double reduce_s = 0;      // the receiving GPU's reduction time (TransferCost::reduce_seconds)
  };
  struct Flow {               // by solver variable id: k identical flows
    std::vector<int32_t> slots;  // each member's transfer (Pending slot); empty when free
    double remaining = 0;     // wire bytes left at `since`, per member
    double rate = 0;          // bytes per second since `since`, per member
    double bound = 0;         // per member (the reduction cap), for merging
    Time since;
    uint32_t version = 0;
  };
  void activate(int32_t slot, Time now);
  Time alpha(const ModelTransfer& t);
  void finish_transfer(int32_t slot);
  void finish_flow(MaxMinSolver::VarId v);
  void reschedule(MaxMinSolver::VarId v, Time now);

  TransferCost cost_;
  MaxMinSolver solver_;
  InstantQueue events_;
  std::vector<Pending> pending_;
  std::vector<int32_t> free_slots_;
  std::vector<Flow> flows_;
  std::vector<double> carried_;
  // Scratch reused every batch.
  std::vector<MaxMinSolver::VarId> changed_;
  std::vector<TransferId> completed_, sort_scratch_;
  std::vector<uint64_t> instant_;  // the keys of the instant being processed
  // Flows created in the current batch, by a hash of (links, wire bytes, cap), for merging: an
  // open-addressed table (linear probing; equal hashes allowed) cleared slot by slot after each
  // batch, so merging allocates nothing once the table has grown.
  struct BatchEntry {
    uint64_t hash = 0;
    MaxMinSolver::VarId var = -1;
  };
  std::vector<BatchEntry> batch_table_ = std::vector<BatchEntry>(1024);
  std::vector<size_t> batch_used_;
  void batch_insert(uint64_t hash, MaxMinSolver::VarId v);
  void batch_clear();
  size_t events_processed_ = 0, peak_flows_ = 0;
  // TransferCost::alpha by route: a schedule starts the same few routes over and over (a ring
  // edge 2(n-1) times), and alpha walks every link of every leg and classifies it. An
  // open-addressed table on the route's address (linear probing); an entry holds its route, so
  // the address cannot be reused by another route while cached. Routes made per start (adaptive
  // routing) would fill it: past kAlphaMax entries it is emptied and starts again.
  struct AlphaEntry {
    std::shared_ptr<const Route> route;
    std::array<Time, 3> step_latency{};
    int32_t steps = 0;
    Time alpha;
  };
  static constexpr size_t kAlphaMax = 1u << 16;
  std::vector<AlphaEntry> alpha_cache_ = std::vector<AlphaEntry>(1024);
  size_t alpha_used_ = 0;
};

}  // namespace gf
