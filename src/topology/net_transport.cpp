#include "topology/net_transport.hpp"

#include <cstdlib>

namespace gf {

namespace {
const char* const kNames[] = {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS"};
}

std::optional<int> parse_gdr_level(const std::string& s) {
  for (int i = 0; i < 10; ++i)
    if (s == kNames[i]) return i;
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (*end != '\0' || v < 0) return std::nullopt;
  // paths.cc levelsOldToNew: 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and above SYS.
  static const int kOld[] = {kNcclPathLoc, kNcclPathPix, kNcclPathPxb, kNcclPathPhb, kNcclPathSys};
  return kOld[v > 4 ? 4 : v];
}

const char* nccl_path_name(int type) { return type >= 0 && type < 10 ? kNames[type] : "?"; }

}  // namespace gf
