// One small file per subcommand; each registers its options on the app and returns the function
// that runs it after parsing. main.cpp holds the table of subcommands and nothing else.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace gfcli {

struct Command {
  CLI::App* app;
  std::function<int()> run;  // exit status: 0 ok, 1 findings (doctor), 2 bad input
};

Command add_list(CLI::App& root);
Command add_topo(CLI::App& root);
Command add_perf(CLI::App& root);
Command add_validate(CLI::App& root);
Command add_run(CLI::App& root);
Command add_import(CLI::App& root);
Command add_doctor(CLI::App& root);

}  // namespace gfcli
