// Hop distances of the in-server segments (GPU to NIC, NIC to GPU), computed once per pair of
// template positions on server 0. Every server is a copy of one template, and an in-server
// segment uses only its own server's nodes, so server s's distances are server 0's, read by each
// node's template index (Cluster: server s owns nodes [s*T, (s+1)*T) in template order).
// Memory: one int16 per template node for each (GPU, NIC) pair in each direction.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/hop_distance.hpp"
#include "topology/cluster.hpp"

namespace gf {

class ServerDistances {
 public:
  explicit ServerDistances(const Cluster& c);

  // Hops left to `to` along the in-server segment from `from` (a GPU and a NIC of one server,
  // either way round).
  class View {
   public:
    int operator()(NodeId n) const {
      if (table_ == nullptr || c_->node(n).server != server_) return kUnreached;
      int16_t d = table_[c_->node(n).local];
      return d < 0 ? kUnreached : d;
    }
    bool valid() const { return table_ != nullptr; }

   private:
    friend class ServerDistances;
    const Cluster* c_ = nullptr;
    const int16_t* table_ = nullptr;
    int32_t server_ = -1;
  };
  // Invalid when the pair is not a GPU and a NIC of the same server: the caller searches instead.
  View toward(NodeId from, NodeId to) const;
  // -1 when `to` cannot be reached from `from` inside their server.
  int hops(NodeId from, NodeId to) const;

 private:
  const Cluster& c_;
  int locals_;
  std::vector<int32_t> slot_;   // [from_local * locals_ + to_local] -> table index, -1 if none
  std::vector<int16_t> dist_;   // tables of locals_ entries, -1 where unusable or unreached
};

}  // namespace gf
