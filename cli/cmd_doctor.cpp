// gpufabric doctor: being written (issue 6); replaced by the real command in this session.
#include "commands.hpp"

#include <gpufabric/gpufabric.hpp>

namespace gfcli {

Command add_doctor(CLI::App& root) {
  CLI::App* sub = root.add_subcommand("doctor", "(not available yet)");
  return {sub, [] () -> int { throw gf::InputError({}, "doctor", "not available yet"); }};
}

}  // namespace gfcli
