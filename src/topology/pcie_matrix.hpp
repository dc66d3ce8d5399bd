// The `nvidia-smi topo -m` view of one server, computed from the cluster graph: how every pair of
// GPUs and NICs is connected (NVLink, or how far apart they are in the PCIe tree) and which CPU
// cores and NUMA node each GPU is close to. This file is the data; report/topo_matrix renders it.
//
// Cell meanings follow nvidia-smi's legend (validation/formats/nvidia-smi-topo/legend.txt):
//   X     the device itself
//   NV#   joined by # bonded NVLinks: a direct link's lanes, or through NVSwitch chips (in the
//         server or the NVLink domain's) the NVLinks the GPUs have into the chips they share.
//         Other direct GPU links (AMD xGMI, Gaudi on-chip RoCE) are shown the same way; the cell
//         keeps the link family so a reader can tell them apart.
//   PIX   at most one PCIe switch between the two
//   PXB   several PCIe switches, no host bridge
//   PHB   through one host bridge (CPU root complex)
//   NODE  through two host bridges of the same NUMA node
//   SYS   across NUMA nodes (the SMP interconnect), or one side is not on PCIe at all
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/cluster.hpp"

namespace gf {

enum class TopoConn : uint8_t { Self, NvLink, Pix, Pxb, Phb, Node, Sys };

struct TopoCell {
  TopoConn conn = TopoConn::Sys;
  int links = 0;                           // NvLink: the # of NV#
  LinkFamily family = LinkFamily::NvLink;  // NvLink: the technology of those links
};
// "X", "NV18", "PIX", "PXB", "PHB", "NODE", "SYS"
std::string cell_text(const TopoCell& c);

struct TopoDevice {
  std::string name;           // "GPU0", "NIC3": index among the server's GPUs / NICs
  NodeKind kind = NodeKind::Gpu;
  NodeId node = kNoNode;
  std::string label;          // NIC: device name for the NIC legend ("mlx5_0"); GPU: empty
  std::string cpu_affinity;   // cores of the CPU it hangs off; "N/A" when none
  std::string numa_affinity;  // NUMA node(s) close to it; "N/A" when none
  std::string gpu_numa_id;    // GPU whose memory is a NUMA node of its own (Grace systems); else "N/A"
};

struct TopoMatrix {
  int64_t server = 0;
  int gpus = 0;                              // devices[0, gpus) are GPUs, the rest NICs
  std::vector<TopoDevice> devices;           // GPUs in rank order, then NICs in template order
  std::vector<std::vector<TopoCell>> cells;  // cells[row][col], symmetric
};

// Throws InputError when `server` is not a server of the cluster.
TopoMatrix topo_matrix(const Cluster& c, int64_t server);

}  // namespace gf
