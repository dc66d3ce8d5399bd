// How a scale-out route's fabric part is chosen among its equal-cost paths (scale-up routes are
// always sprayed over their NVLink/NVSwitch paths by bandwidth, as the hardware does):
//  - ecmp: one path, pinned by a deterministic per-flow hash at each hop, so flows that collide on
//    a link share it, as in real fabrics (RFC 2992: hash-threshold ECMP);
//  - spray: the bytes split evenly over up to Router::kSprayPaths equal-cost fabric paths, the ideal
//    spreading that per-packet spraying approaches;
//  - adaptive: at each hop the next hop whose outgoing link is least loaded (ties by the ECMP
//    hash), as InfiniBand AR and Spectrum-X do (per transfer here; per packet in the packet model).
// Router::route (router.hpp) documents exactly how each is walked.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gf {

enum class RoutingPolicy : uint8_t { Ecmp, Spray, Adaptive };

// Every policy's name, in enum order (help texts, did-you-mean suggestions).
inline constexpr std::array<std::string_view, 3> kRoutingPolicyNames{"ecmp", "spray", "adaptive"};

inline std::string_view to_string(RoutingPolicy p) { return kRoutingPolicyNames[static_cast<size_t>(p)]; }
// "ecmp", "spray", "adaptive" (exactly); nullopt for anything else.
std::optional<RoutingPolicy> parse_routing_policy(std::string_view name);
// The names as strings, for option checks and "did you mean" suggestions.
const std::vector<std::string>& routing_policy_names();

}  // namespace gf
