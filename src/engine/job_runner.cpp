#include "engine/job_runner.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/hash.hpp"
#include "core/prefault.hpp"
#include "core/radix_sort.hpp"
#include "engine/run_tick.hpp"
#include "engine/transfer_routes.hpp"

namespace gf {

namespace {

// One call of one job, prepared once and reused by every repetition: its transfers as the model
// sees them, and its dependency graph in CSR form.
//
// A schedule repeats few distinct transfers many times (a step-by-step ring: 2(n-1) steps of the
// same n edges and chunk size), so the call keeps each distinct ModelTransfer once (`kinds`) and
// a 4-byte index per transfer: per-transfer state is what limits the largest schedules (33
// million transfers for the SimGrid peer's ring at 4,096 ranks), and a full ModelTransfer per
// transfer was 88 of the runner's ~140 bytes each.
struct PreparedCall {
  const JobCall* call = nullptr;
  std::vector<ModelTransfer> kinds;        // distinct transfers (fields and shared route)
  std::vector<uint32_t> kind;              // per transfer: its entry in kinds
  std::vector<uint32_t> dependents_begin;  // CSR over transfers: who waits on transfer i
  std::vector<TransferId> dependents;      // (a schedule's dependencies fit uint32: Schedule's own index)
  std::vector<TransferId> roots;           // transfers with no dependency, in id order
  const ModelTransfer& transfer(size_t i) const { return kinds[kind[i]]; }
  size_t size() const { return kind.size(); }
};

// Finds each transfer's kind: an open-addressed table (linear probing) keyed on the Transfer
// fields a ModelTransfer is made of. transfer_fields reads of a Transfer only its endpoints,
// bytes, reduce and steps (the rest comes from the schedule and communicator; transfer_routes.cpp),
// and its route depends on its endpoints and channel (RouteCache's key): transfers equal in these
// six share one ModelTransfer, whatever their `step` (a label for reports). A field that
// transfer_fields starts to read must join Key.
class KindTable {
 public:
  // The kind of transfer `t`; `make` builds a new kind's ModelTransfer.
  template <class Make>
  uint32_t find_or_add(const Transfer& t, std::vector<ModelTransfer>& kinds, Make make) {
    const Key key{t.src, t.dst, t.bytes.count(), t.reduce.count(), t.steps, t.channel};
    // A source's transfers are mostly of one kind (a ring rank sends its chunk to its one
    // neighbour 2(n-1) times): try its last kind before hashing.
    uint32_t& recent = recent_[static_cast<uint32_t>(t.src) & (kRecent - 1)];
    if (recent != kEmpty && entries_[recent].key == key) return recent;
    const uint64_t h = mix_hash(
        (static_cast<uint64_t>(static_cast<uint32_t>(t.src)) << 32 | static_cast<uint32_t>(t.dst)) * 0x9e3779b97f4a7c15ull +
            static_cast<uint64_t>(static_cast<uint16_t>(t.channel)),
        static_cast<uint64_t>(key.bytes) ^ (static_cast<uint64_t>(key.reduce) << 21) ^
            (static_cast<uint64_t>(static_cast<uint32_t>(key.steps)) << 42));
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const uint32_t k = slots_[i];
      if (k == kEmpty) break;
      if (entries_[k].hash == h && entries_[k].key == key) return recent = k;
    }
    const auto k = static_cast<uint32_t>(kinds.size());
    kinds.push_back(make());
    entries_.push_back({h, key});
    if (2 * entries_.size() > slots_.size()) {  // keep the load under 1/2
      slots_.assign(2 * slots_.size(), kEmpty);
      mask = slots_.size() - 1;
      for (uint32_t e = 0; e < entries_.size(); ++e) place(entries_[e].hash, e);
    } else {
      place(h, k);
    }
    return recent = k;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Key {
    int32_t src, dst;
    int64_t bytes, reduce;
    int32_t steps;
    int16_t channel;
    bool operator==(const Key&) const = default;
  };
  struct Entry {
    uint64_t hash;
    Key key;
  };
  void place(uint64_t h, uint32_t k) {
    const size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i] != kEmpty) i = (i + 1) & mask;
    slots_[i] = k;
  }
  std::vector<uint32_t> slots_ = std::vector<uint32_t>(64, kEmpty);
  static constexpr uint32_t kRecent = 4096;  // sources 0..4095 never share an entry
  std::vector<uint32_t> recent_ = std::vector<uint32_t>(kRecent, kEmpty);  // last kind by source
  std::vector<Entry> entries_;
};

