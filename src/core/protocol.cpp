#include "core/protocol.hpp"

#include "core/text.hpp"

namespace gf {

const char* to_string(Protocol p) {
  switch (p) {
    case Protocol::LL: return "LL";
    case Protocol::LL128: return "LL128";
    case Protocol::Simple: return "Simple";
  }
  return "?";
}

std::optional<Protocol> parse_protocol(const std::string& name) {
  const std::string n = ascii_lower(name);
  if (n == "ll") return Protocol::LL;
  if (n == "ll128") return Protocol::LL128;
  if (n == "simple") return Protocol::Simple;
  return std::nullopt;
}

}  // namespace gf
