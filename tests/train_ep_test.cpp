// Expert parallelism in a training step: the all-to-all volume per MoE layer against its closed
// form, the experts' memory split over EP, Megatron's rank placement of EP groups inside DP, and
// the flag checks.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/memory.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes) : cluster(build_cluster(resolve_cluster("dgx-h100", nodes))), router(cluster) {}
};

TrainLayout mixtral_ep8() {
  TrainLayout l;
  l.dp = 8;
  l.ep = 8;
  l.global_batch = 16;
  l.micro_batch = 1;
  l.seq = 4096;
  l.recompute = Recompute::Full;
  l.zero = 1;
  return l;
}

TEST(TrainEp, AllToAllVolumeFollowsTheClosedForm) {
  // Mixtral 8x7B (h 4096, 32 MoE layers, top-2) at EP 8, b = 1, s = 4096, m = 16 / 8 = 2
  // micro-batches: per MoE layer per micro-batch a dispatch and a combine forward, their two
  // mirror images backward and two more with full recompute: 6 x 32 x 2 = 384 all-to-alls, each
  // of b s k h x 2 B = 4096 x 2 x 4096 x 2 = 64 MiB from every rank.
  Dgx s(1);
  const ModelShape m = find_model("mixtral-8x7b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainResult r = run_training(s.cluster, s.router, m, mixtral_ep8(), o, *find_training_gpu("H100-SXM5-80GB"));
  const CommSummary* ep = nullptr;
  for (const CommSummary& c : r.comm)
    if (c.parallelism == "ep") ep = &c;
  ASSERT_NE(ep, nullptr);
  EXPECT_EQ(ep->collective, "alltoall");
  EXPECT_DOUBLE_EQ(ep->bytes, 4096.0 * 2 * 4096 * 2);
  EXPECT_DOUBLE_EQ(ep->calls, 6.0 * 32 * 2);
  EXPECT_EQ(ep->groups, 1);
  EXPECT_GT(ep->call_s, 0);
  // No overlap: every all-to-all sits on the critical path, and the breakdown still adds up.
  const TrainBreakdown& b = r.breakdown;
  EXPECT_NEAR(b.ep_exposed_s, ep->calls * ep->call_s, 1e-9 * b.ep_exposed_s);
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.ep_exposed_s + b.pp_bubble_s +
                  b.dp_exposed_s + b.sm_contention_s + b.optimizer_s,
              r.step_time_s, 1e-9 * r.step_time_s);
  // Without recompute: 4 per layer per micro-batch.
  TrainLayout l = mixtral_ep8();
  l.recompute = Recompute::Selective;
  const TrainResult sel = run_training(s.cluster, s.router, m, l, o, *find_training_gpu("H100-SXM5-80GB"));
  for (const CommSummary& c : sel.comm)
    if (c.parallelism == "ep") {
      EXPECT_DOUBLE_EQ(c.calls, 4.0 * 32 * 2);
    }
  // Sequence parallelism with TP 2 (EP 4 inside DP 4): a TP rank dispatches its s / 2 tokens.
  l.tp = 2;
  l.dp = 4;
  l.ep = 4;
  l.sequence_parallel = true;
  const TrainResult sp = run_training(s.cluster, s.router, m, l, o, *find_training_gpu("H100-SXM5-80GB"));
  for (const CommSummary& c : sp.comm)
    if (c.parallelism == "ep") {
      EXPECT_DOUBLE_EQ(c.bytes, 4096.0 * 2 * 4096 * 2 / 2);
      EXPECT_EQ(c.groups, 2);  // one EP group per TP rank
    }
}

TEST(TrainEp, ExpertsMemorySplitsOverEp) {
  // The routed experts' weights, 3 x h x moe_ffn x experts per layer (SwiGLU) = 3 x 4096 x 14336 x 8
  // for Mixtral, are split over EP: at EP 8 each GPU keeps 1/8, so 16-bit weights fall by
  // 2 B x 7/8 x that x 32 layers; nothing else changes.
  const ModelShape m = find_model("mixtral-8x7b");
  TrainLayout one = mixtral_ep8();
  one.ep = 1;
  const double experts = 3.0 * 4096 * 14336 * 8 * 32;
  const MemoryUse a = memory_per_gpu(m, one), b = memory_per_gpu(m, mixtral_ep8());
  EXPECT_NEAR(a.weights - b.weights, 2 * experts * 7 / 8, 1e-6 * a.weights);
  EXPECT_NEAR(a.gradients - b.gradients, 4 * experts * 7 / 8, 1e-6 * a.gradients);
  EXPECT_DOUBLE_EQ(a.activations, b.activations);
}

TEST(TrainEp, GroupsAreConsecutiveDpRanks) {
  // Megatron's order TP, EP/DP, PP: with TP 2, DP 8, EP 4 the EP group of (tp 1, dp 5) is DP
  // indices 4..7 at TP rank 1: global ranks 1 + 2 x (4..7) = 9, 11, 13, 15.
  TrainLayout l;
  l.tp = 2;
  l.dp = 8;
  l.ep = 4;
  EXPECT_EQ(ep_group(l, 1, 5, 0), (std::vector<int64_t>{9, 11, 13, 15}));
  l.pp = 2;
  EXPECT_EQ(ep_group(l, 0, 1, 1), (std::vector<int64_t>{16, 18, 20, 22}));  // + TP x DP = 16 for stage 1
}

TEST(TrainEp, BadEpNamesTheFlag) {
  const ModelShape mix = find_model("mixtral-8x7b"), dense = find_model("llama3-8b");
  TrainLayout l = mixtral_ep8();
  l.ep = 3;
  EXPECT_THROW(check_layout(l, mix, 8), InputError);  // 3 divides neither 8 experts nor DP 8
  l.ep = 8;
  EXPECT_THROW(check_layout(l, dense, 8), InputError);  // no experts
  l.dp = 4;
  l.ep = 8;
  l.global_batch = 4;
  EXPECT_THROW(check_layout(l, mix, 8), InputError);  // EP beyond DP
  l.ep = 4;
  EXPECT_NO_THROW(check_layout(l, mix, 8));
}

}  // namespace
}  // namespace gf
