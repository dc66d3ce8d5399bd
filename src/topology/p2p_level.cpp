#include "topology/p2p_level.hpp"

#include <array>
#include <cstdlib>

namespace gf {

namespace {
constexpr std::array<const char*, 6> kNames = {"LOC", "NVL", "PIX", "PXB", "PHB", "SYS"};
}

std::optional<PathType> parse_path_type(const std::string& s) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (s == kNames[i]) return static_cast<PathType>(i);
  // NCCL's old numeric levels (paths.cc levelsOldToNew = {LOC, PIX, PXB, PHB, SYS, SYS}; larger
  // numbers are clamped to the last).
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 6) return std::nullopt;
  static constexpr std::array<PathType, 6> kOld = {PathType::Loc, PathType::Pix, PathType::Pxb,
                                                   PathType::Phb, PathType::Sys, PathType::Sys};
  const long v = std::strtol(s.c_str(), nullptr, 10);
  return kOld[static_cast<size_t>(v > 5 ? 5 : v)];
}

const char* path_type_name(PathType t) { return kNames[static_cast<size_t>(t)]; }

const char* transport_name(Transport t) {
  switch (t) {
    case Transport::P2p: return "P2P";
    case Transport::Shm: return "SHM";
    case Transport::Net: return "NET";
  }
  return "?";
}

}  // namespace gf
