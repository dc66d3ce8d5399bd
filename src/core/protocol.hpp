// NCCL's three wire protocols. They trade bandwidth for latency: LL sends 8-byte lines carrying
// 4 bytes of data and a 4-byte flag (50% efficiency, lowest latency), LL128 sends 128-byte lines
// with 120 bytes of data (about 94%), Simple sends whole buffers behind a fence (full bandwidth,
// highest latency). Source: NVIDIA/nccl src/device/prims_ll.h, prims_ll128.h, prims_simple.h and
// the published cost-model constants in ../shared/validation/README.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gf {

enum class Protocol : uint8_t { LL = 0, LL128 = 1, Simple = 2 };
constexpr int kProtocols = 3;

const char* to_string(Protocol p);
std::optional<Protocol> parse_protocol(const std::string& name);  // "ll", "ll128", "simple" (any case)

}  // namespace gf
