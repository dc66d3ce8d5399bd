#include "inference/group_comm.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"

namespace gf {

Communicator infer_group_comm(const Cluster& c, const Router& router, const std::vector<int64_t>& gpus,
                              const std::string& flag) {
  const int gps = c.gpus_per_server();
  std::vector<int64_t> servers;
  std::map<int64_t, std::vector<int>> locals;
  for (int64_t g : gpus) {
    if (!locals.count(g / gps)) servers.push_back(g / gps);
    locals[g / gps].push_back(static_cast<int>(g % gps));
  }
  for (auto& [s, l] : locals) std::sort(l.begin(), l.end());
  const std::vector<int>& first = locals[servers.front()];
  for (const auto& [s, l] : locals)
    if (l != first)
      throw InputError({}, flag,
                       "the group of GPU " + std::to_string(gpus.front()) +
                           " takes different GPU positions on different servers",
                       "choose TP and EP so that a group takes whole servers or a divisor of a server's " +
                           std::to_string(gps) + " GPUs");
  return make_communicator(c, router, servers, first);
}

}  // namespace gf
