#include "config/yaml_fields.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/parse_units.hpp"
#include "core/physical_ranges.hpp"
#include "core/utf8.hpp"

namespace gf {

SourceLocation location_of(const YAML::Node& node, const std::string& file) {
  SourceLocation loc{file, 0, 0};
  if (node.IsDefined()) {
    YAML::Mark m = node.Mark();
    if (m.line >= 0) loc.line = m.line + 1, loc.column = m.column + 1;
  }
  return loc;
}

void refuse_other_format(const YAML::Node& root, const std::string& file, const std::vector<std::string>& keys,
                         const std::string& message, const std::string& hint) {
  if (!root.IsMap()) return;
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (!it->first.IsScalar()) continue;  // YamlFields reports it
    for (const auto& k : keys)
      if (it->first.Scalar() == k) throw InputError(location_of(it->first, file), k, message, hint);
  }
}

YamlFields::YamlFields(const YAML::Node& map, std::string file, std::string path, std::vector<std::string> allowed)
    : map_(map), file_(std::move(file)), path_(std::move(path)) {
  if (!map_.IsMap())
    throw InputError(location_of(map_, file_), path_.empty() ? "(top level)" : path_, "expected a mapping of key: value",
                     path_.empty() ? std::string("write the file as `key: value` lines")
                                   : "write it as `key: value` lines indented under '" + path_ + "'");
  std::vector<std::pair<std::string, int>> seen;  // key, line: blocks have a dozen keys at most
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    // `? [kind] : leaf_spine` is valid YAML with a list as the key; no block of ours has one.
    if (!it->first.IsScalar())
      throw InputError(location_of(it->first, file_), path_.empty() ? "(top level)" : path_,
                       "a key must be a plain name, not a list or mapping",
                       "write `key: value` with a name such as " + (allowed.empty() ? std::string("kind") : allowed.front()) +
                           " before the colon");
    std::string key = it->first.Scalar();
    const int line = location_of(it->first, file_).line;
    for (const auto& [k, first] : seen)
      if (k == key)
        // yaml-cpp keeps both entries and reads the first; YAML 1.2 (section 3.2.1.1) requires
        // unique keys, and a silent choice would hide whichever the user edited last.
        throw InputError(location_of(it->first, file_), key_path(key),
                         "given twice, at line " + std::to_string(first) + " and at line " + std::to_string(line),
                         "keep one of the two");
    seen.emplace_back(key, line);
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

void YamlFields::check_range(const std::string& key, double value) const {
  const std::string why = range_violation(key_path(key), value);
  if (why.empty()) return;
  const PhysicalRange& r = *physical_range(key_path(key));
  fail(key, why, "use a value from " + format_bound(r.unit, r.min) + " to " + format_bound(r.unit, r.max));
}

std::string YamlFields::scalar(const std::string& key, const char* expected) const {
  YAML::Node v = map_[key];
  if (!v.IsScalar()) fail(key, std::string("expected ") + expected, "write it as `" + key + ": value` on one line");
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
  if (ec != std::errc() || p != s.data() + s.size()) fail(key, "expected a whole number, got '" + s + "'", "write digits only, e.g. `" + key + ": 4`");
  if (v < min_value) fail(key, "must be at least " + std::to_string(min_value) + ", got " + s, "use " + std::to_string(min_value) + " or more");
  check_range(key, static_cast<double>(v));
  return v;
}

double YamlFields::number_or(const std::string& key, double fallback, double min_value) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "a number");
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) fail(key, "expected a number, got '" + s + "'", "write a plain number, e.g. `" + key + ": 2`");
  if (v < min_value) fail(key, "must be at least " + fmt::format("{:g}", min_value) + ", got " + s, "use " + fmt::format("{:g}", min_value) + " or more");
  check_range(key, v);
  return v;
}

bool YamlFields::boolean_or(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "true or false");
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail(key, "expected true or false, got '" + s + "'", "write `" + key + ": true` or `" + key + ": false`");
}

std::optional<Bandwidth> YamlFields::bandwidth(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  std::string s = scalar(key, "a bandwidth such as 400Gbps");
  Bandwidth bw;
  try {
    bw = parse_bandwidth(s);
  } catch (const UnitError& e) {
    fail(key, e.what(), "bandwidths look like 400Gbps or 50GB/s");
  }
  check_range(key, bw.bytes_per_second());
  return bw;
}

