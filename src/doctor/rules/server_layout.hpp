// What the server rules need to know about one server, computed once per rule from the built
// cluster (all servers are copies of one template, so server 0 stands for all): the nvidia-smi
// matrix (the evidence a user can check with `nvidia-smi topo -m`), the PCIe tree (who hangs under
// which switch, over which link), the nearest NICs of every GPU, and NVLink lanes per GPU.
// Also the template edits the fixes are modelled with, and the specs a Comparison runs on.
#pragma once

#include <string>
#include <vector>

#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/pcie_matrix.hpp"

namespace gf {

// NCCL's default limit for GPUDirect RDMA between a GPU and a NIC and for CUDA peer-to-peer
// between two GPUs: PXB, i.e. through PCIe switches only, never through a CPU's host bridge
// (NVIDIA/nccl src/graph/paths.cc: `netGdrLevel = PATH_PXB` in ncclTopoCheckGdr, `p2pLevel =
// PATH_PXB` in ncclTopoCheckP2p). Beyond it, data bounces through host memory.
constexpr TopoConn kNcclDirectLimit = TopoConn::Pxb;

// PCIe parent of every template node (a PCIe switch or a CPU root complex; -1 for nodes not on
// PCIe and for the root complexes), found breadth-first from the CPUs over PCIe links as
// pcie_matrix does; `parent_link` is the template link joining a node to its parent.
struct PcieTree {
  std::vector<int> parent;
  std::vector<int> parent_link;
};
PcieTree pcie_tree(const ServerTemplate& t, const LinkCatalog& catalog);

class ServerLayout {
 public:
  explicit ServerLayout(const Cluster& c);

  const ServerTemplate& server() const { return c_.server_template(); }
  const LinkCatalog& catalog() const { return c_.catalog(); }
  const TopoMatrix& matrix() const { return m_; }
  const PcieTree& tree() const { return tree_; }
  int gpus() const { return static_cast<int>(gpu_.size()); }
  int nics() const { return static_cast<int>(nic_.size()); }
  int gpu_local(int g) const { return gpu_[g]; }  // template index of GPU position g
  int nic_local(int k) const { return nic_[k]; }  // template index of NIC position k

  // The matrix cells (GPU positions g, h; NIC positions k).
  const TopoCell& gpu_gpu(int g, int h) const { return m_.cells[g][h]; }
  const TopoCell& gpu_nic(int g, int k) const { return m_.cells[g][gpus() + k]; }
  // How close NIC k is to GPU g for RDMA: the matrix class, except that a GPU on NVLink-C2C sees a
  // NIC on its own CPU's PCIe as PIX (NCCL's C2C path, NCCL_NET_GDR_C2C: GPUDirect RDMA over
  // C2C, as on GB200, where nvidia-smi prints SYS).
  TopoConn rdma_distance(int g, int k) const;
  // NIC positions at the smallest rdma_distance from GPU g (empty without NICs), and that distance.
  std::vector<int> nearest_nics(int g) const;
  TopoConn nearest_distance(int g) const;

  // Per-direction bandwidth of NIC k's network port, and of a template link (all lanes).
  Bandwidth nic_bandwidth(int k) const;
  Bandwidth link_bandwidth(int template_link) const;
  // NVLink-class (NVLink, xGMI, Gaudi scale-up RoCE) lanes and bandwidth from GPU g to other GPUs
  // and NVSwitch chips, NVLink-domain switches included.
  int scale_up_lanes(int g) const { return lanes_[g]; }
  Bandwidth scale_up_bandwidth(int g) const { return scale_up_bw_[g]; }

  // GPU / NIC positions whose PCIe ancestors include template node `sw`.
  std::vector<int> gpus_under(int sw) const;
  std::vector<int> nics_under(int sw) const;

  // "gpu3", "nic2 (mlx5_2)": template names, with the NIC's device label when it has one.
  std::string gpu_name(int g) const;
  std::string nic_name(int k) const;
  std::string node_name(int local) const { return server().nodes[local].name; }

 private:
  bool under(int local, int sw) const;

  const Cluster& c_;
  TopoMatrix m_;
  PcieTree tree_;
  std::vector<int> gpu_, nic_;
  std::vector<int> lanes_;
  std::vector<Bandwidth> scale_up_bw_;
};

// Template edits the fixes are modelled with.
// Adds a NIC of `nic_tech` as close to GPU `gpu_local` as PCIe allows: under the GPU's PCIe switch;
// when the GPU sits on a CPU root port, a PCIe switch is put between them first (one x16 port
// of the root complex then serves both); when the GPU is on NVLink-C2C, on its CPU's PCIe.
// Returns the new NIC's template index.
int add_nic_near_gpu(ServerTemplate& t, const LinkCatalog& catalog, int gpu_local, const std::string& nic_tech);
// The technology of the server's fastest NIC ("" when it has none).
std::string fastest_nic_tech(const ServerTemplate& t, const LinkCatalog& catalog);

// The cluster a Comparison runs a server's scale-out on: two copies of `server` under one
// non-blocking switch, so that only the server differs between before and after.
ClusterSpec two_servers(const ClusterSpec& spec, ServerTemplate server);
// The cluster a Comparison runs a server's own GPUs on: one copy of `server`.
ClusterSpec one_server(const ClusterSpec& spec, ServerTemplate server);

// "12.5 GB/s" with three significant figures.
std::string gBps_text(Bandwidth b);

}  // namespace gf
