#include "engine/step_runner.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/radix_sort.hpp"
#include "engine/transfer_routes.hpp"

namespace gf {

namespace {

// The tie-breaking is run_jobs' for one job of one call (engine/job_runner.hpp): the model
// reports an instant's completions in id order, each releases the transfers whose last
// dependency it was, and the released transfers start in increasing id at that instant.
class StepRunner final : public CompletionSink {
 public:
  StepRunner(const StepSchedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
             RoutingPolicy policy)
      : s_(s), model_(model), per_(s.per_step()), steps_(static_cast<size_t>(s.steps())) {
    if (policy == RoutingPolicy::Adaptive)
      throw std::invalid_argument("a step pattern runs on fixed routes; run the expanded schedule for adaptive routing");
    const Schedule& p = s.pattern();
    RouteCache routes(p, comm, router, seed, policy);
    transfers_.reserve(2 * per_);
    // Each generic transfer's index names its route to the model (ModelTransfer::route_id), so
    // the model finds its per-route state by index rather than by the route's address.
    for (size_t i = 0; i < 2 * per_; ++i) {
      transfers_.push_back(routes.get(static_cast<TransferId>(i)));
      transfers_.back().route_id = static_cast<int32_t>(i);
    }
    // Who in step k + 1 waits on transfer j of step k, in increasing j (CSR), and how many
    // transfers of its step before it each generic transfer waits on.
    deps_left_.resize(per_);
    dependents_begin_.assign(per_ + 1, 0);
    for (size_t j = 0; j < per_; ++j) {
      const auto deps = p.deps(static_cast<TransferId>(per_ + j));
      deps_left_[j] = static_cast<int32_t>(deps.size());
      for (TransferId d : deps) ++dependents_begin_[static_cast<size_t>(d) + 1];
    }
    for (size_t j = 0; j < per_; ++j) dependents_begin_[j + 1] += dependents_begin_[j];
    dependents_.resize(dependents_begin_[per_]);
    std::vector<uint32_t> fill(dependents_begin_.begin(), dependents_begin_.end() - 1);
    for (size_t j = 0; j < per_; ++j)
      for (TransferId d : p.deps(static_cast<TransferId>(per_ + j)))
        dependents_[fill[static_cast<size_t>(d)]++] = static_cast<uint32_t>(j);
  }

  StepRun run() {
    StepRun r;
    // Time 0: the first step's transfers, every one a root, in id order.
    enter(0);
    for (size_t j = 0; j < per_; ++j) model_.start(static_cast<TransferId>(j), transfers_[j], Time::zero());
    for (;;) {
      const Time now = model_.next_event_time();
      if (now.is_infinite()) break;
      model_.advance_to(now, *this);
      ++r.events;
      sort_ids(ready_, sort_scratch_);
      for (TransferId g : ready_) model_.start(g, transfers_[per_ + static_cast<size_t>(g) % per_], now);
      ready_.clear();
    }
    if (done_ != s_.size())
      throw std::runtime_error("the run cannot finish: " + std::to_string(s_.size() - done_) + " of " +
                               std::to_string(s_.size()) + " transfers of the step pattern unfinished (" +
                               (high_ > low_ ? "step " + std::to_string(low_) + " started" : std::string("none started")) +
                               "; a link of zero bandwidth on a route?)");
    r.duration = last_ + s_.pattern().base_latency();
    r.peak_steps = peak_;
    return r;
  }

  void completed(TransferId g, Time at) override {
    const size_t k = static_cast<size_t>(g) / per_;
    const size_t j = static_cast<size_t>(g) % per_;
    ++done_;
    last_ = at;
    if (k + 1 < steps_) {
      if (high_ <= k + 1) enter(k + 1);  // most completions find step k + 1 live already
      int32_t* const waiting = waiting_.data() + slot(k + 1) * per_;
      const auto next = static_cast<TransferId>((k + 1) * per_);
      for (uint32_t e = dependents_begin_[j]; e != dependents_begin_[j + 1]; ++e)
        if (--waiting[dependents_[e]] == 0) ready_.push_back(next + static_cast<TransferId>(dependents_[e]));
    }
    if (--left_[slot(k)] == 0)
      while (low_ < high_ && left_[slot(low_)] == 0) ++low_;
  }

 private:
  size_t slot(size_t k) const { return k & (window_ - 1); }

  // Makes steps up to k live: their dependency counts and transfers left, in the window (grown
  // twofold when full, a power of two so that a step's slot is a mask).
  void enter(size_t k) {
    while (high_ <= k) {
      if (high_ - low_ == window_) grow();
      const size_t at = slot(high_);
      if (high_ > 0) std::copy(deps_left_.begin(), deps_left_.end(), waiting_.begin() + static_cast<ptrdiff_t>(at * per_));
      left_[at] = per_;
      ++high_;
    }
    // The window widens only here (low_ only rises), so its peak is read only here.
    peak_ = std::max(peak_, high_ - low_);
  }

  void grow() {
    const size_t wider = window_ == 0 ? 2 : 2 * window_;
    std::vector<int32_t> waiting(wider * per_);
    std::vector<size_t> left(wider);
    for (size_t k = low_; k < high_; ++k) {
      std::copy_n(waiting_.begin() + static_cast<ptrdiff_t>(slot(k) * per_), per_,
                  waiting.begin() + static_cast<ptrdiff_t>((k & (wider - 1)) * per_));
      left[k & (wider - 1)] = left_[slot(k)];
    }
    waiting_.swap(waiting);
    left_.swap(left);
    window_ = wider;
  }

  const StepSchedule& s_;
  Model& model_;
  size_t per_, steps_;
  std::vector<ModelTransfer> transfers_;  // the pattern's, routed
  std::vector<int32_t> deps_left_;        // per generic transfer: its dependencies
  std::vector<uint32_t> dependents_begin_, dependents_;
  // The live window: steps [low_, high_), step k's counts at slot(k).
  size_t window_ = 0, low_ = 0, high_ = 0, peak_ = 0;
  std::vector<int32_t> waiting_;
  std::vector<size_t> left_;
  size_t done_ = 0;
  Time last_ = Time::zero();
  std::vector<TransferId> ready_, sort_scratch_;
};

}  // namespace

StepRun run_steps(const StepSchedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
                  RoutingPolicy policy) {
  StepRunner runner(s, comm, router, model, seed, policy);
  return runner.run();
}

}  // namespace gf
