// --tp-comm-overlap-cfg: Transformer Engine's userbuffers entries as a file gives them (NVIDIA's H100
// FP8 recipes: the forward reduce-scatters by ring exchange, bulk kernels on 2-24 SMs without an
// SM margin), each cost derived by hand; the file's errors name file:line and the key.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/overlap.hpp"
#include "training/sm_contention.hpp"
#include "training/tp_overlap_cfg.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

double f(double d) { return d / (d + 208.0); }  // the efficiency table's shape factor, knee 208

// The 405B recipe's entries as Megatron-Bridge's comm_overlap.py gives them (the ones that differ
// from TE's defaults).
const char* kRecipe405b =
    "qkv_dgrad: {method: bulk, num_sm: 2, cga_size: 2, set_sm_margin: false}\n"
    "qkv_wgrad: {method: bulk, num_sm: 24, cga_size: 2, set_sm_margin: false}\n"
    "fc1_dgrad: {method: bulk, num_sm: 2, cga_size: 2, set_sm_margin: false}\n"
    "fc1_wgrad: {method: bulk, num_sm: 2, cga_size: 2, set_sm_margin: false}\n"
    "proj_fprop: {method: ring_exchange, num_sm: 1, set_sm_margin: true}\n"
    "fc2_fprop: {method: ring_exchange, num_sm: 1, set_sm_margin: 1}\n";

TrainLayout llama405_tp8_cp2() {
  TrainLayout l;
  l.tp = 8;
  l.cp = 2;
  l.seq = 8192;
  l.sequence_parallel = true;
  l.overlap_tp = true;
  return l;
}

TEST(TrainTpOverlapCfg, ParsesTheRecipeOverTeDefaults) {
  const TpOverlapCfg d = te_default_tp_overlap_cfg();
  EXPECT_EQ(d.proj_fprop.method, UbMethod::Pipeline);
  EXPECT_EQ(d.proj_fprop.num_sm, 16);
  EXPECT_TRUE(d.proj_fprop.set_sm_margin);
  EXPECT_EQ(d.qkv_fprop.method, UbMethod::RingExchange);
  EXPECT_FALSE(d.qkv_fprop.set_sm_margin);
  const TpOverlapCfg c = parse_tp_overlap_cfg_yaml(kRecipe405b, "ub.yaml");
  EXPECT_EQ(c.proj_fprop.method, UbMethod::RingExchange);
  EXPECT_EQ(c.proj_fprop.num_sm, 1);
  EXPECT_TRUE(c.fc2_fprop.set_sm_margin);  // Megatron-LM's 0/1 spelling
  EXPECT_EQ(c.qkv_wgrad.num_sm, 24);
  EXPECT_FALSE(c.qkv_wgrad.set_sm_margin);
  EXPECT_EQ(c.qkv_fprop.method, UbMethod::RingExchange);  // not given: TE's default
  EXPECT_EQ(c.source, "ub.yaml");
  // TE overrides an entry's default key by key: a method alone keeps the default's SMs.
  const TpOverlapCfg m = parse_tp_overlap_cfg_yaml("proj_fprop: {method: ring_exchange}\n", "m.yaml");
  EXPECT_EQ(m.proj_fprop.num_sm, 16);
  EXPECT_TRUE(m.proj_fprop.set_sm_margin);
}