PreparedCall prepare(const Job& job, size_t index, const Router& router) {
  const JobCall& jc = job.calls[index];
  if (!jc.schedule || !jc.comm)
    throw std::invalid_argument("job '" + job.name + "' call " + std::to_string(index) + " has no schedule");
  const Schedule& s = *jc.schedule;
  const size_t n = s.size();
  PreparedCall p;
  p.call = &jc;
  std::optional<RouteCache> own;
  RouteCache* routes = jc.routes;
  if (routes != nullptr) {
    // A cache may come from another router over the same graph (a scenario job whose NCCL_IB_HCA
    // picks its own NICs routes on a copy of the cluster built with it: the same nodes and links
    // under the same ids), so its routes' links are this run's.
    const Cluster &mine = routes->router()->cluster(), &run = router.cluster();
    const bool same_graph = routes->router() == &router ||
                            (mine.nodes().size() == run.nodes().size() && mine.links().size() == run.links().size());
    if (routes->comm() != jc.comm || !same_graph || routes->seed() != job.seed || routes->policy() != job.routing)
      throw std::invalid_argument("job '" + job.name + "' call " + std::to_string(index) +
                                  ": its route cache was made for another communicator, router, seed or routing policy");
    routes->use(s);
  } else {
    routes = &own.emplace(s, *jc.comm, router, job.seed, job.routing);
  }
  KindTable table;
  // Per-transfer arrays: mapped in one call each (core/prefault.hpp), not a fault per page.
  reserve_prefaulted(p.kind, n);
  reserve_prefaulted(p.dependents_begin, n + 1);
  p.kind.resize(n);
  p.dependents_begin.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<TransferId>(i);
    p.kind[i] = table.find_or_add(s.transfer(id), p.kinds, [&] {
      ModelTransfer m = transfer_fields(s, id, *jc.comm);
      try {
        m.route = routes->route(id);
      } catch (const std::runtime_error& e) {
        // A nameless job is run_schedule's one call: its caller knows what to call it.
        if (job.name.empty()) throw;
        throw std::runtime_error("job '" + job.name + "', call " + std::to_string(index) + " (" + jc.label +
                                 "): " + e.what());
      }
      return m;
    });
    auto deps = s.deps(id);
    for (TransferId d : deps) ++p.dependents_begin[static_cast<size_t>(d) + 1];
    if (deps.empty()) p.roots.push_back(id);
  }
  for (size_t i = 0; i < n; ++i) p.dependents_begin[i + 1] += p.dependents_begin[i];
  reserve_prefaulted(p.dependents, p.dependents_begin[n]);
  p.dependents.resize(p.dependents_begin[n]);
  // Fill each transfer's dependents in increasing id order, then shift the boundaries back.
  for (size_t i = 0; i < n; ++i)
    for (TransferId d : s.deps(static_cast<TransferId>(i))) p.dependents[p.dependents_begin[static_cast<size_t>(d)]++] = static_cast<TransferId>(i);
  for (size_t i = n; i > 0; --i) p.dependents_begin[i] = p.dependents_begin[i - 1];
  p.dependents_begin[0] = 0;
  return p;
}

// What adaptive routing compares: per link, the routes of every transfer started and not yet
// finished, each leg counted by its share over the link's bandwidth (flows per byte/s, the flow
// model's own measure of load). Counted at start rather than read from the model, because a model
// sees a transfer only after its alpha: the transfers a synchronous collective starts in one
// instant would otherwise all see an idle fabric and all take their ECMP hash (issue 18: tree
// all-reduce on a 2:1 leaf-spine ran as slowly under adaptive as under ECMP).
class RoutedLoad final : public LinkLoad {
 public:
  explicit RoutedLoad(const Cluster& c) : cluster_(c) {}
  double load(LinkId l) const override { return load_.empty() ? 0.0 : load_[static_cast<size_t>(l)]; }
  void add(const Route& r, double sign) {
    if (load_.empty()) load_.assign(cluster_.links().size(), 0.0);
    for (const Leg& leg : r)
      for (LinkId l : leg.path.links) {
        const double cap = cluster_.link(l).bandwidth.bytes_per_second();
        if (cap > 0) load_[static_cast<size_t>(l)] += sign * leg.share / cap;
      }
  }

