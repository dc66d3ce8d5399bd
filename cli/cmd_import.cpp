// gpufabric import: being written (issue 6); replaced by the real command in this session.
#include "commands.hpp"

#include <gpufabric/gpufabric.hpp>

namespace gfcli {

Command add_import(CLI::App& root) {
  CLI::App* sub = root.add_subcommand("import", "(not available yet)");
  return {sub, [] () -> int { throw gf::InputError({}, "import", "not available yet"); }};
}

}  // namespace gfcli
