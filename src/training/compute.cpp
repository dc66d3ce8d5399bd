#include "training/compute.hpp"

#include <algorithm>
#include <vector>

namespace gf {

Efficiency default_efficiency() {
  Efficiency e;
  // Fitted: `matmul` and `gemm_knee` to the two Megatron 22B rows of the Selene table (full and
  // selective recompute, TP 8 on one DGX A100; no pipeline, no data parallelism), on a grid
  // (matmul by 0.01, knee by 16) minimising the sum of squared relative errors (+0.8 %, -0.1 %).
  // Two rows cannot pin two factors alone (a ridge runs to matmul = 0.99), so matmul is held at
  // or below 0.88: our judgement of the share of the A100's 312 TFLOP/s large BF16 GEMMs reach,
  // not a measurement. Every other Selene row is a check, not a fit (docs/training.md).
  e.matmul = 0.87;
  e.gemm_knee = 208;
  // Not fitted: streaming kernels reach about 90 % of HBM bandwidth (our judgement).
  e.memory = 0.90;
  // Not fitted: the attention core's batched GEMMs share the matmul factor; their thin dimension
  // (head_dim) is what the knee penalises.
  e.attention = e.matmul;
  e.source = "matmul and gemm_knee fitted to the Selene 22B rows (Korthikanti et al. 2022, Table 5)";
  return e;
}

namespace {

struct Gemm {
  double m, n, k, count;  // count: how many of this shape (batched GEMMs)
};

double shape(const Efficiency& e, const Gemm& g) {
  if (e.gemm_knee <= 0) return 1.0;
  auto f = [&](double d) { return d / (d + e.gemm_knee); };
  return f(g.m) * f(g.n) * f(g.k);
}

// A layer's forward GEMMs on one GPU (Megatron's TP split: column-parallel QKV and MLP up,
// row-parallel output projection and MLP down). The backward's two GEMMs per forward one have the
// same three dimensions, permuted.
std::vector<Gemm> layer_gemms(const ModelShape& m, const TrainLayout& l, bool moe_layer) {
  // Context parallelism: each rank runs s / CP of the tokens through every GEMM.
  const double t = static_cast<double>(l.tp),
               tokens = static_cast<double>(l.micro_batch * l.seq) / static_cast<double>(l.cp);
  const double h = static_cast<double>(m.hidden), qd = static_cast<double>(m.heads * m.head_dim);
  const double kvd = static_cast<double>(m.kv_heads * m.head_dim);
  std::vector<Gemm> g = {{tokens, (qd + 2 * kvd) / t, h, 1}, {tokens, h, qd / t, 1}};
  const double up = m.gated_mlp ? 2.0 : 1.0;
  if (moe_layer) {
    const double experts = static_cast<double>(m.experts), f = static_cast<double>(m.moe_ffn);
    const double per_expert = std::max(1.0, tokens * static_cast<double>(m.top_k) / experts);
    g.push_back({per_expert, up * f / t, h, experts});
    g.push_back({per_expert, h, f / t, experts});
    if (m.shared_experts > 0) {
      const double shared = static_cast<double>(m.shared_experts);
      g.push_back({tokens, up * f / t, h, shared});
      g.push_back({tokens, h, f / t, shared});
    }
  } else {
    const double f = static_cast<double>(m.ffn);
    g.push_back({tokens, up * f / t, h, 1});
    g.push_back({tokens, h, f / t, 1});
  }
  return g;
}

double gemm_time(const std::vector<Gemm>& gs, double peak, const Efficiency& e, double rate) {
  double s = 0;
  for (const Gemm& g : gs) s += 2 * g.m * g.n * g.k * g.count / (peak * rate * shape(e, g));
  return s;
}

double matmul_peak(const TrainLayout& l, const TrainingGpu& gpu) {
  return (l.dtype == "fp8" && gpu.fp8_tflops > 0 ? gpu.fp8_tflops : gpu.bf16_tflops) * 1e12;
}

}  // namespace

double gemm_weight_bytes_per_parameter(const TrainLayout& l) { return l.dtype == "fp8" ? 1.0 : 2.0; }

double layer_weight_bytes(const ModelShape& m, const TrainLayout& l, bool moe_layer) {
  // The GEMMs' weight matrices (N x K each, per GPU after the TP split) at the GEMM's operand
  // width; the rest of the layer's parameters (norm gains, biases, the router) stay 16-bit.
  double gemm = 0;
  for (const Gemm& g : layer_gemms(m, l, moe_layer)) gemm += g.n * g.k * g.count;
  const double all = m.layer_parameters(moe_layer) / static_cast<double>(l.tp);
  return gemm_weight_bytes_per_parameter(l) * gemm + 2.0 * (all - gemm);
}

LayerTimes layer_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                       bool moe_layer) {
  const LayerWork w = layer_forward(m, l, moe_layer);
  const double bw = gpu.memory_gBps * 1e9 * e.memory;
  // Matmuls on the roofline: at least the layer's weights read from HBM once.
  const std::vector<Gemm> gemms = layer_gemms(m, l, moe_layer);
  const double weights = layer_weight_bytes(m, l, moe_layer);
  const double mm = std::max(gemm_time(gemms, matmul_peak(l, gpu), e, e.matmul), weights / bw);
  // The attention core: per (sequence, head) a scores GEMM s x s x d and a weighted sum s x d x s.
  // With CP a rank's s / CP queries meet the sequence's K/V one ring step at a time: CP blocks of
  // s/CP x s/CP x d each (the same FLOPs as s/CP x s x d).
  const double c = static_cast<double>(l.cp);
  const double s = static_cast<double>(l.seq) / c, d = static_cast<double>(m.head_dim);
  const double batch = static_cast<double>(l.micro_batch * m.heads) / static_cast<double>(l.tp) * c;
  const double attn = w.attention_flops > 0
                          ? gemm_time({{s, s, d, batch}, {s, d, s, batch}}, gpu.bf16_tflops * 1e12, e, e.attention)
                          : 0.0;
  const double elem = w.elementwise_bytes / bw;
  LayerTimes t;
  t.forward_s = mm + attn + elem;
  t.attention_s = attn;
  {
    const double peak = matmul_peak(l, gpu);
    auto one = [&](size_t i) { return i < gemms.size() ? gemm_time({gemms[i]}, peak, e, e.matmul) : 0.0; };
    t.qkv_s = one(0);
    t.proj_s = one(1);
    t.fc1_s = one(2) + (gemms.size() > 4 ? one(4) : 0.0);  // routed and shared experts' up
    t.fc2_s = one(3) + (gemms.size() > 4 ? one(5) : 0.0);
  }
  t.backward_s = 2 * t.forward_s;  // two matmuls (input and weight gradients) per forward one
  if (l.recompute == Recompute::Full) t.recompute_s = t.forward_s;
  if (l.recompute == Recompute::Selective) {
    // The attention core again, and (unfused) its softmax and dropout.
    const double b = static_cast<double>(l.micro_batch);
    const double soft = l.attention == Attention::Unfused
                            ? 9 * b * static_cast<double>(m.heads) * s * s * c / static_cast<double>(l.tp)
                            : 0.0;
    t.recompute_s = attn + soft / bw;
  }
  return t;
}

