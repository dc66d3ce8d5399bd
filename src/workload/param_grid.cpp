#include "workload/param_grid.hpp"

#include <algorithm>
#include <charconv>

#include "collective/algorithm.hpp"
#include "core/text.hpp"
#include "model/model_factory.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

ParamGrid ParamGrid::full(std::vector<SweepAxis> axes) { return combined(std::move(axes), {}); }

ParamGrid ParamGrid::zipped(std::vector<SweepAxis> axes) { return combined({}, std::move(axes)); }

ParamGrid ParamGrid::combined(std::vector<SweepAxis> grid, std::vector<SweepAxis> zip) {
  ParamGrid g;
  for (auto& a : grid) {
    g.group_.push_back(g.group_len_.size());
    g.group_len_.push_back(a.values.size());
    g.axes_.push_back(std::move(a));
  }
  if (!zip.empty()) {
    const size_t group = g.group_len_.size(), len = zip.front().values.size();
    const std::string first = zip.front().key;
    g.group_len_.push_back(len);
    for (auto& a : zip) {
      if (a.values.size() != len)
        throw InputError(a.where, a.key,
                         "zipped lists must be of equal length: " + std::to_string(a.values.size()) + " values, but " +
                             first + " has " + std::to_string(len),
                         "give every zipped key as many values, or sweep them as a full grid");
      g.group_.push_back(group);
      g.axes_.push_back(std::move(a));
    }
  }
  g.check();
  return g;
}

void ParamGrid::check() const {
  for (size_t i = 0; i < axes_.size(); ++i) {
    const SweepAxis& a = axes_[i];
    if (a.values.empty()) throw InputError(a.where, a.key, "has no values", "give one or more, e.g. servers=2,4");
    for (size_t j = 0; j < i; ++j)
      if (axes_[j].key == a.key)
        throw InputError(a.where, a.key, "swept twice", "give all its values in one list");
  }
  // Counted with a cap so a grid of many long lists cannot overflow before it is refused.
  size_t n = 1;
  for (size_t len : group_len_) {
    n *= len;
    if (n > kMaxSweepPoints)
      throw InputError(axes_.empty() ? SourceLocation{} : axes_.front().where, axes_.empty() ? "" : axes_.front().key,
                       "the sweep has more than " + std::to_string(kMaxSweepPoints) + " points",
                       "sweep fewer values, or split the sweep");
  }
}

size_t ParamGrid::size() const {
  size_t n = 1;
  for (size_t len : group_len_) n *= len;
  return n;
}

std::vector<std::string> ParamGrid::values(size_t point) const {
  // Mixed-radix digits of `point`, the last group fastest.
  std::vector<size_t> digit(group_len_.size());
  for (size_t g = group_len_.size(); g-- > 0;) {
    digit[g] = point % group_len_[g];
    point /= group_len_[g];
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < axes_.size(); ++i) out.push_back(axes_[i].values[digit[group_[i]]]);
  return out;
}

const std::vector<std::string>& run_keys() {
  static const std::vector<std::string> k = {"algo", "proto", "model", "routing", "seed"};  // immutable
  return k;
}

bool is_run_key(const std::string& key) {
  return key.rfind("NCCL_", 0) == 0 || std::find(run_keys().begin(), run_keys().end(), key) != run_keys().end();
}

namespace {

void check_member(const KeySetting& s, const std::string& what, const std::string& value,
                  const std::vector<std::string>& valid) {
  if (std::find(valid.begin(), valid.end(), value) == valid.end())
    throw InputError(s.where, s.key, "unknown " + what + " '" + value + "'", suggest(value, valid));
}

}  // namespace

void apply_run_setting(SweepOptions& o, const KeySetting& s) {
  const std::string v = ascii_lower(s.value);
  if (s.key == "algo") {
    std::vector<std::string> algos = algorithm_names();
    algos.insert(algos.begin(), "auto");
    check_member(s, "algorithm", v, algos);
    o.algo = v;
  } else if (s.key == "proto") {
    check_member(s, "protocol", v, {"auto", "ll", "ll128", "simple"});
    o.proto = v;
  } else if (s.key == "model") {
    require_model(v, s.where, s.key);
    o.model = v;
  } else if (s.key == "routing") {
    check_member(s, "routing policy", v, routing_policy_names());
    o.routing = *parse_routing_policy(v);
  } else if (s.key == "seed") {
    uint64_t seed = 0;
    const char* end = s.value.data() + s.value.size();
    auto [p, ec] = std::from_chars(s.value.data(), end, seed);
    if (ec != std::errc() || p != end || s.value.empty())
      throw InputError(s.where, s.key, "'" + s.value + "' is not a whole number 0 or more", "e.g. seed=0,1,2");
    o.seed = seed;
  } else if (s.key == "NCCL_IB_HCA") {
    throw InputError(s.where, s.key, "chooses the NICs a cluster is built with, which a sweep does not apply",
                     "sweep server.nics instead, or run perf with NCCL_IB_HCA once per value");
  } else if (s.key == "NCCL_P2P_LEVEL" || s.key == "NCCL_P2P_DISABLE" || s.key == "NCCL_SHM_DISABLE") {
    throw InputError(s.where, s.key, "chooses the transports a cluster is built with, which a sweep does not apply",
                     "run perf with " + s.key + " once per value, or set `p2p: false` in the cluster file");
  } else if (s.key.rfind("NCCL_", 0) == 0) {
    apply_nccl_env(o.nccl, {{s.key, s.value}}, s.where.file.empty() ? "--set" : s.where.file, o.algo != "auto",
                   o.proto != "auto");
  } else {
    throw InputError(s.where, s.key, "not a run key", suggest(s.key, run_keys()));
  }
}

}  // namespace gf
