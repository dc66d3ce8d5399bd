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
#pragma once

#include <memory>
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

  const std::vector<LinkStall>& stalls() const { return stalls_; }

 private:
  class Sink;
  void apply(const LinkChange& c);
  void note_stalls(TransferId id, const Route& r, Time at);

  FlowModel& inner_;
  std::vector<LinkChange> changes_;
  size_t next_ = 0;                     // first change not yet applied
  std::vector<double> fraction_;        // by link: its present fraction
  size_t dead_ = 0;                     // links at fraction 0 now
  std::vector<const Route*> in_flight_; // by transfer id: its route while in flight
  std::vector<LinkStall> stalls_;
};

}  // namespace gf