TEST(TrainTpOverlapCfg, BadEntriesNameFileLineAndKey) {
  auto error_of = [](const std::string& text) {
    try {
      parse_tp_overlap_cfg_yaml(text, "ub.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string unknown = error_of("qkv_fprop: {method: ring_exchange}\nproj_grad: {method: bulk}\n");
  EXPECT_NE(unknown.find("ub.yaml:2"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("proj_dgrad"), std::string::npos) << unknown;  // the suggestion
  const std::string method = error_of("qkv_fprop: {method: pipeline}\n");
  EXPECT_NE(method.find("ub.yaml:1"), std::string::npos) << method;
  EXPECT_NE(method.find("qkv_fprop.method"), std::string::npos) << method;
  EXPECT_NE(method.find("ring_exchange"), std::string::npos) << method;
  const std::string splits = error_of("fc2_fprop: {method: ring_exchange, num_splits: 4}\n");
  EXPECT_NE(splits.find("num_splits"), std::string::npos) << splits;
  const std::string key = error_of("fc2_fprop: {method: pipeline, num_sms: 4}\n");
  EXPECT_NE(key.find("num_sm"), std::string::npos) << key;
  EXPECT_NE(error_of("fc2_fprop: ring_exchange\n").find("mapping"), std::string::npos);
}

TEST(TrainTpOverlapCfg, TeDefaultsAreTheStretchForm) {
  // The entry-by-entry pricing with TE's defaults is the form with one stretch S / (S - 16).
  LayerTimes t;
  t.qkv_s = 1.0e-3;
  t.proj_s = 0.8e-3;
  t.fc1_s = 4.0e-3;
  t.fc2_s = 2.0e-3;
  TpSplitGemms g;
  g.qkv_s = 1.3e-3;
  g.proj_s = 0.9e-3;
  g.fc1_s = 5.0e-3;
  g.fc2_s = 2.1e-3;
  g.proj_dgrad_s = 1.1e-3;
  g.fc2_dgrad_s = 2.6e-3;
  for (double ag : {0.2e-3, 3e-3})
    for (double rs : {0.3e-3, 5e-3}) {
      const TpExposed a = tp_overlap_exposed(ag, rs, g, t, 8, sm_stretch(16, 132));
      const TpExposed b = tp_overlap_exposed(ag, rs, g, t, 8, te_default_tp_overlap_cfg(), 132);
      EXPECT_NEAR(a.forward_s, b.forward_s, 1e-15);
      EXPECT_NEAR(a.backward_s, b.backward_s, 1e-15);
      EXPECT_NEAR(a.forward_sm_s, b.forward_sm_s, 1e-15);
      EXPECT_NEAR(a.backward_sm_s, b.backward_sm_s, 1e-15);
    }
}

TEST(TrainTpOverlapCfg, SlotCostsByHand) {
  // Bulk on 2 SMs without a margin: a 1 ms gather wholly hidden beside a 3 ms GEMM holds 2 of 132
  // SMs for 1 ms: 1 x 2/132 ms of compute later, nothing exposed.
  const UbSlot bulk2{UbMethod::Bulk, 2, false, 4};
  const UbCost b = ub_slot_cost(bulk2, 1e-3, 3e-3, 8, 132);
  EXPECT_DOUBLE_EQ(b.exposed_s, 0.0);
  EXPECT_NEAR(b.sm_s, 1e-3 * 2.0 / 132.0, 1e-18);
  // The same 4 ms beside the 3 ms GEMM: 1 ms exposed, 3 ms hidden on 2 SMs.
  const UbCost b4 = ub_slot_cost(bulk2, 4e-3, 3e-3, 8, 132);
  EXPECT_NEAR(b4.exposed_s, 1e-3, 1e-15);
  EXPECT_NEAR(b4.sm_s, 3e-3 * 2.0 / 132.0, 1e-18);
  // Ring exchange after the GEMM with a 1-SM margin: the GEMM runs on 131 SMs all along
  // (3 ms x 132/131), and of a 4 ms reduce-scatter in TP 8 chunks 4 - 7/8 x that is exposed.
  const UbSlot ring1{UbMethod::RingExchange, 1, true, 4};
  const UbCost r = ub_slot_cost(ring1, 4e-3, 3e-3, 8, 132);
  const double g = 3e-3 * 132.0 / 131.0;
  EXPECT_NEAR(r.sm_s, g - 3e-3, 1e-18);
  EXPECT_NEAR(r.exposed_s, 4e-3 - 7.0 / 8.0 * g, 1e-15);
  // Ring exchange on the copy engines, no margin: no SMs.
  EXPECT_EQ(ub_slot_cost({UbMethod::RingExchange, 1, false, 4}, 4e-3, 3e-3, 8, 132).sm_s, 0.0);
}

TEST(TrainTpOverlapCfg, RingExchangeReduceScatterSplitsTokens) {
  // Llama 3 405B at TP 8, CP 2 (4,096 tokens per rank), BF16. The projection's forward GEMM is
  // M = 4,096 tokens x N = 16,384 x K = 2,048. TE's pipelined default splits N in 4:
  // f(4096) / f(16384) of the whole = 1.0376 x; ring exchange splits M into 8 chunks of 512:
  // f(4096) / f(512) = 1.3383 x. FC2 the same (M and N as the projection's).
  const ModelShape m = find_model("llama3-405b");
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const Efficiency e = default_efficiency();
  ASSERT_DOUBLE_EQ(e.gemm_knee, 208);
  TrainLayout l = llama405_tp8_cp2();
  const LayerTimes t = layer_times(m, l, gpu, e, false);
  const TpSplitGemms piped = tp_split_gemm_times(m, l, gpu, e, false);
  l.tp_overlap_cfg = parse_tp_overlap_cfg_yaml(kRecipe405b, "ub.yaml");
  const TpSplitGemms ring = tp_split_gemm_times(m, l, gpu, e, false);
  EXPECT_NEAR(piped.proj_s / t.proj_s, f(16384) / f(4096), 1e-9);
  EXPECT_NEAR(ring.proj_s / t.proj_s, f(4096) / f(512), 1e-9);
  EXPECT_NEAR(ring.fc2_s / t.fc2_s, f(4096) / f(512), 1e-9);
  EXPECT_NEAR(f(4096) / f(512), 1.3383, 1e-4);
  EXPECT_EQ(piped.rs_reduce_s, 0.0);
  // reduce_bf16 after each: the 8 received chunks of 512 x 16,384 16-bit values read (134.2 MB),
  // one written (16.8 MB), at 3,350 GB/s x 0.90 (H100's HBM3, the table's memory factor): 50.1 us
  // each, two per layer (projection and FC2).
  const double bytes = 4096.0 * 16384 * 2 + 512.0 * 16384 * 2;
  ASSERT_DOUBLE_EQ(gpu.memory_gBps, 3350);
  EXPECT_NEAR(ring.rs_reduce_s, 2 * bytes / (3350e9 * 0.90), 1e-15);
  EXPECT_NEAR(ring.rs_reduce_s, 100.2e-6, 0.1e-6);
  // The rest stays as TE's defaults split them.
  EXPECT_DOUBLE_EQ(ring.qkv_s, piped.qkv_s);
  EXPECT_DOUBLE_EQ(ring.fc2_dgrad_s, piped.fc2_dgrad_s);
}

TEST(TrainTpOverlapCfg, StepChargesTheRecipesForwardGemms) {
  // llama3-8b at TP 8 on one DGX H100 (PP 1), 4 micro-batches of 8,192 tokens: with the recipe's
  // entries each layer and micro-batch's forward carries the ring-exchange projection and FC2
  // (1,024-row chunks against the pipelined 4 splits of N) and their two reduces, the backward
  // is unchanged (its split GEMMs are ring exchange either way).
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l = llama405_tp8_cp2();
  l.cp = 1;
  l.global_batch = 4;
  const TrainResult te = run_training(cluster, router, m, l, o, gpu);
  const TpSplitGemms a = tp_split_gemm_times(m, l, gpu, o.efficiency, false);
  l.tp_overlap_cfg = parse_tp_overlap_cfg_yaml(kRecipe405b, "ub.yaml");
  const TrainResult recipe = run_training(cluster, router, m, l, o, gpu);
  const TpSplitGemms b = tp_split_gemm_times(m, l, gpu, o.efficiency, false);
  const double per = 32.0 * 4.0;  // layers x micro-batches
  const double extra = (b.proj_s - a.proj_s) + (b.fc2_s - a.fc2_s) + b.rs_reduce_s;
  ASSERT_GT(extra, 0);
  EXPECT_NEAR(recipe.breakdown.forward_s - te.breakdown.forward_s, per * extra, 1e-9 * recipe.step_time_s);
  EXPECT_NEAR(recipe.breakdown.backward_s, te.breakdown.backward_s, 1e-9 * recipe.step_time_s);
}

}  // namespace
}  // namespace gf
