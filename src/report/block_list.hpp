// A list that grows by whole blocks of 16,384 elements and never moves what it holds: the trace
// writer keeps hundreds of thousands of records (report/trace.hpp), and a doubling vector copied
// them at each growth and faulted in twice their pages (a tenth of the traced main sweep's time,
// docs/performance.md), while a std::deque's 512-byte nodes scattered them through the heap the
// simulation allocates from. Each block is one allocation, filled in place.
#pragma once

#include <cstddef>
#include <vector>

#include "core/prefault.hpp"

namespace gf {

template <class T>
class BlockList {
 public:
  static constexpr size_t kBlock = 1 << 14;

  void push_back(const T& v) {
    if (size_ == used_ * kBlock) {  // every block in use is full
      if (used_ == blocks_.size()) {
        blocks_.emplace_back();
        // A list that filled one block is a big one: the next blocks are mapped whole in one call
        // (core/prefault.hpp) rather than faulted in page by page; the first is left to fault in
        // as it fills, so that a small trace maps only what it uses.
        if (blocks_.size() == 1)
          blocks_.back().reserve(kBlock);
        else
          reserve_prefaulted(blocks_.back(), kBlock);
      }
      ++used_;
    }
    blocks_[used_ - 1].push_back(v);
    ++size_;
  }
  // Empties the list but keeps its blocks, so what is added next reuses their pages.
  void clear() {
    for (size_t b = 0; b < used_; ++b) blocks_[b].clear();
    used_ = 0;
    size_ = 0;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return blocks_[i / kBlock][i % kBlock]; }
  const T& operator[](size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
  // Calls f(element) for each, in order.
  template <class F>
  void for_each(F&& f) const {
    for (size_t b = 0; b < used_; ++b)
      for (const T& v : blocks_[b]) f(v);
  }

 private:
  std::vector<std::vector<T>> blocks_;  // the first used_ hold the elements
  size_t used_ = 0;
  size_t size_ = 0;
};

}  // namespace gf
