#include "routing/fabric_distances.hpp"

#include <algorithm>

namespace gf {

namespace {

bool fabric_usable(const Node& n) { return (n.server == -1 && n.kind == NodeKind::Switch) || n.kind == NodeKind::Nic; }

}  // namespace

FabricDistances::FabricDistances(const Cluster& c, size_t budget_bytes) : c_(c), budget_(budget_bytes) {}

void FabricDistances::build_index() {
  indexed_ = true;
  const auto& nodes = c_.nodes();
  index_.assign(nodes.size(), -1);
  int32_t transit = 0;
  // Switches first, then NICs that are not stubs; a stub NIC's one fabric neighbour is a switch.
  std::vector<NodeId> stub_leaf(nodes.size(), kNoNode);
  for (size_t n = 0; n < nodes.size(); ++n)
    if (nodes[n].server == -1 && nodes[n].kind == NodeKind::Switch) index_[n] = transit++;
  for (NodeId n : [&] {
         std::vector<NodeId> nics;
         for (int64_t s = 0; s < c_.servers(); ++s)
           for (int local : c_.fabric_nic_locals()) nics.push_back(c_.server_node(s, local));
         return nics;
       }()) {
    NodeId only = kNoNode;
    bool several = false;
    for (LinkId l : c_.out_links(n)) {
      const NodeId m = c_.link(l).dst;
      if (!fabric_usable(c_.node(m))) continue;
      if (only == kNoNode) only = m;
      else if (m != only) several = true;
    }
    if (only == kNoNode) continue;  // not cabled: reaches nothing
    if (!several && c_.node(only).kind == NodeKind::Switch) stub_leaf[static_cast<size_t>(n)] = only;
    else index_[static_cast<size_t>(n)] = transit++;
  }
  for (size_t n = 0; n < nodes.size(); ++n)
    if (stub_leaf[n] != kNoNode) index_[n] = -2 - index_[static_cast<size_t>(stub_leaf[n])];
  std::vector<NodeId> node_of(static_cast<size_t>(transit));
  for (size_t n = 0; n < nodes.size(); ++n)
    if (index_[n] >= 0) node_of[static_cast<size_t>(index_[n])] = static_cast<NodeId>(n);
  adj_begin_.assign(static_cast<size_t>(transit) + 1, 0);
  for (int32_t i = 0; i < transit; ++i) {
    for (LinkId l : c_.out_links(node_of[static_cast<size_t>(i)])) {
      const NodeId m = c_.link(l).dst;
      const int32_t j = index_[static_cast<size_t>(m)];
      adj_code_.push_back(j >= 0 ? j : -1 - m);
      adj_link_.push_back(l);
    }
    adj_begin_[static_cast<size_t>(i) + 1] = static_cast<int64_t>(adj_code_.size());
  }
  slot_.assign(static_cast<size_t>(transit), -1);
}

const uint8_t* FabricDistances::table_for(int32_t target) {
  int32_t& slot = slot_[static_cast<size_t>(target)];
  if (slot == -2) return nullptr;
  if (slot >= 0) return tables_[static_cast<size_t>(slot)].get();
  const size_t n = slot_.size();
  if (!tables_.empty() && (tables_.size() + 1) * n > budget_) {
    // Over budget: drop every table (the distances are exact, so only time is lost).
    for (int32_t& s : slot_)
      if (s >= 0) s = -1;
    tables_.clear();
  }
  auto table = std::make_unique<uint8_t[]>(n);
  std::fill(table.get(), table.get() + n, kFar);
  // Breadth first from the target over transit nodes (stubs are dead ends: no shortest route
  // crosses one); the far end of every link is one of its in-neighbours too (links come in pairs).
  table[static_cast<size_t>(target)] = 0;
  queue_.assign(1, target);
  for (size_t head = 0; head < queue_.size(); ++head) {
    const int32_t m = queue_[head];
    const int d = table[static_cast<size_t>(m)] + 1;
    for (int64_t e = adj_begin_[static_cast<size_t>(m)]; e < adj_begin_[static_cast<size_t>(m) + 1]; ++e) {
      const int32_t p = adj_code_[static_cast<size_t>(e)];
      if (p < 0 || table[static_cast<size_t>(p)] != kFar) continue;
      if (d >= kFar) {  // a distance a byte cannot hold
        slot_[static_cast<size_t>(target)] = -2;
        return nullptr;
      }
      table[static_cast<size_t>(p)] = static_cast<uint8_t>(d);
      queue_.push_back(p);
    }
  }
  slot = static_cast<int32_t>(tables_.size());
  tables_.push_back(std::move(table));
  return tables_.back().get();
}

std::optional<FabricDistances::View> FabricDistances::toward(NodeId from, NodeId to) {
  if (!indexed_) build_index();
  View v;
  v.index_ = &index_;
  v.from_ = from;
  v.to_ = to;
  const int32_t i = index_[static_cast<size_t>(to)];
  if (i == -1) return v;  // nothing reaches `to` (no table): every distance but its own is unreached
  const int32_t target = i >= 0 ? i : -2 - i;
  v.off_ = i >= 0 ? 0 : 1;
  v.table_ = table_for(target);
  if (v.table_ == nullptr) return std::nullopt;
  return v;
}

std::optional<int> FabricDistances::hops(NodeId from, NodeId to) {
  std::optional<View> v = toward(from, to);
  if (!v) return std::nullopt;
  const int d = (*v)(from);
  return d == kUnreached ? -1 : d;
}

size_t FabricDistances::bytes() const {
  return index_.size() * sizeof(int32_t) + adj_code_.size() * (sizeof(int32_t) + sizeof(LinkId)) +
         adj_begin_.size() * sizeof(int64_t) +
         slot_.size() * sizeof(int32_t) + tables_.size() * slot_.size();
}

}  // namespace gf
