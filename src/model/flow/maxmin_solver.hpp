// Weighted max-min fair sharing (progressive filling; Bertsekas & Gallager, "Data Networks", 2nd
// ed., section 6.5.2). Pure math: resources with capacities, variables that each use a set of
// resources with a weight and an optional upper bound; out come rates such that no resource is
// over its capacity and no variable's rate can grow without shrinking one whose rate/weight is
// no larger. It knows nothing of GPUs, links or bytes.
//
// Incremental: adding or removing a variable marks its shared resources dirty; solve() recomputes
// only the variables connected to a dirty resource through shared resources (the only ones whose
// fair share can have changed) and reports which rates changed. A variable added alone on all its
// resources is its own component and is solved without a search; a resource a removal leaves
// empty is not dirty (no rate depends on it). Storage is flat arrays indexed by
// id; freed variable slots are reused, so a steady stream of add/remove/solve allocates nothing
// after warm-up.
//
// Warm re-solves: the fill of a large component keeps a log (the variables in the order it fixed
// them, each step's start, each fixed variable's resources with their remaining capacity just
// before); when the next changes to that component are only removals, solve() resumes the fill at
// the step of the earliest-fixed removed variable instead of filling from the start. Exact to the
// bit (the argument is at MaxMinSolver::resume_fill).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/inline_ids.hpp"
#include "model/flow/maxmin_solver_heap.hpp"

namespace gf {

class MaxMinSolver {
 public:
  using ResourceId = int32_t;
  using VarId = int32_t;
  static constexpr double kUnbounded = std::numeric_limits<double>::infinity();

  ResourceId add_resource(double capacity);
  // A variable using `resources` (each at most once). Its rate is weight x the fair level of its
  // bottleneck, at most `bound`. A variable using no resource gets its bound (possibly infinite).
  VarId add_variable(std::span<const ResourceId> resources, double weight = 1.0, double bound = kUnbounded);
  void remove_variable(VarId v);
  // Adds resource r to live variable v's set (v must not use it already). The flow model uses it
  // when a link it had left out of the problem as implied by another must come back in.
  void add_resource_to(VarId v, ResourceId r);
  // Changes a live variable's weight (w identical flows merged into one variable of weight w get
  // w times one flow's fair share); its bound scales with it.
  void set_weight(VarId v, double weight);
  // Changes resource r's capacity (0 allowed: its users' rates go to 0); the next solve()
  // recomputes every variable connected to r. Time-varying link state (scenario `events:`).
  void set_capacity(ResourceId r, double capacity);

  // Recomputes every variable connected to a change since the last solve; appends to `changed`
  // each of them whose rate differs from before (new variables always), in increasing id order.
  void solve(std::vector<VarId>& changed);

  double rate(VarId v) const { return vars_[static_cast<size_t>(v)].rate; }
  double capacity(ResourceId r) const { return res_[static_cast<size_t>(r)].capacity; }
  // Variables currently using resource r, and the sum of their weights.
  int users(ResourceId r) const { return static_cast<int>(res_[static_cast<size_t>(r)].users.size()); }
  double weight_on(ResourceId r) const { return res_[static_cast<size_t>(r)].weight_sum; }
  std::span<const ResourceId> resources_of(VarId v) const {
    return {res_of(v), static_cast<size_t>(vars_[static_cast<size_t>(v)].n)};
  }
  double weight(VarId v) const { return vars_[static_cast<size_t>(v)].weight; }
  size_t resources() const { return res_.size(); }
  size_t live_variables() const { return live_; }
  // Variables recomputed by the last solve (all its components), for benchmarks.
  size_t last_component_variables() const { return comp_vars_.size(); }
  // Removals that needed no re-solve (the whole of a quiet group: mark_quiet() says which and why
  // that is exact), for benchmarks and tests.
  size_t quiet_removals() const { return quiet_removals_; }
  // Off: every removal re-solves its component, as before the shortcut (for tests that check
  // the shortcut changes no rate to the bit). Call before the first solve().
  void set_quiet_removals(bool on) { quiet_on_ = on; }
  // Off: every solve fills its components from the start (for tests that check that resuming
  // changes no rate to the bit). Call before the first solve().
  void set_warm_start(bool on) { warm_on_ = on; }
  // The least component (in variables) whose fill is logged for a warm re-solve: below it a fill
  // from the start is cheap and the log's writes would be most of what resuming saves. Tests set
  // it low to check resuming on small systems.
  void set_warm_min_variables(size_t n) { log_min_ = n; }
  // Solves that resumed a logged fill (warm) instead of filling it from the start, and the
  // variables those resumes fixed again, for benchmarks and tests.
  size_t warm_solves() const { return warm_solves_; }
  size_t warm_refixed() const { return warm_refixed_; }

