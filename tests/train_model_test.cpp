// Model shapes, FLOP counts and memory of training/ checked against closed forms worked by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "training/flops.hpp"
#include "training/gpu_catalog.hpp"
#include "training/layout.hpp"
#include "training/memory.hpp"
#include "training/model_shape.hpp"

namespace gf {
namespace {

TEST(TrainModel, PresetsAreFoundByNameAndCiteASource) {
  for (const ModelShape& m : model_presets()) {
    EXPECT_FALSE(m.source.empty()) << m.name;
    EXPECT_EQ(find_model(m.name).hidden, m.hidden);
  }
  EXPECT_EQ(find_model("LLAMA3-70B").layers, 80);
}

TEST(TrainModel, UnknownModelNamesTheFlagAndSuggests) {
  try {
    find_model("llama3-70");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--model");
    EXPECT_NE(e.hint().find("llama3-70b"), std::string::npos);
  }
}

TEST(TrainModel, ParameterCountsMatchThePublishedSizes) {
  // GPT-3 175B: 12 l h^2 (1 + 13/12h) + V h = 12 x 96 x 12288^2 x 1.00009 + 51200 x 12288 = 174.6e9.
  EXPECT_NEAR(find_model("gpt3-175b").parameters() / 1e9, 174.6, 0.2);
  // Llama 3 70B: per layer Q and O 2 h^2 + K and V 2 x h x 1024 = 151.0M, SwiGLU 3 x 8192 x 28672 =
  // 704.6M: 855.6M x 80 = 68.45e9, + untied embedding and output 2 x 128256 x 8192 = 2.10e9:
  // 70.55e9 (Meta quotes 70.6B).
  EXPECT_NEAR(find_model("llama3-70b").parameters(false) / 1e9, 68.45 + 2.10, 0.02);
  // Llama 3 405B: 126 x (2 x 16384^2 + 2 x 16384 x 1024 + 3 x 16384 x 53248) = 401.65e9, + 2 x
  // 128256 x 16384 = 4.20e9: 405.85e9.
  EXPECT_NEAR(find_model("llama3-405b").parameters(false) / 1e9, 401.65 + 4.20, 0.02);
  // Mixtral 8x7B: 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 8 x 3 x 4096 x 14336 + 8 x 4096 router) =
  // 46.44e9, + untied embedding and output 2 x 32000 x 4096 = 0.26e9: 46.70e9 (Mistral quotes 46.7B).
  EXPECT_NEAR(find_model("mixtral-8x7b").parameters(false) / 1e9, 46.7, 0.1);
}

TEST(TrainModel, YamlMinimalFormFillsDefaults) {
  const ModelShape m = parse_model_yaml("name: tiny\nhidden: 1024\nlayers: 4\nheads: 16\nvocab: 32000\n", "tiny.yaml");
  EXPECT_EQ(m.kv_heads, 16);
  EXPECT_EQ(m.ffn, 4096);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_FALSE(m.gated_mlp);
}

TEST(TrainModel, YamlErrorsNameFileLineAndKey) {
  try {
    parse_model_yaml("name: x\nhidden: 1024\nlayers: 4\nheads: 16\nvocab: 100\nkv_heads: 5\n", "m.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "m.yaml");
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.key(), "kv_heads");
  }
  EXPECT_THROW(parse_model_yaml("name: x\nhidden: 1024\nlayers: 4\nheads: 16\n", "m.yaml"), InputError);
  EXPECT_THROW(parse_model_yaml("name: x\nhidden: 1024\nlayers: 4\nheads: 16\nvocab: 9\nhiden: 3\n", "m.yaml"),
               InputError);
}

TEST(TrainModel, StepFlopsMatchKorthikantiClosedForm) {
  // Model FLOPs of a step: 72 B s l h^2 (1 + s/6h + V/12lh) (Korthikanti et al. 2022, section 6.3).
  const ModelShape m = find_model("megatron-22b");
  TrainLayout l;
  l.tp = 8;
  l.global_batch = 4;
  l.micro_batch = 4;
  l.seq = 2048;
  const double B = 4, s = 2048, L = 48, h = 6144, V = 51200;
  const double closed = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h));
  EXPECT_NEAR(step_flops(m, l).model / closed, 1.0, 1e-12);
  // Full recompute repeats the forward of every layer: hardware = model + 24 B s l h^2 (1 + s/6h).
  l.recompute = Recompute::Full;
  const double extra = 24 * B * s * L * h * h * (1 + s / (6 * h));
  EXPECT_NEAR(step_flops(m, l).hardware / (closed + extra), 1.0, 1e-12);
  // Selective recompute repeats the attention core only: 4 B s^2 h per layer.
  l.recompute = Recompute::Selective;
  EXPECT_NEAR(step_flops(m, l).hardware / (closed + 4 * B * s * s * h * L), 1.0, 1e-12);
}

