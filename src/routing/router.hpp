// Routes between GPUs, as the hardware and NCCL's transport choose them.
//
// A route between two GPUs is, in order of preference:
//  1. scale-up: inside the two GPUs' servers and through NVLink-domain switches only (NVLink,
//     NVSwitch, xGMI, PCIe peer-to-peer, the CPUs for SYS paths), never through a NIC;
//  2. otherwise scale-out: from the source GPU to its nearest NIC inside its server, across the
//     fabric (network switches only) to a NIC nearest the destination GPU (the same rail when
//     one is equally near), then inside that server to the GPU.
// Equal cost means equal hop count; the number of equal-cost routes is the sum over equally short
// NIC pairings of the product of each segment's count. A deterministic per-flow hash picks one
// route the way switches do ECMP: at each hop, hash(flow key, node) picks among the next hops
// that stay on a shortest path. GPUs never forward; a server's internals carry only its own
// traffic. RoutingPolicy (routing_policy.hpp) offers even spraying and adaptive choice instead.
//
// Cost. Choosing a route walks hop by hop down tables of hop distances instead of searching:
// in-server distances are computed once per (GPU, NIC) template position (ServerDistances), fabric
// distances once per destination leaf, lazily (FabricDistances, with its memory bound), so a
// scale-out query costs O(hops x switch degree) once its destination leaf has been seen. Scale-up
// segments, and counting or listing equal-cost routes, still search (SegmentSearch), at
// O(nodes of the two servers and their NVLink domain) or O(fabric) for counting.
//
// Transports (topology/p2p_level.hpp): a pair of GPUs in one server that NCCL would not give P2P
// (beyond NCCL_P2P_LEVEL, or a server without peer access) is routed through host memory (SHM) or,
// with SHM off, through the NICs (NET), as NCCL's transport order has it.
//
// Not thread-safe: the const queries fill mutable caches. Use one Router per thread.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "routing/fabric_distances.hpp"
#include "routing/link_load.hpp"
#include "routing/path.hpp"
#include "routing/route.hpp"
#include "routing/route_segment.hpp"
#include "routing/routing_policy.hpp"
#include "routing/server_distances.hpp"
#include "topology/cluster.hpp"

namespace gf {

class Router {
 public:
  // Paths the spray policy splits a fabric route over, at most (each leg carries 1/K of the
  // bytes, K = the distinct paths found). 64 covers a k=64 fat-tree's 32 leaf uplinks twice.
  static constexpr int kSprayPaths = 64;

  explicit Router(const Cluster& cluster);

  // The segments of each equally short way from GPU a to GPU b; empty when there is none.
  std::vector<std::vector<RouteSegment>> plans(NodeId a, NodeId b) const;
  // The overloads taking Plans reuse one plans() result: several questions about one pair cost
  // one set of searches.
  using Plans = std::vector<std::vector<RouteSegment>>;
  // Up to `limit` equal-cost routes from GPU a to GPU b, in a deterministic order.
  std::vector<Path> equal_cost_paths(NodeId a, NodeId b, size_t limit) const;
  std::vector<Path> equal_cost_paths(const Plans& plans, size_t limit) const;
  // How many equal-cost routes exist (a double: on large fat-trees it can exceed 2^64).
  double count_paths(NodeId a, NodeId b) const;
  double count_paths(const Plans& plans) const;
  // One route chosen by the per-flow hash; empty when no route exists.
  Path hashed_path(NodeId a, NodeId b, uint64_t flow_key) const;
  Path hashed_path(const Plans& plans, uint64_t flow_key) const;

