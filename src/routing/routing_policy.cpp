#include "routing/routing_policy.hpp"

namespace gf {

std::optional<RoutingPolicy> parse_routing_policy(std::string_view name) {
  for (size_t i = 0; i < kRoutingPolicyNames.size(); ++i)
    if (kRoutingPolicyNames[i] == name) return static_cast<RoutingPolicy>(i);
  return std::nullopt;
}

const std::vector<std::string>& routing_policy_names() {
  static const std::vector<std::string> names(kRoutingPolicyNames.begin(), kRoutingPolicyNames.end());
  return names;
}

}  // namespace gf
