// The cluster graph every model consumes: typed nodes and directed links in flat arrays, with a
// CSR adjacency built by finalize(). Server s owns the contiguous node range
// [s * nodes_per_server, (s+1) * nodes_per_server) in its template's order; fabric-level nodes
// (network switches, NVLink-domain switches) follow all servers.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topology/link_tech.hpp"
#include "topology/node.hpp"
#include "topology/server_template.hpp"

namespace gf {

class Cluster {
 public:
  Cluster(LinkCatalog catalog, ServerTemplate server, int64_t servers);

  // --- construction (builders) ---
  // Adds a fabric-level node named `name` (names are kept for fabric nodes only; server nodes
  // derive theirs from the template).
  NodeId add_fabric_node(NodeKind kind, int tier, int group, std::string name);
  // Adds a link and its reverse with the technology's per-lane bandwidth x lanes; returns the
  // forward link. `extra_latency` is a network switch's forwarding delay: it is added to the
  // direction(s) entering a node of kind Switch, on top of the wire's latency.
  LinkId connect(NodeId a, NodeId b, TechId tech, int lanes = 1, Time extra_latency = Time::zero());
  void reserve_links(size_t directed);
  void finalize();  // builds adjacency; call once after the last connect() (again after take_down)
  // Faults (topology/faults.hpp), on both directions of `l`'s pair. set_capacity: what is left of
  // a degraded link or of a bundle that lost lanes. add_latency: a degraded link's extra delay
  // (`--degrade X=latency:+5us`), added to each direction's latency. take_down: the pair leaves
  // the adjacency at the next finalize(), so no route can use it; it stays in links() (ids do
  // not move).
  void set_capacity(LinkId l, Bandwidth bw, int lanes);
  void add_latency(LinkId l, Time extra);
  void take_down(LinkId l);
  bool is_down(LinkId l) const { return !down_.empty() && down_[static_cast<size_t>(l)] != 0; }
  // Whether the scale-out switches reduce in the network (InfiniBand SHARP), set by the builder.
  void set_fabric_reduces(bool v) { fabric_reduces_ = v; }
  bool fabric_reduces() const { return fabric_reduces_; }
  // The scale-out switches' model, where the fabric has a switch model (its SHARP limits).
  void set_fabric_switch(std::optional<SwitchModel> m) { fabric_switch_ = std::move(m); }
  const std::optional<SwitchModel>& fabric_switch() const { return fabric_switch_; }

  // --- queries ---
  const LinkCatalog& catalog() const { return catalog_; }
  const ServerTemplate& server_template() const { return server_; }
  int64_t servers() const { return servers_; }
  int nodes_per_server() const { return static_cast<int>(server_.nodes.size()); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  const Link& link(LinkId id) const { return links_[id]; }
  std::span<const LinkId> out_links(NodeId id) const {
    return {out_.data() + out_begin_[id], out_.data() + out_begin_[id + 1]};
  }

  NodeId server_node(int64_t server, int local) const {
    return static_cast<NodeId>(server * nodes_per_server() + local);
  }
  int gpus_per_server() const { return static_cast<int>(gpu_locals_.size()); }
  int64_t gpu_count() const { return servers_ * gpus_per_server(); }
  // Global GPU index g -> node (server g / gpus_per_server, its (g % gpus_per_server)-th GPU).
  NodeId gpu(int64_t g) const {
    return server_node(g / gpus_per_server(), gpu_locals_[g % gpus_per_server()]);
  }
  // Inverse of gpu(): the global GPU index of a GPU node.
  int64_t gpu_index(NodeId id) const;
  const std::vector<int>& gpu_locals() const { return gpu_locals_; }
  // NICs by template index. nic_locals: those NCCL uses (compute NICs that NCCL_IB_HCA keeps), the
  // only ones routes start or end at; fabric_nic_locals: every NIC cabled into the compute fabric;
  // all_nic_locals: every NIC, storage and management ports too (as nvidia-smi lists them).
  const std::vector<int>& nic_locals() const { return nic_locals_; }
  const std::vector<int>& fabric_nic_locals() const { return fabric_nic_locals_; }
  const std::vector<int>& all_nic_locals() const { return all_nic_locals_; }

  // "gpu12", "server1/nic3", "leaf4" ...
  std::string node_name(NodeId id) const;
  // Parses a name node_name() produces, or a bare GPU index ("12"); kNoNode if none matches.
  NodeId find_node(const std::string& name) const;

 private:
  LinkCatalog catalog_;
  ServerTemplate server_;
  int64_t servers_;
  std::vector<int> gpu_locals_, nic_locals_, fabric_nic_locals_, all_nic_locals_;
  std::vector<int> local_rank_of_;  // template index -> position among GPUs (-1 if not a GPU)
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<std::string> fabric_names_;  // indexed by Node::local of fabric nodes
  std::vector<int64_t> out_begin_;
  std::vector<LinkId> out_;
  bool fabric_reduces_ = false;
  std::optional<SwitchModel> fabric_switch_;
  std::vector<uint8_t> down_;  // per link, 1 when taken down; empty while nothing is
};

}  // namespace gf
