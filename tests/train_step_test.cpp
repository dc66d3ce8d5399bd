// The pipeline schedule, the parallel groups' collectives and a whole step of training/, checked
// against closed forms: the 1F1B bubble, the per-step communication volume per parallelism, and the
// steady-state shortcut (server 0's TP groups) against the full run.
#include "training/train_step.hpp"

#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/group_collectives.hpp"
#include "training/pipeline.hpp"

namespace gf {
namespace {

PipelineInput equal_stages(int64_t p, int64_t v, int64_t m, double tf, double tb) {
  PipelineInput in;
  in.stages = p;
  in.chunks = v;
  in.microbatches = m;
  in.forward_s.assign(static_cast<size_t>(p * v), tf);
  in.backward_s.assign(static_cast<size_t>(p * v), tb);
  return in;
}

TEST(TrainPipeline, OneFOneBBubbleIsPMinusOneOverM) {
  // 1F1B on p equal stages, free network: makespan (m + p - 1)(tf + tb), so every stage idles
  // (p - 1)(tf + tb), which is (p - 1)/m of its ideal time m (tf + tb) (Narayanan et al. 2021, 2.2.1).
  for (int64_t p : {2, 4, 8})
    for (int64_t m : {1, 4, 16}) {
      const PipelineRun r = run_pipeline(equal_stages(p, 1, m, 1.0, 2.0));
      EXPECT_DOUBLE_EQ(r.makespan_s, static_cast<double>(m + p - 1) * 3.0) << "p " << p << " m " << m;
      for (const StageRun& s : r.stages) {
        EXPECT_DOUBLE_EQ(s.busy_s, static_cast<double>(m) * 3.0);
        EXPECT_DOUBLE_EQ((r.makespan_s - s.busy_s) / s.busy_s, static_cast<double>(p - 1) / static_cast<double>(m));
      }
    }
}

TEST(TrainPipeline, InterleavingDividesTheBubbleByV) {
  // v chunks per stage, each 1/v of the stage's work: the bubble shrinks to (p-1)/(m v) of the
  // ideal time (Narayanan et al. 2021, 2.2.2), with m a multiple of p.
  const int64_t p = 4, m = 8;
  for (int64_t v : {2, 3}) {
    const double tf = 1.0 / static_cast<double>(v), tb = 2.0 / static_cast<double>(v);
    const PipelineRun r = run_pipeline(equal_stages(p, v, m, tf, tb));
    const double ideal = static_cast<double>(m) * 3.0;
    EXPECT_NEAR((r.makespan_s - ideal) / ideal, static_cast<double>(p - 1) / static_cast<double>(m * v), 1e-12)
        << "v " << v;
  }
}

TEST(TrainPipeline, EveryPassRunsOnceAndForwardBeforeBackward) {
  for (int64_t v : {1, 2})
    for (int64_t s = 0; s < 4; ++s) {
      const auto order = pass_order(s, 4, v, 8);
      ASSERT_EQ(order.size(), static_cast<size_t>(2 * 8 * v));
      std::vector<int> fwd(static_cast<size_t>(8 * v), -1);
      for (size_t i = 0; i < order.size(); ++i) {
        const size_t k = static_cast<size_t>(order[i].chunk * 8 + order[i].microbatch);
        if (order[i].forward) {
          EXPECT_EQ(fwd[k], -1);
          fwd[k] = static_cast<int>(i);
        } else {
          EXPECT_GE(fwd[k], 0) << "backward before forward";
        }
      }
    }
}

TEST(TrainPipeline, SendTimeDelaysTheFirstMicroBatch) {
  // With a send time d, the last stage's first forward starts after (p - 1)(tf + d).
  PipelineInput in = equal_stages(4, 1, 4, 1.0, 2.0);
  in.p2p_s = 0.25;
  const PipelineRun r = run_pipeline(in);
  EXPECT_DOUBLE_EQ(r.stages[3].passes.front().start, 3 * (1.0 + 0.25));
}

struct Selene {
  Cluster cluster;
  Router router;
  explicit Selene(int64_t nodes)
      : cluster(build_cluster(resolve_cluster("dgx-a100", nodes))), router(cluster) {}
};

TEST(TrainGroups, ServerZeroTpGroupsTimeAsAllGroups) {
  // The shortcut: TP groups inside servers do not share links, so server 0's groups take as long as
  // every server's groups at once.
  Selene s(2);
  TrainLayout l;
  l.tp = 4;
  l.dp = 4;
  std::vector<std::vector<int64_t>> zero, all;
  for (int64_t dp = 0; dp < 4; ++dp) {
    all.push_back(tp_group(l, dp, 0));
    if (all.back().back() < 8) zero.push_back(all.back());
  }
  ASSERT_EQ(zero.size(), 2u);
  const double one =
      time_groups(s.cluster, s.router, "flow", zero, CollectiveKind::AllReduce, Bytes(64 << 20), "--tp").seconds;
  const double every =
      time_groups(s.cluster, s.router, "flow", all, CollectiveKind::AllReduce, Bytes(64 << 20), "--tp").seconds;
  EXPECT_GT(one, 0);
  EXPECT_DOUBLE_EQ(one, every);
}

TEST(TrainGroups, DpGroupsOfAllStagesContendOnTheFabric) {
  // Two DP groups whose ranks sit on the same servers share each server's NICs' uplinks only when
  // they use the same rails; positions 0 and 1 use different rails on a rail-optimized fabric, so
  // at most equal. What must hold: never faster than one group alone.
  Selene s(4);
  const std::vector<std::vector<int64_t>> a = {{0, 8, 16, 24}}, ab = {{0, 8, 16, 24}, {1, 9, 17, 25}};
  const double one =
      time_groups(s.cluster, s.router, "flow", a, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp").seconds;
  const double two =
      time_groups(s.cluster, s.router, "flow", ab, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp").seconds;
  EXPECT_GE(two, one);
}

TEST(TrainStep, CommunicationVolumesFollowTheClosedForms) {
  // 175B, TP 8, PP 8, DP 2, m = 8 micro-batches: TP all-reduces of b s h x 2 B, 4 per layer per
  // micro-batch plus 2 with full recompute (Korthikanti et al. 2022, 4.2.2): 6 x 12 layers x 8;
  // PP: one send of b s h x 2 / TP bytes per micro-batch and direction; DP: one all-reduce of the
  // stage's fp32 gradients.
  Selene s(16);
  const ModelShape m = find_model("gpt3-175b");
  TrainLayout l;
  l.tp = 8;
  l.pp = 8;
  l.dp = 2;
  l.global_batch = 16;
  l.seq = 2048;
  l.recompute = Recompute::Full;
  TrainOptions o;
  o.network_model = "analytical";
  const TrainResult r = run_training(s.cluster, s.router, m, l, o, *find_training_gpu("A100-SXM4-80GB"));
  ASSERT_EQ(r.comm.size(), 3u);
  EXPECT_EQ(r.comm[0].parallelism, "tp");
  EXPECT_DOUBLE_EQ(r.comm[0].bytes, 2048.0 * 12288 * 2);
  EXPECT_DOUBLE_EQ(r.comm[0].calls, 6.0 * 12 * 8);
  EXPECT_EQ(r.comm[1].parallelism, "pp");
  EXPECT_DOUBLE_EQ(r.comm[1].bytes, 2048.0 * 12288 * 2 / 8);
  EXPECT_DOUBLE_EQ(r.comm[1].calls, 2.0 * 8);
  EXPECT_EQ(r.comm[2].parallelism, "dp");
  EXPECT_DOUBLE_EQ(r.comm[2].bytes, 4 * stage_parameters(m, l, 0));
  // The breakdown adds up to the step.
  const TrainBreakdown& b = r.breakdown;
  EXPECT_NEAR(
      b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.pp_bubble_s + b.dp_exposed_s + b.sm_contention_s + b.optimizer_s,
      r.step_time_s, 1e-9 * r.step_time_s);
  // MFU is model FLOPs over time and peak.
  EXPECT_NEAR(r.mfu, r.model_flops / r.step_time_s / 128 / 312e12, 1e-12);
}

TEST(TrainStep, SameInputSameOutput) {
  Selene s(2);
  TrainLayout l;
  l.tp = 8;
  l.dp = 2;
  l.global_batch = 8;
  l.seq = 4096;
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("A100-SXM4-80GB");
  const double a = run_training(s.cluster, s.router, m, l, {}, g).step_time_s;
  EXPECT_EQ(a, run_training(s.cluster, s.router, m, l, {}, g).step_time_s);
}

TEST(TrainStep, BadLayoutsNameTheFlag) {
  Selene s(2);
  const ModelShape m = find_model("megatron-22b");
  const TrainingGpu g = *find_training_gpu("A100-SXM4-80GB");
  auto key_of = [&](TrainLayout l) {
    try {
      run_training(s.cluster, s.router, m, l, {}, g);
    } catch (const InputError& e) {
      return e.key();
    }
    return std::string("no error");
  };
  TrainLayout l;
  l.tp = 3;  // 64 heads
  EXPECT_EQ(key_of(l), "--tp");
  l.tp = 2;
  l.pp = 5;  // 48 layers
  EXPECT_EQ(key_of(l), "--pp");
  l.tp = 8;
  l.pp = 1;
  l.dp = 4;  // 32 GPUs on a 16-GPU cluster
  EXPECT_EQ(key_of(l), "--dp");
  l.dp = 2;
  l.global_batch = 3;
  EXPECT_EQ(key_of(l), "--global-batch");
  // 22B on one GPU: 18 B x 22e9 parameters is far beyond 80 GiB.
  TrainLayout one;
  EXPECT_EQ(key_of(one), "--tp");
}

}  // namespace
}  // namespace gf

namespace gf {
namespace {

TEST(TrainSelene, EveryRowWithinTenPercent) {
  // Measured: Megatron-LM on Selene, Korthikanti et al. 2022 Table 5
  // (../shared/validation/training/selene-iteration-times.md); the efficiency table is fitted to
  // the 22B rows only, so the other six are checks. Target of issue 20: within 10 %.
  struct Row {
    const char* model;
    int64_t pp, vpp, gb, mb;
    double full, seqsel;
  };
  const Row rows[] = {{"megatron-22b", 1, 1, 4, 4, 1.42, 1.10},
                      {"gpt3-175b", 8, 3, 64, 1, 18.13, 13.75},
                      {"megatron-530b", 35, 3, 280, 1, 49.05, 37.83},
                      {"megatron-1t", 64, 1, 512, 1, 94.42, 71.49}};
  const TrainingGpu a100 = *find_training_gpu("A100-SXM4-80GB");
  for (const Row& r : rows) {
    Selene s(r.pp);
    for (bool full : {true, false}) {
      TrainLayout l;
      l.tp = 8;
      l.pp = r.pp;
      l.vpp = r.vpp;
      l.global_batch = r.gb;
      l.micro_batch = r.mb;
      l.seq = 2048;
      l.attention = Attention::Unfused;
      l.sequence_parallel = !full;
      l.recompute = full ? Recompute::Full : Recompute::Selective;
      TrainOptions o;
      o.network_model = "analytical";
      const double t = run_training(s.cluster, s.router, find_model(r.model), l, o, a100).step_time_s;
      const double measured = full ? r.full : r.seqsel;
      EXPECT_NEAR(t / measured, 1.0, 0.10) << r.model << (full ? " full" : " seqsel");
    }
  }
}

}  // namespace
}  // namespace gf

namespace gf {
namespace {

TEST(TrainGroups, OneGroupStandsForAllUnderTheBudgetShortcut) {
  // Two DP groups on disjoint servers (0-1 and 2-3, GPU position 0) share no link: the first group
  // alone takes as long as both at once, so the shortcut is exact.
  const Cluster c = build_cluster(resolve_cluster("dgx-a100", 4));
  const Router router(c);
  const std::vector<std::vector<int64_t>> disjoint = {{0, 8}, {16, 24}};
  const GroupTiming all = time_groups(c, router, "flow", disjoint, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp");
  const GroupTiming one =
      time_groups(c, router, "flow", disjoint, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp", 1);
  EXPECT_EQ(all.groups, 2);
  EXPECT_EQ(one.groups, 1);
  EXPECT_EQ(one.of_groups, 2);
  EXPECT_DOUBLE_EQ(one.seconds, all.seconds);
  // Eight groups at the eight GPU positions of the same servers do share links inside the
  // servers (two GPUs and two NICs per PCIe switch on DGX A100): one group alone is faster, which
  // is why the output calls the shortcut optimistic where groups contend.
  std::vector<std::vector<int64_t>> shared;
  for (int64_t pos = 0; pos < 8; ++pos) shared.push_back({pos, 8 + pos, 16 + pos, 24 + pos});
  const double every =
      time_groups(c, router, "flow", shared, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp").seconds;
  const double first =
      time_groups(c, router, "flow", shared, CollectiveKind::AllReduce, Bytes(256 << 20), "--dp", 1).seconds;
  EXPECT_LT(first, every);
}

}  // namespace
}  // namespace gf