 private:
  const Cluster& cluster_;
  std::vector<double> load_;
};

// A job while it runs: which call instance is in flight and how far it has got.
struct JobState {
  std::vector<PreparedCall> calls;
  TransferId offset = 0;   // first global id of the job's range
  size_t call = 0;         // call in flight (or next to begin)
  int rep = 0;             // its repetition
  Time next_start;         // when the next call instance begins; infinity while one is in flight or when done
  Time call_start;
  std::vector<int32_t> waiting;  // per transfer of the call in flight: dependencies left; -1 once finished
  size_t done = 0;               // transfers of the call in flight finished
  bool finished = false;
  // Job::gap_delay's delays for the call in flight (or next to begin); used when gap_delayed.
  std::vector<Time> gap_delay;
  bool gap_delayed = false;
};

class Runner final : public CompletionSink {
 public:
  Runner(std::span<const Job> jobs, const Router& router, Model& model, const RunTick* tick)
      : jobs_(jobs), router_(router), model_(model), load_(router.cluster()), tick_(tick && tick->fn ? tick : nullptr) {
    TransferId offset = 0;
    state_.resize(jobs.size());
    run_.jobs.resize(jobs.size());
    for (size_t j = 0; j < jobs.size(); ++j) {
      const Job& job = jobs[j];
      if (job.calls.empty()) throw std::invalid_argument("job '" + job.name + "' has no calls");
      if (job.repeat < 1) throw std::invalid_argument("job '" + job.name + "' repeats fewer than once");
      JobState& st = state_[j];
      size_t largest = 0;
      for (size_t c = 0; c < job.calls.size(); ++c) {
        st.calls.push_back(prepare(job, c, router));
        largest = std::max(largest, job.calls[c].schedule->size());
      }
      for (size_t c = 0; c < job.calls.size(); ++c)
        transfers_ += static_cast<double>(job.calls[c].schedule->size()) * job.repeat;
      st.offset = offset;
      offsets_.push_back(offset);
      if (largest > static_cast<size_t>(INT32_MAX - offset))
        throw std::runtime_error("the jobs together have more than 2^31 transfers in flight");
      offset += static_cast<TransferId>(largest);
      total_ = offset;
      adaptive_ = adaptive_ || job.routing == RoutingPolicy::Adaptive;
      reserve_prefaulted(st.waiting, largest);
      st.next_start = job.start;
      JobRun& r = run_.jobs[j];
      r.calls.assign(job.calls.size(), {});
      for (auto& spans : r.calls) spans.reserve(static_cast<size_t>(job.repeat));
      r.finish.resize(job.calls.size());
      for (size_t c = 0; c < job.calls.size(); ++c) {
        reserve_prefaulted(r.finish[c], job.calls[c].schedule->size());
        r.finish[c].assign(job.calls[c].schedule->size(), Time::zero());
        const JobCall& jc = job.calls[c];
        if (!jc.rank_delay.empty() && jc.rank_delay.size() != static_cast<size_t>(jc.comm->nranks))
          throw std::invalid_argument("job '" + job.name + "' call " + std::to_string(c) + " has " +
                                      std::to_string(jc.rank_delay.size()) + " rank delays for " +
                                      std::to_string(jc.comm->nranks) + " ranks");
      }
    }
  }

