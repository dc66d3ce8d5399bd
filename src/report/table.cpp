#include "report/table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gf {

TextTable::TextTable(std::vector<std::string> headers, std::string indent) : indent_(std::move(indent)) {
  for (auto& h : headers) {
    right_.push_back(!h.empty() && h[0] == '>');
    headers_.push_back(right_.back() ? h.substr(1) : h);
  }
}

void TextTable::add(std::vector<std::string> row) {
  row.resize(headers_.size());
  rows_.push_back(std::move(row));
}

std::string TextTable::render() const {
  std::vector<size_t> w(headers_.size());
  for (size_t i = 0; i < headers_.size(); ++i) w[i] = headers_[i].size();
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  auto line = [&](const std::vector<std::string>& r) {
    std::string out = indent_;
    for (size_t i = 0; i < r.size(); ++i) {
      std::string cell = right_[i] ? std::string(w[i] - r[i].size(), ' ') + r[i] : r[i] + std::string(w[i] - r[i].size(), ' ');
      out += cell + (i + 1 < r.size() ? "  " : "");
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headers_);
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string with_commas(int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string big_count(double v) {
  if (v < 1e15) return with_commas(static_cast<int64_t>(std::llround(v)));
  return fmt::format("{:.3e}", v);
}

}  // namespace gf
