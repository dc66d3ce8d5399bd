#include "training/layout.hpp"

#include <algorithm>
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
const char* to_string(CpComm c) { return c == CpComm::Ring ? "ring" : "all-gather"; }

void check_layout(const TrainLayout& l, const ModelShape& m, int64_t cluster_gpus) {
  positive(l.tp, "--tp");
  positive(l.pp, "--pp");
  positive(l.dp, "--dp");
  positive(l.vpp, "--vpp");
  positive(l.ep, "--ep");
  positive(l.cp, "--cp");
  positive(l.micro_batch, "--micro-batch");
  positive(l.global_batch, "--global-batch");
  positive(l.seq, "--seq");
  if (l.gpus() > cluster_gpus)
    throw InputError(
        {}, "--dp",
        (l.cp > 1 ? "TP x CP x PP x DP = " + std::to_string(l.tp) + " x " + std::to_string(l.cp) + " x "
                  : "TP x PP x DP = " + std::to_string(l.tp) + " x ") +
            std::to_string(l.pp) + " x " + std::to_string(l.dp) + " = " + std::to_string(l.gpus()) +
            " GPUs, but the cluster has " + std::to_string(cluster_gpus),
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
  // Megatron splits each sequence into 2 x CP chunks and gives rank i chunks i and 2CP-1-i, so that
  // every rank gets the same share of the causal mask (megatron/core/utils.py,
  // get_batch_on_this_cp_rank): the sequence must divide into 2 x CP.
  if (l.cp > 1 && l.seq % (2 * l.cp) != 0)
    throw InputError({}, "--cp",
                     "CP " + std::to_string(l.cp) + " needs the sequence (" + std::to_string(l.seq) +
                         ") to split into 2 x CP = " + std::to_string(2 * l.cp) + " equal chunks",
                     "use --seq a multiple of " + std::to_string(2 * l.cp) + ", or a CP among: " +
                         divisors_text(l.seq / 2, 64));
  if (l.cp == 1 && l.cp_comm != CpComm::Ring)
    throw InputError({}, "--cp-comm", "all-gather of K/V needs context parallelism (CP is 1)",
                     "add --cp 2 or more, or drop --cp-comm");
  const bool uneven = l.uneven();
  if (l.first_stage_layers < -1 || l.last_stage_layers < -1)
    throw InputError({}, l.first_stage_layers < -1 ? "--pp-first-layers" : "--pp-last-layers",
                     "must be at least 0 (0: only the embedding or the output layer)",
                     "e.g. --pp-first-layers 7 --pp-last-layers 7");
  if (uneven) {
    const char* flag = l.first_stage_layers >= 0 ? "--pp-first-layers" : "--pp-last-layers";
    if (l.pp < 2)
      throw InputError({}, flag, "uneven pipeline stages need pipeline parallelism", "use --pp 2 or more");
    // With interleaving the flags set the first virtual stage (chunk 0 of stage 0) and the last
    // (chunk VPP-1 of the last stage); the other virtual stages split the rest.
    const int64_t ends = (l.first_stage_layers >= 0) + (l.last_stage_layers >= 0);
    const int64_t rest = m.layers - std::max<int64_t>(0, l.first_stage_layers) -
                         std::max<int64_t>(0, l.last_stage_layers),
                  middle = l.pp * l.vpp - ends;
    if (rest < middle || (middle == 0 && rest != 0) || (middle > 0 && rest % middle != 0))
      throw InputError({}, flag,
                       "with " + std::to_string(l.first_stage_layers) + " layer(s) on the first stage and " +
                           std::to_string(l.last_stage_layers) + " on the last (-1: an even share), the other " +
                           std::to_string(rest) + " of the " + std::to_string(m.layers) + " layers of " + m.name +
                           " do not split evenly over the other " + std::to_string(middle) +
                           (l.vpp > 1 ? " virtual stage(s) (PP x VPP - " + std::to_string(ends) + ")" : " stage(s)"),
                       "choose first and last stage layers so that layers - first - last is a multiple of " +
                           std::to_string(middle));
  } else if (m.layers % (l.pp * l.vpp) != 0) {
    std::string hint = "use PP x VPP among: " + divisors_text(m.layers);
    if (l.vpp == 1 && l.pp > 2) {
      // The Llama 3 way (Llama 3 paper, section 3.3.2): one layer fewer on the first and last stage.
      const int64_t per = (m.layers + l.pp - 1) / l.pp, rest = m.layers - (l.pp - 2) * per;
      if (rest > 0 && rest % 2 == 0)
        hint += ", or uneven end stages: --pp-first-layers " + std::to_string(rest / 2) + " --pp-last-layers " +
                std::to_string(rest / 2);
    }
    throw InputError({}, l.vpp > 1 ? "--vpp" : "--pp",
                     "PP x VPP = " + std::to_string(l.pp * l.vpp) + " does not divide the " + std::to_string(m.layers) +
                         " layers of " + m.name,
                     hint);
  }
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
  // Megatron-LM refuses --tp-comm-overlap without --sequence-parallel: the overlapped collectives
  // are sequence parallelism's all-gathers and reduce-scatters.
  if (l.overlap_tp && l.tp > 1 && !l.sequence_parallel)
    throw InputError({}, "--overlap", "TP communication overlap needs sequence parallelism",
                     "drop --no-sequence-parallel, or drop tp from --overlap");
  if (l.zero < 0 || l.zero > 3)
    throw InputError({}, "--zero", "unknown ZeRO stage " + std::to_string(l.zero), "use 0, 1, 2 or 3");
  if (l.dtype != "bf16" && l.dtype != "fp8")
    throw InputError({}, "--dtype", "unknown data type '" + l.dtype + "'", "use bf16 or fp8");
}

int64_t global_rank(const TrainLayout& l, RankCoord c) {
  const int64_t outer = l.pp_inside_dp ? c.pp + l.pp * c.dp : c.dp + l.dp * c.pp;
  return c.tp + l.tp * (c.cp + l.cp * outer);
}

RankCoord coord_of(const TrainLayout& l, int64_t rank) {
  RankCoord c;
  c.tp = rank % l.tp;
  c.cp = (rank / l.tp) % l.cp;
  const int64_t outer = rank / (l.tp * l.cp);
  if (l.pp_inside_dp) {
    c.pp = outer % l.pp;
    c.dp = outer / l.pp;
  } else {
    c.dp = outer % l.dp;
    c.pp = outer / l.dp;
  }
  return c;
}

std::vector<int64_t> tp_group(const TrainLayout& l, int64_t dp, int64_t pp, int64_t cp) {
  std::vector<int64_t> g;
  for (int64_t t = 0; t < l.tp; ++t) g.push_back(global_rank(l, {t, dp, pp, cp}));
  return g;
}

std::vector<int64_t> dp_group(const TrainLayout& l, int64_t tp, int64_t pp, int64_t cp) {
  std::vector<int64_t> g;
  for (int64_t d = 0; d < l.dp; ++d) g.push_back(global_rank(l, {tp, d, pp, cp}));
  return g;
}

std::vector<int64_t> ep_group(const TrainLayout& l, int64_t tp, int64_t dp, int64_t pp, int64_t cp) {
  std::vector<int64_t> g;
  const int64_t first = dp / l.ep * l.ep;
  for (int64_t e = 0; e < l.ep; ++e) g.push_back(global_rank(l, {tp, first + e, pp, cp}));
  return g;
}

std::vector<int64_t> cp_group(const TrainLayout& l, int64_t tp, int64_t dp, int64_t pp) {
  std::vector<int64_t> g;
  for (int64_t c = 0; c < l.cp; ++c) g.push_back(global_rank(l, {tp, dp, pp, c}));
  return g;
}

std::vector<int64_t> gradient_group(const TrainLayout& l, int64_t tp, int64_t pp) {
  std::vector<int64_t> g;
  for (int64_t d = 0; d < l.dp; ++d)
    for (int64_t c = 0; c < l.cp; ++c) g.push_back(global_rank(l, {tp, d, pp, c}));
  return g;
}

std::vector<int64_t> stage_layer_counts(const ModelShape& m, const TrainLayout& l) {
  const int64_t vstages = l.pp * l.vpp;
  if (!l.uneven()) return std::vector<int64_t>(static_cast<size_t>(vstages), m.layers / vstages);
  // Uneven: the given first and last virtual stages (0 layers: the embedding or the output layer
  // alone), the rest evenly.
  const int64_t first = std::max<int64_t>(0, l.first_stage_layers), last = std::max<int64_t>(0, l.last_stage_layers);
  const int64_t ends = (l.first_stage_layers >= 0) + (l.last_stage_layers >= 0);
  const int64_t middle = vstages - ends;
  const int64_t each = middle > 0 ? (m.layers - first - last) / middle : 0;
  std::vector<int64_t> n(static_cast<size_t>(vstages), each);
  if (l.first_stage_layers >= 0) n.front() = first;
  if (l.last_stage_layers >= 0) n.back() = last;
  return n;
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
