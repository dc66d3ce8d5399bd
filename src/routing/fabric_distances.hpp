// Hop distances across the fabric, filled lazily: one table per destination switch, holding
// every transit node's distance to it in one byte, so a fabric route costs O(hops x degree) once
// its destination's table exists, instead of a search over the whole fabric per query.
//
// The fabric segment may use network switches (server -1) and NIC ports. Transit nodes are the
// switches and the NICs with more than one fabric neighbour (direct fabrics: torus, full mesh).
// A "stub" NIC has a single fabric neighbour, a switch (its leaf): no shortest route passes
// through it, so its distance to anything is 1 + its leaf's, and a route to it is a route to its
// leaf plus the last link. Tables are therefore kept per transit node (a leaf, for switched
// fabrics), not per NIC.
//
// Memory bound: 4 bytes per cluster node (index) + 8 bytes per out-link of a transit node
// (adjacency) + one byte per transit node for each destination table held; tables are dropped all
// at once when they would exceed `budget_bytes` (results do not change, only the time to refill).
// E.g. the 131,072-GPU k=64 fat-tree in 2 planes: 10,240 switches, 4,096 leaves, at most
// 4,096 x 10,240 B = 40 MiB of tables.
//
// Not thread-safe: toward() fills the cache. One FabricDistances per Router, one Router per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "routing/hop_distance.hpp"
#include "topology/cluster.hpp"

namespace gf {

class FabricDistances {
 public:
  static constexpr size_t kDefaultBudgetBytes = size_t{256} << 20;
  explicit FabricDistances(const Cluster& c, size_t budget_bytes = kDefaultBudgetBytes);

  // Hops left to the segment's end `to` from any node on the fabric segment starting at `from`.
  class View {
   public:
    int operator()(NodeId n) const {
      if (n == to_) return 0;
      if (table_ == nullptr) return kUnreached;
      const int32_t i = (*index_)[static_cast<size_t>(n)];
      if (i >= 0) return at(i, off_);
      if (n == from_ && i <= -2) return at(-2 - i, off_ + 1);  // a stub source: its leaf, +1
      return kUnreached;
    }

    // The distance of an adjacency entry's far end (see code_ below).
    int of_code(int32_t code) const {
      if (code >= 0) return table_ == nullptr ? kUnreached : at(code, off_);
      return -1 - code == to_ ? 0 : kUnreached;
    }

   private:
    friend class FabricDistances;
    int at(int32_t i, int off) const { return table_[i] == kFar ? kUnreached : table_[i] + off; }
    const std::vector<int32_t>* index_ = nullptr;
    const uint8_t* table_ = nullptr;
    NodeId from_ = kNoNode, to_ = kNoNode;
    int off_ = 0;
  };
  // The distances toward `to` (valid until the next toward()); nullopt where one would not fit in
  // a byte (over 254 hops: large direct fabrics), for which the caller searches instead.
  std::optional<View> toward(NodeId from, NodeId to);
  // -1 when `to` cannot be reached; nullopt as for toward().
  std::optional<int> hops(NodeId from, NodeId to);

  // Appends the walk from the view's `from` (which must reach its `to`) down its distances, as
  // walk_down() does, but reading each transit node's out-links from a compact copy of the
  // adjacency in the Cluster's link order: the same candidates in the same order, without
  // touching the Link and Node arrays for every neighbour.
  template <class Pick>
  void walk(const View& v, Pick&& pick, std::vector<LinkId>& scratch, Path& out) const {
    for (NodeId n = v.from_; n != v.to_;) {
      const int d = v(n);
      scratch.clear();
      const int32_t i = index_[static_cast<size_t>(n)];
      if (i >= 0) {
        for (int64_t e = adj_begin_[static_cast<size_t>(i)]; e < adj_begin_[static_cast<size_t>(i) + 1]; ++e)
          if (v.of_code(adj_code_[static_cast<size_t>(e)]) == d - 1) scratch.push_back(adj_link_[static_cast<size_t>(e)]);
      } else {
        for (LinkId l : c_.out_links(n))
          if (v(c_.link(l).dst) == d - 1) scratch.push_back(l);
      }
      const LinkId l = scratch[pick(n, scratch)];
      out.links.push_back(l);
      n = c_.link(l).dst;
    }
  }

  size_t tables() const { return tables_.size(); }
  size_t bytes() const;  // index + adjacency + tables now held

 private:
  static constexpr uint8_t kFar = 255;
  void build_index();
  const uint8_t* table_for(int32_t target);  // nullptr on overflow

  const Cluster& c_;
  size_t budget_;
  bool indexed_ = false;
  // Per cluster node: transit index (>= 0), -2 - (its leaf's transit index) for a stub NIC, -1
  // for nodes the fabric segment cannot use or reach.
  std::vector<int32_t> index_;
  // Every out-link of every transit node, in the Cluster's order (CSR by transit index), with a
  // code for its far end: its transit index (>= 0), else -1 - its NodeId.
  std::vector<int64_t> adj_begin_;
  std::vector<int32_t> adj_code_;
  std::vector<LinkId> adj_link_;
  std::vector<int32_t> slot_;       // per transit node: its table's slot, -1 none, -2 overflow
  std::vector<std::unique_ptr<uint8_t[]>> tables_;  // transit-count bytes each
  std::vector<int32_t> queue_;
};

}  // namespace gf
