#include "training/compute.hpp"

#include <algorithm>

namespace gf {

Efficiency default_efficiency() {
  Efficiency e;
  // Fitted: `matmul` and `memory` to the two Megatron 22B rows of the Selene table (full and
  // selective recompute, TP 8 on one DGX A100; no pipeline, no data parallelism), by least
  // squares on the relative error; every other Selene row is a check, not a fit.
  e.matmul = 0.70;
  e.memory = 0.80;
  // Not fitted: the attention core is a batched GEMM of width head_dim (128 here), which runs
  // below the large-GEMM rate; taken as the matmul factor (docs/training.md, "Limits").
  e.attention = 0.70;
  e.source = "matmul and memory fitted to the Selene 22B rows (Korthikanti et al. 2022, Table 5)";
  return e;
}

namespace {

double matmul_peak(const TrainLayout& l, const TrainingGpu& gpu) {
  return (l.dtype == "fp8" && gpu.fp8_tflops > 0 ? gpu.fp8_tflops : gpu.bf16_tflops) * 1e12;
}

}  // namespace

LayerTimes layer_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                       bool moe_layer) {
  const LayerWork w = layer_forward(m, l, moe_layer);
  const double bw = gpu.memory_gBps * 1e9 * e.memory;
  // Matmuls on the roofline: their bytes are the layer's weights plus what they read and write.
  const double weights = 2.0 * m.layer_parameters(moe_layer) / static_cast<double>(l.tp);
  const double mm = std::max(w.matmul_flops / (matmul_peak(l, gpu) * e.matmul), weights / bw);
  const double attn = w.attention_flops / (gpu.bf16_tflops * 1e12 * e.attention);
  const double elem = w.elementwise_bytes / bw;
  LayerTimes t;
  t.forward_s = mm + attn + elem;
  t.backward_s = 2 * t.forward_s;  // two matmuls (input and weight gradients) per forward one
  if (l.recompute == Recompute::Full) t.recompute_s = t.forward_s;
  if (l.recompute == Recompute::Selective) {
    // The attention core again, and (unfused) its softmax and dropout.
    const double b = static_cast<double>(l.micro_batch), s = static_cast<double>(l.seq);
    const double soft = l.attention == Attention::Unfused
                            ? 9 * b * static_cast<double>(m.heads) * s * s / static_cast<double>(l.tp)
                            : 0.0;
    t.recompute_s = attn + soft / bw;
  }
  return t;
}

LayerTimes logit_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e) {
  LayerTimes t;
  t.forward_s = logit_forward_flops(m, l) / (matmul_peak(l, gpu) * e.matmul);
  t.backward_s = 2 * t.forward_s;
  return t;
}

double optimizer_time(double params, const TrainingGpu& gpu, const Efficiency& e) {
  return params * 30.0 / (gpu.memory_gBps * 1e9 * e.memory);
}

}  // namespace gf
