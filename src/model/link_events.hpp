// Time-varying link state in the flow model (FlowModel::set_link_fraction): a list of capacity changes, each "from time t, link l carries fraction f of its usable
// capacity", applied at their instants between the wrapped model's own events. The engine sees
// one Model and needs no change: next_event_time() is the earlier of the model's next event and
// the next change, and advance_to() applies every change it passes, in time order, after the
// model has reached that instant (so transfers finishing at t finish before a link goes down at
// t, as a packet already delivered is not lost).
//
// It also watches for stalls: a transfer whose route crosses a link at fraction 0, when the link
// goes down under it or when it starts while the link is down, is recorded once per change with
// the time, so a report can say which jobs stalled and when (workload/scenario_events.hpp). Routes
// are read through the pointer the transfer was started with (alive while it is in flight: the
// engine holds it).
//
// Reroutes (set_reroutes): when the fabric has reconverged around a dead link, transfers that
// start from then on take a route around it, and at the resume instant (the stalled connections'
// retry) each transfer in flight across it moves what it has left (FlowModel::remaining_wire)
// onto such a route: a new transfer of those bytes, paying its latency again as a retransmission
// does, reported under the original id when it ends. The original stays behind on the dead link,
// which keeps capacity 0 for the rest of the run (the fabric stays rerouted: a later `up` or
// change of it is ignored), so it never moves a byte again.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "model/flow/flow_model.hpp"

namespace gf {

struct LinkChange {
  Time at;
  LinkId link = 0;
  double fraction = 1;  // of the link's usable capacity: 0 down, 1 back to normal
};

struct LinkStall {
  TransferId id = 0;  // the engine's global id (engine/job_runner.hpp: job j owns a range)
  Time at;            // when it stalled: the change's time, or its start while the link was down
  LinkId link = 0;    // a dead link on its route
  // The first and last link of the leg that crosses it: the leg's two ends, for telling whether
  // a cut leaves the transfer no way around (workload/scenario_events.hpp).
  LinkId leg_first = -1, leg_last = -1;
};

// The fabric's routes around dead links (implemented over a Router by workload/scenario_events).
class RouteAround {
 public:
  virtual ~RouteAround() = default;
  // From now on `links` are gone too (both directions given).
  virtual void avoid(const std::vector<LinkId>& links) = 0;
  // Legs (shares summing to 1) from `p`'s first node to its last that cross no gone link; empty
  // when there is no way around.
  virtual Route around(const Path& p) = 0;
};

struct LinkReroute {
  Time at;                      // the fabric has reconverged: new transfers go around `links`
  Time resume;                  // the stalled transfers retry: those in flight move (>= at)
  std::vector<LinkId> links;    // both directions
  std::vector<double> restore;  // per link, its fraction if the reroute cannot be done
};

class LinkEventModel final : public Model {
 public:
  // `changes` in any order (sorted here by time, then list order). Throws std::invalid_argument
  // for a link out of range or a fraction outside [0, 1].
  LinkEventModel(FlowModel& inner, std::vector<LinkChange> changes, size_t links);

  std::string name() const override { return inner_.name(); }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override;
  void advance_to(Time t, CompletionSink& done) override;
  const std::vector<double>& carried_bytes() const override { return inner_.carried_bytes(); }
  double link_load(LinkId l) const override { return inner_.link_load(l); }
  std::vector<std::pair<std::string, int64_t>> statistics() const override { return inner_.statistics(); }
  std::vector<PortQueueReport> queue_report(size_t top) const override { return inner_.queue_report(top); }
  std::vector<PortTimeline> port_timelines() const override { return inner_.port_timelines(); }

  const std::vector<LinkStall>& stalls() const { return stalls_; }

  // Reroutes during the run (header). `around` must outlive the run. Call before the first start.
  void set_reroutes(std::vector<LinkReroute> reroutes, RouteAround& around);
  // Transfers moved onto another route at a resume; reroutes given up (a leg with no way around:
  // the links got their capacity back instead, as without reroutes).
  size_t moved() const { return moved_; }
  size_t reroutes_given_up() const { return given_up_; }

 private:
  class Sink;
  void apply(const LinkChange& c);
  void note_stalls(TransferId id, const Route& r, Time at);
  bool crosses_gone(const Route& r) const;
  std::shared_ptr<const Route> way_around(const Route& r);
  void reconverge(const LinkReroute& r);
  void resume(const LinkReroute& r);
  Time next_change() const;

  FlowModel& inner_;
  std::vector<LinkChange> changes_;
  size_t next_ = 0;                     // first change not yet applied
  std::vector<double> fraction_;        // by link: its present fraction
  size_t dead_ = 0;                     // links at fraction 0 now
  std::vector<const Route*> in_flight_; // by transfer id: its route while in flight
  std::vector<LinkStall> stalls_;
  // Reroutes: the two instants of each, in time order (by `at`, then `resume`).
  std::vector<LinkReroute> reroutes_;
  size_t next_at_ = 0, next_resume_ = 0;
  RouteAround* around_ = nullptr;
  std::vector<char> gone_;  // by link: rerouted around for good
  size_t gone_count_ = 0;
  std::unordered_map<const Route*, std::shared_ptr<const Route>> around_cache_;
  // In flight, by transfer id (only while reroutes are set): the transfer as started, its
  // route's owner kept, and the id the inner model knows it by (its own, or a moved rest's).
  std::vector<ModelTransfer> started_;
  std::vector<TransferId> inner_id_;
  std::unordered_map<TransferId, TransferId> outer_of_;  // a moved rest's inner id -> original id
  TransferId next_rest_id_ = 1 << 30;
  size_t moved_ = 0, given_up_ = 0;
};

}  // namespace gf
