// The serving instance's KV cache and weights per GPU against hand arithmetic, and the memory fit.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "inference/infer_step.hpp"
#include "inference/kv_cache.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

InferLayout tp(int64_t t) {
  InferLayout l;
  l.tp = t;
  l.prompt = 2048;
  l.output = 256;
  return l;
}

TEST(InferKv, GroupedQueryAttentionCachesKvHeadsNotHeads) {
  // Llama 3 70B: 80 layers, 8 key/value heads of 128, bf16: 80 x 2 x 8 x 128 x 2 B = 327,680 B
  // (320 KiB) per token; 2,304 tokens per request: 754,974,720 B (720 MiB). At TP 8 each GPU holds
  // one K/V head: 40 KiB per token.
  const ModelShape m = find_model("llama3-70b");
  const ServingMemory s = serving_memory(m, tp(8), 0);
  EXPECT_DOUBLE_EQ(s.kv_per_token, 327680.0);
  EXPECT_DOUBLE_EQ(s.kv_per_request, 754974720.0);
  EXPECT_DOUBLE_EQ(s.kv_per_token_gpu, 40960.0);
  // TP 16 exceeds the 8 K/V heads: each GPU keeps one (replicated), still 40 KiB per token.
  EXPECT_DOUBLE_EQ(serving_memory(m, tp(16), 0).kv_per_token_gpu, 40960.0);
  // fp8 halves it.
  InferLayout f = tp(8);
  f.dtype = "fp8";
  EXPECT_DOUBLE_EQ(serving_memory(m, f, 0).kv_per_token_gpu, 20480.0);
}

TEST(InferKv, LatentAttentionCachesTheLatent) {
  // DeepSeek-V3 caches d_c + d_h^R = 512 + 64 = 576 elements per token per layer, 61 layers, and
  // every TP rank holds the whole latent: fp8, 61 x 576 = 35,136 B per token on each GPU.
  const ModelShape m = find_model("deepseek-v3");
  bool latent = false;
  EXPECT_EQ(kv_elements_per_token_layer(m, &latent), 576);
  EXPECT_TRUE(latent);
  InferLayout l = tp(4);
  l.dtype = "fp8";
  EXPECT_DOUBLE_EQ(serving_memory(m, l, 0).kv_per_token_gpu, 35136.0);
}

TEST(InferKv, WeightsPerGpuSplitOverTp) {
  // Llama 3 8B at TP 1, bf16: per layer attention 4096 x 4096 x 2 + 2 x 4096 x 1024 + 2 x 4096
  // (norms) = 41,951,232 and MLP 3 x 4096 x 14336 = 176,160,768, so 218,112,000 x 32 layers =
  // 6,979,584,000; plus embedding and output layer 2 x 128,256 x 4096 = 1,050,673,152:
  // 8,030,257,152 parameters x 2 B = 16,060,514,304 B. TP 2 holds half.
  const ModelShape m = find_model("llama3-8b");
  EXPECT_DOUBLE_EQ(serving_memory(m, tp(1), 0).weights, 16060514304.0);
  EXPECT_DOUBLE_EQ(serving_memory(m, tp(2), 0).weights, 16060514304.0 / 2);
}

TEST(InferKv, ExpertsSpreadWholeOverEp) {
  // Mixtral 8x7B at TP 1, EP 4: each GPU holds ceil(8 / 4) = 2 whole experts of 3 x 4096 x 14336.
  const ModelShape m = find_model("mixtral-8x7b");
  InferLayout l = tp(1);
  l.ep = 4;
  const LayerParams p = layer_params_gpu(m, l, true);
  EXPECT_DOUBLE_EQ(p.expert, 3.0 * 4096 * 14336);
  EXPECT_DOUBLE_EQ(p.experts_held, 2.0);
  EXPECT_EQ(l.attention_dp(), 4);
  EXPECT_EQ(l.gpus(), 4);
}

TEST(InferKv, AModelThatDoesNotFitIsAnErrorWithItsArithmetic) {
  // Llama 3 70B in bf16 on one H100: about 70.6e9 x 2 B = 131 GiB of weights > 80 GiB.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  const Router r(c);
  const ModelShape m = find_model("llama3-70b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  try {
    run_inference(c, r, m, tp(1), {}, g);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("does not fit"), std::string::npos) << w;
    EXPECT_NE(w.find("GiB of bf16 weights"), std::string::npos) << w;
    EXPECT_NE(w.find("holds 80.0 GiB"), std::string::npos) << w;
  }
}

}  // namespace
}  // namespace gf
