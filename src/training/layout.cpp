#include "training/layout.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace gf {

namespace {

std::string divisors_text(int64_t n, int64_t limit = 1 << 30) {
  std::string s;
  int shown = 0;
  for (int64_t d = 1; d <= n && d <= limit; ++d)
    if (n % d == 0) {
      if (shown++ == 12) return s + ", ...";
      s += (s.empty() ? "" : ", ") + std::to_string(d);
    }
  return s;
}

void positive(int64_t v, const char* flag) {
  if (v < 1)
    throw InputError({}, flag, std::string("must be at least 1, got ") + std::to_string(v),
                     "e.g. " + std::string(flag) + " 1");
}

}  // namespace

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::None:
      return "none";
    case Recompute::Selective:
      return "selective";
    case Recompute::Full:
      return "full";
  }
  return "?";
}

const char* to_string(Attention a) { return a == Attention::Flash ? "flash" : "unfused"; }

void check_layout(const TrainLayout& l, const ModelShape& m, int64_t cluster_gpus) {
  positive(l.tp, "--tp");
  positive(l.pp, "--pp");
  positive(l.dp, "--dp");
  positive(l.vpp, "--vpp");
  positive(l.ep, "--ep");
  positive(l.micro_batch, "--micro-batch");
  positive(l.global_batch, "--global-batch");
  positive(l.seq, "--seq");
  if (l.gpus() > cluster_gpus)
    throw InputError(
        {}, "--dp",
        "TP x PP x DP = " + std::to_string(l.tp) + " x " + std::to_string(l.pp) + " x " + std::to_string(l.dp) + " = " +
            std::to_string(l.gpus()) + " GPUs, but the cluster has " + std::to_string(cluster_gpus),
        "use a layout of at most " + std::to_string(cluster_gpus) + " GPUs, or a larger cluster (--nodes)");
  if (m.heads % l.tp != 0)
    throw InputError({}, "--tp",
                     "TP " + std::to_string(l.tp) + " does not divide the " + std::to_string(m.heads) +
                         " attention heads of " + m.name,
                     "use one of: " + divisors_text(m.heads, 64));
  if (m.kv_heads % l.tp != 0)
    throw InputError({}, "--tp",
                     "TP " + std::to_string(l.tp) + " does not divide the " + std::to_string(m.kv_heads) +
                         " key/value heads of " + m.name,
                     "use one of: " + divisors_text(m.kv_heads, 64) + " (Megatron splits whole K/V groups over TP)");
  if (m.layers % (l.pp * l.vpp) != 0)
    throw InputError({}, l.vpp > 1 ? "--vpp" : "--pp",
                     "PP x VPP = " + std::to_string(l.pp * l.vpp) + " does not divide the " + std::to_string(m.layers) +
                         " layers of " + m.name,
                     "use PP x VPP among: " + divisors_text(m.layers));
  if (l.global_batch % (l.micro_batch * l.dp) != 0)
    throw InputError({}, "--global-batch",
                     "global batch " + std::to_string(l.global_batch) +
                         " is not a multiple of micro-batch x DP = " + std::to_string(l.micro_batch * l.dp),
                     "use a multiple of " + std::to_string(l.micro_batch * l.dp));
  if (l.vpp > 1 && l.pp == 1)
    throw InputError({}, "--vpp", "interleaving (VPP " + std::to_string(l.vpp) + ") needs pipeline parallelism",
                     "use --pp 2 or more, or --vpp 1");
  if (l.vpp > 1 && l.microbatches() % l.pp != 0)
    throw InputError(
        {}, "--vpp",
        "the interleaved schedule needs micro-batches (" + std::to_string(l.microbatches()) +
            ") to be a multiple of PP (" + std::to_string(l.pp) + ")",
        "choose --global-batch a multiple of micro-batch x DP x PP = " + std::to_string(l.micro_batch * l.dp * l.pp));
  if (l.ep > 1 && !m.moe())
    throw InputError({}, "--ep", m.name + " has no experts: expert parallelism needs a mixture-of-experts model",
                     "use --ep 1, or a MoE model such as mixtral-8x7b or deepseek-v3 (gpufabric list models)");
  if (l.ep > 1 && m.experts % l.ep != 0)
    throw InputError({}, "--ep",
                     "EP " + std::to_string(l.ep) + " does not divide the " + std::to_string(m.experts) +
                         " experts of " + m.name,
                     "use one of: " + divisors_text(m.experts));
  if (l.dp % l.ep != 0)
    throw InputError({}, "--ep",
                     "EP " + std::to_string(l.ep) + " does not divide DP " + std::to_string(l.dp) +
                         " (expert-parallel groups are formed inside data parallelism)",
                     "use --dp a multiple of --ep, or an EP among: " + divisors_text(l.dp));
  if (l.zero < 0 || l.zero > 3)
    throw InputError({}, "--zero", "unknown ZeRO stage " + std::to_string(l.zero), "use 0, 1, 2 or 3");
  if (l.dtype != "bf16" && l.dtype != "fp8")
    throw InputError({}, "--dtype", "unknown data type '" + l.dtype + "'", "use bf16 or fp8");
}

int64_t global_rank(const TrainLayout& l, RankCoord c) { return c.tp + l.tp * (c.dp + l.dp * c.pp); }

RankCoord coord_of(const TrainLayout& l, int64_t rank) {
  RankCoord c;
  c.tp = rank % l.tp;
  c.dp = (rank / l.tp) % l.dp;
  c.pp = rank / (l.tp * l.dp);
  return c;
}

std::vector<int64_t> tp_group(const TrainLayout& l, int64_t dp, int64_t pp) {
  std::vector<int64_t> g;
  for (int64_t t = 0; t < l.tp; ++t) g.push_back(global_rank(l, {t, dp, pp}));
  return g;
}

std::vector<int64_t> dp_group(const TrainLayout& l, int64_t tp, int64_t pp) {
  std::vector<int64_t> g;
  for (int64_t d = 0; d < l.dp; ++d) g.push_back(global_rank(l, {tp, d, pp}));
  return g;
}

std::vector<int64_t> ep_group(const TrainLayout& l, int64_t tp, int64_t dp, int64_t pp) {
  std::vector<int64_t> g;
  const int64_t first = dp / l.ep * l.ep;
  for (int64_t e = 0; e < l.ep; ++e) g.push_back(global_rank(l, {tp, first + e, pp}));
  return g;
}

}  // namespace gf

namespace gf {

double parse_quantity(const std::string& text, const std::string& flag) {
  std::string s = text;
  double scale = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'k':
      case 'K':
        scale = 1e3;
        break;
      case 'm':
      case 'M':
        scale = 1e6;
        break;
      case 'b':
      case 'B':
      case 'g':
      case 'G':
        scale = 1e9;
        break;
      case 't':
      case 'T':
        scale = 1e12;
        break;
      case 'p':
      case 'P':
        scale = 1e15;
        break;
      default:
        break;
    }
    if (scale != 1) s.pop_back();
  }
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v > 0) || v * scale > 1e40)
    throw InputError({}, flag, "expected a positive count, got '" + text + "'",
                     "e.g. " + flag + " 15T (suffixes K, M, B, T, P) or 1e24");
  return v * scale;
}

}  // namespace gf
