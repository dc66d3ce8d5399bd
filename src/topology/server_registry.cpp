#include "topology/server_registry.hpp"

#include "topology/servers/servers.hpp"

namespace gf {

const std::vector<ServerPreset>& server_registry() {
  static const std::vector<ServerPreset> kServers = {
      {"dgx-h100", make_dgx_h100},
  };
  return kServers;
}

const ServerPreset* find_server(const std::string& name) {
  for (const auto& s : server_registry())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> server_names() {
  std::vector<std::string> out;
  for (const auto& s : server_registry()) out.push_back(s.name);
  return out;
}

}  // namespace gf
