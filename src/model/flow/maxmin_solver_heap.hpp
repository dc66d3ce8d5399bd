// The max-min fill's queue of resource levels: a 4-ary min-heap on (level, resource id) whose four
// children of a node share one cache line (entries are 16 B; the root sits at slot 3 of a 64 B
// aligned array, so the children of slot k + 3 are slots 4k + 4 .. 4k + 7). At the 100,000
// entries of a fabric-wide component it is 9 levels deep where a binary heap is 17, and a stale
// top is renewed in place (replace_top: one sift-down) instead of popped and pushed again.
//
// The fill's pops depend on the keys alone: a resource has at most one entry, so (level, id) is
// unique and every correct priority queue yields the same sequence (the same fixes, in the same
// order, as std::push_heap / std::pop_heap did). Pure data structure; it knows nothing of links.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gf {

class LevelHeap {
 public:
  struct Entry {
    double level;
    int32_t r;
    uint32_t version;
  };
  static_assert(sizeof(Entry) == 16);

  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }
  const Entry& top() const { return at(0); }
  void clear() { n_ = 0; }
  // Appends without ordering; call heapify() before the first top() / pop().
  void append(const Entry& e) {
    reserve(n_ + 1);
    at(n_++) = e;
  }
  void heapify() {
    if (n_ < 2) return;
    for (size_t k = (n_ - 2) / 4 + 1; k-- > 0;) sift_down(k, at(k));
  }
  void pop() {
    if (--n_ > 0) sift_down(0, at(n_));
  }
  // The same as pop() then pushing e, when e is no smaller than the top it replaces (a renewed
  // level never falls), and correct for any e.
  void replace_top(const Entry& e) { sift_down(0, e); }

  // Strict order on (level, resource id): the order std::pop_heap gave with the fill's comparison.
  static bool before(const Entry& a, const Entry& b) { return a.level != b.level ? a.level < b.level : a.r < b.r; }

 private:
  static constexpr size_t kPad = 3;  // slot of the root, so that each family of four is one line
  struct alignas(64) Line {
    Entry e[4];
  };
  Entry& at(size_t k) { return reinterpret_cast<Entry*>(lines_.data())[k + kPad]; }
  const Entry& at(size_t k) const { return reinterpret_cast<const Entry*>(lines_.data())[k + kPad]; }
  void reserve(size_t n) {
    if ((n + kPad + 3) / 4 > lines_.size()) lines_.resize(2 * ((n + kPad + 3) / 4));
  }
  // Places e at slot k or below: the smallest child moves up while it comes before e.
  void sift_down(size_t k, Entry e) {
    for (;;) {
      const size_t c = 4 * k + 1;
      if (c >= n_) break;
      const size_t end = c + 4 < n_ ? c + 4 : n_;
      size_t best = c;
      for (size_t i = c + 1; i < end; ++i)
        if (before(at(i), at(best))) best = i;
      if (!before(at(best), e)) break;
      at(k) = at(best);
      k = best;
    }
    at(k) = e;
  }

  std::vector<Line> lines_;
  size_t n_ = 0;
};

}  // namespace gf
