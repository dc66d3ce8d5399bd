#include "inference/infer_layout.hpp"

#include "core/error.hpp"

namespace gf {

namespace {

std::string divisors(int64_t n) {
  std::string s;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return s;
}

}  // namespace

void check_infer_layout(const InferLayout& l, const ModelShape& m, int64_t cluster_gpus) {
  for (auto [v, flag] : {std::pair{l.tp, "--tp"}, std::pair{l.pp, "--pp"}, std::pair{l.ep, "--ep"},
                         std::pair{l.batch, "--batch"}, std::pair{l.prompt, "--prompt"},
                         std::pair{l.output, "--output"}})
    if (v < 1) throw InputError({}, flag, "must be at least 1, got " + std::to_string(v), "e.g. " + std::string(flag) + " 1");
  if (l.dtype != "bf16" && l.dtype != "fp8")
    throw InputError({}, "--dtype", "unknown data type '" + l.dtype + "'", suggest(l.dtype, {"bf16", "fp8"}));
  if (m.heads % l.tp != 0)
    throw InputError({}, "--tp",
                     "TP " + std::to_string(l.tp) + " does not divide the " + std::to_string(m.heads) +
                         " attention heads of " + m.name,
                     "use one of: " + divisors(m.heads));
  if (m.kv_heads % l.tp != 0 && l.tp % m.kv_heads != 0)
    throw InputError({}, "--tp",
                     "TP " + std::to_string(l.tp) + " and the " + std::to_string(m.kv_heads) +
                         " key/value heads of " + m.name + " do not divide one another",
                     "use a divisor or a multiple of " + std::to_string(m.kv_heads));
  if (m.layers % l.pp != 0)
    throw InputError({}, "--pp",
                     "PP " + std::to_string(l.pp) + " does not divide the " + std::to_string(m.layers) + " layers",
                     "use one of: " + divisors(m.layers));
  if (l.ep > 1 && !m.moe())
    throw InputError({}, "--ep", m.name + " has no experts", "drop --ep (or use an MoE model: mixtral-8x7b, deepseek-v3)");
  if (l.ep > 1 && l.ep % l.tp != 0)
    throw InputError({}, "--ep",
                     "EP " + std::to_string(l.ep) + " is not a multiple of TP " + std::to_string(l.tp),
                     "EP spans whole attention groups: use a multiple of " + std::to_string(l.tp));
  if (l.gpus() > cluster_gpus)
    throw InputError({}, l.ep > l.tp ? "--ep" : "--tp",
                     "TP x attention DP x PP = " + std::to_string(l.tp) + " x " + std::to_string(l.attention_dp()) +
                         " x " + std::to_string(l.pp) + " = " + std::to_string(l.gpus()) + " GPUs, but the cluster has " +
                         std::to_string(cluster_gpus),
                     "use fewer GPUs or a larger cluster (--nodes)");
}

std::vector<int64_t> infer_tp_group(const InferLayout& l, int64_t dp, int64_t pp) {
  std::vector<int64_t> g;
  for (int64_t t = 0; t < l.tp; ++t) g.push_back(t + l.tp * (dp + l.attention_dp() * pp));
  return g;
}

std::vector<int64_t> infer_ep_group(const InferLayout& l, int64_t pp) {
  std::vector<int64_t> g;
  const int64_t base = l.tp * l.attention_dp() * pp;
  for (int64_t e = 0; e < l.tp * l.attention_dp(); ++e) g.push_back(base + e);
  return g;
}

}  // namespace gf
