// The server rules, in the order the doctor runs and reports them: what a `nvidia-smi topo -m`
// would show first (NIC placement, PCIe sharing, peer-to-peer), then NVLink, then NIC count.
// Each rule's check lives in rules/<name>.cpp with the reasoning behind it.
#include "doctor/doctor.hpp"
#include "doctor/rules/server_checks.hpp"

namespace gf {

const std::vector<DoctorRule>& server_rules() {
  static const std::vector<DoctorRule> rules = {
      {"nic-affinity", "GPUs whose nearest NIC is beyond a PCIe switch (PHB/NODE/SYS: no GPUDirect RDMA), or no NIC",
       "seed 002 (GPU Networking 101) section 6; NVIDIA/nccl src/graph/paths.cc ncclTopoCheckGdr (GDR up to PXB)",
       check_nic_affinity},
      {"pcie-contention", "PCIe switches whose NIC or uplink carries the traffic of several GPUs",
       "seed 002 (GPU Networking 101) sections 1.1 and 6: GPUs sharing a PCIe root with the NIC", check_pcie_contention},
      {"gpu-p2p", "GPU pairs with no NVLink and no shared PCIe switch (PHB/NODE/SYS: no peer-to-peer)",
       "NVIDIA/nccl src/graph/paths.cc ncclTopoCheckP2p (P2P up to PXB); seed 002 section 6: NUMA alignment",
       check_gpu_p2p},
      {"nvlink-imbalance", "GPUs with fewer NVLink lanes than their peers, or a partial NVLink mesh",
       "seed 002 (GPU Networking 101) section 6: unbalanced NVLink rings make one GPU the choke point",
       check_nvlink_imbalance},
      {"nic-shortage", "fewer NICs than GPUs, or NIC bandwidth per GPU far below the NVLink share",
       "seed 003 (GPU Cluster Networking): network bandwidth must keep up with GPU-to-GPU rates; NVIDIA DGX H100 "
       "User Guide (one 400G NIC per GPU)",
       check_nic_shortage},
      {"nic-mix", "NICs of one server that differ in speed, or NICs slower than the fabric's switch ports",
       "seed 002 (GPU Networking 101) section 6; NVIDIA/nccl src/enqueue.cc (even split over channels) and "
       "src/graph/search.cc (one bandwidth per graph)",
       check_nic_mix},
  };
  return rules;
}

}  // namespace gf
