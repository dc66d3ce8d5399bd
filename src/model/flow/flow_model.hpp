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
// Completions a hair apart are merged: a flow due within ModelParams::flow_completion_tolerance
// (0.1 %) of its lifetime after the instant being processed finishes at that instant, so one
// solve serves both (docs/models.md, Flow).
//
// One connection's steps are sent in order (connection_queue.hpp): transfers started with the same
// Route object are taken for the steps of one connection (the engine shares a route per source,
// destination and channel), so a step whose latency has passed waits while an earlier one of
// that route is still draining, and starts as it ends. Latencies overlap; the wire is FIFO.
//
// Identical flows are merged: legs activated at the same instant with the same links, wire bytes
// and rate cap (the C channels of one ring step, the channels of an all-to-all pair) behave
// identically under max-min, so they become one solver variable of weight k whose rate is k
// times one flow's. This changes no result and divides the solver's work by the channel count.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "core/instant_queue.hpp"
#include "core/run_queue.hpp"
#include "model/flow/connection_queue.hpp"
#include "model/flow/maxmin_solver.hpp"
#include "model/flow/route_pins.hpp"
#include "model/model.hpp"
#include "model/transfer_cost.hpp"

namespace gf {

class FlowModel final : public Model {
 public:
  FlowModel(const Cluster& cluster, ModelParams params = {});
  std::string name() const override { return "flow"; }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override { return std::min(events_.next_time(), done_.next_time()); }
  void advance_to(Time t, CompletionSink& done) override;
  const std::vector<double>& carried_bytes() const override { return carried_; }
  // Flows crossing the link per byte/s of its capacity.
  double link_load(LinkId l) const override;
  // Link l at `fraction` of TransferCost::capacity from `now` on; the flows on it are re-solved
  // and rescheduled at once (a flow on a link of capacity 0 waits without a completion).
  // Time-varying link state (scenario `events:`, model/link_events.hpp); call it at the time of
  // the last advance_to. 0 stalls every flow on the link until a later call gives it some back.
  void set_link_fraction(LinkId l, double fraction, Time now);
  // Payload bytes transfer `id` (started with `route`) has left per leg of that route, in its
  // order, as of `now` (the time of the last advance_to): the leg's wire bytes left over the
  // protocol's inflation. A transfer still in its latency phase has every leg's whole share left,
  // a drained leg 0. Empty when it is not in flight. Read-only: for moving a stalled transfer's
  // rest onto another route (model/link_events.hpp).
  std::vector<double> remaining_bytes(TransferId id, const Route* route, Time now) const;

  // A slow GPU (`perf --degrade server1/gpu3=0.5`): from now on `gpu` reduces at `fraction` of
  // its full rate, one rate its channels share. A GPU reduces by reading two operands and writing
  // one result, so its rate is bounded by its memory bandwidth (engine/transfer_routes.cpp:
  // HBM/3), and every channel reducing on it draws on that one memory: the legs reducing there
  // use a solver resource of capacity fraction x (their transfer's wire bytes over its reduction
  // time at full speed), i.e. the GPU's reduced output at fraction x HBM/3, in wire bytes. Legs of
  // transfers whose wire-to-reduced-bytes ratio differs (two protocols reducing on one slow GPU at
  // once) see the ratio of the leg activated last: one collective's transfers share one ratio. A
  // GPU at full speed keeps only each leg's own bound (its channels' sum stays under HBM/3 while
  // its NVLink ingress is below HBM/3, as on every catalog GPU: H100 370 GB/s against 1.1 TB/s).
  // Call before the first start().
  void set_gpu_compute(NodeId gpu, double fraction);

  // Keeps every link in the max-min problem (implied_links.hpp off), for tests that check that
  // leaving implied links out changes nothing. Call before the first start().
  void keep_implied_links() { std::fill(cover_.begin(), cover_.end(), -1); }

  // Flow events processed so far (activations and completions), for benchmarks.
  size_t events_processed() const { return events_processed_; }
  size_t peak_flows() const { return peak_flows_; }

