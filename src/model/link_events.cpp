#include "model/link_events.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gf {

// Passes completions on, forgetting each finished transfer's route. A moved rest ends under its
// original's id; with reroutes set, an instant's completions are held and passed on in (time, id)
// order, as the Model contract wants (a rest's inner id is larger than any original's).
class LinkEventModel::Sink final : public CompletionSink {
 public:
  Sink(LinkEventModel& m, CompletionSink& out) : m_(m), out_(out) {}
  ~Sink() override { flush(); }
  void completed(TransferId id, Time at) override {
    if (!m_.outer_of_.empty()) {
      const auto it = m_.outer_of_.find(id);
      if (it != m_.outer_of_.end()) {
        id = it->second;
        m_.outer_of_.erase(it);
      }
    }
    if (static_cast<size_t>(id) < m_.in_flight_.size()) m_.in_flight_[static_cast<size_t>(id)] = nullptr;
    if (m_.around_ == nullptr) {
      out_.completed(id, at);
      return;
    }
    if (static_cast<size_t>(id) < m_.started_.size()) {
      m_.started_[static_cast<size_t>(id)].route.reset();
      m_.inner_id_[static_cast<size_t>(id)] = id;
    }
    if (!held_.empty() && held_.back().second != at) flush();
    held_.emplace_back(id, at);
  }
  void flush() {
    std::sort(held_.begin(), held_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, at] : held_) out_.completed(id, at);
    held_.clear();
  }

 private:
  LinkEventModel& m_;
  CompletionSink& out_;
  std::vector<std::pair<TransferId, Time>> held_;
};

LinkEventModel::LinkEventModel(FlowModel& inner, std::vector<LinkChange> changes, size_t links)
    : inner_(inner), changes_(std::move(changes)), fraction_(links, 1.0) {
  std::stable_sort(changes_.begin(), changes_.end(), [](const LinkChange& a, const LinkChange& b) { return a.at < b.at; });
  for (const LinkChange& c : changes_)
    if (static_cast<size_t>(c.link) >= links || c.fraction < 0 || c.fraction > 1)
      throw std::invalid_argument("link change out of range: link " + std::to_string(c.link) + ", fraction " +
                                  std::to_string(c.fraction));
}

void LinkEventModel::set_reroutes(std::vector<LinkReroute> reroutes, RouteAround& around) {
  for (const LinkReroute& r : reroutes) {
    if (r.resume < r.at || r.restore.size() != r.links.size())
      throw std::invalid_argument("a reroute resumes before it reconverges, or has no restore fraction per link");
    for (LinkId l : r.links)
      if (static_cast<size_t>(l) >= fraction_.size())
        throw std::invalid_argument("reroute of link " + std::to_string(l) + ": out of range");
  }
  reroutes_ = std::move(reroutes);
  std::stable_sort(reroutes_.begin(), reroutes_.end(), [](const LinkReroute& a, const LinkReroute& b) { return a.at < b.at; });
  around_ = &around;
  gone_.assign(fraction_.size(), 0);
}

Time LinkEventModel::next_change() const {
  Time t = next_ < changes_.size() ? changes_[next_].at : Time::infinity();
  if (next_at_ < reroutes_.size()) t = std::min(t, reroutes_[next_at_].at);
  // Resumes come in the order of their reconvergence; the earliest pending one.
  for (size_t i = next_resume_; i < next_at_; ++i) t = std::min(t, reroutes_[i].resume);
  return t;
}

Time LinkEventModel::next_event_time() const { return std::min(inner_.next_event_time(), next_change()); }

void LinkEventModel::note_stalls(TransferId id, const Route& r, Time at) {
  for (const Leg& leg : r)
    for (LinkId l : leg.path.links)
      if (fraction_[static_cast<size_t>(l)] == 0) {
        stalls_.push_back({id, at, l, leg.path.links.front(), leg.path.links.back()});
        return;
      }
}

bool LinkEventModel::crosses_gone(const Route& r) const {
  for (const Leg& leg : r)
    for (LinkId l : leg.path.links)
      if (gone_[static_cast<size_t>(l)]) return true;
  return false;
}

std::shared_ptr<const Route> LinkEventModel::way_around(const Route& r) {
  auto it = around_cache_.find(&r);
  if (it != around_cache_.end()) return it->second;
  auto out = std::make_shared<Route>();
  for (const Leg& leg : r) {
    bool dead = false;
    for (LinkId l : leg.path.links) dead = dead || gone_[static_cast<size_t>(l)];
    if (!dead) {
      out->push_back(leg);
      continue;
    }
    const Route way = around_->around(leg.path);
    if (way.empty()) {
      out.reset();
      break;
    }
    for (const Leg& w : way) out->push_back({w.path, leg.share * w.share});
  }
  std::shared_ptr<const Route> made = std::move(out);
  around_cache_.emplace(&r, made);
  return made;
}

void LinkEventModel::start(TransferId id, const ModelTransfer& t, Time now) {
  const auto at = static_cast<size_t>(id);
  if (at >= in_flight_.size()) in_flight_.resize(at + 1, nullptr);
  const ModelTransfer* run = &t;
  ModelTransfer moved;
  if (gone_count_ > 0 && t.route && crosses_gone(*t.route)) {
    // The fabric has reconverged: the transfer takes the way around (when there is one).
    if (std::shared_ptr<const Route> r = way_around(*t.route)) {
      moved = t;
      moved.route = std::move(r);
      moved.route_id = -1;  // the id names the route it was given, not this one
      run = &moved;
    }
  }
  in_flight_[at] = run->route.get();
  if (around_ != nullptr) {
    if (at >= started_.size()) {
      started_.resize(at + 1);
      inner_id_.resize(at + 1);
    }
    started_[at] = *run;
    inner_id_[at] = id;
  }
  if (dead_ > 0 && run->route) note_stalls(id, *run->route, now);
  inner_.start(id, *run, now);
}

