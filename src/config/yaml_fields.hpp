// Reading one YAML mapping with the checks every config block needs: unknown keys are errors with
// a "did you mean", every value error names file:line and the dotted key, units parse at the edge.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace gf {

SourceLocation location_of(const YAML::Node& node, const std::string& file);

// Parses a whole YAML document. Malformed YAML is an InputError at its line and column; an empty
// document is one that says `empty_hint` (where to start from).
YAML::Node load_yaml_document(const std::string& text, const std::string& file, const std::string& empty_hint);

// Throws InputError at the first of `keys` that `root` has: keys that only the other file format
// (cluster vs scenario) has, so a file given to the wrong command says what it is rather than
// "unknown key".
void refuse_other_format(const YAML::Node& root, const std::string& file, const std::vector<std::string>& keys,
                         const std::string& message, const std::string& hint);

class YamlFields {
 public:
  // `path` is the dotted key of this block ("fabric", "server.nodes[3]") used in messages.
  YamlFields(const YAML::Node& map, std::string file, std::string path, std::vector<std::string> allowed);

  bool has(const std::string& key) const;
  SourceLocation where(const std::string& key) const;  // the key's value, or the block itself
  SourceLocation where() const { return location_of(map_, file_); }
  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const YAML::Node& node() const { return map_; }
  YAML::Node get(const std::string& key) const { return map_[key]; }

  std::string required_string(const std::string& key) const;
  std::string string_or(const std::string& key, const std::string& fallback) const;
  int64_t integer_or(const std::string& key, int64_t fallback, int64_t min_value) const;
  double number_or(const std::string& key, double fallback, double min_value) const;
  bool boolean_or(const std::string& key, bool fallback) const;
  std::optional<Bandwidth> bandwidth(const std::string& key) const;
  std::optional<Time> time(const std::string& key) const;
  // Fails at `key` when `value` lies outside the key's physical range (core/physical_ranges.hpp);
  // the typed readers above call it, so a caller needs it only for values it parses itself.
  void check_range(const std::string& key, double value) const;
  [[noreturn]] void fail(const std::string& key, const std::string& message, const std::string& hint = {}) const;

 private:
  std::string scalar(const std::string& key, const char* expected) const;
  YAML::Node map_;
  std::string file_, path_;
};

}  // namespace gf
