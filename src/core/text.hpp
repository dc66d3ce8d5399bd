// Small text helpers every layer's parsers share.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace gf {

// ASCII lower case (names, units and flags are ASCII; other bytes pass through).
inline std::string ascii_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace gf