  JobsRun run() {
    if (adaptive_) in_flight_.resize(static_cast<size_t>(total_));
    for (;;) {
      const Time model_next = model_.next_event_time();
      Time due = Time::infinity();
      for (const JobState& st : state_) due = std::min(due, st.next_start);
      if (!deferred_.empty()) due = std::min(due, deferred_.front().first);
      const Time now = std::min(model_next, due);
      if (now.is_infinite()) break;
      if (model_next <= now) {
        model_.advance_to(now, *this);
        ++run_.events;
        if (tick_ && run_.events % std::max<size_t>(1, tick_->every) == 0)
          tick_->fn(now, run_.events, transfers_ > 0 ? finished_ / transfers_ : 1.0);
      }
      for (size_t j = 0; j < state_.size(); ++j)
        if (state_[j].next_start <= now) begin_call(j, now);
      while (!deferred_.empty() && deferred_.front().first <= now) {
        std::pop_heap(deferred_.begin(), deferred_.end(), std::greater<>());
        ready_.push_back(deferred_.back().second);
        deferred_.pop_back();
      }
      sort_ids(ready_, sort_scratch_);
      for (TransferId g : ready_) {
        const size_t j = job_of(g);
        const JobState& st = state_[j];
        const auto local = static_cast<size_t>(g - st.offset);
        if (const Time gate = start_gate(st, local); gate > now) {
          deferred_.emplace_back(gate, g);
          std::push_heap(deferred_.begin(), deferred_.end(), std::greater<>());
          continue;
        }
        const ModelTransfer& prepared = st.calls[st.call].transfer(local);
        if (jobs_[j].routing != RoutingPolicy::Adaptive) {
          if (adaptive_) track(g, prepared.route);
          model_.start(g, prepared, now);
          continue;
        }
        const JobCall& jc = *st.calls[st.call].call;
        ModelTransfer t = prepared;
        const Router& router = jc.routes ? *jc.routes->router() : router_;  // the job's own view, as prepared
        t.route = std::make_shared<const Route>(transfer_legs(*jc.schedule, static_cast<TransferId>(local), *jc.comm,
                                                              router, jobs_[j].seed, RoutingPolicy::Adaptive, &load_));
        track(g, t.route);
        model_.start(g, t, now);
      }
      ready_.clear();
    }
    for (size_t j = 0; j < state_.size(); ++j)
      if (!state_[j].finished) throw stuck(j);
    run_.makespan = Time::zero();
    for (const JobRun& r : run_.jobs) run_.makespan = std::max(run_.makespan, r.end);
    return std::move(run_);
  }

  void completed(TransferId g, Time at) override {
    if (adaptive_) {
      std::shared_ptr<const Route>& r = in_flight_[static_cast<size_t>(g)];
      if (r) load_.add(*r, -1.0);
      r.reset();
    }
    const size_t j = job_of(g);
    JobState& st = state_[j];
    const PreparedCall& pc = st.calls[st.call];
    const auto local = static_cast<size_t>(g - st.offset);
    st.waiting[local] = -1;
    run_.jobs[j].finish[st.call][local] = at;
    const TransferId* const first = pc.dependents.data() + pc.dependents_begin[local];
    const TransferId* const last = pc.dependents.data() + pc.dependents_begin[local + 1];
    int32_t* const waiting = st.waiting.data();
    for (const TransferId* d = first; d != last; ++d)
      if (--waiting[*d] == 0) ready_.push_back(st.offset + *d);
    ++finished_;
    if (++st.done == pc.size()) end_call(j, at);
  }

 private:
  void track(TransferId g, const std::shared_ptr<const Route>& r) {
    if (!r) return;
    load_.add(*r, 1.0);
    in_flight_[static_cast<size_t>(g)] = r;
  }

  // When transfer `local` of the call in flight may start: its source rank's delay after the
  // instance began (JobCall::rank_delay; a group source waits for its latest member).
  Time start_gate(const JobState& st, size_t local) const {
    const JobCall& jc = *st.calls[st.call].call;
    const std::span<const Time> delay = st.gap_delayed ? std::span<const Time>(st.gap_delay) : jc.rank_delay;
    if (delay.empty()) return Time::zero();
    const Schedule& s = *jc.schedule;
    const int32_t src = s.transfer(static_cast<TransferId>(local)).src;
    Time d = Time::zero();
    if (is_group(src)) {
      for (Rank r : s.groups()[static_cast<size_t>(group_index(src))].ranks)
        d = std::max(d, delay[static_cast<size_t>(r)]);
    } else {
      d = delay[static_cast<size_t>(src)];
    }
    return st.call_start + d;
  }

  size_t job_of(TransferId g) const {
    if (offsets_.size() == 1) return 0;
    return static_cast<size_t>(std::upper_bound(offsets_.begin(), offsets_.end(), g) - offsets_.begin()) - 1;
  }