 private:
  // Packed, 48 bytes (its fields, the first users inline), not one 64-byte line each: a sync ring
  // reads every link's resource once a step at random, so what decides its misses is how many
  // bytes all the links take, not whether a record straddles two lines (cachegrind, a sync ring
  // against caches scaled to N = 8,192 and a 4 MiB L3 share: the resources' misses past it 0.83
  // -> 0.35 per flow event, all arrays' 3.40 -> 2.50; issue 26, tenth pass, docs/journal.md).
  struct Resource {
    double capacity = 0;
    double weight_sum = 0;
    InlineIds users;
    uint32_t mark = 0;
    bool dirty = false;
  };
  static_assert(sizeof(Resource) == 48);
  struct FillScratch {  // by resource, for fill() and fix() only
    double remaining = 0, weight = 0;
    uint32_t version = 0;
  };
  // A variable on at most kInlineRes resources (a ring edge inside a leaf uses two) keeps its
  // resources and positions in its own line, so adding, solving and removing it reads one line of
  // the variable, not two; longer lists live in var_lines_ (res_of, pos_of pick the place by n).
  static constexpr int32_t kInlineRes = 2;
  struct alignas(64) Var {
    double weight = 1, bound = kUnbounded, rate = 0, new_rate = 0;
    int32_t n = 0;  // resources used: res_of(v)[0, n), positions pos_of(v)[0, n)
    uint32_t mark = 0;
    bool alive = false, fresh = false, fixed = false;
    // The quiet group its last fill put it in (mark_quiet), named by one member; -1: none.
    int32_t group = -1;
    int32_t in_res[kInlineRes] = {}, in_pos[kInlineRes] = {};
  };
  static_assert(sizeof(Var) == 64);

  void mark_dirty(ResourceId r);
  // A variable's resources and its index in each one's users, when it uses more than kInlineRes
  // resources: one block of 2 x `stride_` entries per variable (resources, then positions;
  // stride_ grows to the longest list seen),
  // aligned so that at the initial stride a variable's block is one cache line: no array of its
  // own per variable, so adding and removing one touches no allocator and no separate block.
  struct alignas(64) Line {
    int32_t v[16];
  };
  static_assert(sizeof(ResourceId) == sizeof(int32_t));
  ResourceId* spilled_res(VarId v) { return reinterpret_cast<int32_t*>(var_lines_.data()) + static_cast<size_t>(v) * 2 * stride_; }
  const ResourceId* spilled_res(VarId v) const {
    return reinterpret_cast<const int32_t*>(var_lines_.data()) + static_cast<size_t>(v) * 2 * stride_;
  }
  ResourceId* res_of(VarId v) {
    Var& x = vars_[static_cast<size_t>(v)];
    return x.n <= kInlineRes ? x.in_res : spilled_res(v);
  }
  const ResourceId* res_of(VarId v) const {
    const Var& x = vars_[static_cast<size_t>(v)];
    return x.n <= kInlineRes ? x.in_res : spilled_res(v);
  }
  int32_t* pos_of(VarId v) {
    Var& x = vars_[static_cast<size_t>(v)];
    return x.n <= kInlineRes ? x.in_pos : spilled_res(v) + stride_;
  }
  const int32_t* pos_of(VarId v) const {
    const Var& x = vars_[static_cast<size_t>(v)];
    return x.n <= kInlineRes ? x.in_pos : spilled_res(v) + stride_;
  }
  // Lines for n variables at the current stride.
  size_t lines_for(size_t n) const { return n * 2 * stride_ / 16; }
  std::span<const ResourceId> res_span(VarId v) const { return resources_of(v); }
  void grow_stride(size_t at_least);
  // Skips seeds in the logged component when `skip_logged` (resume_fill solves that one).
  void collect_component(bool skip_logged);
  // Progressive filling of component c (its set-up made by collect_component()).
  void fill(size_t c);
  // fill()'s loop from the state it finds in heap_ and fill_ (after collect_component's set-up or
  // resume_fill's restore), bounded variables visited in `bounded`'s order.
  void fill_steps(std::span<const VarId> bounded);
  void fix(VarId v, double rate);
  // Warm re-solve of the logged component from the earliest step a removal touched.
  void resume_fill();
  // A change other than a removal to resource r: the log no longer describes r's component.
  void touch_logged(ResourceId r) {
    if (static_cast<size_t>(r) < res_log_.size() && res_log_[static_cast<size_t>(r)] == log_gen_) log_valid_ = false;
  }
  // Starts the log of component c's fill.
  void start_log(size_t c);
  // After a step of fill() fixed stack_: makes them a quiet group if they qualify.
  void mark_quiet();
  // Decides the removals remove_variable held back: a quiet group removed whole changes no other
  // rate; any other removal marks its resources dirty, as remove_variable does.
  void settle_removals();

