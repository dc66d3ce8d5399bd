#include "model/link_events.hpp"

#include <algorithm>
#include <stdexcept>

namespace gf {

// Passes completions on, forgetting each finished transfer's route.
class LinkEventModel::Sink final : public CompletionSink {
 public:
  Sink(LinkEventModel& m, CompletionSink& out) : m_(m), out_(out) {}
  void completed(TransferId id, Time at) override {
    if (static_cast<size_t>(id) < m_.in_flight_.size()) m_.in_flight_[static_cast<size_t>(id)] = nullptr;
    out_.completed(id, at);
  }

 private:
  LinkEventModel& m_;
  CompletionSink& out_;
};

LinkEventModel::LinkEventModel(FlowModel& inner, std::vector<LinkChange> changes, size_t links)
    : inner_(inner), changes_(std::move(changes)), fraction_(links, 1.0) {
  std::stable_sort(changes_.begin(), changes_.end(), [](const LinkChange& a, const LinkChange& b) { return a.at < b.at; });
  for (const LinkChange& c : changes_)
    if (static_cast<size_t>(c.link) >= links || c.fraction < 0 || c.fraction > 1)
      throw std::invalid_argument("link change out of range: link " + std::to_string(c.link) + ", fraction " +
                                  std::to_string(c.fraction));
}

Time LinkEventModel::next_event_time() const {
  const Time model = inner_.next_event_time();
  return next_ < changes_.size() ? std::min(model, changes_[next_].at) : model;
}

void LinkEventModel::note_stalls(TransferId id, const Route& r, Time at) {
  for (const Leg& leg : r)
    for (LinkId l : leg.path.links)
      if (fraction_[static_cast<size_t>(l)] == 0) {
        stalls_.push_back({id, at, l});
        return;
      }
}

void LinkEventModel::start(TransferId id, const ModelTransfer& t, Time now) {
  if (static_cast<size_t>(id) >= in_flight_.size()) in_flight_.resize(static_cast<size_t>(id) + 1, nullptr);
  in_flight_[static_cast<size_t>(id)] = t.route.get();
  if (dead_ > 0 && t.route) note_stalls(id, *t.route, now);
  inner_.start(id, t, now);
}

void LinkEventModel::apply(const LinkChange& c) {
  double& f = fraction_[static_cast<size_t>(c.link)];
  const bool was_dead = f == 0;
  f = c.fraction;
  inner_.set_link_fraction(c.link, c.fraction, c.at);
  if (was_dead == (f == 0)) return;
  if (was_dead) {
    --dead_;
    return;
  }
  ++dead_;
  // Transfers in flight across the link now stall.
  for (size_t id = 0; id < in_flight_.size(); ++id) {
    const Route* r = in_flight_[id];
    if (r == nullptr) continue;
    for (const Leg& leg : *r)
      if (std::find(leg.path.links.begin(), leg.path.links.end(), c.link) != leg.path.links.end()) {
        stalls_.push_back({static_cast<TransferId>(id), c.at, c.link});
        break;
      }
  }
}

void LinkEventModel::advance_to(Time t, CompletionSink& done) {
  Sink sink(*this, done);
  while (next_ < changes_.size() && changes_[next_].at <= t) {
    const Time at = changes_[next_].at;
    inner_.advance_to(at, sink);
    while (next_ < changes_.size() && changes_[next_].at == at) apply(changes_[next_++]);
  }
  inner_.advance_to(t, sink);
}

}  // namespace gf
