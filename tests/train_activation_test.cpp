// Activation memory per layer for the model's own shape (Korthikanti et al. 2022, section 4.1,
// term by term), and the Llama 3 405B 8K layout of the Llama 3 paper (section 3.3.2) against it.
#include <gtest/gtest.h>

#include "training/memory.hpp"
#include "training/layout.hpp"
#include "training/model_shape.hpp"

namespace gf {
namespace {

TEST(TrainActivation, GptShapesGiveKorthikantisTwentyFour) {
  // Multi-head attention, GELU MLP of 4h: Q, K, V 6 + projection input 2 + MLP 8 + 8 = 24, so
  // 34 s b h / t per layer with sequence parallelism, as Table 2.
  for (const char* name : {"gpt3-175b", "megatron-530b", "megatron-1t"})
    EXPECT_DOUBLE_EQ(activation_split_coefficient(find_model(name), false), 24.0) << name;
}

TEST(TrainActivation, Llama3GroupedHeadsAndSwiGlu) {
  // Llama 3 405B: 128 query heads and 8 K/V heads of 128, h = 16,384, SwiGLU of f = 53,248 = 3.25 h:
  // Q, K, V 2 (1 + 2 x 8/128) = 2.25; projection input 2; MLP 6 x 3.25 = 19.5; 23.75 in all.
  const ModelShape m = find_model("llama3-405b");
  EXPECT_DOUBLE_EQ(activation_split_coefficient(m, false), 23.75);
  // The paper's 8K layout (TP 8, PP 16, no activation checkpointing, FSDP sharding gradients and
  // optimizer = ZeRO 2) with 8 chunks of one layer per stage (the first chunk the embedding alone,
  // the last the output layer alone; see train_uneven_test): the most loaded stage is stage 1,
  // 8 layers x 15 micro-batches in flight, times 1 + (p-1)/(p v) = 1 + 15/128 for interleaving;
  // each layer-micro-batch s b h / t (10 + 23.75) bytes.
  TrainLayout l;
  l.tp = 8;
  l.pp = 16;
  l.vpp = 8;
  l.dp = 64;
  l.first_stage_layers = l.last_stage_layers = 0;
  l.sequence_parallel = true;
  l.recompute = Recompute::None;
  l.zero = 2;
  l.micro_batch = 1;
  l.global_batch = 2048;  // 32 micro-batches per pipeline
  l.seq = 8192;
  const MemoryUse u = memory_per_gpu(m, l);
  const double sbh_t = 8192.0 * 16384.0 / 8.0;
  EXPECT_NEAR(u.activations, sbh_t * 33.75 * 8 * 15 * (1 + 15.0 / 128.0), 1.0);
  const double p = 8 * m.layer_parameters(false) / 8;  // stage 1's 8 layers over TP 8
  EXPECT_NEAR(u.weights, 2 * p, 1.0);
  EXPECT_NEAR(u.gradients, 4 * p / 64, 1.0);
  EXPECT_NEAR(u.optimizer, 12 * p / 64, 1.0);
}

}  // namespace
}  // namespace gf
