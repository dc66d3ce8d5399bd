// Parsing of unit strings, done once at the edge (YAML, command line). Each function throws
// UnitError with a message saying what was expected; callers add file/line/key.
#pragma once

#include <string_view>

#include "core/units.hpp"

namespace gf {

// "400Gbps", "400 Gb/s", "50GB/s", "50 GBps", "900GB/s bidirectional" (halved: bandwidth inside
// gpufabric is per direction), "100Mbps", "1.6Tbps". Must lie in 1Mbps..1EB/s.
Bandwidth parse_bandwidth(std::string_view text);
// "1.5us", "100ns", "2ms", "1s", "500ps", "1.5µs". Must be >= 0 and at most 1e6 s.
Time parse_time(std::string_view text);
// nccl-tests sizes: "8", "1K", "128M", "8G", also "64KiB", "1MB" (K/M/G/T are powers of 1024, as
// nccl-tests reads them). Must be >= 0 and at most 2^50 (1024T).
Bytes parse_size(std::string_view text);

}  // namespace gf
