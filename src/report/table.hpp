// A plain text table: columns padded to their widest cell, left- or right-aligned.
#pragma once

#include <string>
#include <vector>

namespace gf {

class TextTable {
 public:
  // A header starting with '>' is right-aligned (the '>' is not printed).
  explicit TextTable(std::vector<std::string> headers, std::string indent = "  ");
  void add(std::vector<std::string> row);
  std::string render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
  std::string indent_;
};

// 1234567 -> "1,234,567"
std::string with_commas(int64_t v);
// A count that may exceed int64 (path counts): exact below 1e15, else scientific.
std::string big_count(double v);

}  // namespace gf