TEST(TrainModel, LayerFlopsSplitOverTensorParallelism) {
  // One GPT layer's forward per micro-batch: 24 b s h^2 in matmuls, 4 b s^2 h in attention, / TP.
  const ModelShape m = find_model("gpt3-175b");
  TrainLayout l;
  l.tp = 8;
  l.micro_batch = 1;
  l.seq = 2048;
  const double h = 12288, s = 2048;
  const LayerWork w = layer_forward(m, l, false);
  EXPECT_NEAR(w.matmul_flops, 24 * s * h * h / 8, 1);
  EXPECT_NEAR(w.attention_flops, 4 * s * s * h / 8, 1);
}

TEST(TrainModel, GroupedQueryAndGatedMlpFlops) {
  // Llama 3 8B, one token: QKV 2h(h + 2 x 1024) + O 2h^2 + SwiGLU 6 h f.
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l;
  l.seq = 1;
  const double h = 4096, f = 14336;
  EXPECT_NEAR(layer_forward(m, l, false).matmul_flops, 2 * h * (h + 2048) + 2 * h * h + 6 * h * f, 1);
}

TEST(TrainModel, ActivationMemoryFollowsKorthikantiTable2) {
  // 22B, TP 8, s 2048, b 4: per layer s b h (10 + 24/t + 5 a s/(h t)) without sequence parallelism;
  // 48 layers, PP 1. Unfused attention stores the scores.
  const ModelShape m = find_model("megatron-22b");
  TrainLayout l;
  l.tp = 8;
  l.micro_batch = 4;
  l.global_batch = 4;
  l.seq = 2048;
  l.attention = Attention::Unfused;
  const double s = 2048, b = 4, h = 6144, a = 64, t = 8;
  EXPECT_NEAR(memory_per_gpu(m, l).activations, 48 * s * b * h * (10 + 24 / t + 5 * a * s / (h * t)), 1);
  l.sequence_parallel = true;
  l.recompute = Recompute::Selective;
  EXPECT_NEAR(memory_per_gpu(m, l).activations, 48 * s * b * h / t * 34, 1);
  l.recompute = Recompute::Full;
  EXPECT_NEAR(memory_per_gpu(m, l).activations, 48 * 2 * s * b * h / t, 1);
  // 18 bytes of weights, gradients and optimizer per parameter, sharded by ZeRO.
  const MemoryUse u = memory_per_gpu(m, l);
  EXPECT_NEAR((u.weights + u.gradients + u.optimizer) / (m.parameters() / 8), 18, 0.01);
}

TEST(TrainModel, GpuCatalogKnowsTheClusterGpusAndExplainsUnknownOnes) {
  const auto h100 = find_training_gpu("H100-SXM5-80GB");
  ASSERT_TRUE(h100);
  EXPECT_EQ(h100->bf16_tflops, 989);  // datasheet, dense
  EXPECT_EQ(h100->fp8_tflops, 1979);
  for (const char* g :
       {"A40-48GB", "L40S-48GB", "H20-96GB", "H200-NVL-141GB", "B300-SXM6-288GB", "GB300", "MI325X-256GB"})
    EXPECT_TRUE(find_training_gpu(g)) << g;
  GpuSpec unknown{"X1", "hopper", Bandwidth::gBps(1000), 0, ""};
  try {
    training_gpu_for(unknown);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.hint().find("gpu: {model:"), std::string::npos);
  }
}

}  // namespace
}  // namespace gf
