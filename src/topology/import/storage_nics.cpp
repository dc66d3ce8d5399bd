#include "topology/import/storage_nics.hpp"

#include <algorithm>

namespace gf {

std::string mark_storage_nics(ServerTemplate& t, const std::vector<std::pair<int, NicPlace>>& nics) {
  const bool any_beside =
      std::any_of(nics.begin(), nics.end(), [](const auto& n) { return n.second == NicPlace::BesideGpu; });
  if (!any_beside) return "";
  std::string storage;
  int count = 0;
  for (const auto& [index, place] : nics) {
    if (place != NicPlace::AwayFromGpus) continue;
    ServerNode& n = t.nodes[static_cast<size_t>(index)];
    n.role = "storage";
    n.rail = -1;
    storage += (count++ ? ", " : "") + (n.label.empty() ? n.name : n.label);
  }
  if (count == 0) return "";
  int rail = 0;
  for (ServerNode& n : t.nodes)
    if (n.compute_nic()) n.rail = rail++;
  return std::to_string(count) + " NIC(s) beside no GPU (" + storage + ") taken as storage / management ports " +
         "(role: storage), not compute rails: NCCL uses the NICs nearest each GPU; " + std::to_string(rail) +
         " compute NICs remain";
}

}  // namespace gf
