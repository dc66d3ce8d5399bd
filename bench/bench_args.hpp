// Command-line flags of the benchmark programs: `--flag value` pairs and bare switches, read in
// order, each bad value an InputError naming the flag with the program's usage as the hint.
// Shared so the peer and packet benchmarks parse numbers, sizes and ring semantics alike.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/parse_units.hpp"

namespace gfbench {

class ArgReader {
 public:
  ArgReader(int argc, char** argv, std::string usage) : argc_(argc), argv_(argv), usage_(std::move(usage)) {}

  // Moves to the next flag; false when there is none left.
  bool next() {
    if (++i_ >= argc_) return false;
    flag_ = argv_[i_];
    return true;
  }
  const std::string& flag() const { return flag_; }

  [[noreturn]] void bad(const std::string& msg) const { fail(flag_, msg); }
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw gf::InputError({}, key, msg, "usage: " + usage_);
  }

  // The current flag's value (the next argument).
  std::string value() {
    if (i_ + 1 >= argc_) bad("needs a value");
    return argv_[++i_];
  }
  int64_t whole() {
    const std::string v = value();
    try {
      size_t used = 0;
      const int64_t n = std::stoll(v, &used);
      if (used == v.size()) return n;
    } catch (const std::exception&) {
    }
    bad("expected a whole number, got '" + v + "'");
  }
  // 8, 1K, 16MiB, 2MB: gf::parse_size.
  gf::Bytes size() {
    const std::string v = value();
    try {
      return gf::parse_size(v);
    } catch (const gf::UnitError& e) {
      bad(e.what());
    }
  }

 private:
  int argc_;
  char** argv_;
  std::string usage_;
  int i_ = 0;
  std::string flag_;
};

}  // namespace gfbench
