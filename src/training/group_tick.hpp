// time_groups (group_collectives.hpp) followed as it runs, for `gpufabric train`'s progress line
// (engine/run_tick.hpp): the same timing, the same result.
#pragma once

#include "engine/run_tick.hpp"
#include "training/group_collectives.hpp"

namespace gf {

GroupTiming time_groups_ticked(const Cluster& cluster, const Router& router, const std::string& model,
                               const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                               const std::string& flag, const RunTick& tick);

}  // namespace gf
