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
#pragma once

#include <vector>

#include "core/event_queue.hpp"
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
    ModelTransfer transfer;   // its route is released once every leg has drained
    int legs_left = 0;
  };
  struct Flow {               // by solver variable id
    int32_t slot = -1;        // the transfer's Pending slot
    double remaining = 0;     // wire bytes left at `since`
    double rate = 0;          // bytes per second since `since`
    Time since;
    uint32_t version = 0;
  };
  void activate(int32_t slot, Time now);
  void finish_transfer(int32_t slot);
  void finish_flow(MaxMinSolver::VarId v);
  void reschedule(MaxMinSolver::VarId v, Time now);

  TransferCost cost_;
  MaxMinSolver solver_;
  EventQueue events_;
  std::vector<Pending> pending_;
  std::vector<int32_t> free_slots_;
  std::vector<Flow> flows_;
  std::vector<double> carried_;
  // Scratch reused every batch.
  std::vector<MaxMinSolver::VarId> changed_;
  std::vector<MaxMinSolver::ResourceId> links_;
  std::vector<TransferId> completed_;
  size_t events_processed_ = 0, peak_flows_ = 0;
};

}  // namespace gf
