// Whether a network step's receiver takes its bytes by GPUDirect RDMA into GPU memory, as NCCL
// decides it for the receive side of a NET connection (NVIDIA/nccl v2.30.7 src/transport/net.cc
// recvSetup: ncclTopoCheckGdr with read = 0, for the receiving rank and its own NIC; PXN is never
// used on receive). ncclTopoCheckGdr (src/graph/paths.cc) says no when the NIC has no GDR support
// (NCCL_NET=Socket: net_socket.cc reports host pointers only; a `rdma: false` technology such as
// EFA on g4dn) or when the GPU-to-NIC path type is beyond NCCL_NET_GDR_LEVEL (default P2C). The
// receive flush (model/gdr_flush.hpp) is only for such GDR receives.
#pragma once

#include <vector>

#include "routing/path.hpp"
#include "topology/cluster.hpp"

namespace gf {

class GdrReceive {
 public:
  explicit GdrReceive(const Cluster& c);
  // For a path that crosses the network and ends at a GPU: whether that GPU receives by GPUDirect
  // RDMA through the last NIC the path enters. False for a path with no NIC or not ending at a GPU.
  bool operator()(const Path& p) const;

 private:
  const Cluster& c_;
  size_t nodes_ = 0;            // server template size
  std::vector<uint8_t> gdr_;    // by (GPU template index x nodes_ + NIC template index): 1 if GDR
};

}  // namespace gf
