#include "model/gdr_flush.hpp"

namespace gf {

int transport_terms_per_step(const LinkTech& tech, Protocol p, const std::string& arch) {
  // NVIDIA GPUs before Hopper (sm70-sm89: this project's volta, ampere and ada; Turing is indexed
  // as volta). AMD GPUs run RCCL, whose flush rule is not NCCL's, and keep one term.
  const bool pre_hopper = arch == "volta" || arch == "ampere" || arch == "ada";
  return (p == Protocol::Simple && tech.rdma && pre_hopper) ? 2 : 1;
}

}  // namespace gf
