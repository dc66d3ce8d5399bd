// One small file per subcommand; each registers its options on the app and returns the function
// that runs it after parsing. main.cpp holds the table of subcommands and nothing else.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace gfcli {

struct Command {
  CLI::App* app;
  std::function<int()> run;  // exit status: 0 ok, 1 findings (doctor), 2 bad input
};

// A report's JSON text. Files are checked to be UTF-8 where they are read; a byte that still is not
// (a path given on the command line) prints as U+FFFD rather than stopping the writer.
template <class Json>  // nlohmann::json or ordered_json (the reports keep their key order)
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

Command add_list(CLI::App& root);
Command add_topo(CLI::App& root);
struct SweepArgs;
// `from_file`: the axes of a sweep file (`gpufabric sweep`), added to any --set.
Command add_perf(CLI::App& root, const SweepArgs* from_file = nullptr);
Command add_validate(CLI::App& root);
Command add_run(CLI::App& root);
Command add_import(CLI::App& root);
Command add_doctor(CLI::App& root);
Command add_bom(CLI::App& root);
Command add_compare(CLI::App& root);
Command add_design(CLI::App& root);
Command add_train(CLI::App& root);
Command add_goodput(CLI::App& root);
Command add_sweep(CLI::App& root);
Command add_replay(CLI::App& root);
Command add_infer(CLI::App& root);

}  // namespace gfcli
