// Built-in servers by name ("dgx-h100", ...), each with a one-line description and its source.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "topology/server_template.hpp"

namespace gf {

struct ServerPreset {
  std::string name;
  ServerTemplate (*make)();
};

const std::vector<ServerPreset>& server_registry();
// nullptr when no server of that name exists.
const ServerPreset* find_server(const std::string& name);
std::vector<std::string> server_names();

}  // namespace gf