std::optional<Time> YamlFields::time(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  std::string s = scalar(key, "a time such as 1.5us");
  Time t;
  try {
    t = parse_time(s);
  } catch (const UnitError& e) {
    fail(key, e.what(), "times look like 1.5us, 100ns or 2ms");
  }
  check_range(key, static_cast<double>(t.picoseconds()));
  return t;
}

namespace {

// The line of the `---` that starts the second document, for the error (yaml-cpp gives an empty
// second document no mark).
int second_document_line(const std::string& text) {
  int line = 1, seen = 0;
  bool content = false;  // a line of the first document before this marker
  for (size_t i = 0; i < text.size(); ++line) {
    size_t end = text.find('\n', i);
    if (end == std::string::npos) end = text.size();
    const std::string_view l(text.data() + i, end - i);
    if (l.rfind("---", 0) == 0 && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r')) {
      if (content || ++seen > 1) return line;
    } else if (!l.empty() && l[0] != '#' && l[0] != '%' && l.find_first_not_of(" \t\r") != std::string_view::npos) {
      content = true;
    }
    i = end + 1;
  }
  return 0;
}

// yaml-cpp reads a quoted scalar whose closing quote is missing to the end of the file, which
// swallows every key after it (`name: "x` then reported `server` as missing). Each quoted scalar
// (tag "!") starts with its quote at its mark; the quote must close before the text ends.
void check_quotes_closed(const YAML::Node& n, const std::string& text, const std::string& file, int depth = 0) {
  if (depth > 64) return;  // yaml-cpp's own nesting limit stops deeper documents first
  if (n.IsScalar()) {
    const YAML::Mark m = n.Mark();
    if (n.Tag() != "!" || m.pos < 0 || static_cast<size_t>(m.pos) >= text.size()) return;
    const char q = text[static_cast<size_t>(m.pos)];
    if (q != '"' && q != '\'') return;
    for (size_t i = static_cast<size_t>(m.pos) + 1; i < text.size(); ++i) {
      if (q == '"' && text[i] == '\\') ++i;                  // \" is an escaped quote
      else if (q == '\'' && text[i] == '\'' && i + 1 < text.size() && text[i + 1] == '\'') ++i;  // '' is a quote
      else if (text[i] == q) return;
    }
    throw InputError({file, m.line + 1, m.column + 1}, "", std::string("a ") + (q == '"' ? "double" : "single") +
                                                             " quote that never closes: the rest of the file became one string",
                     std::string("close it with ") + q + " on the same line");
  }
  if (n.IsSequence() || n.IsMap())
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (n.IsMap()) {
        check_quotes_closed(it->first, text, file, depth + 1);
        check_quotes_closed(it->second, text, file, depth + 1);
      } else {
        check_quotes_closed(*it, text, file, depth + 1);
      }
    }
}

}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& file, const std::string& empty_hint) {
  require_utf8(text, file);
  YAML::Node root;
  try {
    // YAML::Load reads the first document only. Not YAML::LoadAll: on some malformed input (a
    // file starting with `,`) yaml-cpp 0.7's LoadAll loops forever making empty documents, which
    // the fuzzer found; the second document is found by its marker line instead.
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "", "malformed YAML: " + e.msg,
                     "check indentation and that every `key: value` has a space after the colon");
  }
  if (const int line = second_document_line(text); line > 0)
    throw InputError({file, line, 0}, "", "a second YAML document (after `---`); gpufabric reads one per file",
                     "put each cluster or scenario in a file of its own, or delete the `---` line");
  if (!root.IsDefined() || root.IsNull()) {
    // yaml-cpp reads some broken text (a first line starting with `,`) as an empty document: say
    // where the text is rather than that there is none.
    int line = 1;
    for (size_t i = 0; i < text.size(); ++line) {
      size_t end = text.find('\n', i);
      if (end == std::string::npos) end = text.size();
      const std::string_view l(text.data() + i, end - i);
      const size_t first = l.find_first_not_of(" \t\r");
      if (first != std::string_view::npos && l[first] != '#' && l.substr(first) != "---" && l.substr(first) != "...")
        throw InputError({file, line, static_cast<int>(first) + 1}, "", "malformed YAML: nothing could be read from here on",
                         "check indentation and that every `key: value` has a space after the colon");
      i = end + 1;
    }
    throw InputError({file, 1, 0}, "", "the file is empty", empty_hint);
  }
  check_quotes_closed(root, text, file);
  return root;
}

}  // namespace gf
