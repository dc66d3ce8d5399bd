// Errors a user can act on. Every input problem is an InputError that names where it came from
// (file, line, key), what was wrong and, where we can tell, how to fix it. The CLI maps it to
// exit status 2; nothing inside the library prints or exits.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace gf {

struct SourceLocation {
  std::string file;  // empty when the input did not come from a file (a command-line flag)
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, std::string key, std::string message, std::string hint = {});
  const SourceLocation& where() const { return where_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }
  const std::string& hint() const { return hint_; }

 private:
  SourceLocation where_;
  std::string key_, message_, hint_;
};

// A unit string that does not parse; carries no location (the caller adds it).
class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The closest candidate by edit distance, or "" when nothing is close enough to suggest.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
// "did you mean 'x'? valid: a, b, c" — a ready-made hint for an unknown name.
std::string suggest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace gf
