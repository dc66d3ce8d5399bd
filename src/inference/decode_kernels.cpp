#include "inference/decode_kernels.hpp"

#include <utility>
#include <vector>

#include "core/error.hpp"

namespace gf {

std::string to_string(DecodeAttention a) { return a == DecodeAttention::PerHead ? "per-head" : "grouped"; }

DecodeAttention parse_decode_attention(const std::string& text, const std::string& flag) {
  if (text == "grouped") return DecodeAttention::Grouped;
  if (text == "per-head") return DecodeAttention::PerHead;
  throw InputError({}, flag, "unknown decode attention kernel '" + text + "'", suggest(text, {"grouped", "per-head"}));
}

DecodeCosts default_decode_costs() {
  DecodeCosts c;
  // From pytorch-labs/gpt-fast's README (commit 0f925b5; no serving row of validation/ is used,
  // "Benchmarks": 8 x A100-80GB power-limited to 330 W, batch 1, a 5-token prompt, torch.compile
  // with CUDA graphs). Its note: "Empirically, seems like peak bandwidth is about 1700 GB/s", i.e.
  // 1700 / 2039 = 0.834 of the A100's datasheet bandwidth for the weight-streaming kernels.
  c.hbm_share = 1700.0 / 2039.0;
  // Fitted to its Llama-2-7B row, one GPU (no communication): 104.9 tok/s at 1397.31 GB/s,
  // so 13.32 GB per token in 9.533 ms; at 1700 GB/s the bytes take 7.836 ms, leaving 1.697 ms over 32
  // layers: 53.0 us per layer that is neither bytes nor FLOPs (each layer's ~10 kernels' launch
  // gaps inside the graph, ramp-up and tail, norms, rotary, the attention kernel's fixed part).
  // Check, not used to derive it: its Llama-2-70B TP 2 / 4 / 8 rows (46.9 / 26.3 / 16.0 ms per
  // token) fall on weights / 1700 GB/s + 5.7 ms, i.e. 71 us per layer with two all-reduces.
  // Judgement: the same per-layer cost for every engine and GPU (none publishes a breakdown).
  c.layer_fixed_s = (1.0 / 104.9 - 1397.31e9 / 104.9 / 1700e9) / 32.0;
  c.source = "gpt-fast README (A100, batch 1): 1700 GB/s achievable, Llama-2-7B row's remainder over 32 layers";
  return c;
}

double cuda_core_fp32_flops(const TrainingGpu& gpu) {
  // Non-tensor FP32 peaks from the datasheets the catalog cites (training/gpu_catalog.cpp).
  static const std::vector<std::pair<const char*, double>> kTflops = {
      {"A100-SXM4-40GB", 19.5}, {"A100-SXM4-80GB", 19.5}, {"H100-SXM5-80GB", 67},
      {"H200-SXM-141GB", 67},   {"H200-NVL-141GB", 60},
  };
  for (const auto& [name, tflops] : kTflops)
    if (gpu.model == name) return tflops * 1e12;
  return 0;
}

}  // namespace gf
