#include "training/train_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "training/flops.hpp"
#include "training/fp8_cost.hpp"
#include "training/group_collectives.hpp"
#include "training/memory.hpp"
#include "training/overlap.hpp"
#include "training/pipeline.hpp"
#include "training/sm_contention.hpp"

namespace gf {

namespace {

std::string gib(double bytes) { return fmt::format("{:.1f} GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

struct Groups {
  std::vector<std::vector<int64_t>> tp, dp, pp, ep, cp;  // dp: the gradient groups (DP x CP)
};

Groups make_groups(const TrainLayout& l, int gps, std::vector<std::string>& notes) {
  Groups g;
  const bool in_server = l.tp <= gps && gps % l.tp == 0;
  for (int64_t pp = 0; pp < l.pp; ++pp)
    for (int64_t dp = 0; dp < l.dp; ++dp)
      for (int64_t cp = 0; cp < l.cp; ++cp) {
        std::vector<int64_t> grp = tp_group(l, dp, pp, cp);
        if (in_server && grp.back() >= gps) continue;  // server 0's groups stand for every server's
        g.tp.push_back(std::move(grp));
      }
  if (in_server)
    notes.push_back("TP collectives timed on server 0's " + std::to_string(g.tp.size()) +
                    " TP group(s); every server's are alike (NVLink is not shared between servers)");
  else
    notes.push_back("TP " + std::to_string(l.tp) + " spans servers (a server has " + std::to_string(gps) +
                    " GPUs): its collectives cross the scale-out network on every layer, which usually costs more than "
                    "PP or DP would");
  for (int64_t pp = 0; pp < l.pp; ++pp)
    for (int64_t t = 0; t < l.tp; ++t) g.dp.push_back(gradient_group(l, t, pp));
  if (l.ep > 1)
    for (int64_t pp = 0; pp < l.pp; ++pp)
      for (int64_t cp = 0; cp < l.cp; ++cp)
        for (int64_t dp = 0; dp < l.dp; dp += l.ep)
          for (int64_t t = 0; t < l.tp; ++t) g.ep.push_back(ep_group(l, t, dp, pp, cp));
  if (l.cp > 1)
    for (int64_t pp = 0; pp < l.pp; ++pp)
      for (int64_t dp = 0; dp < l.dp; ++dp)
        for (int64_t t = 0; t < l.tp; ++t) g.cp.push_back(cp_group(l, t, dp, pp));
  for (int64_t pp = 0; pp + 1 < l.pp; ++pp)
    for (int64_t dp = 0; dp < l.dp; ++dp)
      for (int64_t cp = 0; cp < l.cp; ++cp)
        for (int64_t t = 0; t < l.tp; ++t)
          g.pp.push_back({global_rank(l, {t, dp, pp, cp}), global_rank(l, {t, dp, pp + 1, cp})});
  return g;
}

}  // namespace

TrainResult run_training(const Cluster& cluster, const Router& router, const ModelShape& m, const TrainLayout& l,
                         const TrainOptions& o, const TrainingGpu& gpu) {
  check_layout(l, m, cluster.gpu_count());
  if (l.dtype == "fp8" && gpu.fp8_tflops <= 0)
    throw InputError({}, "--dtype", gpu.model + " has no FP8 tensor cores in the catalog", "use --dtype bf16");
  TrainResult r;
  r.model = m.name;
  r.gpu = gpu.model;
  r.layout = l;
  r.gpus = l.gpus();
  r.microbatches = l.microbatches();
  if (l.gpus() < cluster.gpu_count())
    r.notes.push_back("the job uses GPUs 0-" + std::to_string(l.gpus() - 1) + " of the cluster's " +
                      std::to_string(cluster.gpu_count()));

  // Memory first: a layout that does not fit is an error, not a step time.
  r.memory = memory_per_gpu(m, l);
  r.memory_capacity = gpu.memory_bytes;
  const int sms = streaming_multiprocessors(gpu.model);  // 0: unknown, no SM contention charged
  if (gpu.memory_bytes > 0 && r.memory.total() > gpu.memory_bytes)
    throw InputError(
        {}, "--tp",
        fmt::format("{} needs {} per GPU (weights {}, gradients {}, optimizer {}, activations {}) but a {} holds {}",
                    m.name, gib(r.memory.total()), gib(r.memory.weights), gib(r.memory.gradients),
                    gib(r.memory.optimizer), gib(r.memory.activations), gpu.model, gib(gpu.memory_bytes)),
        "raise --tp or --pp, use --zero 1..3, --recompute selective|full, --sequence-parallel or a smaller "
        "--micro-batch");
  if (gpu.memory_bytes <= 0) r.notes.push_back("the GPU's memory capacity is unknown: the fit is not checked");

  // Collectives on the network model; a group kind too large to run whole is timed on its first
  // group (group_collectives.hpp), and the output says so.
  auto shortcut = [&](const GroupTiming& t, const char* what) {
    if (t.groups < t.of_groups)
      r.notes.push_back(std::string(what) + " timed on 1 of its " + std::to_string(t.of_groups) +
                        " groups (over the engine's budget of " + std::to_string(kGroupTransferBudget) +
                        " transfers): exact where groups share no link, optimistic where they contend");
  };
  const Groups g = make_groups(l, cluster.gpus_per_server(), r.notes);
  // b s h, 16-bit; with CP each rank holds s / CP of the tokens.
  const double act_bytes = 2.0 * static_cast<double>(l.micro_batch * l.seq * m.hidden) / static_cast<double>(l.cp);
  const std::vector<int64_t> stage_layers = stage_layer_counts(m, l);  // per virtual stage
  // Call counts are per GPU of the stage with the most layers (all stages alike unless uneven).
  int64_t max_stage_layers = 0;
  for (int64_t st = 0; st < l.pp; ++st) {
    int64_t held = 0;
    for (int64_t c = 0; c < l.vpp; ++c) held += stage_layers[static_cast<size_t>(c * l.pp + st)];
    max_stage_layers = std::max(max_stage_layers, held);
  }
  // The gradient group (DP x CP): reduces, and with ZeRO shards, one copy of the weights.
  const int64_t grad_ranks = l.dp * l.cp;
  const std::string& net = o.network_model;
  auto time_kind = [&](const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                       const std::string& flag) {
    return o.timer ? o.timer(groups, kind, bytes, flag) : time_groups(cluster, router, net, groups, kind, bytes, flag);
  };
  double tp_fwd = 0, tp_bwd = 0, tp_re = 0;  // TP time per layer per micro-batch
  double tp_ag = 0, tp_rs = 0;               // one call (sequence parallelism), for --overlap tp
  double amax_call = 0;                      // FP8: one amax all-reduce over the TP group
  const bool fp8 = l.dtype == "fp8";
  if (l.tp > 1) {
    // Two per layer in the forward (after attention and after the MLP), two in the backward, two
    // more when full recompute repeats the forward (Korthikanti et al. 2022, section 4.2.2). With
    // sequence parallelism each all-reduce is a reduce-scatter and an all-gather, and the
    // backward gathers the norms' outputs once more for the weight gradients, since Megatron keeps
    // only their sequence-split form (the gather is "redone" rather than stored; Calculon's
    // seq_par_ag_redo); counted on the critical path.
    const double stage_passes = static_cast<double>(max_stage_layers * r.microbatches);
    const double full = l.recompute == Recompute::Full ? 1.0 : 0.0;
    // FP8 with sequence parallelism gathers the quantized tensors: one byte per element
    // (Transformer Engine's "quantized all-gather"); reduce-scatters carry 16-bit outputs.
    const double gather_bytes = fp8 && l.sequence_parallel ? act_bytes / 2 : act_bytes;
    auto add = [&](CollectiveKind kind, double per_layer_fwd, double per_layer_bwd) {
      const double bytes = kind == CollectiveKind::AllGather ? gather_bytes : act_bytes;
      const GroupTiming t =
          time_kind(g.tp, kind, Bytes(static_cast<int64_t>(bytes)), "--tp");
      CommSummary c;
      c.parallelism = "tp";
      c.collective = to_string(kind);
      c.algorithm = t.algorithm;
      c.bytes = bytes;
      c.groups = t.groups;
      shortcut(t, "TP");
      c.call_s = t.seconds;
      c.calls = (per_layer_fwd * (1 + full) + per_layer_bwd) * stage_passes;
      c.total_s = c.calls * c.call_s;
      tp_fwd += per_layer_fwd * t.seconds;
      tp_re += full * per_layer_fwd * t.seconds;
      tp_bwd += per_layer_bwd * t.seconds;
      if (kind == CollectiveKind::AllGather) tp_ag = t.seconds;
      if (kind == CollectiveKind::ReduceScatter) tp_rs = t.seconds;
      r.comm.push_back(c);
    };
    if (l.sequence_parallel) {
      add(CollectiveKind::ReduceScatter, 2, 2);
      add(CollectiveKind::AllGather, 2, 4);
    } else {
      add(CollectiveKind::AllReduce, 2, 2);
    }
    if (fp8 && l.sequence_parallel) {
      // The amax of each gathered tensor, one fp32 value, all-reduced over the TP group before
      // its cast (training/fp8_cost.hpp): latency on the critical path of every pass.
      const GroupTiming t = time_kind(g.tp, CollectiveKind::AllReduce, Bytes(4), "--tp");
      amax_call = t.seconds;
      const double per_pass = kFp8AmaxReductionsPerPass * t.seconds;
      CommSummary c{"tp", "all_reduce (FP8 amax)", t.algorithm, 4, t.seconds,
                    kFp8AmaxReductionsPerPass * (2 + full) * stage_passes, 0, 0, t.groups};
      c.total_s = c.calls * c.call_s;
      r.comm.push_back(c);
      tp_fwd += per_pass;
      tp_re += full * per_pass;
      tp_bwd += per_pass;
    }
  }
  // EP: per MoE layer, an all-to-all dispatch of each token's hidden state to its top-k experts
  // and an all-to-all combine back, in the forward; their mirror images in the backward; again
  // with full recompute (Megatron-Core's MoE token dispatcher, alltoall mode; Lepikhin et al. 2021,
  // "GShard", section 2.2). A rank sends b s k h 16-bit values per call (its tokens, k copies; the
  // 1/EP bound for local experts included, as nccl-tests counts the send buffer); with sequence
  // parallelism a TP rank holds s/TP of the tokens and dispatches only those.
  double ep_call = 0;
  if (l.ep > 1) {
    const double bytes = act_bytes * static_cast<double>(m.top_k) / (l.sequence_parallel ? static_cast<double>(l.tp) : 1.0);
    const GroupTiming t = time_kind(g.ep, CollectiveKind::AllToAll, Bytes(static_cast<int64_t>(bytes)), "--ep");
    ep_call = t.seconds;
    shortcut(t, "EP");
    const int64_t per_stage = max_stage_layers;
    const double moe_layers = static_cast<double>(std::min(per_stage, m.layers - m.dense_layers));
    const double full = l.recompute == Recompute::Full ? 1.0 : 0.0;
    CommSummary c{"ep", "alltoall", t.algorithm, bytes, t.seconds,
                  (2 * (1 + full) + 2) * moe_layers * static_cast<double>(r.microbatches), 0, 0, t.groups};
    c.total_s = c.calls * c.call_s;
    r.comm.push_back(c);
  }
  double p2p = 0;
  int pp_channels = 0;  // SMs a PP send's kernel holds (sm_contention.hpp)
  if (l.pp > 1) {
    // Megatron's scatter/gather optimisation: each TP rank sends its 1/TP slice of the activation
    // (Narayanan et al. 2021, section 4.1); the all-gather after it stays on NVLink and is left out.
    const double bytes = act_bytes / static_cast<double>(l.tp);
    const GroupTiming t =
        time_kind(g.pp, CollectiveKind::SendRecv, Bytes(static_cast<int64_t>(bytes)), "--pp");
    p2p = t.seconds;
    pp_channels = t.channels;
    shortcut(t, "PP");
    CommSummary c{"pp", "sendrecv", t.algorithm, bytes, t.seconds, static_cast<double>(2 * r.microbatches * l.vpp),
                  0,    0,          t.groups};
    c.total_s = c.calls * c.call_s;
    r.comm.push_back(c);
  }

  // Context parallelism: attention needs every token's K/V, so each layer gathers the sequence's
  // K/V over the CP group in the forward and, since only the local chunk is kept, gathers it again
  // in the backward and reduce-scatters its gradient (Megatron-Core's context_parallel docs: "all-gather
  // in forward and reduce-scatter in backward ... transformed to point-to-point communications in
  // ring topology"). One gather moves (CP-1) chunks of 2 (K and V) x b x s/CP x kv_heads/TP x
  // head_dim x 2 B into each rank, i.e. an all-gather of 2 b s kv_heads/TP head_dim x 2 B in
  // nccl-tests' terms, the ring being all-gather's pattern. Recompute (full, or selective of the
  // attention core) runs the forward ring again. Each ring step overlaps one block of the attention
  // core (training/overlap.hpp).
  // With --cp-comm all-gather (Megatron's --cp-comm-type allgather; TE's AttnFuncWithCPAndKVAllGather)
  // the same volume moves as NCCL all-gathers of K and V before the attention core and, in the
  // backward, all-gathers again and reduce-scatters of dK and dV after it
  // (transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py, at
  // d0067d0: gather_along_first_dim of k and v in forward and backward,
  // reduce_scatter_along_first_dim of dk and dv), none of it overlapped.
  double cp_ag = 0, cp_rs = 0;
  int cp_channels = 0;
  if (l.cp > 1) {
    const double kv = 2.0 * 2.0 * static_cast<double>(l.micro_batch * l.seq) *
                      static_cast<double>(m.kv_heads / l.tp) * static_cast<double>(m.head_dim);
    const GroupTiming ag = time_kind(g.cp, CollectiveKind::AllGather, Bytes(static_cast<int64_t>(kv)), "--cp");
    const GroupTiming rs = time_kind(g.cp, CollectiveKind::ReduceScatter, Bytes(static_cast<int64_t>(kv)), "--cp");
    cp_ag = ag.seconds;
    cp_rs = rs.seconds;
    cp_channels = std::max(ag.channels, rs.channels);
    shortcut(ag, "CP");
    const double passes = static_cast<double>(max_stage_layers * r.microbatches);
    const double re = l.recompute == Recompute::None ? 0.0 : 1.0;
    const bool ring = l.cp_comm == CpComm::Ring;
    CommSummary c{"cp", ring ? "all_gather (K/V ring)" : "all_gather (K/V, before attention)", ag.algorithm, kv,
                  ag.seconds, (2 + re) * passes, 0, 0, ag.groups};
    c.total_s = c.calls * c.call_s;
    r.comm.push_back(c);
    CommSummary d{"cp", "reduce_scatter (K/V gradients)", rs.algorithm, kv, rs.seconds, passes, 0, 0, rs.groups};
    d.total_s = d.calls * d.call_s;
    r.comm.push_back(d);
  }

  // ZeRO 3 / FSDP: every pass gathers each layer's 16-bit weights over DP before it runs (the
  // forward, and again the backward, as weights are resharded after the forward), and the backward
  // reduce-scatters each layer's fp32 gradients; per micro-batch, as DeepSpeed ZeRO-3 and PyTorch
  // FSDP do (Rajbhandari et al. 2020, section 5.3; Zhao et al. 2023, "PyTorch FSDP", section 3.3).
  // With `dp` in --overlap the next layer's gather is prefetched during this layer's compute
  // (FSDP's forward and backward prefetch), and a layer's gradient reduce-scatter runs during the
  // next layer's backward: a layer exposes only what its compute does not cover; each pass still
  // waits for its first layer's gather, and the backward for its last layer's reduce-scatter.
  double z3_ag = 0, z3_rs = 0;  // one layer's (the first MoE layer's for MoE models)
  int z3_ag_channels = 0, z3_rs_channels = 0;
  if (l.zero == 3 && grad_ranks > 1) {
    const double p = gpu_layer_parameters(m, l, m.moe() && m.layers > m.dense_layers);
    const GroupTiming ag = time_kind(g.dp, CollectiveKind::AllGather, Bytes(static_cast<int64_t>(2 * p)), "--dp");
    const GroupTiming rs = time_kind(g.dp, CollectiveKind::ReduceScatter, Bytes(static_cast<int64_t>(4 * p)), "--dp");
    z3_ag = ag.seconds;
    z3_rs = rs.seconds;
    z3_ag_channels = ag.channels;
    z3_rs_channels = rs.channels;
    shortcut(ag, "DP");
    const double layers = static_cast<double>(max_stage_layers * r.microbatches);
    CommSummary c{"dp", "all_gather (per layer and pass)", ag.algorithm, 2 * p, ag.seconds, 2 * layers, 0, 0,
                  ag.groups};
    c.total_s = c.calls * c.call_s;
    r.comm.push_back(c);
    CommSummary d{"dp", "reduce_scatter (per layer)", rs.algorithm, 4 * p, rs.seconds, layers, 0, 0, rs.groups};
    d.total_s = d.calls * d.call_s;
    r.comm.push_back(d);
  }

  // Slow GPUs (training/straggler.hpp): per pipeline stage, the speed of its slowest GPU. Every
  // compute phase of the stage waits for it: its TP group meets at every layer's collectives, its
  // DP replicas at the gradient reduction, so one slow GPU paces the whole stage of every replica.
  std::vector<double> speed(static_cast<size_t>(l.pp), 1.0);
  for (const GpuSlowdown& s : o.slow_gpus) {
    if (s.gpu >= l.gpus())
      throw InputError({}, "--straggler",
                       s.name + " is GPU " + std::to_string(s.gpu) + ", outside the job's " + std::to_string(l.gpus()) +
                           " GPUs (TP x PP x DP)",
                       "name one of GPUs 0-" + std::to_string(l.gpus() - 1) + " (global rank = GPU index)");
    double& sp = speed[static_cast<size_t>(coord_of(l, s.gpu).pp)];
    sp = std::min(sp, s.compute);
  }
  if (!o.slow_gpus.empty())
    for (const GpuSlowdown& s : o.slow_gpus)
      r.notes.push_back(fmt::format("straggler {} (GPU {}, pipeline stage {}) computes at {:g}% of its speed: every "
                                    "compute phase of its stage takes 1/{:g} as long",
                                    s.name, s.gpu, coord_of(l, s.gpu).pp, s.compute * 100, s.compute));

  // Compute per virtual stage.
  const int64_t vstages = l.pp * l.vpp;
  PipelineInput pin;
  pin.stages = l.pp;
  pin.chunks = l.vpp;
  pin.microbatches = r.microbatches;
  pin.p2p_s = l.overlap_pp ? p2p : 0.0;
  std::vector<double> fwd_c(static_cast<size_t>(vstages)), bwd_c(fwd_c), re_c(fwd_c), tp_c(fwd_c), ep_c(fwd_c);
  std::vector<double> comm_f(fwd_c), comm_b(fwd_c);  // EP and ZeRO 3 time per micro-batch, forward and backward
  std::vector<double> z3_c(fwd_c);                   // ZeRO 3's exposed gathers and reduce-scatters
  std::vector<double> cp_c(fwd_c);                   // CP's exposed K/V ring
  std::vector<double> tp_f(fwd_c), tp_b(fwd_c);      // TP per micro-batch under --overlap tp
  std::vector<double> wcast_c(fwd_c);                // FP8: the weights' casts, once per step
  // Compute left over because overlapped communication kernels held SMs (sm_contention.hpp), per
  // micro-batch, forward and backward.
  std::vector<double> sm_f(fwd_c), sm_b(fwd_c);
  double fp8_layer_s = 0;                            // FP8: one layer's casts per micro-batch (the most)
  int64_t first_layer = 0;
  for (int64_t vs = 0; vs < vstages; ++vs) {
    const int64_t per_chunk = stage_layers[static_cast<size_t>(vs)];
    for (int64_t i = 0; i < per_chunk; ++i) {
      const int64_t layer = first_layer + i;
      const bool moe = m.moe() && layer >= m.dense_layers;
      const LayerTimes t = training_layer_times(m, l, gpu, o.efficiency, moe);
      wcast_c[static_cast<size_t>(vs)] += fp8_weight_cast_s(gpu_layer_parameters(m, l, moe), l, gpu, o.efficiency);
      if (fp8) {
        const Fp8LayerCast q = fp8_layer_cast(m, l, gpu, o.efficiency, moe);
        fp8_layer_s = std::max(fp8_layer_s, q.forward_s + q.backward_s);
      }
      const double ep_f = moe ? 2 * ep_call : 0.0;
      const double ep_b = moe ? (l.recompute == Recompute::Full ? 4 : 2) * ep_call : 0.0;
      comm_f[static_cast<size_t>(vs)] += ep_f;
      comm_b[static_cast<size_t>(vs)] += ep_b;
      ep_c[static_cast<size_t>(vs)] += ep_f + ep_b;
      if (z3_ag > 0) {
        const double zf = l.overlap_dp ? std::max(0.0, z3_ag - t.forward_s) : z3_ag;
        const double zb =
            l.overlap_dp ? std::max(0.0, z3_ag + z3_rs - t.backward_s - t.recompute_s) : z3_ag + z3_rs;
        comm_f[static_cast<size_t>(vs)] += zf;
        comm_b[static_cast<size_t>(vs)] += zb;
        z3_c[static_cast<size_t>(vs)] += zf + zb;
        if (l.overlap_dp) {  // the hidden part held the collectives' SMs beside the layer's compute
          sm_f[static_cast<size_t>(vs)] += sm_contention_s(z3_ag - zf, z3_ag_channels, sms);
          // The backward's hidden time, shared by the gather and the reduce-scatter by their lengths.
          const double hidden_b = z3_ag + z3_rs - zb, all = z3_ag + z3_rs;
          sm_b[static_cast<size_t>(vs)] += sm_contention_s(hidden_b * z3_ag / all, z3_ag_channels, sms) +
                                           sm_contention_s(hidden_b * z3_rs / all, z3_rs_channels, sms);
        }
      }
      if (l.cp > 1) {
        // The backward ring carries K/V and their gradients beside the attention core's backward
        // (twice its forward). All-gathered K/V wait for nothing to hide behind.
        const bool ring = l.cp_comm == CpComm::Ring;
        const double cf = ring ? cp_ring_exposed(cp_ag, t.attention_s, l.cp) : cp_ag;
        const double bring = ring ? cp_ring_exposed(cp_ag + cp_rs, 2 * t.attention_s, l.cp) : cp_ag + cp_rs;
        const bool again = l.recompute != Recompute::None;
        const double cb = bring + (again ? cf : 0.0);
        comm_f[static_cast<size_t>(vs)] += cf;
        comm_b[static_cast<size_t>(vs)] += cb;
        cp_c[static_cast<size_t>(vs)] += cf + cb;
        // The ring's hidden steps held its kernels' SMs beside the attention core (none for the
        // all-gather, which hides nothing).
        const double sm_ring_f = sm_contention_s(cp_ag - cf, cp_channels, sms);
        sm_f[static_cast<size_t>(vs)] += sm_ring_f;
        sm_b[static_cast<size_t>(vs)] +=
            sm_contention_s(cp_ag + cp_rs - bring, cp_channels, sms) + (again ? sm_ring_f : 0.0);
      }
      fwd_c[static_cast<size_t>(vs)] += t.forward_s;
      bwd_c[static_cast<size_t>(vs)] += t.backward_s;
      re_c[static_cast<size_t>(vs)] += t.recompute_s;
      if (l.overlap_tp && l.tp > 1) {
        // Userbuffers run the TP-adjacent GEMMs in chunks, each thinner than the whole (compute.hpp,
        // tp_split_gemm_times): what the chunks take beyond the whole GEMMs is compute.
        const TpSplitGemms sg = tp_split_gemm_times(m, l, gpu, o.efficiency, moe);
        const double split_f = (sg.qkv_s - t.qkv_s) + (sg.proj_s - t.proj_s) + (sg.fc1_s - t.fc1_s) +
                               (sg.fc2_s - t.fc2_s) + sg.rs_reduce_s;
        const double split_b = (sg.proj_dgrad_s - t.proj_s) + (sg.fc2_dgrad_s - t.fc2_s);
        fwd_c[static_cast<size_t>(vs)] += split_f;
        bwd_c[static_cast<size_t>(vs)] += split_b;
        if (l.recompute == Recompute::Full) re_c[static_cast<size_t>(vs)] += split_f;
        const TpExposed e = tp_overlap_exposed(tp_ag, tp_rs, sg, t, l.tp, l.tp_overlap_cfg, sms);
        const double amax = kFp8AmaxReductionsPerPass * amax_call;  // not hidden: it gates the cast
        const double ef = e.forward_s + amax, eb = e.backward_s + amax;
        const bool full = l.recompute == Recompute::Full;
        const double re = full ? ef : 0.0;
        tp_f[static_cast<size_t>(vs)] += ef;
        tp_b[static_cast<size_t>(vs)] += eb + re;
        tp_c[static_cast<size_t>(vs)] += ef + eb + re;
        sm_f[static_cast<size_t>(vs)] += e.forward_sm_s;
        sm_b[static_cast<size_t>(vs)] += e.backward_sm_s + (full ? e.forward_sm_s : 0.0);
      } else {
        tp_c[static_cast<size_t>(vs)] += tp_fwd + tp_bwd + tp_re;
      }
    }
    first_layer += per_chunk;
    if (!(l.overlap_tp && l.tp > 1)) {
      tp_f[static_cast<size_t>(vs)] = tp_fwd * static_cast<double>(per_chunk);
      tp_b[static_cast<size_t>(vs)] = (tp_bwd + tp_re) * static_cast<double>(per_chunk);
    }
    if (vs == vstages - 1) {
      const LayerTimes lt = logit_times(m, l, gpu, o.efficiency);
      fwd_c[static_cast<size_t>(vs)] += lt.forward_s;
      bwd_c[static_cast<size_t>(vs)] += lt.backward_s;
    }
    if (z3_ag > 0 && l.overlap_dp) {  // the first layer's gather and the last reduce-scatter of each pass
      comm_f[static_cast<size_t>(vs)] += z3_ag;
      comm_b[static_cast<size_t>(vs)] += z3_ag + z3_rs;
      z3_c[static_cast<size_t>(vs)] += 2 * z3_ag + z3_rs;
    }
    if (l.overlap_pp && p2p > 0) {
      // A pass sends its output to the next virtual stage and, in the same window, its neighbour
      // on the other side sends to it (1F1B pairs them): one PP kernel per neighbour held SMs
      // beside the pass for one send's time.
      const double neighbours = (vs > 0 ? 1.0 : 0.0) + (vs + 1 < vstages ? 1.0 : 0.0);
      sm_f[static_cast<size_t>(vs)] += neighbours * sm_contention_s(p2p, pp_channels, sms);
      sm_b[static_cast<size_t>(vs)] += neighbours * sm_contention_s(p2p, pp_channels, sms);
    }
    if (const double sp = speed[static_cast<size_t>(vs % l.pp)]; sp < 1) {
      fwd_c[static_cast<size_t>(vs)] /= sp;
      bwd_c[static_cast<size_t>(vs)] /= sp;
      re_c[static_cast<size_t>(vs)] /= sp;
      sm_f[static_cast<size_t>(vs)] /= sp;
      sm_b[static_cast<size_t>(vs)] /= sp;
    }
    const double send = l.overlap_pp ? 0.0 : p2p;  // a blocking send holds its stage
    pin.forward_s.push_back(fwd_c[static_cast<size_t>(vs)] + sm_f[static_cast<size_t>(vs)] +
                            tp_f[static_cast<size_t>(vs)] + comm_f[static_cast<size_t>(vs)] + send);
    pin.backward_s.push_back(bwd_c[static_cast<size_t>(vs)] + re_c[static_cast<size_t>(vs)] +
                             sm_b[static_cast<size_t>(vs)] + tp_b[static_cast<size_t>(vs)] +
                             comm_b[static_cast<size_t>(vs)] + send);
  }
  const PipelineRun pipe = run_pipeline(pin);
  if (o.timeline) {
    o.timeline->pipe = pipe;
    o.timeline->p2p_s = p2p;
    o.timeline->overlap_pp = l.overlap_pp;
    for (size_t vs = 0; vs < static_cast<size_t>(vstages); ++vs)
      o.timeline->passes.push_back({fwd_c[vs], re_c[vs], bwd_c[vs], tp_f[vs], tp_b[vs], comm_f[vs], comm_b[vs],
                                    l.overlap_pp ? 0.0 : p2p, sm_f[vs], sm_b[vs]});
  }

  // DP gradient reduction: one all-reduce of the fp32 gradients (ZeRO 0), or a reduce-scatter of
  // them and an all-gather of the 16-bit weights after the update (ZeRO 1-3, Megatron's
  // distributed optimizer); ZeRO 3 also gathers weights before each pass, left out here.
  double dp_time = 0, dp_after = 0;
  int dp_channels = 0;  // SMs the reduction holds while it hides behind the backward
  std::vector<double> stage_params(static_cast<size_t>(l.pp));
  for (int64_t s = 0; s < l.pp; ++s) stage_params[static_cast<size_t>(s)] = stage_parameters(m, l, s);
  const double max_params = *std::max_element(stage_params.begin(), stage_params.end());
  if (grad_ranks > 1 && l.zero < 3) {
    CommSummary c;
    c.parallelism = "dp";
    c.groups = static_cast<int64_t>(g.dp.size());
    c.calls = 1;
    if (l.zero == 0) {
      const GroupTiming ar = time_kind(g.dp, CollectiveKind::AllReduce,
                                         Bytes(static_cast<int64_t>(4 * max_params)), "--dp");
      c.collective = "all_reduce";
      c.algorithm = ar.algorithm;
      c.bytes = 4 * max_params;
      dp_time = ar.seconds;
      dp_channels = ar.channels;
      c.groups = ar.groups;
      shortcut(ar, "DP");
    } else {
      const GroupTiming rs = time_kind(g.dp, CollectiveKind::ReduceScatter,
                                         Bytes(static_cast<int64_t>(4 * max_params)), "--dp");
      const GroupTiming ag = time_kind(g.dp, CollectiveKind::AllGather,
                                         Bytes(static_cast<int64_t>(2 * max_params)), "--dp");
      c.collective = "reduce_scatter + all_gather";
      c.algorithm = rs.algorithm + " + " + ag.algorithm;
      c.bytes = 4 * max_params;
      dp_time = rs.seconds;
      dp_channels = rs.channels;
      dp_after = ag.seconds;  // after the optimizer, on the critical path
      c.groups = rs.groups;
      shortcut(rs, "DP");
    }
    c.call_s = dp_time + dp_after;
    c.total_s = c.call_s;
    r.comm.push_back(c);
  }

  // The step ends when the slowest stage has reduced its gradients and updated its weights.
  r.step_time_s = 0;
  for (int64_t s = 0; s < l.pp; ++s) {
    const StageRun& sr = pipe.stages[static_cast<size_t>(s)];
    double dp_exposed = dp_time, contention = 0;
    if (l.overlap_dp && dp_time > 0) {
      const double window = sr.end_s - sr.last_backwards_start_s;
      const double last_bucket =
          dp_time * std::min(1.0, dp_bucket_parameters(grad_ranks) / stage_params[static_cast<size_t>(s)]);
      dp_exposed = std::max(last_bucket, dp_time - window);
      // The hidden part held dp_channels SMs beside the backward GEMMs.
      contention = sm_contention_s(dp_time - dp_exposed, dp_channels, sms);
    }
    dp_exposed += dp_after;
    const double opt = optimizer_time(
        stage_params[static_cast<size_t>(s)] / (l.zero >= 1 ? static_cast<double>(grad_ranks) : 1.0), gpu,
        o.efficiency) / speed[static_cast<size_t>(s)];
    if (o.timeline) o.timeline->tails.push_back({dp_time, dp_exposed - dp_after, opt, dp_after, contention});
    // FP8 weights are cast in each chunk's first forward and cached for the step; charged once
    // on the stage's timeline, beside its forward passes.
    double wcast = 0;
    for (int64_t c = 0; c < l.vpp; ++c) wcast += wcast_c[static_cast<size_t>(c * l.pp + s)];
    wcast /= speed[static_cast<size_t>(s)];
    const double end = sr.end_s + contention + dp_exposed + opt + wcast;
    if (end > r.step_time_s) {
      r.step_time_s = end;
      r.critical_stage = s;
      TrainBreakdown& b = r.breakdown;
      b = {};
      double z3_exposed = 0, cp_exposed = 0, pass_sm = 0;
      for (int64_t c = 0; c < l.vpp; ++c) {
        const size_t vs = static_cast<size_t>(c * l.pp + s);
        const double mb = static_cast<double>(r.microbatches);
        b.forward_s += fwd_c[vs] * mb;
        b.backward_s += bwd_c[vs] * mb;
        b.recompute_s += re_c[vs] * mb;
        b.tp_exposed_s += tp_c[vs] * mb;
        b.ep_exposed_s += ep_c[vs] * mb;
        z3_exposed += z3_c[vs] * mb;
        cp_exposed += cp_c[vs] * mb;
        pass_sm += (sm_f[vs] + sm_b[vs]) * mb;
      }
      b.forward_s += wcast;
      b.cp_exposed_s = cp_exposed;
      b.pp_bubble_s = sr.end_s - sr.busy_s;
      if (!l.overlap_pp) b.pp_send_s = 2.0 * static_cast<double>(r.microbatches * l.vpp) * p2p;
      b.dp_exposed_s = dp_exposed + z3_exposed;
      b.sm_contention_s = contention + pass_sm;
      b.optimizer_s = opt;
    }
  }
  for (CommSummary& c : r.comm) {
    if (c.parallelism == "tp" || c.parallelism == "ep") c.exposed_s = c.total_s;  // TP collectives sit on the critical path of every pass
    if (c.parallelism == "dp") c.exposed_s = r.breakdown.dp_exposed_s;
    if (c.parallelism == "pp") c.exposed_s = l.overlap_pp ? 0.0 : c.total_s;  // overlapped: inside the bubble
  }
  // Overlapped TP and CP: their calls share the exposed time by their totals.
  for (const char* kind : {"tp", "cp"}) {
    const double exposed = std::string(kind) == "tp" ? r.breakdown.tp_exposed_s : r.breakdown.cp_exposed_s;
    if (std::string(kind) == "tp" && !l.overlap_tp) continue;
    double total = 0;
    for (const CommSummary& c : r.comm)
      if (c.parallelism == kind) total += c.total_s;
    for (CommSummary& c : r.comm)
      if (c.parallelism == kind) c.exposed_s = total > 0 ? exposed * c.total_s / total : 0.0;
  }
  if (z3_ag > 0) {  // ZeRO 3's gathers and reduce-scatters share the exposed DP time by their totals
    double total = 0;
    for (const CommSummary& c : r.comm)
      if (c.parallelism == "dp") total += c.total_s;
    for (CommSummary& c : r.comm)
      if (c.parallelism == "dp") c.exposed_s = total > 0 ? r.breakdown.dp_exposed_s * c.total_s / total : 0.0;
  }
  if (l.overlap_tp && l.tp > 1) {
    double total = 0;
    for (const CommSummary& c : r.comm)
      if (c.parallelism == "tp") total += c.total_s;
    const bool te_default = l.tp_overlap_cfg.source == te_default_tp_overlap_cfg().source;
    if (total > 0 && !te_default)
      r.notes.push_back(fmt::format(
          "--overlap tp hides {:.0f} % of TP communication (Transformer Engine's userbuffers as {} configures them: "
          "projection's and FC2's forward reduce-scatter by {} and {}; ring-exchange GEMMs in {} chunks of tokens / TP; "
          "the GEMMs beside a kernel with an SM margin run on the SMs it leaves{})",
          100.0 * (1.0 - r.breakdown.tp_exposed_s / total), l.tp_overlap_cfg.source,
          to_string(l.tp_overlap_cfg.proj_fprop.method), to_string(l.tp_overlap_cfg.fc2_fprop.method), l.tp,
          sms > 0 ? fmt::format(", of {}", sms) : std::string(": SMs unknown, not charged")));
    else if (total > 0)
      r.notes.push_back(fmt::format(
          "--overlap tp hides {:.0f} % of TP communication (Transformer Engine's userbuffers: the last of 4 chunks of "
          "each forward reduce-scatter, and whatever a collective takes beyond its GEMM, stay exposed; the GEMMs "
          "beside pipelined and bulk chunks run on the SMs TE's {} communication SMs leave{})",
          100.0 * (1.0 - r.breakdown.tp_exposed_s / total), kTeUserbufferSms,
          sms > 0 ? fmt::format(", {} of {}", sms - kTeUserbufferSms, sms) : std::string(": SMs unknown, not charged")));
  }
  if (fp8)
    r.notes.push_back(fmt::format(
        "FP8 (Transformer Engine's current scaling on Hopper): quantizing a layer's GEMM inputs and output gradients "
        "takes up to {:.3f} ms per layer and micro-batch (forward and backward); weights cast once per step{}",
        fp8_layer_s * 1e3,
        amax_call > 0 ? fmt::format("; {} amax all-reduces over TP per layer and pass, {:.1f} us each",
                                    kFp8AmaxReductionsPerPass, amax_call * 1e6)
                      : std::string()));
  if (l.cp > 1)
    r.notes.push_back(fmt::format("CP {}: {}; gradients reduced over DP x CP = {} ranks", l.cp,
                                  l.cp_comm == CpComm::Ring
                                      ? "K/V passed around a ring beside the attention core"
                                      : "K/V all-gathered before the attention core and dK/dV reduce-scattered after "
                                        "its backward, not overlapped (Megatron's --cp-comm-type allgather)",
                                  grad_ranks));
  if (!l.overlap_pp)
    r.notes.push_back(
        "PP sends block their stage (--overlap without pp): their time is inside the forward and backward passes");

  const StepFlops f = step_flops(m, l);
  r.model_flops = f.model;
  r.hardware_flops = f.hardware;
  r.peak_tflops = (l.dtype == "fp8" ? gpu.fp8_tflops : gpu.bf16_tflops);
  const double gpus = static_cast<double>(r.gpus);
  r.tokens_per_step = static_cast<double>(l.global_batch * l.seq);
  r.tokens_per_s = r.tokens_per_step / r.step_time_s;
  r.tflops_per_gpu = f.model / r.step_time_s / gpus / 1e12;
  r.mfu = r.tflops_per_gpu / r.peak_tflops;
  r.hfu = f.hardware / r.step_time_s / gpus / 1e12 / r.peak_tflops;
  if (o.tokens) r.days = *o.tokens / r.tokens_per_step * r.step_time_s / 86400.0;
  if (o.flops) r.days = *o.flops / f.model * r.step_time_s / 86400.0;
  if (o.timeline) o.timeline->step_s = r.step_time_s;
  r.notes.push_back("one pipeline's passes simulated; the " + std::to_string(l.dp) +
                    " DP replicas run the same schedule and meet only in the DP reduction");
  return r;
}

}  // namespace gf
