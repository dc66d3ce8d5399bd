// NCCL's GPUDirect RDMA flush: how many times a network step pays its transport's own term.
#pragma once

#include <string>

#include "core/protocol.hpp"
#include "topology/link_tech.hpp"

namespace gf {

// 2 where the receiver flushes each Simple step that landed in GPU memory before it tells the GPU
// (NVIDIA/nccl v2.30.7 src/transport/net.cc recvProxyProgress: iflush, then wait for it, when
// `needFlush`, Simple only; src/graph/paths.cc ncclTopoNeedFlush: "Flush is required on Ampere and
// earlier", compute capability < 9.0), 1 elsewhere. NCCL's own cost model charges the flush the
// same way (src/graph/tuning.cc: "Also add the flush extra latency", the net plugin's latency
// added a second time for Simple). Only a GPU-direct link (tech.rdma) receives into GPU memory; a
// host-staged one (NCCL's socket transport, EFA without GPUDirect RDMA) has nothing to flush.
// `arch` is the servers' GPU architecture (ServerTemplate gpu.arch).
int transport_terms_per_step(const LinkTech& tech, Protocol p, const std::string& arch);

}  // namespace gf
