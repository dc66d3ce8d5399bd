#include "routing/net_pairs.hpp"

namespace gf {

std::string net_pairs_without_network(int64_t servers, const Router& r) {
  if (servers > 1) return "";
  const int n = r.net_pairs_across_nics();
  if (n == 0) return "";
  return std::to_string(n) +
         " GPU pairs of this server would use NCCL's NET transport (P2P and SHM off) through different NICs, but "
         "a one-server cluster has no network between its NICs";
}

}  // namespace gf
