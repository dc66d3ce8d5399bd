// Shared layouts of the 8-GPU baseboards several servers are built on, so each server file only
// states what differs (GPU, NICs, CPUs). Each helper adds GPUs gpu0..gpu7 in rank order, NICs
// nic0.. in rail order, and the PCIe tree and CPUs they hang off.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "topology/servers/template_builder.hpp"

namespace gf {

// NVIDIA HGX H100/H200/B200/B300 class: NVSwitch chips on the board; every GPU has its own PCIe
// switch shared with its NIC(s), and every switch sits on its own host bridge, so a GPU sees its
// own NIC as PIX, the other NICs of its socket as NODE and those of the other socket as SYS
// (GPUs 0-3 on socket 0, 4-7 on socket 1), as `nvidia-smi topo -m` shows on DGX/HGX H100.
struct Hgx8Board {
  std::string nvlink;                // GPU<->NVSwitch technology
  std::vector<int> lanes_to_switch;  // NVLinks from every GPU to each NVSwitch chip
  std::string gpu_pcie;              // GPU <-> its PCIe switch
  std::string nic_pcie;              // NIC <-> that switch
  std::string uplink_pcie;           // switch <-> host bridge
  int nics_per_gpu = 1;
  std::string nic_tech;
  std::string nic_label = "mlx5_";   // NIC n is labelled nic_label + n
  std::array<std::string, 2> affinity;  // per socket
  std::string socket_link;           // between the two sockets
};
void add_hgx8(TemplateBuilder& b, const Hgx8Board& board);

// The HGX H100 board (DGX H100, HGX H100/H200 and the clouds built on them): 4 NVSwitch gen3 with
// 5/4/4/5 NVLink4 from every GPU (NV18), PCIe Gen5 throughout. Host as in the DGX H100: one
// ConnectX-7 NDR per GPU, two 56-core Sapphire Rapids Xeons (2 threads each) joined by UPI. A
// server built on it changes only the fields where its host differs.
Hgx8Board hgx_h100_board();
// The HGX B200 board: 2 NVSwitch chips with 9 NVLink5 from every GPU to each (NV18), PCIe Gen5.
// Host as in the DGX B200: one ConnectX-7 400G per GPU, two 56-core Xeon Platinum 8570.
Hgx8Board hgx_b200_board();
// The GPU of the HGX H100 board: H100 SXM5 80GB (3.35 TB/s HBM3, 989 TFLOPS dense BF16).
GpuSpec h100_sxm5_80gb();

// NVIDIA HGX A100 (DGX A100): 6 NVSwitch gen2, 2 NVLink3 from every GPU to each. GPUs go in pairs
// under a two-level PCIe switch complex: each GPU below its own lower switch, the pair's NICs on the
// upper one, so GPU<->NIC is PXB (two bridges); each pair's complex is on its own NUMA node (AMD
// EPYC in NPS4), so anything across pairs is SYS, as the DGX A100 sample shows.
struct A100Board {
  std::array<int, 4> pair_numa;  // NUMA node of GPUs 2k and 2k+1
  int numa_per_socket = 4;
  int cores_per_numa = 16;       // NUMA n holds cores n*cores_per_numa ... (+ SMT siblings)
  int smt_offset = 128;
  int nics_per_gpu = 1;
  std::string nic_tech;
  std::vector<std::string> nic_labels;  // one per NIC; empty: mlx5_<n>
};
void add_a100(TemplateBuilder& b, const A100Board& board);

// The HGX A100 board with the DGX A100's host: GPU pairs on NUMA nodes 3, 1, 7, 5 of two 64-core
// EPYC 7742 in NPS4 (16 cores per NUMA node, 2 threads each), one HDR port per GPU (mlx5_<n>).
A100Board hgx_a100_board();
// The GPU of the DGX/HGX A100 80GB: A100 SXM4 80GB (2,039 GB/s HBM2e, 312 TFLOPS dense BF16).
GpuSpec a100_sxm4_80gb();

// Intel Gaudi 2 / Gaudi 3 (HLS baseboard): no switch between the chips; each chip's 24 on-chip
// RoCE ports give 3 to each of the 7 others (an all-to-all) and 3 to scale-out. A scale-out port is
// a NIC node joined to its chip by a link of the same port technology (the port is on the chip,
// there is no PCIe hop); chip g's ports are rails 3g..3g+2. Chips sit in pairs under 4 PCIe
// switches, 2 per socket, each switch on its own host bridge (estimate).
struct GaudiBoard {
  std::string roce_tech;
  std::string pcie;              // chip <-> switch and switch <-> host bridge
  std::array<std::string, 2> affinity;
  std::string socket_link;
};
void add_gaudi(TemplateBuilder& b, const GaudiBoard& board);

// AMD Instinct OAM platform (MI300X, MI355X): 8 GPUs in an xGMI full mesh (one link to each of
// the 7 others), each GPU with its own PCIe switch shared with one NIC, each switch on its own
// host bridge (an EPYC quadrant); GPUs 0-3 on socket 0.
struct AmdOamBoard {
  std::string xgmi;
  std::string pcie;
  std::string nic_tech;
  std::string nic_label;
  std::array<std::string, 2> affinity;
};
void add_amd_oam(TemplateBuilder& b, const AmdOamBoard& board);

// NVIDIA NVL72 compute tray (GB200, GB300): two Grace CPUs joined coherently, each with two
// Blackwell GPUs on NVLink-C2C and two NICs (one per GPU) on its PCIe. The GPUs' NVLink5 links
// go to the rack's switches (the template's scale_up), not to anything in the tray.
void add_grace_blackwell_tray(TemplateBuilder& b, const std::string& nic_tech);

}  // namespace gf
