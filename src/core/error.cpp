#include "core/error.hpp"

#include <algorithm>
#include <cctype>

namespace gf {

static std::string render(const SourceLocation& w, const std::string& key, const std::string& msg,
                          const std::string& hint) {
  std::string out;
  if (!w.file.empty()) {
    out.append(w.file);
    if (w.line > 0) out.append(":").append(std::to_string(w.line));
    if (w.column > 0) out.append(":").append(std::to_string(w.column));
    out.append(": ");
  }
  if (!key.empty()) out.append("'").append(key).append("': ");
  out.append(msg);
  if (!hint.empty()) out.append("\n  hint: ").append(hint);
  return out;
}

InputError::InputError(SourceLocation where, std::string key, std::string message, std::string hint)
    : std::runtime_error(render(where, key, message, hint)),
      where_(std::move(where)),
      key_(std::move(key)),
      message_(std::move(message)),
      hint_(std::move(hint)) {}

static size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  // Suggest only plausible typos: at most a third of the word's letters wrong (at least 2 allowed).
  size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_d <= limit ? best : std::string();
}

std::string suggest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string out;
  std::string best = closest_match(word, candidates);
  if (!best.empty()) out = "did you mean '" + best + "'? ";
  out += "valid: ";
  for (size_t i = 0; i < candidates.size(); ++i) out += (i ? ", " : "") + candidates[i];
  return out;
}

}  // namespace gf
