// Which transport NCCL gives a pair of GPUs in one server, and the settings that decide it.
//
// NCCL tries its transports in a fixed order, P2P, then SHM, then NET (NVIDIA/nccl
// src/transport.cc: ncclTransports = {p2p, shm, net, collNet}; selectTransport takes the first
// whose canConnect says yes):
//  - P2P (GPU to GPU over NVLink or PCIe) when the pair's path type is at most the P2P level
//    (src/graph/paths.cc ncclTopoCheckP2p: `p2pLevel = PATH_PXB` by default, "don't use P2P across
//    CPU host bridges and further apart"; NCCL_P2P_LEVEL or NCCL_P2P_DISABLE=1 (= LOC) override it)
//    and the hardware can do CUDA peer access at all (GeForce cards on the stock driver cannot);
//  - SHM (through host memory) unless NCCL_SHM_DISABLE=1 (src/transport/shm.cc shmCanConnect);
//    its path goes GPU -> the CPU local to the receiving GPU -> receiving GPU (paths.cc: "Divert
//    all traffic through the CPU", addInterStep(CPU local to g, GPU p, GPU g)), so it crosses the
//    CPU socket link when the GPUs sit on different sockets and climbs to the CPU even for two GPUs
//    under one PCIe switch;
//  - NET otherwise: out through the sender's NIC and in through the receiver's (loopback inside
//    one NIC, or NIC -> leaf switch -> NIC).
// Levels and their names are NCCL's (src/graph/topo.cc topoPathTypeStr; environment variable
// documentation, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-level).
// Not modelled: NCCL's ncclTopoCheckNet preferring NET over SHM where both GPUs' NICs are faster
// than their host path (NCCL_NET_DISABLE_INTRA), and the AMD exception that allows P2P at SYS
// between the GPUs of a 2-GPU AMD system.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "topology/net_transport.hpp"

namespace gf {

// The path types a user can name, in NCCL's order (nearest first; NCCL's NVB, C2C, P2C and PXN
// sit between these and are not levels one sets).
enum class PathType : uint8_t { Loc, Nvl, Pix, Pxb, Phb, Sys };

// NCCL's default P2P level.
constexpr PathType kNcclDefaultP2pLevel = PathType::Pxb;

// "LOC", "NVL", "PIX", "PXB", "PHB", "SYS", or NCCL's old numbers 0..5 (0 LOC, 1 PIX, 2 PXB,
// 3 PHB, 4 and above SYS: paths.cc levelsOldToNew); nullopt for anything else.
std::optional<PathType> parse_path_type(const std::string& s);
const char* path_type_name(PathType t);

enum class Transport : uint8_t { P2p, Shm, Net };
const char* transport_name(Transport t);  // "P2P", "SHM", "NET"

// What decides a server's intra-server transports: the hardware (`p2p: false` in a server's YAML:
// no CUDA peer access at all) and NCCL's environment (NCCL_P2P_LEVEL / NCCL_P2P_DISABLE,
// NCCL_SHM_DISABLE), applied where the cluster is loaded.
struct TransportSettings {
  bool p2p_capable = true;                      // the GPUs can do CUDA peer access
  PathType p2p_level = kNcclDefaultP2pLevel;    // NCCL_P2P_LEVEL
  bool p2p_level_set = false;                   // given by the user (said in the `# nccl:` line)
  bool shm = true;                              // !NCCL_SHM_DISABLE
  NetTransportSettings net;                     // NCCL_NET_GDR_LEVEL, NCCL_NET, NCCL_PXN_DISABLE, NCCL_CROSS_NIC

  // The transport of a pair at path type `t` (same server).
  Transport pick(PathType t) const {
    if (p2p_capable && static_cast<int>(t) <= static_cast<int>(p2p_level)) return Transport::P2p;
    return shm ? Transport::Shm : Transport::Net;
  }
  // Whether NVLink pairs in different servers of one NVLink domain may use P2P (SHM needs one host).
  bool p2p_over_nvlink() const { return p2p_capable && static_cast<int>(p2p_level) >= static_cast<int>(PathType::Nvl); }
};

}  // namespace gf
