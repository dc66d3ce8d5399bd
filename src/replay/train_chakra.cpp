#include "replay/train_chakra.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "training/compute.hpp"
#include "training/fp8_cost.hpp"
#include "training/layout.hpp"
#include "training/memory.hpp"
#include "training/overlap.hpp"
#include "training/pipeline.hpp"
#include "training/train_step.hpp"

namespace gf {

namespace {

// Builds one rank's nodes, each depending on the previous one of the chain unless told otherwise.
class RankBuilder {
 public:
  RankBuilder(RankTrace& rt, bool names) : rt_(rt), names_(names) {}

  uint64_t add(TraceNode n, std::vector<uint64_t> extra = {}) {
    if (!names_) n.name = std::string();
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
    if (!names_) n.name = std::string();
    n.id = next_++;
    n.deps = std::move(deps);
    rt_.nodes.push_back(std::move(n));
    return rt_.nodes.back().id;
  }
  uint64_t last() const { return last_; }
  bool has_last() const { return has_last_; }

 private:
  RankTrace& rt_;
  bool names_ = true;
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
                     const TrainOptions& o, const TrainingGpu& gpu, bool names) {
  check_layout(l, m, cluster.gpu_count());
  // What the DAG does not hold yet: each would give a step that silently differs from train's.
  auto refuse = [](const std::string& flag, const std::string& what, const std::string& fix) {
    throw InputError({}, flag,
                     "the step as a per-rank DAG (--step dag, --emit-chakra) does not express " + what + " yet",
                     fix + ", or drop --step dag / --emit-chakra (the composed step handles it)");
  };
  if (l.cp > 1) refuse("--cp", "context parallelism (the K/V ring or gathers per layer)", "use --cp 1");
  if (l.overlap_tp && l.tp > 1)
    refuse("--overlap", "TP communication overlap (userbuffers' chunked GEMMs)", "drop tp from --overlap");
  if (l.dtype != "bf16") refuse("--dtype", "FP8's casts, amax all-reduces and 1-byte gathers", "use --dtype bf16");
  if (!o.slow_gpus.empty()) refuse("--straggler", "slow GPUs", "drop --straggler");
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
  const int64_t p = l.pp, v = l.vpp, mbs = l.microbatches(), vstages = p * v;
  // Layers per virtual stage (uneven end stages included) and the first layer of each.
  const std::vector<int64_t> chunk_layers = stage_layer_counts(m, l);
  std::vector<int64_t> chunk_first(chunk_layers.size(), 0);
  for (size_t i = 1; i < chunk_layers.size(); ++i) chunk_first[i] = chunk_first[i - 1] + chunk_layers[i - 1];
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
        RankBuilder b(rt, names);
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
        // DP gradient buckets (`dp` in --overlap, ZeRO 0-2), as Megatron's DDP reduces them: a bucket
        // of at least dp_bucket_parameters (train's rule) closes when the last backward of the layers
        // filling it ends, and its reduction starts then, beside the compute that follows; buckets
        // run one after another (one communicator, issued in order). Layers are whole here (Megatron
        // closes buckets between parameter tensors). The output layer's gradient is done with the
        // last stage's first layer of backward (the logits), the embedding's only after the last
        // backward: the embedding and what is left open form the last bucket, reduced after the last
        // pass. The buckets hold the stage's own parameters (train times every stage's reduction at
        // the largest stage's size); the optimizer waits for every bucket.
        const std::vector<PassSpan> order = pass_order(s, p, v, mbs);
        const bool buckets = l.overlap_dp && l.dp > 1 && l.zero < 3;
        const CollectiveKind reduce = l.zero == 0 ? CollectiveKind::AllReduce : CollectiveKind::ReduceScatter;
        const double bucket_size = dp_bucket_parameters(l.dp);
        std::vector<size_t> last_bwd(static_cast<size_t>(v), order.size());  // per chunk: its last backward
        for (size_t i = 0; i < order.size(); ++i)
          if (!order[i].forward) last_bwd[static_cast<size_t>(order[i].chunk)] = i;
        double filled = 0, reduced = 0;  // parameters in the open bucket, and in closed ones
        int64_t nbuckets = 0;
        uint64_t prev_bucket = 0;
        auto close_bucket = [&](std::vector<uint64_t> deps, double bucket_params, bool on_chain) {
          if (nbuckets > 0) deps.push_back(prev_bucket);
          TraceNode n = coll("dp_bucket" + std::to_string(nbuckets), reduce, 4 * bucket_params, dp_pg);
          prev_bucket = on_chain ? b.add(std::move(n), nbuckets > 0 ? std::vector<uint64_t>{prev_bucket}
                                                                    : std::vector<uint64_t>{})
                                 : b.side(std::move(n), std::move(deps));
          ++nbuckets;
          reduced += bucket_params;
        };
        for (size_t pi = 0; pi < order.size(); ++pi) {
          const PassSpan& ps = order[pi];
          const bool fills = buckets && pi == last_bwd[static_cast<size_t>(ps.chunk)];
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
            for (int64_t i = 0; i < chunk_layers[static_cast<size_t>(vs)]; ++i)
              ls.push_back(chunk_first[static_cast<size_t>(vs)] + i);
            if (!ps.forward) std::reverse(ls.begin(), ls.end());
            return ls;
          }();
          if (!ps.forward && vs == vstages - 1) {
            step(compute(pass + ".logits", logit_times(m, l, gpu, o.efficiency).backward_s));
            if (fills && p > 1)  // the output layer's weights (its own copy of the embedding when PP > 1)
              filled += static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / static_cast<double>(l.tp);
          }
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
              if (fills) {
                filled += gpu_layer_parameters(m, l, m.moe() && layer >= m.dense_layers);
                if (filled >= bucket_size) {
                  close_bucket({b.last()}, filled, false);
                  filled = 0;
                }
              }
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
          if (first && !input.empty()) {  // an empty end chunk (--pp-first-layers 0) still waits for its input
            TraceNode wait;
            wait.name = pass + ".input";
            wait.kind = TraceNodeKind::Marker;
            step(std::move(wait));
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
        if (buckets) {
          // The backward slowed by the hidden buckets' SMs: train's figure for this stage, as the
          // passes' own SM contention above.
          if (static_cast<size_t>(s) < timeline.tails.size() && timeline.tails[static_cast<size_t>(s)].contention_s > 0)
            b.add(compute("dp_sm_contention", timeline.tails[static_cast<size_t>(s)].contention_s));
          if (params - reduced > 0 || nbuckets == 0) close_bucket({}, std::max(0.0, params - reduced), true);
          else {
            TraceNode done;  // orders the optimizer after the last bucket; takes no time
            done.name = "dp_buckets_done";
            done.kind = TraceNodeKind::Marker;
            b.add(std::move(done), {prev_bucket});
          }
        }
        if (step_reduction && !buckets && l.zero == 0)
          b.add(coll("dp_all_reduce", CollectiveKind::AllReduce, 4 * max_params, dp_pg));
        if (step_reduction && !buckets && l.zero >= 1)
          b.add(coll("dp_reduce_scatter", CollectiveKind::ReduceScatter, 4 * max_params, dp_pg));
        b.add(compute("optimizer",
                      optimizer_time(params / (l.zero >= 1 ? static_cast<double>(l.dp) : 1.0), gpu, o.efficiency)));
        if (step_reduction && l.zero >= 1)
          b.add(coll("dp_all_gather", CollectiveKind::AllGather, 2 * max_params, dp_pg));
      }
  return t;
}

}  // namespace gf