TpSplitGemms tp_split_gemm_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu,
                                 const Efficiency& e, bool moe_layer) {
  const std::vector<Gemm> g = layer_gemms(m, l, moe_layer);
  const double peak = matmul_peak(l, gpu), bw = gpu.memory_gBps * 1e9 * e.memory;
  const double wb = gemm_weight_bytes_per_parameter(l);
  // `chunks` GEMMs of one chunk's shape, each at least its weight operand read from HBM.
  auto run = [&](const Gemm& chunk, double chunks) {
    const double one = gemm_time({chunk}, peak, e, e.matmul), weights = wb * chunk.n * chunk.k;
    return chunks * std::max(one, weights / bw);
  };
  const double tp = static_cast<double>(l.tp);
  // Ring exchange: tokens / TP rows per chunk. Pipelined: output features / num_splits per chunk.
  auto ring = [&](const Gemm& x) { return run({x.m / tp, x.n, x.k, x.count}, tp); };
  auto after = [&](const Gemm& x, const UbSlot& s) {
    if (s.method == UbMethod::RingExchange) return ring(x);
    const double splits = static_cast<double>(std::max<int64_t>(1, s.num_splits));
    return run({x.m, x.n / splits, x.k, x.count}, splits);
  };
  auto whole = [&](const Gemm& x) { return gemm_time({x}, peak, e, e.matmul); };
  // split_overlap_rs's reduce_bf16 over one output of `x`: TP chunks read, one written, 2 B each.
  auto reduce = [&](const Gemm& x, const UbSlot& s) {
    return s.method == UbMethod::RingExchange ? (x.m * x.n * 2.0 + x.m / tp * x.n * 2.0) * x.count / bw : 0.0;
  };
  const TpOverlapCfg& c = l.tp_overlap_cfg;
  TpSplitGemms s;
  s.qkv_s = ring(g[0]);
  s.proj_s = after(g[1], c.proj_fprop);
  s.rs_reduce_s = reduce(g[1], c.proj_fprop);
  s.proj_dgrad_s = ring(g[1]);
  if (moe_layer) {  // experts (and shared experts) unsplit, as layer_times times them
    s.fc1_s = whole(g[2]) + (g.size() > 4 ? whole(g[4]) : 0.0);
    s.fc2_s = whole(g[3]) + (g.size() > 4 ? whole(g[5]) : 0.0);
    s.fc2_dgrad_s = s.fc2_s;
  } else {
    s.fc1_s = ring(g[2]);
    s.fc2_s = after(g[3], c.fc2_fprop);
    s.rs_reduce_s += reduce(g[3], c.fc2_fprop);
    s.fc2_dgrad_s = ring(g[3]);
  }
  return s;
}

LayerTimes logit_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e) {
  LayerTimes t;
  const double tokens = static_cast<double>(l.micro_batch * l.seq) / static_cast<double>(l.cp);
  t.forward_s =
      gemm_time({{tokens, static_cast<double>(m.vocab) / static_cast<double>(l.tp), static_cast<double>(m.hidden), 1}},
                matmul_peak(l, gpu), e, e.matmul);
  t.backward_s = 2 * t.forward_s;
  return t;
}

double optimizer_time(double params, const TrainingGpu& gpu, const Efficiency& e) {
  return params * 30.0 / (gpu.memory_gBps * 1e9 * e.memory);
}

}  // namespace gf