 private:
  // A transfer in flight lives in a reused slot, so memory follows what is in flight, not the
  // schedule's size (a 4,096-rank step-by-step ring has 33 million transfers).
  struct Pending {
    TransferId id = -1;
    int legs_left = 0;
    const Route* route = nullptr;  // pinned in routes_ until every leg has drained
    int32_t route_pin = -1;
    double bytes = 0;         // payload; a leg carries bytes x its share x inflation on the wire
    double inflation = 1;     // TransferCost::inflation
    double reduce_s = 0;      // the receiving GPU's reduction time (TransferCost::reduce_seconds)
  };
  // By solver variable id: k identical flows. One cache line: the loop reads a flow at its
  // activation, each rate change and its completion, and N of them are live in an N-rank ring,
  // so its first member is held inline and only merged flows (k > 1) touch members_.
  struct alignas(64) Flow {
    double remaining = 0;     // wire bytes left at `since`, per member
    double rate = 0;          // bytes per second since `since`, per member
    double bound = 0;         // per member (the reduction cap), for merging
    Time since;
    Time born;                // when it was activated (its lifetime scales the completion tolerance)
    const Path* path = nullptr;  // its links (in the first member's route, alive while it flows)
    uint32_t version = 0;
    int32_t first = -1;       // the first member's transfer (Pending slot)
    int32_t count = 0;        // members; 0 when free. Members after the first: members_[id]
  };
  static_assert(sizeof(Flow) == 64);
  // Calls fn(slot) for each member of flow v, the first first, then the others in merge order.
  template <typename Fn>
  void for_members(MaxMinSolver::VarId v, Fn fn) const {
    const Flow& f = flows_[static_cast<size_t>(v)];
    fn(f.first);
    if (f.count > 1)
      for (int32_t slot : members_[static_cast<size_t>(v)]) fn(slot);
  }
  void activate(int32_t slot, Time now);
  // Adds transfer `slot`'s leg to live flow v of this batch, an identical flow (`implied`: the
  // leg's links left out of the solver).
  void merge_into(MaxMinSolver::VarId v, int32_t slot, const LinkId* implied, uint16_t n_implied);
  void finish_transfer(int32_t slot);
  void finish_flow(MaxMinSolver::VarId v);
  void reschedule(MaxMinSolver::VarId v, Time now);
  // A completion key (finish_key) still names its flow's pending completion: the flow is live
  // and its rate has not changed since the key was pushed.
  bool live(uint64_t key) const {
    const Flow& f = flows_[static_cast<size_t>(key >> 32)];
    return f.count != 0 && f.version == static_cast<uint32_t>(key & 0xffffffffu);
  }
  // Finishes now the flows of the next instants that are due within flow_completion_tolerance of
  // their lifetime, an instant at a time while every event of it qualifies (an activation never
  // does), so one solve serves them all.
  void pull_near_completions(Time now);
  // What activate needs of a route, worked out once per route (by its pin) and again after a
  // link was restored: per leg its share, the hash of its links and the links split into those
  // the solver needs and those it can leave out (implied_links.hpp), in one flat array, so
  // activating a transfer reads one block instead of walking route, legs and paths.
  struct LegPlan {
    double share;
    uint64_t link_hash;  // a multiply-add per link: equal paths hash equal
    const Path* path;
    uint32_t begin;            // links[begin, +kept) to the solver, then `implied` left out
    uint16_t kept, implied;
  };
  // One cache line per route: a route of one leg whose links fit (every ring edge) is held here
  // whole, so activating reads this line and nothing else of the route. Other routes spill their
  // legs and links to spilled_[pin].
  static constexpr size_t kInlineLinks = 6;
  struct alignas(64) RoutePlan {
    uint32_t epoch = UINT32_MAX;  // covers_epoch_ it was made under; UINT32_MAX: not made
    uint32_t spilled = 0;         // 1: the legs and links are in spilled_[pin]
    LegPlan leg;                  // the only leg, when not spilled
    std::array<LinkId, kInlineLinks> links;
  };
  static_assert(sizeof(RoutePlan) == 64);
  struct SpilledPlan {
    std::vector<LegPlan> legs;
    std::vector<LinkId> links;
  };
  // Makes plan `pin` for `route` under the current covers (activate calls it when its epoch is stale).
  void make_plan(int32_t pin, const Route& route);
  // Appends the leg's links the solver needs, then those it can leave out, to `links`.
  void split_links(const Path& path, std::vector<LinkId>& links, LegPlan& leg);
  void restore_implied(LinkId l);

