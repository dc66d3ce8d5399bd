#include "replay/train_chakra.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "training/compute.hpp"
#include "training/fp8_cost.hpp"
#include "training/layout.hpp"
#include "training/memory.hpp"
#include "training/pipeline.hpp"
#include "training/train_step.hpp"

namespace gf {

namespace {

// Builds one rank's nodes, each depending on the previous one of the chain unless told otherwise.
class RankBuilder {
 public:
  explicit RankBuilder(RankTrace& rt) : rt_(rt) {}

  uint64_t add(TraceNode n, std::vector<uint64_t> extra = {}) {
    n.id = next_++;
    if (has_last_) n.deps.push_back(last_);
    for (uint64_t d : extra) n.deps.push_back(d);
    rt_.nodes.push_back(std::move(n));
    last_ = rt_.nodes.back().id;
    has_last_ = true;
    return last_;
  }
  // A node off the chain (a receive posted early, a non-blocking send): depends only on `deps`.
  uint64_t side(TraceNode n, std::vector<uint64_t> deps) {
    n.id = next_++;
    n.deps = std::move(deps);
    rt_.nodes.push_back(std::move(n));
    return rt_.nodes.back().id;
  }
  uint64_t last() const { return last_; }
  bool has_last() const { return has_last_; }

 private:
  RankTrace& rt_;
  uint64_t next_ = 0, last_ = 0;
  bool has_last_ = false;
};

TraceNode compute(std::string name, double s) {
  TraceNode n;
  n.name = std::move(name);
  n.kind = TraceNodeKind::Compute;
  n.duration_s = s;
  return n;
}

TraceNode coll(std::string name, CollectiveKind k, double bytes, std::string pg) {
  TraceNode n;
  n.name = std::move(name);
  n.kind = TraceNodeKind::Collective;
  n.collective = k;
  n.bytes = static_cast<int64_t>(bytes);
  n.pg = std::move(pg);
  return n;
}

TraceNode p2p(bool send, int64_t peer, int64_t tag, double bytes, std::string name) {
  TraceNode n;
  n.name = std::move(name);
  n.kind = send ? TraceNodeKind::Send : TraceNodeKind::Recv;
  n.collective = CollectiveKind::SendRecv;
  n.peer = peer;
  n.tag = tag;
  n.bytes = static_cast<int64_t>(bytes);
  return n;
}

}  // namespace

Trace training_trace(const Cluster& cluster, const Router& router, const ModelShape& m, const TrainLayout& l,
                     const TrainOptions& o, const TrainingGpu& gpu) {
  check_layout(l, m, cluster.gpu_count());
  // The compute each pass lost to the SMs that overlapped communication kernels held
  // (training/sm_contention.hpp) depends on how long those kernels ran on this cluster: train's own
  // figures, per virtual stage, go into the trace as a compute node of each pass, as a recorded
  // trace's slowed kernels would show it.
  TrainTimeline timeline;
  TrainOptions timed = o;
  timed.timeline = &timeline;
  run_training(cluster, router, m, l, timed, gpu);
  // ZeRO 3 / FSDP: each layer's 16-bit weights gathered over DP before its forward and again before
  // its backward, its fp32 gradients reduce-scattered after its backward, as training/train_step
  // counts them: one layer's parameters (the first MoE layer's for MoE models) split over TP, the
  // routed experts also over EP. The nodes sit on the chain, so the trace is train's step without
  // `dp` in --overlap (train then hides them behind the neighbouring layers' compute).
  const double z3_params =
      l.zero == 3 && l.dp > 1 ? gpu_layer_parameters(m, l, m.moe() && m.layers > m.dense_layers) : 0.0;
  Trace t;
  t.format = "chakra";
  t.gpu = gpu.model;
  const int64_t p = l.pp, v = l.vpp, mbs = l.microbatches(), vstages = p * v, per_chunk = m.layers / vstages;
  const double act = 2.0 * static_cast<double>(l.micro_batch * l.seq * m.hidden);  // b s h, 16-bit
  const bool full = l.recompute == Recompute::Full;
  double max_params = 0;
  for (int64_t s = 0; s < p; ++s) max_params = std::max(max_params, stage_parameters(m, l, s));
  t.ranks.resize(static_cast<size_t>(l.gpus()));
  // A PP tag names the boundary, direction and micro-batch, so each send meets its own receive.
  auto tag = [&](int64_t vs_from, bool fwd, int64_t mb) { return (vs_from * mbs + mb) * 2 + (fwd ? 0 : 1); };
  for (int64_t s = 0; s < p; ++s)
    for (int64_t d = 0; d < l.dp; ++d)
      for (int64_t tp = 0; tp < l.tp; ++tp) {
        const int64_t rank = global_rank(l, {tp, d, s});
        RankTrace& rt = t.ranks[static_cast<size_t>(rank)];
        rt.rank = rank;
        RankBuilder b(rt);
        const std::string tp_pg = "tp.pp" + std::to_string(s) + ".dp" + std::to_string(d);
        const std::string dp_pg = "dp.pp" + std::to_string(s) + ".tp" + std::to_string(tp);
        if (l.tp > 1) t.groups[tp_pg] = tp_group(l, d, s);
        if (l.dp > 1) t.groups[dp_pg] = dp_group(l, tp, s);
        // EP: the ranks of EP consecutive DP replicas (training/layout ep_group), as train groups them.
        const int64_t ep_first = d / l.ep * l.ep;
        const std::string ep_pg =
            "ep.pp" + std::to_string(s) + ".tp" + std::to_string(tp) + ".dp" + std::to_string(ep_first);
        if (l.ep > 1) t.groups[ep_pg] = ep_group(l, tp, d, s);
        // A MoE layer's all-to-alls in a pass, as training/train_step counts them (Megatron-Core's
        // alltoall dispatcher): dispatch and combine, each rank sending its b s k h 16-bit values
        // (s/TP of the tokens with sequence parallelism).
        const double ep_bytes =
            act * static_cast<double>(m.top_k) / (l.sequence_parallel ? static_cast<double>(l.tp) : 1.0);
        auto ep_calls = [&](const std::string& what, int64_t layer) {
          if (l.ep <= 1 || !(m.moe() && layer >= m.dense_layers)) return;
          const std::string nm = what + ".L" + std::to_string(layer);
          b.add(coll(nm + ".ep_dispatch", CollectiveKind::AllToAll, ep_bytes, ep_pg));
          b.add(coll(nm + ".ep_combine", CollectiveKind::AllToAll, ep_bytes, ep_pg));
        };
        // One layer's TP collectives in a pass (Korthikanti et al. 2022, section 4.2.2, as
        // training/train_step counts them): sequence parallel, forward AG RS AG RS, backward the
        // same plus the norms' two re-gathers; without it, two all-reduces each way.
        auto tp_calls = [&](const std::string& what, bool fwd, int64_t layer) {
          if (l.tp <= 1) return;
          const std::string nm = what + ".L" + std::to_string(layer);
          if (l.sequence_parallel) {
            const int ags = fwd ? 2 : 4;
            for (int i = 0; i < std::max(ags, 2); ++i) {
              if (i < ags) b.add(coll(nm + ".tp_all_gather", CollectiveKind::AllGather, act, tp_pg));
              if (i < 2) b.add(coll(nm + ".tp_reduce_scatter", CollectiveKind::ReduceScatter, act, tp_pg));
            }
          } else {
            for (int i = 0; i < 2; ++i) b.add(coll(nm + ".tp_all_reduce", CollectiveKind::AllReduce, act, tp_pg));
          }
        };
        for (const PassSpan& ps : pass_order(s, p, v, mbs)) {
          const int64_t vs = ps.chunk * p + s;
          const std::string pass = std::string(ps.forward ? "fwd" : "bwd") + ".mb" + std::to_string(ps.microbatch) +
                                   ".vs" + std::to_string(vs);
          // The pass's input: activations from the previous virtual stage, or gradients from the next.
          const int64_t from_vs = ps.forward ? vs - 1 : vs + 1;
          std::vector<uint64_t> input;
          if (from_vs >= 0 && from_vs < vstages) {
            const int64_t peer = global_rank(l, {tp, d, from_vs % p});
            input.push_back(b.side(p2p(false, peer, tag(from_vs, ps.forward, ps.microbatch), act / static_cast<double>(l.tp),
                                       pass + ".recv"),
                                   {}));
          }
          bool first = true;
          auto step = [&](TraceNode n) {
            b.add(std::move(n), first ? input : std::vector<uint64_t>{});
            first = false;
          };
          const std::vector<int64_t> layers = [&] {
            std::vector<int64_t> ls;
            for (int64_t i = 0; i < per_chunk; ++i) ls.push_back(vs * per_chunk + i);
            if (!ps.forward) std::reverse(ls.begin(), ls.end());
            return ls;
          }();
          if (!ps.forward && vs == vstages - 1)
            step(compute(pass + ".logits", logit_times(m, l, gpu, o.efficiency).backward_s));
          for (int64_t layer : layers) {
            const LayerTimes lt = training_layer_times(m, l, gpu, o.efficiency, m.moe() && layer >= m.dense_layers);
            const std::string nm = pass + ".L" + std::to_string(layer);
            if (z3_params > 0) step(coll(nm + ".dp_all_gather", CollectiveKind::AllGather, 2 * z3_params, dp_pg));
            if (ps.forward) {
              step(compute(nm, lt.forward_s));
              tp_calls(pass, true, layer);
              ep_calls(pass, layer);
            } else {
              if (lt.recompute_s > 0) {
                step(compute(nm + ".recompute", lt.recompute_s));
                if (full) tp_calls(pass + ".recompute", true, layer);
              }
              if (full) ep_calls(pass + ".recompute", layer);
              step(compute(nm, lt.backward_s));
              tp_calls(pass, false, layer);
              ep_calls(pass, layer);
              if (z3_params > 0) b.add(coll(nm + ".dp_reduce_scatter", CollectiveKind::ReduceScatter, 4 * z3_params, dp_pg));
            }
          }
          if (ps.forward && vs == vstages - 1)
            step(compute(pass + ".logits", logit_times(m, l, gpu, o.efficiency).forward_s));
          if (static_cast<size_t>(vs) < timeline.passes.size()) {
            const TimelinePass& tl = timeline.passes[static_cast<size_t>(vs)];
            const double sm = ps.forward ? tl.sm_forward_s : tl.sm_backward_s;
            if (sm > 0) step(compute(pass + ".sm_contention", sm));
          }
          const int64_t to_vs = ps.forward ? vs + 1 : vs - 1;
          if (to_vs >= 0 && to_vs < vstages) {
            const int64_t peer = global_rank(l, {tp, d, to_vs % p});
            TraceNode send = p2p(true, peer, tag(vs, ps.forward, ps.microbatch), act / static_cast<double>(l.tp),
                                 pass + ".send");
            if (l.overlap_pp)
              b.side(std::move(send), {b.last()});  // the stage goes on while the send is in flight
            else
              b.add(std::move(send));  // a blocking send holds the stage
          }
        }
        // The DP reduction after the last backward, then Adam (ZeRO 1-2: reduce-scatter the fp32
        // gradients, update the shard, all-gather the 16-bit weights; Megatron's distributed optimizer;
        // ZeRO 3 reduced each layer's gradients already and gathers weights before each pass).
        const double params = stage_parameters(m, l, s);
        const bool step_reduction = l.dp > 1 && l.zero < 3;
        if (step_reduction && l.zero == 0)
          b.add(coll("dp_all_reduce", CollectiveKind::AllReduce, 4 * max_params, dp_pg));
        if (step_reduction && l.zero >= 1)
          b.add(coll("dp_reduce_scatter", CollectiveKind::ReduceScatter, 4 * max_params, dp_pg));
        b.add(compute("optimizer",
                      optimizer_time(params / (l.zero >= 1 ? static_cast<double>(l.dp) : 1.0), gpu, o.efficiency)));
        if (step_reduction && l.zero >= 1)
          b.add(coll("dp_all_gather", CollectiveKind::AllGather, 2 * max_params, dp_pg));
      }
  return t;
}

}  // namespace gf
