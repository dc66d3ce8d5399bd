#include "model/flow/maxmin_solver.hpp"

#include <algorithm>
#include <cassert>

#include "core/radix_sort.hpp"

namespace gf {

MaxMinSolver::ResourceId MaxMinSolver::add_resource(double capacity) {
  res_.push_back({});
  res_.back().capacity = capacity;
  fill_.push_back({});
  res_log_.push_back(0);
  return static_cast<ResourceId>(res_.size() - 1);
}

void MaxMinSolver::mark_dirty(ResourceId r) {
  Resource& x = res_[static_cast<size_t>(r)];
  if (!x.dirty) {
    x.dirty = true;
    dirty_.push_back(r);
  }
}

MaxMinSolver::VarId MaxMinSolver::add_variable(std::span<const ResourceId> resources, double weight, double bound) {
  VarId v;
  if (free_head_ < free_.size()) {
    v = free_[free_head_++];
    var_step_[static_cast<size_t>(v)] = -1;
    if (free_head_ == free_.size()) {
      free_.clear();
      free_head_ = 0;
    }
  } else {
    v = static_cast<VarId>(vars_.size());
    vars_.emplace_back();
    group_size_.push_back(0);
    var_step_.push_back(-1);
    var_lines_.resize(lines_for(vars_.size()));
  }
  if (resources.size() > stride_) grow_stride(resources.size());
  Var& x = vars_[static_cast<size_t>(v)];
  x.n = static_cast<int32_t>(resources.size());
  ResourceId* const xres = res_of(v);
  int32_t* const xpos = pos_of(v);
  x.weight = weight;
  x.bound = bound;
  x.rate = x.new_rate = 0;
  x.alive = x.fresh = true;
  x.group = -1;
  note_weight(weight);
  // A variable alone on every one of its resources (the common case: each edge of a ring) needs
  // no component search: its rate is its tightest capacity. It marks nothing dirty; a variable
  // added later beside it marks their shared resource, and the component search then finds both.
  bool alone = true;
  double tightest = bound;  // its rate if alone, found while its resources are at hand
  for (size_t i = 0; i < resources.size(); ++i) {
    const ResourceId r = resources[i];
    touch_logged(r);
    xres[i] = r;
    Resource& y = res_[static_cast<size_t>(r)];
    auto& users = y.users;
    xpos[i] = static_cast<int32_t>(users.size());
    users.push_back(v);
    y.weight_sum += weight;
    tightest = std::min(tightest, y.capacity);
    if (users.size() > 1) {
      alone = false;
      mark_dirty(r);
    }
  }
  if (x.n == 0) dirty_free_vars_.push_back(v);
  else if (alone) {
    x.new_rate = tightest;
    alone_vars_.push_back(v);
  }
  ++live_;
  return v;
}

void MaxMinSolver::grow_stride(size_t at_least) {
  size_t stride = stride_;
  while (stride < at_least) stride *= 2;
  std::vector<Line> lines(vars_.size() * 2 * stride / 16);
  auto* to = reinterpret_cast<int32_t*>(lines.data());
  for (size_t v = 0; v < vars_.size(); ++v)
    for (int32_t i = 0; vars_[v].n > kInlineRes && i < vars_[v].n; ++i) {
      to[v * 2 * stride + static_cast<size_t>(i)] = res_of(static_cast<VarId>(v))[i];
      to[v * 2 * stride + stride + static_cast<size_t>(i)] = pos_of(static_cast<VarId>(v))[i];
    }
  var_lines_.swap(lines);
  stride_ = stride;
}

void MaxMinSolver::remove_variable(VarId v) {
  Var& x = vars_[static_cast<size_t>(v)];
  assert(x.alive);
  const ResourceId* const xres = res_of(v);
  const int32_t* const xpos = pos_of(v);
  // A member of a quiet group: its resources are marked dirty at the solve only if its group
  // was not removed whole by then (settle_removals).
  const bool held = x.group >= 0 && whole_weights_ && quiet_on_;
  // The logged fill resumes no later than the step that fixed v (resume_fill).
  if (int32_t& step = var_step_[static_cast<size_t>(v)]; step >= 0) {
    if (warm_step_ < 0 || step < warm_step_) warm_step_ = step;
    step = -1;
  }
  if (held) {
    held_.push_back({x.group, static_cast<uint32_t>(held_res_.size()), static_cast<uint32_t>(held_res_.size() + static_cast<size_t>(x.n))});
    held_res_.insert(held_res_.end(), xres, xres + x.n);
  }
  for (int32_t i = 0; i < x.n; ++i) {
    // Swap-remove v from the resource's users, fixing the moved variable's position.
    auto& users = res_[static_cast<size_t>(xres[i])].users;
    res_[static_cast<size_t>(xres[i])].weight_sum -= x.weight;
    const int32_t at = xpos[i];
    const VarId moved = users.back();
    users[static_cast<size_t>(at)] = moved;
    users.pop_back();
    // A resource left without users changes no one's rate: nothing to recompute there.
    if (!users.empty() && !held) mark_dirty(xres[i]);
    if (moved != v) {
      const ResourceId* const mres = res_of(moved);
      for (int32_t j = 0; j < vars_[static_cast<size_t>(moved)].n; ++j)
        if (mres[j] == xres[i]) {
          pos_of(moved)[j] = at;
          break;
        }
    }
  }
  x.alive = false;
  x.rate = 0;
  x.group = -1;
  if (free_head_ > 4096 && 2 * free_head_ > free_.size()) {  // drop the used front now and then
    free_.erase(free_.begin(), free_.begin() + static_cast<std::ptrdiff_t>(free_head_));
    free_head_ = 0;
  }
  free_.push_back(v);
  --live_;
}

void MaxMinSolver::add_resource_to(VarId v, ResourceId r) {
  assert(vars_[static_cast<size_t>(v)].alive);
  assert(std::find(res_of(v), res_of(v) + vars_[static_cast<size_t>(v)].n, r) == res_of(v) + vars_[static_cast<size_t>(v)].n);
  if (static_cast<size_t>(vars_[static_cast<size_t>(v)].n) + 1 > stride_) grow_stride(static_cast<size_t>(vars_[static_cast<size_t>(v)].n) + 1);
  touch_logged(r);
  for (ResourceId r2 : res_span(v)) touch_logged(r2);
  Var& x = vars_[static_cast<size_t>(v)];
  Resource& y = res_[static_cast<size_t>(r)];
  if (x.n == kInlineRes) {  // its list outgrows its line: move it to var_lines_
    std::copy(x.in_res, x.in_res + x.n, spilled_res(v));
    std::copy(x.in_pos, x.in_pos + x.n, spilled_res(v) + stride_);
  }
  ++x.n;
  x.group = -1;
  res_of(v)[x.n - 1] = r;
  pos_of(v)[x.n - 1] = static_cast<int32_t>(y.users.size());
  y.users.push_back(v);
  y.weight_sum += x.weight;
  // Dirty even when v is r's only user: v's rate may now be r's capacity.
  mark_dirty(r);
}

void MaxMinSolver::set_capacity(ResourceId r, double capacity) {
  touch_logged(r);
  res_[static_cast<size_t>(r)].capacity = capacity;
  mark_dirty(r);
}

void MaxMinSolver::set_weight(VarId v, double weight) {
  Var& x = vars_[static_cast<size_t>(v)];
  assert(x.alive);
  note_weight(weight);
  x.group = -1;
  for (ResourceId r : res_span(v)) {
    touch_logged(r);
    res_[static_cast<size_t>(r)].weight_sum += weight - x.weight;
    mark_dirty(r);
  }
  if (x.n == 0) dirty_free_vars_.push_back(v);
  if (x.bound != kUnbounded) x.bound = x.bound / x.weight * weight;
  x.weight = weight;
}

// Every resource reachable from a dirty one through live variables, and those variables, one
// connected component at a time: component c holds comp_res_[res_begin_[c] .. res_begin_[c+1])
// and comp_vars_[var_begin_[c] .. var_begin_[c+1]). Components are solved separately, so a
// batch of unrelated changes (every ring edge starting its next step) costs one small solve each.
void MaxMinSolver::collect_component(bool skip_logged) {
  ++epoch_;
  comp_res_.clear();
  comp_vars_.clear();
  res_begin_.assign(1, 0);
  var_begin_.assign(1, 0);
  entries_.clear();
  entry_begin_.assign(1, 0);
  bounded_.clear();
  bounded_begin_.assign(1, 0);
  for (ResourceId seed : dirty_) {
    res_[static_cast<size_t>(seed)].dirty = false;
    if (res_[static_cast<size_t>(seed)].mark == epoch_ || res_[static_cast<size_t>(seed)].users.empty()) continue;
    // While the log is valid every user of a logged resource is logged and uses only logged
    // resources, so no other component reaches the logged one.
    if (skip_logged && res_log_[static_cast<size_t>(seed)] == log_gen_) continue;
    res_[static_cast<size_t>(seed)].mark = epoch_;
    stack_.assign(1, seed);
    while (!stack_.empty()) {
      ResourceId r = stack_.back();
      stack_.pop_back();
      comp_res_.push_back(r);
      // fill()'s set-up, done here while r's users are at hand: r's level at the start, its
      // users' weights summed in their order (the order fill() summed them in).
      const Resource& rx = res_[static_cast<size_t>(r)];
      FillScratch& y = fill_[static_cast<size_t>(r)];
      double weight = 0;
      for (VarId v : rx.users) {
        Var& x = vars_[static_cast<size_t>(v)];
        weight += x.weight;
        if (x.mark == epoch_) continue;
        x.mark = epoch_;
        x.fixed = false;
        x.group = -1;
        if (x.bound != kUnbounded) bounded_.push_back(v);
        comp_vars_.push_back(v);
        for (ResourceId r2 : res_span(v))
          if (res_[static_cast<size_t>(r2)].mark != epoch_) {
            res_[static_cast<size_t>(r2)].mark = epoch_;
            stack_.push_back(r2);
          }
      }
      y.remaining = rx.capacity;
      y.weight = weight;
      ++y.version;
      if (weight > 1e-12) entries_.push_back({y.remaining / weight, r, y.version});
    }
    res_begin_.push_back(comp_res_.size());
    var_begin_.push_back(comp_vars_.size());
    entry_begin_.push_back(entries_.size());
    bounded_begin_.push_back(bounded_.size());
  }
  dirty_.clear();
  for (VarId v : dirty_free_vars_)
    if (vars_[static_cast<size_t>(v)].alive && vars_[static_cast<size_t>(v)].mark != epoch_) {
      vars_[static_cast<size_t>(v)].mark = epoch_;
      comp_vars_.push_back(v);
      res_begin_.push_back(comp_res_.size());
      var_begin_.push_back(comp_vars_.size());
      entry_begin_.push_back(entries_.size());
      bounded_begin_.push_back(bounded_.size());
    }
  dirty_free_vars_.clear();
  // Variables added alone and still alone (none of their resources was dirtied since): one-variable
  // components. One that a later change pulled into a component above is marked already.
  // Their rate was set when they were added; they join comp_vars_ after the last component, so
  // solve() reports them without solving anything.
  for (VarId v : alone_vars_)
    if (vars_[static_cast<size_t>(v)].alive && vars_[static_cast<size_t>(v)].mark != epoch_) {
      vars_[static_cast<size_t>(v)].mark = epoch_;
      comp_vars_.push_back(v);
    }
  alone_vars_.clear();
}

void MaxMinSolver::fix(VarId v, double rate) {
  Var& x = vars_[static_cast<size_t>(v)];
  x.fixed = true;
  x.new_rate = rate;
  if (logging_) {
    var_step_[static_cast<size_t>(v)] = static_cast<int32_t>(log_steps_.size() - 1);
    log_vars_.push_back(v);
    for (ResourceId r : res_span(v)) {
      log_res_.push_back(r);
      log_rem_.push_back(fill_[static_cast<size_t>(r)].remaining);
    }
    log_at_.push_back(static_cast<uint32_t>(log_res_.size()));
  }
  for (ResourceId r : res_span(v)) {
    FillScratch& y = fill_[static_cast<size_t>(r)];
    y.remaining = std::max(0.0, y.remaining - rate);
    y.weight -= x.weight;
    ++y.version;  // its heap entry is stale now; fill() renews it when it reaches the top
  }
}

// The variables one step of fill() just fixed together (stack_: the unfixed users of the resource
// it popped, or one variable at its bound) form a quiet group when they leave none of their
// resources an unfixed user. Removing a quiet group whole then changes no other rate, to the bit,
// so those removals mark nothing dirty (settle_removals). Why, with whole weights (each resource's
// weight is then an exact integer, and 0 exactly when its last user is fixed): take this fill's
// sequence of steps, and the fill of the same component without the group G fixed at step k.
// Before step k no resource of G popped (it would have fixed G's members then), and without G
// their levels are no lower (remaining / (weight - w_G) >= remaining / weight), so every step
// before k pops the same resource with the same values; at step k, the resource that fixed G has
// no unfixed user left without G (it pops no more); after it, both fills hold every resource at
// the same remaining and weight except G's, which are dead (weight 0) in both. So the two fills
// make every other step alike, with the same arithmetic in the same order. That stays so for a
// later group (a removal only deletes a step), and any other change re-solves the component,
// making every group anew. The swap-removes reorder users only of G's resources, which never
// pop with an unfixed user again, so that order is read nowhere. A part of G removed is not
// quiet: the resource that fixed G would pop later, at a higher level, for the rest.
void MaxMinSolver::mark_quiet() {
  for (VarId v : stack_)
    for (ResourceId r : res_span(v))
      if (fill_[static_cast<size_t>(r)].weight > 1e-12) return;
  const VarId name = stack_.front();
  group_size_[static_cast<size_t>(name)] = static_cast<int32_t>(stack_.size());
  for (VarId v : stack_) vars_[static_cast<size_t>(v)].group = name;
}

// A group's members are all removed in one batch or it is dissolved: a member removed alone marks
// the resource that fixed the group, which every member uses, so the rest are re-solved (and lose
// the group) at this solve; a new variable reusing the naming member's id is in no group.
void MaxMinSolver::settle_removals() {
  if (held_.empty()) return;
  std::sort(held_.begin(), held_.end(), [](const HeldRemoval& a, const HeldRemoval& b) {
    return a.group != b.group ? a.group < b.group : a.begin < b.begin;
  });
  for (size_t i = 0; i < held_.size();) {
    size_t j = i;
    while (j < held_.size() && held_[j].group == held_[i].group) ++j;
    if (static_cast<int32_t>(j - i) == group_size_[static_cast<size_t>(held_[i].group)]) {
      quiet_removals_ += j - i;
    } else {
      for (size_t k = i; k < j; ++k)
        for (uint32_t at = held_[k].begin; at < held_[k].end; ++at)
          if (!res_[static_cast<size_t>(held_res_[at])].users.empty()) mark_dirty(held_res_[at]);
    }
    i = j;
  }
  held_.clear();
  held_res_.clear();
}

// Progressive filling over the component: raise every unfixed variable's level together; the
// first resource to run out (or variable to reach its bound) fixes its variables at that level.
void MaxMinSolver::fill(size_t c) {
  const std::span<const VarId> comp_vars(comp_vars_.data() + var_begin_[c], var_begin_[c + 1] - var_begin_[c]);
  const std::span<VarId> bounded(bounded_.data() + bounded_begin_[c], bounded_begin_[c + 1] - bounded_begin_[c]);
  // collect_component() set the resources' scratch, their first levels and the unfixed variables.
  heap_.clear();
  for (size_t i = entry_begin_[c]; i < entry_begin_[c + 1]; ++i) heap_.append(entries_[i]);
  heap_.heapify();
  // Variables with bounds saturate at level bound / weight; visit them in that order.
  std::sort(bounded.begin(), bounded.end(), [&](VarId a, VarId b) {
    const Var &x = vars_[static_cast<size_t>(a)], &y = vars_[static_cast<size_t>(b)];
    double la = x.bound / x.weight, lb = y.bound / y.weight;
    return la != lb ? la < lb : a < b;
  });
  fill_steps(bounded);
  logging_ = false;
  // Variables on no resource and without a bound are unconstrained.
  for (VarId v : comp_vars)
    if (!vars_[static_cast<size_t>(v)].fixed) vars_[static_cast<size_t>(v)].new_rate = kUnbounded;
}

void MaxMinSolver::fill_steps(std::span<const VarId> bounded) {
  size_t next_bounded = 0;
  for (;;) {
    // Entries are renewed lazily: fix() only marks a resource's entry stale, and a stale entry is
    // replaced by the resource's present level when it reaches the top. That is exact because a
    // level never falls (fixing a variable at rate <= its weight x L, L the lowest level, leaves
    // each of its resources at a level no lower than before), so a stale entry is a lower bound
    // and the first fresh top is the true minimum; the levels compared are the same quotients,
    // computed from the same sums, as when every fix pushed its resources (one heap entry per
    // fixed variable and resource, most of them stale before anyone read them: 70 % of the time
    // on GB200 NVLS-tree).
    // A renewed entry replaces the stale top in place (LevelHeap::replace_top: the same order as
    // popping it and pushing the new one, in one sift-down).
    while (!heap_.empty() && heap_.top().version != fill_[static_cast<size_t>(heap_.top().r)].version) {
      const ResourceId r = heap_.top().r;
      const FillScratch& y = fill_[static_cast<size_t>(r)];
      if (y.weight > 1e-12) heap_.replace_top({y.remaining / y.weight, r, y.version});
      else heap_.pop();
    }
    while (next_bounded < bounded.size() && vars_[static_cast<size_t>(bounded[next_bounded])].fixed) ++next_bounded;
    const double by_resource = heap_.empty() ? kUnbounded : heap_.top().level;
    double by_bound = kUnbounded;
    if (next_bounded < bounded.size()) {
      const Var& x = vars_[static_cast<size_t>(bounded[next_bounded])];
      by_bound = x.bound / x.weight;
    }
    if (heap_.empty() && next_bounded >= bounded.size()) break;
    if (logging_) log_steps_.push_back(static_cast<uint32_t>(log_vars_.size()));
    if (by_bound <= by_resource) {
      VarId v = bounded[next_bounded++];
      fix(v, vars_[static_cast<size_t>(v)].bound);
      stack_.assign(1, v);
      mark_quiet();
      continue;
    }
    const ResourceId r = heap_.top().r;
    heap_.pop();
    // fix() changes r's user weights; copy the unfixed users first.
    stack_.clear();
    for (VarId v : res_[static_cast<size_t>(r)].users)
      if (!vars_[static_cast<size_t>(v)].fixed) stack_.push_back(v);
    for (VarId v : stack_) fix(v, vars_[static_cast<size_t>(v)].weight * by_resource);
    mark_quiet();
  }
}

void MaxMinSolver::start_log(size_t c) {
  for (VarId v : log_vars_) var_step_[static_cast<size_t>(v)] = -1;  // the old log's
  if (++log_gen_ == 0) {  // wrapped: no resource may keep the new generation
    std::fill(res_log_.begin(), res_log_.end(), 0u);
    log_gen_ = 1;
  }
  for (size_t i = res_begin_[c]; i < res_begin_[c + 1]; ++i) res_log_[static_cast<size_t>(comp_res_[i])] = log_gen_;
  log_vars_.clear();
  log_steps_.clear();
  log_res_.clear();
  log_rem_.clear();
  log_at_.assign(1, 0);
  warm_step_ = -1;
  log_valid_ = logging_ = true;
}

// Resumes the logged fill at step k, the earliest step that fixed a variable removed since (all
// changes to the component since the fill were removals: any other change invalidates the log).
// Exact, to the bit, with whole weights (each resource's weight is then an exact integer in any
// order of sums): the fill from the start without the removed variables R makes steps 0 .. k-1
// exactly as the logged fill did. Before step k every variable of R is unfixed, so a resource of
// R holds the same remaining capacity in both fills and a weight lower by R's weights on it:
// its level is no lower (higher or dead), and it did not pop before k (it would have fixed a
// member of R). Every other resource's level is the same, so each step before k pops the same
// resource (or bound) at the same level, takes the same unfixed users in the same order (R's
// swap-removes reorder only R's resources' user lists, none of which pops before k) and fixes
// them with the same arithmetic. The removals do not change the heap's order of ties either:
// (level, id) is unique. So the state before step k is the log's: each resource used by a
// variable fixed at step k or later has the remaining capacity logged at its first such fix, and
// as weight the sum of those variables' weights less R's; every other resource has no unfixed user
// left. From that state fill_steps() makes the rest of the cold fill's steps: its pops depend only
// on the (level, id) keys (maxmin_solver_heap.hpp), and bounded variables are visited in the same
// sorted order. Variables fixed before k keep their rate and their quiet group (a group before k
// left no unfixed user then, so no member of R was on its resources, and the cold fill makes the
// same group at the same step). A removal since that was quiet (no solve) deleted a step whose
// resources are dead in the log's state and the cold fill's alike, so the log still stands for
// the fill of what is left. The components the removals split the logged one into are resumed
// together: each step only touches its own component's resources, so each component sees the
// steps its own fill would make, in the same order.
void MaxMinSolver::resume_fill() {
  const auto k = static_cast<size_t>(warm_step_);
  warm_step_ = -1;
  ++warm_solves_;
  ++epoch_;  // marks the resources restored
  warm_res_.clear();
  const size_t first_var = comp_vars_.size(), first_bounded = bounded_.size();
  const size_t from = log_steps_[k];
  for (size_t s = k; s < log_steps_.size(); ++s) {
    const size_t end = s + 1 < log_steps_.size() ? log_steps_[s + 1] : log_vars_.size();
    for (size_t p = log_steps_[s]; p < end; ++p) {
      const VarId v = log_vars_[p];
      // Still the variable logged there (a removed one has -1, its id reused -1 too).
      const bool alive = var_step_[static_cast<size_t>(v)] == static_cast<int32_t>(s);
      for (uint32_t i = log_at_[p]; i < log_at_[p + 1]; ++i) {
        const ResourceId r = log_res_[i];
        FillScratch& y = fill_[static_cast<size_t>(r)];
        if (res_[static_cast<size_t>(r)].mark != epoch_) {  // its first fix at step k or later
          res_[static_cast<size_t>(r)].mark = epoch_;
          y.remaining = log_rem_[i];
          y.weight = 0;
          ++y.version;
          warm_res_.push_back(r);
        }
        if (alive) y.weight += vars_[static_cast<size_t>(v)].weight;
      }
      if (!alive) continue;
      Var& x = vars_[static_cast<size_t>(v)];
      x.fixed = false;
      x.group = -1;
      comp_vars_.push_back(v);
      if (x.bound != kUnbounded) bounded_.push_back(v);
    }
  }
  log_vars_.resize(from);
  log_at_.resize(from + 1);
  log_res_.resize(log_at_.back());
  log_rem_.resize(log_at_.back());
  log_steps_.resize(k);
  heap_.clear();
  for (ResourceId r : warm_res_) {
    const FillScratch& y = fill_[static_cast<size_t>(r)];
    if (y.weight > 1e-12) heap_.append({y.remaining / y.weight, r, y.version});
  }
  heap_.heapify();
  const std::span<VarId> bounded(bounded_.data() + first_bounded, bounded_.size() - first_bounded);
  std::sort(bounded.begin(), bounded.end(), [&](VarId a, VarId b) {
    const Var &x = vars_[static_cast<size_t>(a)], &y = vars_[static_cast<size_t>(b)];
    double la = x.bound / x.weight, lb = y.bound / y.weight;
    return la != lb ? la < lb : a < b;
  });
  warm_refixed_ += comp_vars_.size() - first_var;
  logging_ = true;
  fill_steps(bounded);
  logging_ = false;
}

void MaxMinSolver::solve(std::vector<VarId>& changed) {
  settle_removals();
  if (!whole_weights_ || !warm_on_) log_valid_ = false;
  // Resumed when the changes reached the logged component (only removals can while it is valid).
  bool warm = false;
  if (log_valid_)
    for (ResourceId r : dirty_)
      if (res_log_[static_cast<size_t>(r)] == log_gen_) {
        warm = true;
        break;
      }
  if (warm && warm_step_ < 0) log_valid_ = warm = false;  // not expected; fill from the start
  collect_component(warm);
  // The largest component filled from the start gets the log, unless the logged one resumes.
  size_t log_c = SIZE_MAX;
  if (!warm && warm_on_ && whole_weights_)
    for (size_t c = 0; c + 1 < var_begin_.size(); ++c)
      if (var_begin_[c + 1] - var_begin_[c] >= log_min_ && (log_c == SIZE_MAX || var_begin_[c + 1] - var_begin_[c] > var_begin_[log_c + 1] - var_begin_[log_c])) log_c = c;
  for (size_t c = 0; c + 1 < var_begin_.size(); ++c) {
    const std::span<const VarId> vars(comp_vars_.data() + var_begin_[c], var_begin_[c + 1] - var_begin_[c]);
    if (vars.size() == 1) {
      // Alone on its resources (the common case of a ring edge): the tightest capacity or its bound.
      Var& x = vars_[static_cast<size_t>(vars.front())];
      x.new_rate = x.bound;
      for (ResourceId r : res_span(vars.front())) x.new_rate = std::min(x.new_rate, res_[static_cast<size_t>(r)].capacity);
    } else if (!vars.empty()) {
      if (c == log_c) start_log(c);
      fill(c);
    }
  }
  if (warm) resume_fill();
  if (comp_vars_.empty()) return;
  sort_ids(comp_vars_, sort_scratch_);
  for (VarId v : comp_vars_) {
    Var& x = vars_[static_cast<size_t>(v)];
    if (x.fresh || x.new_rate != x.rate) changed.push_back(v);
    x.rate = x.new_rate;
    x.fresh = false;
  }
}

}  // namespace gf