void LinkEventModel::apply(const LinkChange& c) {
  if (!gone_.empty() && gone_[static_cast<size_t>(c.link)]) return;  // rerouted around for good
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
        stalls_.push_back({static_cast<TransferId>(id), c.at, c.link, leg.path.links.front(), leg.path.links.back()});
        break;
      }
  }
}

void LinkEventModel::reconverge(const LinkReroute& r) {
  for (LinkId l : r.links)
    if (!gone_[static_cast<size_t>(l)]) {
      gone_[static_cast<size_t>(l)] = 1;
      ++gone_count_;
    }
  around_cache_.clear();  // routes made around fewer links
  around_->avoid(r.links);
}

void LinkEventModel::resume(const LinkReroute& r) {
  const Time now = r.resume;
  // The transfers in flight across the rerouted links, and their way around: all or none move.
  std::vector<std::pair<size_t, std::shared_ptr<const Route>>> moving;
  bool stuck = false;
  for (size_t id = 0; id < in_flight_.size() && !stuck; ++id) {
    const Route* route = in_flight_[id];
    if (route == nullptr || !crosses_gone(*route)) continue;
    bool on_these = false;
    for (const Leg& leg : *route)
      for (LinkId l : leg.path.links) on_these = on_these || std::find(r.links.begin(), r.links.end(), l) != r.links.end();
    if (!on_these) continue;
    std::shared_ptr<const Route> way = way_around(*started_[id].route);
    if (!way) stuck = true;
    moving.emplace_back(id, std::move(way));
  }
  if (stuck) {
    // A leg with no way around (an in-network reduction's leg to its switch): the links come back
    // at their former capacity, as without reroutes, and nothing moves.
    ++given_up_;
    for (LinkId l : r.links)
      if (gone_[static_cast<size_t>(l)]) {
        gone_[static_cast<size_t>(l)] = 0;
        --gone_count_;
      }
    around_cache_.clear();
    for (size_t i = 0; i < r.links.size(); ++i) apply({now, r.links[i], r.restore[i]});
    return;
  }
  for (auto& [id, way] : moving) {
    const ModelTransfer& was = started_[id];
    const Route& old = *was.route;
    const std::vector<double> left = inner_.remaining_bytes(inner_id_[id], &old, now);
    if (left.empty()) continue;  // not in the inner model (ended at this instant)
    // The rest as one transfer: each leg's payload left, its way around splitting it as the
    // way's shares say (way_around keeps an untouched leg as it is, in the old legs' order).
    double total = 0;
    for (double b : left) total += b;
    if (total <= 0) continue;
    auto rest_route = std::make_shared<Route>();
    size_t w = 0;
    for (size_t i = 0; i < old.size(); ++i) {
      bool dead = false;
      for (LinkId l : old[i].path.links) dead = dead || gone_[static_cast<size_t>(l)];
      if (!dead) {
        if (left[i] > 0) rest_route->push_back({old[i].path, left[i] / total});
        ++w;
        continue;
      }
      // Its way around: the legs of `way` whose shares sum to this leg's share.
      double covered = 0;
      for (; w < way->size() && covered < old[i].share * (1 - 1e-12); ++w) {
        covered += way->at(w).share;
        if (left[i] > 0) rest_route->push_back({way->at(w).path, left[i] / total * way->at(w).share / old[i].share});
      }
    }
    ModelTransfer rest = was;
    rest.route = rest_route;
    rest.route_id = -1;
    rest.bytes = Bytes(static_cast<int64_t>(std::ceil(total)));
    // The reduction's share of what is left.
    rest.reduce = Bytes(static_cast<int64_t>(std::ceil(static_cast<double>(was.reduce.count()) * total /
                                                       std::max(1.0, static_cast<double>(was.bytes.count())))));
    rest.steps = 1;  // the retransmission from the lost packet pays one step's latency again
    const TransferId rid = next_rest_id_++;
    outer_of_[rid] = static_cast<TransferId>(id);
    inner_id_[id] = rid;
    started_[id] = rest;  // a second reroute moves this rest
    in_flight_[id] = rest_route.get();
    ++moved_;
    inner_.start(rid, rest, now);
  }
}

void LinkEventModel::advance_to(Time t, CompletionSink& done) {
  Sink sink(*this, done);
  for (Time at = next_change(); at <= t; at = next_change()) {
    inner_.advance_to(at, sink);
    while (next_ < changes_.size() && changes_[next_].at == at) apply(changes_[next_++]);
    while (next_at_ < reroutes_.size() && reroutes_[next_at_].at == at) reconverge(reroutes_[next_at_++]);
    for (size_t i = next_resume_; i < next_at_; ++i)
      if (reroutes_[i].resume == at) resume(reroutes_[i]);
    while (next_resume_ < next_at_ && reroutes_[next_resume_].resume <= at) ++next_resume_;
  }
  inner_.advance_to(t, sink);
}

}  // namespace gf
