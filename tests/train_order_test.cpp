// Rank order of a training layout: Megatron-Core's default "tp-cp-dp-pp" (PP outermost) and
// "tp-cp-pp-dp" (PP inside DP, Megatron-LM's --use-tp-pp-dp-mapping, the order of the Llama 3
// paper's section 3.3.2). Ranks by hand, the inverse, the servers a pipeline's stages land on.
#include <gtest/gtest.h>

#include <set>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/gpu_catalog.hpp"
#include "training/layout.hpp"
#include "training/model_shape.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

TrainLayout layout(int64_t tp, int64_t cp, int64_t pp, int64_t dp, bool pp_inside_dp) {
  TrainLayout l;
  l.tp = tp;
  l.cp = cp;
  l.pp = pp;
  l.dp = dp;
  l.pp_inside_dp = pp_inside_dp;
  return l;
}

TEST(TrainOrder, RanksByHand) {
  // TP 8, PP 16, DP 4; the rank at (tp 3, dp 2, pp 5):
  // tp-cp-dp-pp: 3 + 8 (2 + 4 x 5) = 179; tp-cp-pp-dp: 3 + 8 (5 + 16 x 2) = 299.
  EXPECT_EQ(global_rank(layout(8, 1, 16, 4, false), {3, 2, 5, 0}), 179);
  EXPECT_EQ(global_rank(layout(8, 1, 16, 4, true), {3, 2, 5, 0}), 299);
  // With CP 2 at cp 1: tp-cp-pp-dp: 3 + 8 (1 + 2 (5 + 16 x 2)) = 3 + 8 x 75 = 603.
  EXPECT_EQ(global_rank(layout(8, 2, 16, 4, true), {3, 2, 5, 1}), 603);
}

TEST(TrainOrder, EveryRankOnceAndBack) {
  for (bool inside : {false, true}) {
    const TrainLayout l = layout(2, 2, 3, 5, inside);
    std::set<int64_t> seen;
    for (int64_t t = 0; t < l.tp; ++t)
      for (int64_t c = 0; c < l.cp; ++c)
        for (int64_t p = 0; p < l.pp; ++p)
          for (int64_t d = 0; d < l.dp; ++d) {
            const int64_t g = global_rank(l, {t, d, p, c});
            EXPECT_GE(g, 0);
            EXPECT_LT(g, l.gpus());
            seen.insert(g);
            const RankCoord k = coord_of(l, g);
            EXPECT_EQ(k.tp, t);
            EXPECT_EQ(k.cp, c);
            EXPECT_EQ(k.pp, p);
            EXPECT_EQ(k.dp, d);
          }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), l.gpus()) << "inside " << inside;
  }
}

TEST(TrainOrder, PipelineOnNeighbouringServers) {
  // TP 8 fills an 8-GPU server, so a rank's server is rank / 8: with PP inside DP, stage s of
  // replica d sits on server d x PP + s (a pipeline on consecutive servers); PP outermost puts it
  // on server d + DP x s (stages DP servers apart).
  const TrainLayout inside = layout(8, 1, 4, 2, true), outside = layout(8, 1, 4, 2, false);
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t s = 0; s < 4; ++s) {
      EXPECT_EQ(global_rank(inside, {0, d, s, 0}) / 8, d * 4 + s);
      EXPECT_EQ(global_rank(outside, {0, d, s, 0}) / 8, d + 2 * s);
    }
}

TEST(TrainOrder, SameStepWhenOneOrderIsTheOther) {
  // With DP 1 the two orders place every rank alike, so the step must be the same to the bit.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l = layout(8, 1, 2, 1, false);
  l.global_batch = 8;
  l.seq = 8192;
  l.sequence_parallel = true;
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const TrainResult a = run_training(cluster, router, m, l, o, gpu);
  l.pp_inside_dp = true;
  const TrainResult b = run_training(cluster, router, m, l, o, gpu);
  EXPECT_EQ(a.step_time_s, b.step_time_s);
  EXPECT_GT(a.step_time_s, 0);
}

}  // namespace
}  // namespace gf
