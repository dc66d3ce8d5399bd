// NCCL_IB_HCA: which RDMA NICs NCCL uses, in NCCL's syntax (NCCL environment variable
// documentation, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-hca; parsed
// in NVIDIA/nccl src/transport/net_ib.cc with parseStringList / matchIfList of src/misc/utils.cc):
//   a comma-separated list of device names, each optionally `:port`;
//   a leading `^` makes it a list of NICs NOT to use;
//   a `=` after it (or at the start) makes every name exact; otherwise each is a prefix, so
//   `mlx5_1` also matches mlx5_10 and mlx5_11, as on a real DGX A100.
// A NIC is matched by its label (mlx5_0, as nvidia-smi lists it) or, without one, its node name.
// gpufabric models one port per NIC (a dual-port card is two NICs, as the kernel lists it), port 1.
#pragma once

#include <string>
#include <vector>

#include "topology/server_template.hpp"

namespace gf {

struct IbHcaFilter {
  struct Entry {
    std::string name;
    int port = -1;  // -1: any port
  };
  bool exclude = false;  // `^`
  bool exact = false;    // `=`
  std::vector<Entry> entries;

  bool matches(const ServerNode& nic) const;  // listed (before `^` is taken into account)
  bool keeps(const ServerNode& nic) const { return matches(nic) != exclude; }
};

// Parses NCCL_IB_HCA's value; a malformed one (an empty name, a port that is not a number) is an
// InputError naming `where` and NCCL_IB_HCA.
IbHcaFilter parse_ib_hca(const std::string& value, const std::string& where);

// Marks the compute NICs the filter leaves out as excluded (ServerNode::nccl_excluded) and returns
// their names ("mlx5_3"). Leaving no compute NIC on a server of a multi-server cluster is an
// InputError listing the NICs there are, as NCCL finds no IB device then.
std::vector<std::string> apply_ib_hca(ServerTemplate& server, const std::string& value, bool needs_nics,
                                      const std::string& where);

// What a NIC is called for NCCL_IB_HCA: its label, else its node name.
const std::string& ib_name(const ServerNode& nic);

}  // namespace gf
