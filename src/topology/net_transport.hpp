// NCCL's network-transport settings, as a server's TransportSettings carries them (the NCCL_*
// variables that decide how bytes reach the NIC, which NIC a send leaves through, and whether a
// ring may change rails between servers). They act where the cluster is loaded, as NCCL_P2P_LEVEL
// does (config's ClusterOverrides for `--env` / the environment, a scenario job's view for `env:`).
//
// Sources (NVIDIA/nccl, src/ at the version docs/models.md names):
//  - NCCL_NET_GDR_LEVEL: graph/paths.cc ncclTopoCheckGdr compares the GPU-to-NIC path type with
//    the level (default P2C while NCCL_NET_GDR_C2C=1, else PXB); beyond it GPUDirect RDMA is off
//    and ncclTopoComputePaths "divert[s] all traffic through the CPU local to the GPU"
//    (addInterStep CPU between GPU and NET, both ways), only for paths below PHB (a path through
//    a host bridge already goes through the CPU).
//  - NCCL_NET=Socket: transport/net_socket.cc ncclNetSocketGetProperties reports ptrSupport
//    NCCL_PTR_HOST only, so ncclTopoCheckGdr finds no GDR support and every byte is staged in host
//    memory; by default one socket on the proxy's own thread per connection (autoNt 0, autoNs 1;
//    2 x 8 on AWS, 4 x 1 on GCP NICs; NCCL_SOCKET_NTHREADS, NCCL_NSOCKS_PERTHREAD).
//  - NCCL_PXN_DISABLE=1: graph/paths.cc only adds the PXN relay paths while ncclPxnDisable() is 0,
//    and graph/search.cc ncclTopoGetNetDev then picks the sender's own NIC.
//  - NCCL_CROSS_NIC (default 2): graph/search.cc ncclTopoCompute; 0 keeps a ring channel's exit NIC
//    on the rail it entered on (ncclTopoSearchTryNet's railId check), 1 lets the search take the
//    last GPU's own NIC, 2 tries 0 first and 1 only when that finds no solution.
//  - NCCL_IB_QPS_PER_CONNECTION (default 1; transport/net_ib/connect.cc NCCL_PARAM IbQpsPerConn,
//    the same default since 2.12's net_ib.cc): queue pairs per connection of NCCL's IB transport
//    (InfiniBand and RoCE). Under NCCL_IB_SPLIT_DATA_ON_QPS=1 (the default through 2.19) every
//    request is cut into equal parts, one per QP (transport/net_ib/p2p.cc: "Every request is
//    chunked equally across all QPs", DIVUP(size, nqps) aligned); under 0 (the default since
//    2.20) each request goes whole on one QP, the next request on the next (common.h
//    ncclIbCommBaseGetQpForRequest: (id x nQps + qpIndex) % nqps). Each QP is its own flow to the
//    fabric (RoCEv2 hashes its UDP source port, which the NIC derives from the QP), so a
//    connection's bytes cross Q hashed paths: engine/queue_pairs.hpp.
#pragma once

#include <optional>
#include <string>

namespace gf {

// NCCL's path types by number (src/include/graph.h PATH_*), for the GDR level, which may name the
// types between the P2P levels (C2C, P2C, PXN) too.
enum : int {
  kNcclPathLoc = 0, kNcclPathNvl = 1, kNcclPathNvb = 2, kNcclPathC2c = 3, kNcclPathPix = 4,
  kNcclPathPxb = 5, kNcclPathP2c = 6, kNcclPathPxn = 7, kNcclPathPhb = 8, kNcclPathSys = 9
};
// NCCL's default GDR level: P2C (paths.cc, NCCL_NET_GDR_C2C defaults to 1).
constexpr int kNcclDefaultGdrLevel = kNcclPathP2c;

// NCCL_NET_GDR_LEVEL's value as ncclGetLevel reads it: a path type name (LOC, NVL, NVB, C2C, PIX,
// PXB, P2C, PXN, PHB, SYS) or an old number (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4+ SYS); nullopt otherwise.
std::optional<int> parse_gdr_level(const std::string& s);
const char* nccl_path_name(int type);  // "PIX", ...

struct NetTransportSettings {
  std::optional<int> gdr_level;  // NCCL_NET_GDR_LEVEL (NCCL path number); nullopt: NCCL's default
  bool socket = false;           // NCCL_NET=Socket (NCCL's TCP transport over the same NICs)
  bool pxn_disabled = false;     // NCCL_PXN_DISABLE=1
  int cross_nic = 2;             // NCCL_CROSS_NIC 0, 1 or 2 (default)
  bool cross_nic_set = false;
  int ib_qps = 1;                // NCCL_IB_QPS_PER_CONNECTION (1..128)
  bool ib_qps_set = false;
  int ib_split_data = -1;        // NCCL_IB_SPLIT_DATA_ON_QPS 0 or 1; -1: unset (said, not modelled apart)

  bool any() const {
    return gdr_level.has_value() || socket || pxn_disabled || cross_nic_set || ib_qps_set || ib_split_data >= 0;
  }
  int gdr() const { return gdr_level.value_or(kNcclDefaultGdrLevel); }
  // Whether a GPU whose path to its NIC has NCCL type `gpu_nic` stages through host memory:
  // NCCL's test (paths.cc) only reroutes paths below PHB.
  bool staged(int gpu_nic) const { return gpu_nic < kNcclPathPhb && (socket || gpu_nic > gdr()); }
};

}  // namespace gf
