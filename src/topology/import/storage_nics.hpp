// Imported servers: which NICs are compute rails. A NIC that sits beside no GPU in the PCIe tree
// (nvidia-smi: NODE or SYS from every GPU; NCCL's XML: no GPU under its PCIe switch) is a storage
// or in-band management port, as the DGX systems' are (NVIDIA DGX A100 User Guide, "Network Ports":
// eight single-port compute HCAs beside the GPUs' PCIe switches, mlx5_0-3 and mlx5_6-9, and two
// dual-port storage / in-band cards, mlx5_4-5 and mlx5_10-11). NCCL's ring and tree search takes
// the NICs nearest each GPU (NVIDIA/nccl src/graph/search.cc ncclTopoSelectNets: the GPU's local
// NICs, by path type), so those far ports carry no collective traffic while near ones exist.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "topology/server_template.hpp"

namespace gf {

enum class NicPlace { BesideGpu, AwayFromGpus, Unknown };

// `nics`: (template index of a NIC, where it sits). When at least one NIC is beside a GPU, every
// NIC away from all GPUs gets `role: storage` and no rail; the compute NICs' rails are renumbered
// 0, 1, ... in template order. When none is beside a GPU, NCCL has no nearer NIC and uses these:
// nothing changes. Returns a sentence for the import's notes, or "" when nothing changed.
std::string mark_storage_nics(ServerTemplate& t, const std::vector<std::pair<int, NicPlace>>& nics);

}  // namespace gf