  TransferCost cost_;
  MaxMinSolver solver_;
  // Activations wait in events_, completions in done_: a solve reschedules every flow whose rate
  // changed to its own finish instant, mostly instants of one key, which a RunQueue holds as flat
  // pairs (run_queue.hpp says why). An instant's completions come before its activations, as
  // when one queue held both (completion keys are below activation keys).
  InstantQueue events_;
  RunQueue done_;
  std::vector<Pending> pending_;
  std::vector<int32_t> free_slots_;
  std::vector<Flow> flows_;
  std::vector<std::vector<int32_t>> members_;  // by flow: members after the first (merged flows)
  std::vector<double> carried_;
  // Per link: the link whose constraint implies its own (implied_link_covers), -1 once none or
  // once a leg crossed the link without its cover. Invariant: a live flow left link l out of the
  // solver exactly when l is on its path and cover_[l] >= 0 (covers only ever go to -1, and
  // restore_implied then puts l back into every live flow on it).
  std::vector<LinkId> cover_;
  // The summed weight of the live flows that left each link out (what solver_.weight_on would
  // hold for it), for link_load. Only adaptive routing asks for loads, so the table is kept only
  // from the first link_load call on (built then from the live flows, by the invariant above).
  mutable std::vector<double> implied_weight_;
  mutable bool track_implied_ = false;
  uint32_t covers_epoch_ = 0;  // bumped when a link is restored: every plan is made again
  std::vector<RoutePlan> plans_;  // by route pin
  std::vector<SpilledPlan> spilled_;  // by route pin, for the routes that do not fit a RoutePlan
  SpilledPlan plan_scratch_;          // make_plan's, reused
  // Scratch reused every batch.
  std::vector<MaxMinSolver::VarId> changed_;
  std::vector<TransferId> completed_, sort_scratch_;
  std::vector<uint64_t> instant_;  // the keys of the instant being processed
  std::vector<uint64_t> pulled_;   // the keys of a later instant pull_near_completions looks at
  // Flows created in the current batch, by a hash of (links, wire bytes, cap), for merging: an
  // open-addressed table (linear probing; equal hashes allowed). An entry belongs to the current
  // batch when its stamp is batch_stamp_, so clearing after a batch is one increment, and merging
  // allocates nothing once the table has grown.
  struct BatchEntry {
    uint64_t hash = 0;
    MaxMinSolver::VarId var = -1;
    uint32_t stamp = 0;
  };
  std::vector<BatchEntry> batch_table_ = std::vector<BatchEntry>(1024);
  // Identical flows share their path, so their set of links, so its least link id. Per link: the
  // stamp of the last batch a flow with that least link was activated in and, while it is the
  // only one, that flow (not put in batch_table_); -1 once a second came, both then in the table.
  // A ring step, whose flows never merge, so reads a record beside carried_ in link order instead
  // of hashing each flow into a random slot of the table (issue 26, sixth pass).
  struct LinkBatch {
    uint32_t stamp = 0;
    MaxMinSolver::VarId var = -1;
  };
  std::vector<LinkBatch> batch_link_;
  // The merge hash of live flow v of the current batch (its wire bytes are still its remaining).
  uint64_t batch_hash(MaxMinSolver::VarId v) const;
  uint32_t batch_stamp_ = 1;
  size_t batch_count_ = 0;
  void batch_insert(uint64_t hash, MaxMinSolver::VarId v) {
    if (2 * (batch_count_ + 1) > batch_table_.size()) batch_grow();  // keep the load under 1/2
    const size_t mask = batch_table_.size() - 1;
    size_t i = hash & mask;
    while (batch_table_[i].stamp == batch_stamp_) i = (i + 1) & mask;
    batch_table_[i] = {hash, v, batch_stamp_};
    ++batch_count_;
  }
  void batch_grow();
  void batch_clear();
  size_t events_processed_ = 0, peak_flows_ = 0;
  // Each route in flight held once, with its alpha (route_pins.hpp).
  RoutePins routes_;
  // One step of a connection (its route's pin) sends at a time (connection_queue.hpp); the slots
  // its completions released this instant, activated before the solve.
  ConnectionQueue connections_;
  std::vector<int32_t> released_;
  void activate_released(Time now);
  // Slow GPUs (set_gpu_compute), by node: the solver resource of its shared reduction (-1: none)
  // and the fraction of its speed it keeps; both empty while no GPU is slow.
  std::vector<MaxMinSolver::ResourceId> gpu_resource_;
  std::vector<double> gpu_fraction_;
  std::vector<MaxMinSolver::ResourceId> leg_scratch_;  // a leg's kept links and its GPU's resource
};

}  // namespace gf
