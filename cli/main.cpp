// gpufabric: simulator and analyzer of GPU-cluster networks. See README.md.
#include <iostream>
#include <vector>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"
#include "guard.hpp"
#include "report_file.hpp"

namespace {

// The subcommand the user typed, for a hint that names its --help.
std::string command_name(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) return "gpufabric " + sub->get_name();
  return "gpufabric";
}

// CLI11's own messages ("The following argument was not expected: --nodez") in the one error
// form every other message uses, with a did-you-mean for a misspelled option or subcommand.
int parse_error(const CLI::App& app, const CLI::ParseError& e, const std::string& first_word) {
  std::string hint = "see `" + command_name(app) + " --help`";
  const std::string what = e.what();
  std::vector<std::string> names;
  const CLI::App* where = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  for (const CLI::Option* opt : where->get_options())
    for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  // An unexpected word is the last one of CLI11's message ("... was not expected: --nodez"); a
  // value that does not convert ("Could not convert: --nodes = two") has no near miss to offer.
  const size_t space = what.find_last_of(' ');
  const std::string token = space == std::string::npos ? what : what.substr(space + 1);
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    if (std::string m = gf::closest_match(token, names); !m.empty() && m != token)
      hint = "did you mean '" + m + "'? " + hint;
  } else if (app.get_subcommands().empty() && !first_word.empty() && first_word[0] != '-') {
    // `gpufabric prf`: CLI11 says only that a subcommand is required.
    std::vector<std::string> subs;
    for (const CLI::App* sub : app.get_subcommands({})) subs.push_back(sub->get_name());
    hint = "'" + first_word + "' is not a command; " + gf::suggest(first_word, subs);
  }
  std::cerr << "gpufabric: error: " << what << "\n  hint: " << hint << "\n";
  return gfcli::kBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  return gfcli::run_guarded(
      [&]() -> int {
        CLI::App app{"gpufabric: simulate and analyze GPU-cluster networks"};
        app.require_subcommand(1);
        app.set_version_flag("--version", gfcli::version_text());
        std::vector<gfcli::Command> commands = {gfcli::add_list(app), gfcli::add_topo(app), gfcli::add_perf(app)};
        commands.push_back(gfcli::add_validate(app));
        commands.push_back(gfcli::add_run(app));
        commands.push_back(gfcli::add_import(app));
        commands.push_back(gfcli::add_doctor(app));
        commands.push_back(gfcli::add_bom(app));
        commands.push_back(gfcli::add_compare(app));
        commands.push_back(gfcli::add_design(app));
        commands.push_back(gfcli::add_train(app));
        commands.push_back(gfcli::add_infer(app));
        commands.push_back(gfcli::add_goodput(app));
        commands.push_back(gfcli::add_sweep(app));
        commands.push_back(gfcli::add_replay(app));
        try {
          app.parse(argc, argv);
        } catch (const CLI::ParseError& e) {
          // Help and version are "errors" with status 0; CLI11 prints them.
          if (e.get_exit_code() == 0) return app.exit(e);
          return parse_error(app, e, argc > 1 ? argv[1] : "");
        }
        for (auto& c : commands)
          if (c.app->parsed()) return c.run();
        return 0;
      },
      std::cerr);
}
