#include "routing/path.hpp"

#include <limits>

namespace gf {

Bandwidth bottleneck(const Cluster& c, const Path& p) {
  Bandwidth b = Bandwidth::bytes_per_s(std::numeric_limits<double>::infinity());
  for (LinkId l : p.links) b = std::min(b, c.link(l).bandwidth);
  return b;
}

Time latency(const Cluster& c, const Path& p) {
  Time t = Time::zero();
  for (LinkId l : p.links) t += c.link(l).latency;
  return t;
}

}  // namespace gf

#include <algorithm>
#include <deque>
#include <map>

namespace gf {

Bandwidth max_flow(const Cluster& c, const std::vector<Path>& paths) {
  if (paths.empty() || paths.front().empty()) return Bandwidth();
  NodeId src = c.link(paths.front().links.front()).src;
  NodeId dst = c.link(paths.front().links.back()).dst;
  // Residual graph over the union of the paths' links (Edmonds-Karp: BFS augmenting paths).
  std::map<NodeId, int> index;
  auto idx = [&](NodeId n) { return index.emplace(n, static_cast<int>(index.size())).first->second; };
  std::map<std::pair<int, int>, double> cap;
  for (const auto& p : paths)
    for (LinkId l : p.links) {
      int u = idx(c.link(l).src), v = idx(c.link(l).dst);
      cap[{u, v}] = c.link(l).bandwidth.bytes_per_second();
      cap.emplace(std::make_pair(v, u), 0.0);
    }
  size_t n = index.size();
  std::vector<std::vector<int>> adj(n);
  for (const auto& [e, w] : cap) adj[static_cast<size_t>(e.first)].push_back(e.second);
  int s = index[src], t = index[dst];
  double total = 0;
  for (;;) {
    std::vector<int> prev(n, -1);
    prev[static_cast<size_t>(s)] = s;
    std::deque<int> q{s};
    while (!q.empty() && prev[static_cast<size_t>(t)] < 0) {
      int u = q.front();
      q.pop_front();
      for (int v : adj[static_cast<size_t>(u)])
        if (prev[static_cast<size_t>(v)] < 0 && cap[{u, v}] > 1e-6) prev[static_cast<size_t>(v)] = u, q.push_back(v);
    }
    if (prev[static_cast<size_t>(t)] < 0) break;
    double f = std::numeric_limits<double>::infinity();
    for (int v = t; v != s; v = prev[static_cast<size_t>(v)]) f = std::min(f, cap[{prev[static_cast<size_t>(v)], v}]);
    for (int v = t; v != s; v = prev[static_cast<size_t>(v)]) {
      cap[{prev[static_cast<size_t>(v)], v}] -= f;
      cap[{v, prev[static_cast<size_t>(v)]}] += f;
    }
    total += f;
  }
  return Bandwidth::bytes_per_s(total);
}

}  // namespace gf
