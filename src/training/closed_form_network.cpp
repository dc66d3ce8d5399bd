#include "training/closed_form_network.hpp"

#include <algorithm>
#include <cmath>

namespace gf {

const ClosedFormNetwork::Fit& ClosedFormNetwork::fit(const std::vector<int64_t>& group, CollectiveKind kind,
                                                     const std::string& flag) {
  // The reference: the group's first ranks, rebased to its first GPU's server so that every group of
  // the same shape on any server shares one measurement. A group with several GPUs per server keeps
  // whole servers' worth, so that every server it spans holds the same GPU positions.
  const int64_t gps = cluster_.gpus_per_server();
  const size_t per_server = static_cast<size_t>(
      std::count_if(group.begin(), group.end(), [&](int64_t g) { return g / gps == group.front() / gps; }));
  const size_t n = std::min(group.size(), std::max(per_server, kReferenceRanks / per_server * per_server));
  const int64_t base = group.front() / gps * gps;
  std::vector<int64_t> ref(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(n));
  for (int64_t& g : ref) g -= base;
  auto key = std::make_tuple(static_cast<int>(kind), ref);
  auto it = fits_.find(key);
  if (it != fits_.end()) return it->second;
  // Two sizes: 1 MiB (latency and bandwidth both visible) and 256 MiB (bandwidth-bound).
  const double small = 1 << 20, large = 256.0 * (1 << 20);
  const GroupTiming a = time_groups(cluster_, router_, "analytical", {ref}, kind, Bytes(static_cast<int64_t>(small)),
                                    flag, 0);
  const GroupTiming b = time_groups(cluster_, router_, "analytical", {ref}, kind, Bytes(static_cast<int64_t>(large)),
                                    flag, 0);
  measurements_ += 2;
  Fit f;
  f.ranks = n;
  f.beta = std::max(0.0, (b.seconds - a.seconds) / (large - small));
  f.alpha = std::max(0.0, a.seconds - f.beta * small);
  f.algorithm = b.algorithm;
  return fits_.emplace(key, f).first->second;
}

GroupTiming ClosedFormNetwork::time(const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                                    const std::string& flag) {
  GroupTiming out;
  out.groups = out.of_groups = static_cast<int64_t>(groups.size());
  if (groups.empty() || groups.front().size() < 2 || bytes.count() <= 0) return out;
  const Fit& f = fit(groups.front(), kind, flag);
  const double n = static_cast<double>(groups.front().size()), nr = static_cast<double>(f.ranks);
  const double depth = nr > 2 ? std::log2(n) / std::log2(nr) : 1.0;
  const double share = busbw_factor(kind, static_cast<int>(n)) / busbw_factor(kind, static_cast<int>(nr));
  out.seconds = f.alpha * std::max(1.0, depth) + f.beta * static_cast<double>(bytes.count()) * share;
  out.algorithm = "closed form (" + f.algorithm + " on " + std::to_string(f.ranks) + " ranks)";
  return out;
}

}  // namespace gf
