// gpufabric: simulator and analyzer of GPU-cluster networks. See README.md.
#include <iostream>
#include <vector>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gpufabric: simulate and analyze GPU-cluster networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gpufabric 0.1.0");
  std::vector<gfcli::Command> commands = {gfcli::add_list(app), gfcli::add_topo(app), gfcli::add_perf(app)};
  commands.push_back(gfcli::add_validate(app));
  commands.push_back(gfcli::add_run(app));
  commands.push_back(gfcli::add_import(app));
  commands.push_back(gfcli::add_doctor(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help, version or the parse error
    return code == 0 ? 0 : 2;
  }
  try {
    for (auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const gf::InputError& e) {
    std::cerr << "gpufabric: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
