// A list that grows by whole blocks of 16,384 elements and never moves what it holds: the trace
// writer keeps hundreds of thousands of records (report/trace.hpp), and a doubling vector copied
// them at each growth and faulted in twice their pages (a tenth of the traced main sweep's time,
// docs/performance.md), while a std::deque's 512-byte nodes scattered them through the heap the
// simulation allocates from. Each block is one allocation, filled in place.
#pragma once

#include <cstddef>
#include <vector>

namespace gf {

template <class T>
class BlockList {
 public:
  static constexpr size_t kBlock = 1 << 14;

  void push_back(const T& v) {
    if (blocks_.empty() || blocks_.back().size() == kBlock) {
      blocks_.emplace_back();
      blocks_.back().reserve(kBlock);
    }
    blocks_.back().push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return blocks_[i / kBlock][i % kBlock]; }
  const T& operator[](size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
  // Calls f(element) for each, in order.
  template <class F>
  void for_each(F&& f) const {
    for (const std::vector<T>& b : blocks_)
      for (const T& v : b) f(v);
  }

 private:
  std::vector<std::vector<T>> blocks_;
  size_t size_ = 0;
};

}  // namespace gf