  void begin_call(size_t j, Time now) {
    JobState& st = state_[j];
    const PreparedCall& pc = st.calls[st.call];
    st.next_start = Time::infinity();
    st.call_start = now;
    st.done = 0;
    // Dependencies left per transfer, from the schedule's own lists.
    const Schedule& s = *pc.call->schedule;
    st.waiting.resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) st.waiting[i] = static_cast<int32_t>(s.deps(static_cast<TransferId>(i)).size());
    if (pc.size() == 0) {
      end_call(j, now);
      return;
    }
    for (TransferId r : pc.roots) ready_.push_back(st.offset + r);
  }

  void end_call(size_t j, Time last) {
    JobState& st = state_[j];
    const Job& job = jobs_[j];
    const JobCall& jc = *st.calls[st.call].call;
    const Time end = last + jc.schedule->base_latency();
    run_.jobs[j].calls[st.call].push_back({st.call_start, end});
    run_.jobs[j].end = end;
    if (++st.call == st.calls.size()) {
      st.call = 0;
      ++st.rep;
    }
    if (st.rep == job.repeat) {
      st.finished = true;
      st.call = st.calls.size() - 1;  // keep pointing at a valid call
      return;
    }
    st.next_start = end + jc.gap;
    st.gap_delayed = job.gap_delay && jc.gap > Time::zero();
    if (st.gap_delayed) {
      job.gap_delay(end, jc.gap, st.gap_delay);
      const JobCall& next = *st.calls[st.call].call;
      if (st.gap_delay.size() != static_cast<size_t>(next.comm->nranks))
        throw std::invalid_argument("job '" + job.name + "': gap_delay gave " + std::to_string(st.gap_delay.size()) +
                                    " rank delays for " + std::to_string(next.comm->nranks) + " ranks");
    }
  }

  std::runtime_error stuck(size_t j) const {
    const JobState& st = state_[j];
    const JobCall& jc = *st.calls[st.call].call;
    const Schedule& s = *jc.schedule;
    std::string msg = "the run cannot finish: job '" + jobs_[j].name + "', call " + std::to_string(st.call) + " (" +
                      jc.label + "), repetition " + std::to_string(st.rep) + ": " +
                      std::to_string(s.size() - st.done) + " of " + std::to_string(s.size()) +
                      " transfers unfinished";
    for (size_t i = 0; i < st.waiting.size(); ++i) {
      if (st.waiting[i] != 0) continue;  // finished (-1) or still waiting on a dependency
      const Transfer& t = s.transfer(static_cast<TransferId>(i));
      msg += "; transfer " + std::to_string(i) + " (rank " + std::to_string(t.src) + " -> " + std::to_string(t.dst) +
             ") started but the model never finished it (a link of zero bandwidth on its route?)";
      return std::runtime_error(msg);
    }
    return std::runtime_error(msg + "; no transfer is in flight (a dependency cycle in the schedule?)");
  }

  std::span<const Job> jobs_;
  const Router& router_;
  Model& model_;
  RoutedLoad load_;
  bool adaptive_ = false;  // some job routes adaptively: every route in flight is counted in load_
  TransferId total_ = 0;   // global transfer ids in use
  std::vector<std::shared_ptr<const Route>> in_flight_;  // by global id, while adaptive_
  std::vector<JobState> state_;
  std::vector<TransferId> offsets_;
  std::vector<TransferId> ready_, sort_scratch_;
  std::vector<std::pair<Time, TransferId>> deferred_;  // min-heap: ready transfers whose rank starts later
  JobsRun run_;
  const RunTick* tick_;      // null: no progress asked for
  double transfers_ = 0;     // transfers the run finishes, every repetition counted
  double finished_ = 0;      // of those, finished so far
};

}  // namespace

JobsRun run_jobs(std::span<const Job> jobs, const Router& router, Model& model) {
  Runner runner(jobs, router, model, nullptr);
  return runner.run();
}

JobsRun run_jobs(std::span<const Job> jobs, const Router& router, Model& model, const RunTick& tick) {
  Runner runner(jobs, router, model, &tick);
  return runner.run();
}

}  // namespace gf
