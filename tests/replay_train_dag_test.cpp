// `train --step dag` (replay/train_dag): the training step as one per-rank DAG, replayed with
// every group's collectives in flight together. Expected figures are derived from the step's own
// parts (train's timeline and the collectives timed alone), never copied from the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "replay/train_dag.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/gpu_catalog.hpp"
#include "training/fp8_cost.hpp"
#include "training/group_collectives.hpp"
#include "training/layout.hpp"
#include "training/memory.hpp"
#include "training/model_shape.hpp"
#include "training/overlap.hpp"

namespace gf {
namespace {

// llama3-8b at TP 2 x PP 2 x DP 2 on one DGX H100 (the replay round trip's layout), 4 micro-batches.
struct Case {
  Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  Router router{cluster};
  ModelShape model = find_model("llama3-8b");
  TrainLayout layout;
  TrainOptions options;
  TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  Case() {
    layout.tp = 2;
    layout.pp = 2;
    layout.dp = 2;
    layout.micro_batch = 1;
    layout.global_batch = 8;
    layout.seq = 2048;
    layout.sequence_parallel = true;
    layout.overlap_dp = true;
    layout.overlap_pp = true;
    options.network_model = "analytical";
  }
  double alone(int64_t stage, CollectiveKind kind, double bytes) const {
    if (bytes <= 0) return 0.0;
    return time_groups(cluster, router, options.network_model, {dp_group(layout, 0, stage)}, kind,
                       Bytes(static_cast<int64_t>(bytes)), "--dp")
        .seconds;
  }
};

// The DP reduction in buckets (`--overlap dp`), ZeRO 0 and 1. Derivation, per stage s, from train's
// own figures (its timeline): the compute chain of the DAG is train's passes (docs/replay.md, "Round
// trip"), so the stage's last pass ends at E_s, the pipeline's end for s, and its layers' backward
// computes lie on it one after another, each followed by the layer's TP calls (tp_b per layer),
// the pass closed by its SM share (sm_b); the last stage's pass starts with the logits. Every
// llama3-8b layer holds P = gpu_layer_parameters >= the 40M bucket, so each layer's last backward
// closes one bucket of P when its compute ends, at r_k (on the last stage the first also holds the
// output layer, V h / TP). Buckets run one at a time in order (one communicator), each taking t_k
// alone: a queue, q_k = max(q_{k-1}, r_k) + t_k. The stage's final bucket (stage 0: the embedding;
// the last stage: nothing left) follows the queue and the chain's DP SM share c_s:
//   DAG_s = max(q_K, E_s + c_s) + t_final + optimizer_s + after_s (ZeRO 1's all-gather).
// Train instead charges E_s + c_s + max(LB, D - W) + optimizer_s + after_s (LB: one 40M bucket's
// share of the whole reduction D, starting from the last backward's start, W before the end): the
// two differ by when the buckets can start (their layers' gradients) and by the final bucket (the
// embedding, V h / TP = 262M parameters here, not 40M). Collectives alone (the DAG's uncontended
// replay): on one DGX H100 each group's GPUs have their own NVLink ports, as train times them.
TEST(TrainDag, OverlapDpBucketsGiveTheDerivedStep) {
  for (int zero : {0, 1}) {
    Case c;
    c.layout.zero = zero;
    TrainTimeline tl;
    TrainOptions timed = c.options;
    timed.timeline = &tl;
    const TrainResult composed = run_training(c.cluster, c.router, c.model, c.layout, timed, c.gpu);
    const DagStep dag = run_training_dag(c.cluster, c.router, c.model, c.layout, c.options, c.gpu);

    const CollectiveKind reduce = zero == 0 ? CollectiveKind::AllReduce : CollectiveKind::ReduceScatter;
    const double P = gpu_layer_parameters(c.model, c.layout, false);
    const double out_layer = static_cast<double>(c.model.vocab * c.model.hidden) / static_cast<double>(c.layout.tp);
    ASSERT_GE(P, dp_bucket_parameters(c.layout.dp));  // one bucket per layer
    const LayerTimes lt = training_layer_times(c.model, c.layout, c.gpu, c.options.efficiency, false);
    const int64_t per_stage = c.model.layers / c.layout.pp;
    double expected = 0, train_rule = 0;
    for (int64_t s = 0; s < c.layout.pp; ++s) {
      const bool last = s == c.layout.pp - 1;
      const double E = tl.pipe.stages[static_cast<size_t>(s)].end_s;
      const TimelinePass& pass = tl.passes[static_cast<size_t>(s)];
      const double tp_layer = pass.tp_backward_s / static_cast<double>(per_stage);
      const double logits = pass.backward_compute_s - static_cast<double>(per_stage) * lt.backward_s;
      double at = E - pass.sm_backward_s - pass.tp_backward_s - pass.backward_compute_s + logits;  // layers start
      double q = 0;
      for (int64_t k = 0; k < per_stage; ++k) {
        const double r = at + lt.backward_s;
        at = r + tp_layer;
        const double bucket = P + (last && k == 0 ? out_layer : 0.0);
        q = std::max(q, r) + c.alone(s, reduce, 4 * bucket);
      }
      const double final_params = stage_parameters(c.model, c.layout, s) - static_cast<double>(per_stage) * P -
                                  (last ? out_layer : 0.0);
      const TimelineTail& tail = tl.tails[static_cast<size_t>(s)];
      const double end = std::max(q, E + tail.contention_s) + c.alone(s, reduce, 4 * std::max(0.0, final_params)) +
                         tail.optimizer_s + tail.dp_after_s;
      expected = std::max(expected, end);
      train_rule = std::max(train_rule, E + tail.contention_s + tail.dp_exposed_s + tail.optimizer_s + tail.dp_after_s);
    }
    // The timeline read above is the one train's step is made of (its rule, in the comment above).
    ASSERT_NEAR(train_rule, composed.step_time_s, 1e-12 * composed.step_time_s);
    EXPECT_NEAR(dag.uncontended_s, expected, 1e-9 * expected) << "zero " << zero;
    // Hidden: the same step with the whole reduction after the last pass (`--overlap pp`, which the
    // DAG replays exactly as train composes it, docs/replay.md) is longer.
    Case none;
    none.layout.zero = zero;
    none.layout.overlap_dp = false;
    const TrainResult after = run_training(none.cluster, none.router, none.model, none.layout, none.options, none.gpu);
    EXPECT_LT(dag.uncontended_s, after.step_time_s) << "zero " << zero;
  }
}

// Two kinds contending on one link, which the composed step cannot charge: TP 1 x PP 2 x DP 4 on one
// DGX H100 (stage 0 on GPUs 0-3, stage 1 on 4-7), the DP reduction after the last pass
// (`--overlap pp`). Collectives alone, the DAG is train's step (docs/replay.md, "Round trip": each
// group's GPUs have their own NVLink ports, so a kind's groups at once take what each takes
// alone). Together, one overlap is left: stage 1 ends with its last backward, then at the same
// instant starts its DP all-reduce and sends that backward's gradient to stage 0 (GPU 4 + d to
// GPU d), both out of GPU 4 + d's NVLink port. Stage 0's last backward waits for that send, and
// stage 0 is the critical stage (it ends one backward pass after stage 1), so the DAG is slower by
// exactly how much later the send ends. Bound: the flow model shares a link max-min, so the send,
// one flow beside the all-reduce's c channels (one flow each out of every GPU), gets at least 1/(c
// + 1) of the port: it takes at most (c + 1) T_s instead of T_s (T_s: the send alone), and the
// all-reduce outlasts that (checked). So 0 < DAG - composed <= c T_s.
TEST(TrainDag, TwoKindsOnOneNvlinkPortSlowTheStep) {
  Case c;
  c.layout.tp = 1;
  c.layout.dp = 4;
  c.layout.global_batch = 16;
  c.layout.overlap_dp = false;
  c.options.network_model = "flow";
  const TrainResult composed = run_training(c.cluster, c.router, c.model, c.layout, c.options, c.gpu);
  const DagStep dag = run_training_dag(c.cluster, c.router, c.model, c.layout, c.options, c.gpu);
  EXPECT_NEAR(dag.uncontended_s, composed.step_time_s, 1e-9 * composed.step_time_s);
  const double send = time_groups(c.cluster, c.router, "flow", {{4, 0}}, CollectiveKind::SendRecv,
                                  Bytes(2 * c.layout.seq * c.model.hidden), "--pp")
                          .seconds;
  const GroupTiming dp1 = time_groups(c.cluster, c.router, "flow", {dp_group(c.layout, 0, 1)}, CollectiveKind::AllReduce,
                                      Bytes(static_cast<int64_t>(4 * stage_parameters(c.model, c.layout, 1))), "--dp");
  ASSERT_GT(dp1.seconds, (dp1.channels + 1) * send);  // the all-reduce is in flight for the whole send
  const double delta = dag.step_time_s - composed.step_time_s;
  EXPECT_GT(delta, 0.0);
  EXPECT_LE(delta, dp1.channels * send * (1 + 1e-9)) << "channels " << dp1.channels << " send " << send;
  EXPECT_NEAR(dag.contention_s, delta, 1e-9 * composed.step_time_s);
}

// What the DAG does not express yet is refused, naming the flag.
TEST(TrainDag, RefusesWhatItCannotExpressNamingTheFlag) {
  auto flag_of = [](const Case& c) -> std::string {
    try {
      run_training_dag(c.cluster, c.router, c.model, c.layout, c.options, c.gpu);
    } catch (const InputError& e) {
      return e.key();
    }
    return "";
  };
  Case cp;
  cp.layout.cp = 2;
  cp.layout.dp = 1;
  EXPECT_EQ(flag_of(cp), "--cp");
  Case tp;
  tp.layout.overlap_tp = true;
  EXPECT_EQ(flag_of(tp), "--overlap");
  Case fp8;
  fp8.layout.dtype = "fp8";
  EXPECT_EQ(flag_of(fp8), "--dtype");
  Case z3;
  z3.layout.zero = 3;  // with `dp` in --overlap: FSDP's prefetch is not in the DAG
  EXPECT_EQ(flag_of(z3), "--zero");
}

}  // namespace
}  // namespace gf
