#include "config/yaml_fields.hpp"

#include <charconv>
#include <cmath>

#include "core/parse_units.hpp"

namespace gf {

SourceLocation location_of(const YAML::Node& node, const std::string& file) {
  SourceLocation loc{file, 0, 0};
  if (node.IsDefined()) {
    YAML::Mark m = node.Mark();
    if (m.line >= 0) loc.line = m.line + 1, loc.column = m.column + 1;
  }
  return loc;
}

YamlFields::YamlFields(const YAML::Node& map, std::string file, std::string path, std::vector<std::string> allowed)
    : map_(map), file_(std::move(file)), path_(std::move(path)) {
  if (!map_.IsMap())
    throw InputError(location_of(map_, file_), path_.empty() ? "(top level)" : path_, "expected a mapping of key: value",
                     "write it as `key: value` lines indented under '" + path_ + "'");
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    std::string key = it->first.as<std::string>();
    bool known = false;
    for (const auto& a : allowed) known |= a == key;
    if (!known)
      throw InputError(location_of(it->first, file_), key_path(key), "unknown key", suggest(key, allowed));
  }
}

bool YamlFields::has(const std::string& key) const { return map_[key].IsDefined() && !map_[key].IsNull(); }

SourceLocation YamlFields::where(const std::string& key) const {
  return has(key) ? location_of(map_[key], file_) : where();
}

void YamlFields::fail(const std::string& key, const std::string& message, const std::string& hint) const {
  throw InputError(where(key), key_path(key), message, hint);
}

std::string YamlFields::scalar(const std::string& key, const char* expected) const {
  YAML::Node v = map_[key];
  if (!v.IsScalar()) fail(key, std::string("expected ") + expected);
  return v.Scalar();
}

std::string YamlFields::required_string(const std::string& key) const {
  if (!has(key)) fail(key, "missing", "add `" + key + ": ...` to '" + (path_.empty() ? "the file" : path_) + "'");
  return scalar(key, "a string");
}

std::string YamlFields::string_or(const std::string& key, const std::string& fallback) const {
  return has(key) ? scalar(key, "a string") : fallback;
}

int64_t YamlFields::integer_or(const std::string& key, int64_t fallback, int64_t min_value) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "a whole number");
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) fail(key, "expected a whole number, got '" + s + "'");
  if (v < min_value) fail(key, "must be at least " + std::to_string(min_value) + ", got " + s);
  return v;
}

double YamlFields::number_or(const std::string& key, double fallback, double min_value) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "a number");
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) fail(key, "expected a number, got '" + s + "'");
  if (v < min_value) fail(key, "must be at least " + std::to_string(min_value) + ", got " + s);
  return v;
}

bool YamlFields::boolean_or(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "true or false");
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail(key, "expected true or false, got '" + s + "'");
}

std::optional<Bandwidth> YamlFields::bandwidth(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  std::string s = scalar(key, "a bandwidth such as 400Gbps");
  try {
    return parse_bandwidth(s);
  } catch (const UnitError& e) {
    fail(key, e.what());
  }
}

std::optional<Time> YamlFields::time(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  std::string s = scalar(key, "a time such as 1.5us");
  try {
    return parse_time(s);
  } catch (const UnitError& e) {
    fail(key, e.what());
  }
}

YAML::Node load_yaml_document(const std::string& text, const std::string& file, const std::string& empty_hint) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "", "malformed YAML: " + e.msg,
                     "check indentation and that every `key: value` has a space after the colon");
  }
  if (!root.IsDefined() || root.IsNull()) throw InputError({file, 1, 0}, "", "the file is empty", empty_hint);
  return root;
}

}  // namespace gf
