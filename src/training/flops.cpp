#include "training/flops.hpp"

namespace gf {

namespace {

// Whole-layer forward FLOPs on the global batch (no parallelism), split by class.
LayerWork layer_total(const ModelShape& m, double b, double s, bool moe_layer) {
  const double h = static_cast<double>(m.hidden);
  const double qd = static_cast<double>(m.heads * m.head_dim), kvd = static_cast<double>(m.kv_heads * m.head_dim);
  const double mats = m.gated_mlp ? 3.0 : 2.0;
  LayerWork w;
  w.matmul_flops = 2 * b * s * h * (qd + 2 * kvd) + 2 * b * s * qd * h;
  if (moe_layer) {
    const double active = static_cast<double>(m.top_k + m.shared_experts);
    w.matmul_flops +=
        2 * mats * b * s * h * static_cast<double>(m.moe_ffn) * active + 2 * b * s * h * static_cast<double>(m.experts);
  } else {
    w.matmul_flops += 2 * mats * b * s * h * static_cast<double>(m.ffn);
  }
  w.attention_flops = 4 * b * s * s * qd;
  return w;
}

}  // namespace

LayerWork layer_forward(const ModelShape& m, const TrainLayout& l, bool moe_layer) {
  const double b = static_cast<double>(l.micro_batch), s = static_cast<double>(l.seq);
  const double t = static_cast<double>(l.tp);
  LayerWork w = layer_total(m, b, s, moe_layer);
  w.matmul_flops /= t;
  w.attention_flops /= t;
  // Element-wise traffic, 2-byte activations, per layer forward (read + write of each tensor):
  //  - two norms (read bsh, write bsh) and two bias-dropout-residual adds (read 2 bsh, write bsh,
  //    1-byte mask): 2 x 4 + 2 x 7 = 22 bsh bytes, replicated on every TP rank unless sequence
  //    parallelism splits them;
  //  - the MLP activation (GELU: read f, write f; SwiGLU: read 2f, write f) on bsf/TP elements;
  //  - unfused attention only: softmax (read + write) and its dropout (read, write, mask) on the
  //    b a s^2 scores: 9 b a s^2 / TP bytes. A flash-attention kernel keeps them on chip.
  const double h = static_cast<double>(m.hidden);
  const double ffn =
      moe_layer ? static_cast<double>(m.moe_ffn * (m.top_k + m.shared_experts)) : static_cast<double>(m.ffn);
  const double shared = 22 * b * s * h / (l.sequence_parallel ? t : 1.0);
  const double act = (m.gated_mlp ? 6.0 : 4.0) * b * s * ffn / t;
  const double soft = l.attention == Attention::Unfused ? 9 * b * static_cast<double>(m.heads) * s * s / t : 0.0;
  w.elementwise_bytes = shared + act + soft;
  if (l.cp > 1) {
    // Context parallelism: each rank holds s / CP of the tokens (every matmul and element-wise op
    // shrinks by CP) and its queries meet all s keys (the attention core shrinks by CP as well).
    const double c = static_cast<double>(l.cp);
    w.matmul_flops /= c;
    w.attention_flops /= c;
    w.elementwise_bytes /= c;
  }
  return w;
}

double logit_forward_flops(const ModelShape& m, const TrainLayout& l) {
  return 2.0 * static_cast<double>(l.micro_batch) * static_cast<double>(l.seq) * static_cast<double>(m.hidden) *
         static_cast<double>(m.vocab) / static_cast<double>(l.tp) / static_cast<double>(l.cp);
}

StepFlops step_flops(const ModelShape& m, const TrainLayout& l) {
  const double B = static_cast<double>(l.global_batch), s = static_cast<double>(l.seq);
  double fwd = 0, recompute = 0;
  for (int64_t i = 0; i < m.layers; ++i) {
    const LayerWork w = layer_total(m, B, s, m.moe() && i >= m.dense_layers);
    fwd += w.matmul_flops + w.attention_flops;
    if (l.recompute == Recompute::Full) recompute += w.matmul_flops + w.attention_flops;
    if (l.recompute == Recompute::Selective) recompute += w.attention_flops;
  }
  fwd += 2 * B * s * static_cast<double>(m.hidden) * static_cast<double>(m.vocab);
  StepFlops f;
  f.model = 3 * fwd;
  f.hardware = f.model + recompute;
  return f;
}

}  // namespace gf
