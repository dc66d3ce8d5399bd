#include "model/packet/next_hops.hpp"

namespace gf {

std::span<const LinkId> NextHops::candidates(NodeId at, NodeId dst_nic) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(at)) << 32) | static_cast<uint32_t>(dst_nic);
  auto it = ranges_.find(key);
  if (it == ranges_.end()) {
    Range r;
    r.begin = static_cast<uint32_t>(links_.size());
    // Over-long direct fabrics (no byte-sized table) keep their pinned path: empty range.
    if (auto view = distances_.toward(at, dst_nic)) {
      const int d = (*view)(at);
      if (d > 0 && d < kUnreached)
        for (LinkId l : c_.out_links(at))
          if ((*view)(c_.link(l).dst) == d - 1) links_.push_back(l);
    }
    r.count = static_cast<uint32_t>(links_.size()) - r.begin;
    it = ranges_.emplace(key, r).first;
  }
  return {links_.data() + it->second.begin, it->second.count};
}

}  // namespace gf
