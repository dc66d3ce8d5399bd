#include "training/pipeline.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gf {

std::vector<PassSpan> pass_order(int64_t stage, int64_t p, int64_t v, int64_t m) {
  std::vector<PassSpan> order;
  const int64_t total = m * v;
  // The k-th forward (or backward) pass of a stage: micro-batches go in groups of p through each
  // chunk in turn (Megatron's get_model_chunk_id); backward passes walk the chunks in reverse.
  auto pass = [&](int64_t k, bool fwd) {
    const int64_t in_group = k % (p * v);
    int64_t chunk = in_group / p;
    if (!fwd) chunk = v - 1 - chunk;
    const int64_t mb = (k / (p * v)) * p + k % p;
    PassSpan s;
    s.forward = fwd;
    s.microbatch = v == 1 ? k : mb;
    s.chunk = v == 1 ? 0 : chunk;
    return s;
  };
  // Warm-up forwards: p - stage - 1 for 1F1B; Megatron's interleaved schedule runs
  // (p - stage - 1) x 2 + (v - 1) x p, both capped at all passes.
  const int64_t warmup = std::min(total, v == 1 ? p - stage - 1 : (p - stage - 1) * 2 + (v - 1) * p);
  for (int64_t k = 0; k < warmup; ++k) order.push_back(pass(k, true));
  for (int64_t k = 0; k < total - warmup; ++k) {
    order.push_back(pass(warmup + k, true));
    order.push_back(pass(k, false));
  }
  for (int64_t k = total - warmup; k < total; ++k) order.push_back(pass(k, false));
  return order;
}

PipelineRun run_pipeline(const PipelineInput& in) {
  const int64_t p = in.stages, v = in.chunks, m = in.microbatches;
  const int64_t vs_count = p * v;
  constexpr double kNotYet = std::numeric_limits<double>::quiet_NaN();
  // End time of each (virtual stage, micro-batch) pass; NaN until scheduled.
  std::vector<double> fwd_end(static_cast<size_t>(vs_count * m), kNotYet), bwd_end(fwd_end);
  auto at = [&](int64_t vs, int64_t mb) { return static_cast<size_t>(vs * m + mb); };

  PipelineRun run;
  run.stages.resize(static_cast<size_t>(p));
  std::vector<std::vector<PassSpan>> orders;
  for (int64_t s = 0; s < p; ++s) orders.push_back(pass_order(s, p, v, m));
  std::vector<size_t> next(static_cast<size_t>(p), 0);
  std::vector<double> free_at(static_cast<size_t>(p), 0.0);
  size_t left = 0;
  for (const auto& o : orders) left += o.size();
  while (left > 0) {
    bool progress = false;
    for (int64_t s = 0; s < p; ++s) {
      auto& order = orders[static_cast<size_t>(s)];
      size_t& i = next[static_cast<size_t>(s)];
      while (i < order.size()) {
        PassSpan op = order[i];
        const int64_t vs = op.chunk * p + s;
        double ready = 0;
        if (op.forward) {
          if (vs > 0) {
            const double e = fwd_end[at(vs - 1, op.microbatch)];
            if (e != e) break;  // input not produced yet
            ready = e + in.p2p_s;
          }
        } else {
          if (vs < vs_count - 1) {
            const double e = bwd_end[at(vs + 1, op.microbatch)];
            if (e != e) break;
            ready = e + in.p2p_s;
          } else {
            const double e = fwd_end[at(vs, op.microbatch)];
            if (e != e) break;
            ready = e;
          }
        }
        const double dur = op.forward ? in.forward_s[static_cast<size_t>(vs)] : in.backward_s[static_cast<size_t>(vs)];
        op.start = std::max(free_at[static_cast<size_t>(s)], ready);
        op.end = op.start + dur;
        free_at[static_cast<size_t>(s)] = op.end;
        (op.forward ? fwd_end : bwd_end)[at(vs, op.microbatch)] = op.end;
        StageRun& sr = run.stages[static_cast<size_t>(s)];
        sr.busy_s += dur;
        sr.passes.push_back(op);
        ++i;
        --left;
        progress = true;
      }
    }
    if (!progress) throw std::logic_error("pipeline schedule deadlocked");
  }
  for (StageRun& sr : run.stages) {
    sr.end_s = sr.passes.empty() ? 0 : sr.passes.back().end;
    // Each chunk's gradients are complete after its last backward pass; reduction of the earliest
    // finished chunk may start then (with one chunk: the stage's last backward).
    std::vector<double> last(static_cast<size_t>(v), 0.0);
    for (const PassSpan& ps : sr.passes)
      if (!ps.forward) last[static_cast<size_t>(ps.chunk)] = ps.start;
    sr.last_backwards_start_s = *std::min_element(last.begin(), last.end());
    run.makespan_s = std::max(run.makespan_s, sr.end_s);
  }
  return run;
}

}  // namespace gf