  // How a transfer from GPU a to GPU b is carried: a scale-up route is sprayed over its
  // equal-cost paths (up to 64) in proportion to their bandwidth; a scale-out route is the one
  // path the per-flow hash picks. `nic_choice` >= 0 picks among equally near NIC pairings in turn
  // (NCCL spreads channels over a GPU's NICs) instead of by hash; the fabric path is still hashed.
  Route route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice = -1) const;
  // The same under a routing policy, for the scale-out part (scale-up routes are as above, and the
  // NIC pairing is chosen as above, under every policy):
  //  - Ecmp: route() above.
  //  - Spray: legs = the distinct paths among kSprayPaths walks, each with an equal share; walk i
  //    takes, at each hop with c candidates, candidate (i_j + hash(key, node)) mod c, where i_j is
  //    the j-th digit of i in the mixed radix of the candidate counts: the walks spread over the
  //    first hop's choices first (every leaf uplink), then the next hop's, and the hash rotates
  //    which ones each flow starts from. The in-server segments are hashed as for Ecmp.
  //  - Adaptive: at each hop (in-server and fabric), the candidate whose outgoing link has the
  //    least `load`; equal loads go to the ECMP hash among them, so with no load (or a null
  //    `load`) Adaptive is Ecmp. Greedy and switch-local, like InfiniBand adaptive routing and
  //    Spectrum-X: each switch sees only its own egress ports, not the whole path.
  Route route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice, RoutingPolicy policy,
              const LinkLoad* load = nullptr) const;
  Route route_adaptive(NodeId a, NodeId b, uint64_t flow_key, int nic_choice, const LinkLoad& load) const {
    return route(a, b, flow_key, nic_choice, RoutingPolicy::Adaptive, &load);
  }
  // NCCL's PXN for send/recv (collective/nccl_constants.hpp library_uses_pxn): a send from GPU a
  // to a GPU b it cannot reach by scale-up leaves through the NIC of the GPU at b's position in
  // a's server, the relay, which a reaches over NVLink, so the traffic stays on b's rail (NVIDIA
  // NCCL src/graph/search.cc ncclTopoGetNetDev, P2P_PXN_LEVEL 2: the sender takes the NIC its
  // peer's device index uses, proxied by the GPU nearest that NIC when that GPU is NVLink-close to
  // the sender and no farther from the NIC than PATH_P2C). Returns the relay, or a itself where
  // PXN does not apply: b reachable by scale-up, b at a's own position, no all-NVLink path from a
  // to the relay, or the relay's nearest NIC beyond PCIe switches and one NVLink-C2C CPU (a host
  // bridge or the inter-socket link on the way: PHB/SYS, no GPUDirect).
  NodeId pxn_relay(NodeId a, NodeId b) const;
  // The route of a send relayed by PXN: the NVLink legs from a to the relay (shares summing to 1),
  // then the relay's route to b as route() gives it under `policy`. Both parts carry the whole
  // transfer, so each link is charged its bytes once. route() itself where the relay is a.
  Route pxn_route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice, RoutingPolicy policy,
                  const LinkLoad* load = nullptr) const;

  // The transport NCCL gives GPU a to GPU b (topology/p2p_level.hpp): P2P (a scale-up route, as
  // above), SHM (through the host memory of the CPU local to b: two scale-up segments, a -> that
  // CPU -> b) or NET (the scale-out route through the NICs, even inside one server). Pairs in
  // different servers are NET unless an NVLink domain joins them and P2P over NVLink is allowed.
  Transport transport(NodeId a, NodeId b) const;

  // How many ordered GPU pairs of one server use each transport (server 0; every server is a copy).
  struct TransportCounts {
    int p2p = 0, shm = 0, net = 0;
  };
  TransportCounts transport_counts() const;
  // Ordered GPU pairs of server 0 on NET whose nearest NICs differ: NCCL sends them out of one NIC
  // and into the other over the network, so a cluster without a network (one server) cannot.
  int net_pairs_across_nics() const;

  // NCCL_NET_GDR_LEVEL / NCCL_NET=Socket (topology/net_transport.hpp): a GPU whose path to its
  // nearest NIC is beyond the GDR level (or any GPU under sockets), while that path stays below
  // PHB, sends and receives through the host memory of its local CPU: its NET routes run GPU ->
  // that CPU -> NIC and NIC -> that CPU -> GPU (NCCL paths.cc addInterStep). How many GPUs of a
  // server do, and the NCCL path type from GPU position `pos` to its nearest NIC (-1: no NIC).
  int staged_gpus() const;
  int gpu_nic_path(int pos) const;

  // From a GPU to the first network switch on its way out of the server (CollNet's uplink), and
  // from a GPU to the NVSwitch chips it is wired to (NVLS), each as legs sharing the bytes.
  Route uplink_to_fabric(NodeId gpu, uint64_t flow_key, int nic_choice = -1) const;
  Route links_to_nvswitch(NodeId gpu) const;

  const Cluster& cluster() const { return c_; }
  // Bytes and count of the fabric distance tables held now (see FabricDistances for the bound).
  size_t cache_bytes() const { return fabric_.bytes(); }
  size_t fabric_tables() const { return fabric_.tables(); }

 private:
  const std::vector<int>& nearest_nics(NodeId gpu) const;
  const std::vector<RouteSegment>& pick_pairing(const Plans& ps, NodeId a, NodeId b, int nic_choice) const;
  bool scale_up_reaches(NodeId a, NodeId b) const;
  int segment_hops(const RouteSegment& seg) const;
  // Appends the walk of `seg` to `out`, `pick(node, candidates)` choosing at each hop; false
  // (nothing appended) when the segment's end cannot be reached.
  template <class Pick>
  bool append_walk(const RouteSegment& seg, Pick&& pick, Path& out) const;
  Route scale_up_route(const Plans& ps) const;

  const Cluster& c_;
  ServerDistances server_;
  mutable FabricDistances fabric_;
  mutable std::vector<LinkId> scratch_;         // a walk's candidates at one hop
  std::vector<int> gpu_pos_;                    // template index -> position among the GPUs (-1)
  std::vector<std::vector<int>> nearest_nics_;  // by GPU position in the server: NIC template indices
  // Whether a scale-up route can leave a server (NVLink-domain switches, or cables between two
  // servers' non-NIC devices); if not, same-server reachability by GPU positions (pos_a * G + pos_b).
  bool cross_server_scale_up_ = false;
  std::vector<uint8_t> same_server_scale_up_;
  // When scale-up routes can leave a server: by node, its connected component over every node a
  // scale-up segment may ever use (all but NICs and network switches). Two GPUs in different
  // components are never joined by scale-up (a segment uses a subset of those nodes), so most
  // pairs of a multi-domain cluster (GB200 NVL72 racks) are answered without a search.
  std::vector<int32_t> scale_up_component_;
  // By GPU position: 1 when a nearest NIC is within PCIe switches and one NVLink-C2C CPU (PXN may
  // relay through that GPU).
  std::vector<uint8_t> pxn_nic_close_;
  // By GPU positions (pos_a * G + pos_b) on server 0: the pair's Transport; and by GPU position,
  // the template index of the CPU local to it (SHM's host memory), or -1.
  std::vector<Transport> transport_;
  std::vector<int> local_cpu_;
  // By GPU position: NCCL path type to its nearest NIC (-1 without one), and whether it stages its
  // NET traffic through local_cpu_ (NetTransportSettings::staged).
  std::vector<int> gpu_nic_type_;
  std::vector<uint8_t> staged_;
  // `plan` (GPU -> NIC, fabric, NIC -> GPU) with the host-memory detours of staged ends.
  void stage_through_host(std::vector<RouteSegment>& plan) const;
  bool same_server_gpus(NodeId a, NodeId b) const;  // two GPUs of one server, with a transport table
  Transport same_server_transport(NodeId a, NodeId b) const;
  // PXN's NVLink hop from GPU a to a relay in its server, by (a, relay): its legs, or no legs when
  // no all-NVLink path joins them. Filled as relays are asked for.
  mutable std::unordered_map<uint64_t, Route> relay_hops_;
  const Route& relay_hop(NodeId a, NodeId relay) const;
};

}  // namespace gf
