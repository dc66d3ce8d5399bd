// Context parallelism in a training step: the K/V ring's volume per layer against its closed
// form, Megatron's rank order (TP, CP, DP, PP), activations and compute divided by CP, the ring's
// overlap with the attention core, and the flag checks.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/compute.hpp"
#include "training/flops.hpp"
#include "training/memory.hpp"
#include "training/overlap.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes) : cluster(build_cluster(resolve_cluster("dgx-h100", nodes))), router(cluster) {}
};

TrainLayout tp8_cp2() {
  TrainLayout l;
  l.tp = 8;
  l.cp = 2;
  l.global_batch = 4;
  l.micro_batch = 1;
  l.seq = 32768;
  l.sequence_parallel = true;
  l.recompute = Recompute::None;
  return l;
}

const CommSummary* find(const TrainResult& r, const std::string& parallelism, const std::string& prefix) {
  for (const CommSummary& c : r.comm)
    if (c.parallelism == parallelism && c.collective.rfind(prefix, 0) == 0) return &c;
  return nullptr;
}

TEST(TrainCp, RanksAreOrderedTpCpDpPp) {
  // Megatron-Core's "tp-cp-ep-dp-pp": rank = tp + TP (cp + CP (dp + DP pp)). TP 2, CP 2, DP 2,
  // PP 2: the CP group of (tp 1, dp 1, pp 0) is 1 + 2 (c + 2 x 1) = {5, 7}; the gradient group
  // (DP x CP) of (tp 0, pp 1) is 0 + 2 (c + 2 (d + 2)) for d, c in {0, 1} = {8, 10, 12, 14}.
  TrainLayout l;
  l.tp = l.cp = l.dp = l.pp = 2;
  EXPECT_EQ(cp_group(l, 1, 1, 0), (std::vector<int64_t>{5, 7}));
  EXPECT_EQ(gradient_group(l, 0, 1), (std::vector<int64_t>{8, 10, 12, 14}));
  EXPECT_EQ(tp_group(l, 1, 0, 1), (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(dp_group(l, 0, 0, 1), (std::vector<int64_t>{2, 6}));
  for (int64_t g = 0; g < l.gpus(); ++g) EXPECT_EQ(global_rank(l, coord_of(l, g)), g);
}

TEST(TrainCp, KvRingVolumeFollowsTheClosedForm) {
  // llama3-8b: 8 K/V heads of width 128, 32 layers, h 4096; TP 8 (one K/V head per TP rank),
  // CP 2, b = 1, s = 32,768, 4 micro-batches. Per layer and micro-batch the forward gathers K and V
  // of the whole sequence: 2 x b x s x (8/8) x 128 x 2 B = 16 MiB (nccl-tests' all-gather size;
  // each rank receives the other (CP-1)/CP half, s/CP tokens' K/V: 8 MiB); the backward gathers
  // again and reduce-scatters their gradients (same size). Without recompute: 2 gathers and 1
  // reduce-scatter per layer per micro-batch: 64 x 4 = 256 gathers, 128 reduce-scatters.
  Dgx s(2);
  const ModelShape m = find_model("llama3-8b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l = tp8_cp2();
  l.zero = 1;
  const TrainResult r = run_training(s.cluster, s.router, m, l, o, gpu);
  const CommSummary* ag = find(r, "cp", "all_gather");
  const CommSummary* rs = find(r, "cp", "reduce_scatter");
  ASSERT_NE(ag, nullptr);
  ASSERT_NE(rs, nullptr);
  EXPECT_DOUBLE_EQ(ag->bytes, 2.0 * 32768 * 1 * 128 * 2);
  EXPECT_DOUBLE_EQ(rs->bytes, ag->bytes);
  EXPECT_DOUBLE_EQ(ag->calls, 2.0 * 32 * 4);
  EXPECT_DOUBLE_EQ(rs->calls, 32.0 * 4);
  EXPECT_EQ(ag->groups, 8);  // one CP group per TP rank: GPU t of server 0 with GPU t of server 1
  // TP's activations are b s/CP h x 2 B: 16,384 x 4,096 x 2 = 128 MiB.
  const CommSummary* tp = find(r, "tp", "reduce_scatter");
  ASSERT_NE(tp, nullptr);
  EXPECT_DOUBLE_EQ(tp->bytes, 16384.0 * 4096 * 2);
  // With full recompute the forward ring runs again: 3 gathers per layer per micro-batch.
  l.recompute = Recompute::Full;
  const TrainResult f = run_training(s.cluster, s.router, m, l, o, gpu);
  EXPECT_DOUBLE_EQ(find(f, "cp", "all_gather")->calls, 3.0 * 32 * 4);
  // The breakdown still adds up, the ring's exposed part included.
  for (const TrainResult* x : {&r, &f}) {
    const TrainBreakdown& b = x->breakdown;
    EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.ep_exposed_s + b.cp_exposed_s +
                    b.pp_bubble_s + b.dp_exposed_s + b.sm_contention_s + b.optimizer_s,
                x->step_time_s, 1e-9 * x->step_time_s);
    // Exposed at most what the ring takes in all.
    EXPECT_GE(b.cp_exposed_s, 0.0);
    double total = 0;
    for (const CommSummary& c : x->comm)
      if (c.parallelism == "cp") total += c.total_s;
    EXPECT_LE(b.cp_exposed_s, total * (1 + 1e-12));
  }
}

TEST(TrainCp, ActivationsAndComputeShrinkByCp) {
  // Every activation is split along the sequence: CP 2 holds half of CP 1's activations, the same
  // weights, and the optimizer (ZeRO 1) sharded over DP x CP = 2 ranks instead of 1.
  const ModelShape m = find_model("llama3-70b");
  TrainLayout one = tp8_cp2();
  one.cp = 1;
  one.zero = 1;
  TrainLayout two = one;
  two.cp = 2;
  const MemoryUse a = memory_per_gpu(m, one), b = memory_per_gpu(m, two);
  EXPECT_DOUBLE_EQ(b.activations, a.activations / 2);
  EXPECT_DOUBLE_EQ(b.weights, a.weights);
  EXPECT_DOUBLE_EQ(b.optimizer, a.optimizer / 2);
  // A rank's share of a layer's matmul and attention FLOPs is 1/CP of the TP rank's.
  const LayerWork w1 = layer_forward(m, one, false), w2 = layer_forward(m, two, false);
  EXPECT_DOUBLE_EQ(w2.matmul_flops, w1.matmul_flops / 2);
  EXPECT_DOUBLE_EQ(w2.attention_flops, w1.attention_flops / 2);
  // The model FLOPs of a step do not depend on how it is split.
  EXPECT_DOUBLE_EQ(step_flops(m, two).model, step_flops(m, one).model);
}

TEST(TrainCp, RingHidesBehindTheAttentionCore) {
  // CP blocks of attention attn/CP; CP-1 exchanges of comm/(CP-1); the local block first. With
  // CP 4, attention 4 s (1 s a block) and the ring 3 s (1 s an exchange): every exchange fits
  // under a block, nothing is exposed. A ring of 6 s (2 s an exchange) leaves 3 x (2 - 1) = 3 s.
  EXPECT_DOUBLE_EQ(cp_ring_exposed(3.0, 4.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(cp_ring_exposed(6.0, 4.0, 4), 3.0);
}

TEST(TrainCp, AllGatherMovesTheRingsVolumeUnhidden) {
  // --cp-comm all-gather (Megatron's --cp-comm-type allgather): the same K/V volume as the ring,
  // 2 x b x s x (kv_heads/TP) x head_dim x 2 B = 2 x 32,768 x 1 x 128 x 2 = 16 MiB per call, the
  // same calls (llama3-8b, 32 layers, 4 micro-batches, no recompute: 2 gathers and 1
  // reduce-scatter per layer and micro-batch), but nothing hides it. With a stand-in timer giving
  // every CP all-gather A = 2 ms and reduce-scatter R = 1 ms (all else free), per layer and
  // micro-batch:
  //   all-gather: forward A, backward A + R: 5 ms, so 32 x 4 x 5 ms = 0.64 s exposed;
  //   ring: max(0, A - attn/2) + max(0, A + R - 2 attn/2) (CP 2: half of each pass's attention
  //   hides the ring, overlap.hpp), attn being the layer's attention core forward.
  Dgx s(2);
  const ModelShape m = find_model("llama3-8b");
  const double A = 2e-3, R = 1e-3;
  TrainOptions o;
  o.timer = [&](const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes, const std::string& flag) {
    GroupTiming t;
    t.groups = t.of_groups = static_cast<int64_t>(groups.size());
    t.algorithm = "ring/simple";
    if (flag == "--cp") t.seconds = kind == CollectiveKind::AllGather ? A : R;
    return t;
  };
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout ring = tp8_cp2();
  TrainLayout gather = ring;
  gather.cp_comm = CpComm::AllGather;
  const TrainResult rr = run_training(s.cluster, s.router, m, ring, o, gpu);
  const TrainResult rg = run_training(s.cluster, s.router, m, gather, o, gpu);
  for (const TrainResult* x : {&rr, &rg}) {
    const CommSummary* ag = find(*x, "cp", "all_gather");
    const CommSummary* rs = find(*x, "cp", "reduce_scatter");
    ASSERT_NE(ag, nullptr);
    ASSERT_NE(rs, nullptr);
    EXPECT_DOUBLE_EQ(ag->bytes, 2.0 * 32768 * 1 * 128 * 2);
    EXPECT_DOUBLE_EQ(rs->bytes, ag->bytes);
    EXPECT_DOUBLE_EQ(ag->calls, 2.0 * 32 * 4);
    EXPECT_DOUBLE_EQ(rs->calls, 32.0 * 4);
  }
  EXPECT_NEAR(rg.breakdown.cp_exposed_s, 32 * 4 * (A + A + R), 1e-12);
  const double attn = layer_times(m, ring, gpu, o.efficiency, false).attention_s;
  const double ring_layer = std::max(0.0, A - attn / 2) + std::max(0.0, A + R - attn);
  EXPECT_NEAR(rr.breakdown.cp_exposed_s, 32 * 4 * ring_layer, 1e-12);
  // The rest of the step is the same: the difference is the exposed K/V traffic alone.
  EXPECT_NEAR(rg.step_time_s - rr.step_time_s, rg.breakdown.cp_exposed_s - rr.breakdown.cp_exposed_s,
              1e-9 * rg.step_time_s);
  // All-gather without CP is refused, naming the flag.
  gather.cp = 1;
  try {
    run_training(s.cluster, s.router, m, gather, o, gpu);
    FAIL() << "--cp-comm all-gather accepted at CP 1";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--cp-comm"), std::string::npos) << e.what();
  }
}

TEST(TrainCp, BadCpNamesTheFlag) {
  Dgx s(3);
  const ModelShape m = find_model("llama3-70b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l = tp8_cp2();
  l.cp = 3;  // 24 GPUs, but 32,768 tokens do not split into 2 x 3 chunks
  try {
    run_training(s.cluster, s.router, m, l, o, gpu);
    FAIL() << "CP 3 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--cp"), std::string::npos) << e.what();
  }
  l.cp = 0;
  EXPECT_THROW(run_training(s.cluster, s.router, m, l, o, gpu), InputError);
}

}  // namespace
}  // namespace gf
