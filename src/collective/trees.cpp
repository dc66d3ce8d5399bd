#include "collective/trees.hpp"

#include <algorithm>

namespace gf {

int pipeline_chunks(Bytes bytes) {
  // At least kMinChunkBytes per chunk: NCCL moves a small message in one step rather than
  // splitting it into pieces that would each pay a step's latency.
  return static_cast<int>(std::clamp<int64_t>(bytes.count() / kMinChunkBytes, 1, kPipelineChunks));
}

std::vector<int> btree_parents(int n) {
  std::vector<int> parent(static_cast<size_t>(std::max(n, 0)), -1);
  for (int r = 1; r < n; ++r) {
    int low = r & -r;  // lowest set bit
    int up = (r & ~low) | (low << 1);
    parent[static_cast<size_t>(r)] = up < n ? up : (r & ~low);
  }
  return parent;
}

std::vector<int> dtree_parents(int n, int which) {
  std::vector<int> base = btree_parents(n);
  if (which == 0 || n <= 1) return base;
  std::vector<int> parent(static_cast<size_t>(n), -1);
  for (int r = 0; r < n; ++r) {
    if (n % 2 == 0) {  // mirror: node r plays node n-1-r of the binary tree
      int p = base[static_cast<size_t>(n - 1 - r)];
      parent[static_cast<size_t>(r)] = p < 0 ? -1 : n - 1 - p;
    } else {  // shift: node r plays node r-1
      int p = base[static_cast<size_t>((r - 1 + n) % n)];
      parent[static_cast<size_t>(r)] = p < 0 ? -1 : (p + 1) % n;
    }
  }
  return parent;
}

int tree_height(const std::vector<int>& parent) {
  int best = 0;
  for (size_t r = 0; r < parent.size(); ++r) {
    int h = 0;
    for (int p = parent[r]; p >= 0; p = parent[static_cast<size_t>(p)]) ++h;
    best = std::max(best, h);
  }
  return best;
}

std::vector<Rank> node_chain(const Communicator& comm, int node, int channel) {
  std::vector<Rank> chain;
  chain.reserve(static_cast<size_t>(comm.ppn));
  for (int i = 0; i < comm.ppn; ++i) chain.push_back(comm.rank(node, (channel + i) % comm.ppn));
  return chain;
}

std::vector<int> tree_rank_parents(const Communicator& comm, int channel, int which) {
  std::vector<int> parent(static_cast<size_t>(comm.nranks), -1);
  const std::vector<int> servers = dtree_parents(comm.nnodes, which);
  std::vector<Rank> head(static_cast<size_t>(comm.nnodes));
  for (int k = 0; k < comm.nnodes; ++k) {
    std::vector<Rank> chain = node_chain(comm, k, channel);
    head[static_cast<size_t>(k)] = chain[0];
    for (size_t i = 1; i < chain.size(); ++i) parent[static_cast<size_t>(chain[i])] = chain[i - 1];
  }
  for (int k = 0; k < comm.nnodes; ++k) {
    int p = servers[static_cast<size_t>(k)];
    if (p >= 0) parent[static_cast<size_t>(head[static_cast<size_t>(k)])] = head[static_cast<size_t>(p)];
  }
  return parent;
}

}  // namespace gf