  std::vector<Resource> res_;
  std::vector<FillScratch> fill_;
  std::vector<Var> vars_;
  size_t stride_ = 8;  // a power of two, at least 8
  std::vector<Line> var_lines_;
  // Freed variable ids, handed out first freed, first reused: an instant frees its variables in
  // increasing id order (its completions are sorted), so the next instant's new variables get
  // increasing ids again and the id lists sorted at each solve (and the completions they lead
  // to) arrive sorted. Reusing last freed first handed them out in decreasing order.
  std::vector<VarId> free_;
  size_t free_head_ = 0;
  size_t live_ = 0;
  // Since the last solve: resources touched, and new variables using no resource.
  std::vector<ResourceId> dirty_;
  std::vector<VarId> dirty_free_vars_;
  std::vector<VarId> alone_vars_;  // new variables that were alone on each of their resources
  uint32_t epoch_ = 0;
  // Quiet removals are exact only while every weight is a whole number (below 2^53): then each
  // resource's weight sum is exact in any order and reaches 0 exactly when its last user is fixed.
  bool whole_weights_ = true, quiet_on_ = true;
  size_t quiet_removals_ = 0;
  std::vector<int32_t> group_size_;  // by variable id: the size of the group it names
  struct HeldRemoval {
    int32_t group;
    uint32_t begin, end;  // its resources in held_res_
  };
  std::vector<HeldRemoval> held_;  // removals of quiet-group members since the last solve
  std::vector<ResourceId> held_res_;
  void note_weight(double w) {
    if (!(w >= 1 && w < 9007199254740992.0 && w == static_cast<double>(static_cast<int64_t>(w)))) whole_weights_ = false;
  }
  // Scratch kept between solves so solving allocates nothing after warm-up.
  std::vector<ResourceId> comp_res_, stack_;
  std::vector<VarId> comp_vars_, bounded_, sort_scratch_;
  // Component boundaries in comp_res_ / comp_vars_ / entries_ / bounded_.
  std::vector<size_t> res_begin_, var_begin_, entry_begin_, bounded_begin_;
  std::vector<LevelHeap::Entry> entries_;  // each component's resources at their first level
  LevelHeap heap_;

  // The log of the last large fill (resume_fill). Its component's resources carry res_log_ ==
  // log_gen_; its variables var_step_ = the step that fixed them (-1: not logged, or removed).
  // log_vars_ in fix order, step s fixing log_vars_[log_steps_[s], log_steps_[s + 1]); the
  // variable at position p used log_res_[log_at_[p], log_at_[p + 1]), each with its remaining
  // capacity just before that fix in log_rem_.
  bool warm_on_ = true, log_valid_ = false, logging_ = false;
  uint32_t log_gen_ = 0;
  int32_t warm_step_ = -1;  // the earliest step of a logged variable removed since; -1: none
  size_t warm_solves_ = 0, warm_refixed_ = 0, log_min_ = 4096;
  std::vector<uint32_t> res_log_;
  std::vector<int32_t> var_step_;
  std::vector<VarId> log_vars_;
  std::vector<uint32_t> log_steps_, log_at_;
  std::vector<ResourceId> log_res_, warm_res_;
  std::vector<double> log_rem_;
};

}  // namespace gf
