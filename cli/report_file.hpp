// What the commands that write a report file share: refusing to replace a file unless --force,
// writing it with an error that names the flag, removing one left half-written by a failure, and
// the command line a report prints (rebuilt from what CLI11 parsed: every option given, in the
// order the command declares them).
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <gpufabric/gpufabric.hpp>
#include <string>

namespace gfcli {

// The version `gpufabric --version` prints (the project's, from CMake).
inline std::string version_text() { return std::string("gpufabric ") + GPUFABRIC_VERSION; }

// Checked before the run, so a run of minutes is not lost to a name that was taken.
inline void check_new_file(const std::string& path, bool force, const std::string& flag) {
  if (std::filesystem::exists(path) && !force)
    throw gf::InputError({}, flag, "'" + path + "' exists and was not overwritten",
                         "name another file, or add --force");
}

inline void write_file(const std::string& path, const std::string& text, const std::string& flag) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw gf::InputError({}, flag, "could not write '" + path + "'", "check the folder exists and is writable");
}

// A file written while the run goes (perf --trace streams each size's events out): removed when
// the command fails before it is complete (`keep` not set), so no half-written file is left.
struct RemoveUnlessKept {
  std::string path;  // empty: nothing to remove
  bool keep = false;
  RemoveUnlessKept() = default;
  RemoveUnlessKept(const RemoveUnlessKept&) = delete;
  RemoveUnlessKept& operator=(const RemoveUnlessKept&) = delete;
  ~RemoveUnlessKept() {
    std::error_code ignored;
    // A regular file only: --trace /dev/stdout --force must not remove the device.
    if (!keep && !path.empty() && std::filesystem::is_regular_file(path, ignored)) std::filesystem::remove(path, ignored);
  }
};

// "gpufabric perf all_reduce -b 8 -e 8G -f 2 --html r.html": the subcommand and every option the
// user gave, with their values; a value with a blank or a quote is single-quoted as a shell would
// need it.
inline std::string command_line(const CLI::App& sub) {
  auto quoted = [](const std::string& v) {
    if (!v.empty() && v.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos) return v;
    std::string q = "'";
    for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string out = "gpufabric " + sub.get_name();
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->count() == 0 || opt->get_name() == "--help") continue;
    const bool positional = opt->get_lnames().empty() && opt->get_snames().empty();
    // nccl-tests' short spellings (-b, -e, -f) where an option has one, as its users write them.
    const std::string name = !opt->get_snames().empty()  ? "-" + opt->get_snames()[0]
                             : opt->get_lnames().empty() ? std::string()
                                                         : "--" + opt->get_lnames()[0];
    if (opt->get_type_size() == 0) {  // a flag
      for (size_t i = 0; i < opt->count(); ++i) out += " " + name;
      continue;
    }
    for (const std::string& v : opt->results()) out += (positional ? " " : " " + name + " ") + quoted(v);
  }
  return out;
}

}  // namespace gfcli
