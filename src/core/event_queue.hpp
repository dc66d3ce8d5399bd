// The discrete-event core: a min-heap of (time, key) events. Time is integer picoseconds, so two
// events at "the same time" are exactly equal; ties are broken by the 64-bit key, smaller first,
// and callers encode their tie-breaking rule in it (e.g. kind in the high bits, then an id), which
// makes every run reproducible bit for bit. The heap lives in one vector that only grows: after
// warm-up, pushing and popping allocate nothing.
//
// Events are never removed; a caller that reschedules something pushes a new event and recognises
// the stale one when it pops (a version number in the key or beside it).
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.hpp"

namespace gf {

struct Event {
  Time at;
  uint64_t key = 0;
  bool before(const Event& o) const { return at != o.at ? at < o.at : key < o.key; }
};

class EventQueue {
 public:
  void reserve(size_t n) { heap_.reserve(n); }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // The earliest event; Time::infinity() when empty.
  Time next_time() const { return heap_.empty() ? Time::infinity() : heap_.front().at; }
  const Event& top() const { return heap_.front(); }

  void push(Event e) {
    heap_.push_back(e);
    size_t i = heap_.size() - 1;
    while (i > 0) {
      size_t parent = (i - 1) / 2;
      if (!heap_[i].before(heap_[parent])) break;
      std::swap(heap_[i], heap_[parent]);
      i = parent;
    }
  }

  Event pop() {
    // Bottom-up: walk the hole at the root down along the smaller child to a leaf (one comparison
    // per level), drop the last element there and sift it up (usually a step or two, since it came
    // from the bottom). About half the comparisons of the textbook sift-down.
    Event out = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    const size_t n = heap_.size();
    if (n == 0) return out;
    size_t i = 0;
    for (;;) {
      size_t l = 2 * i + 1;
      if (l >= n) break;
      size_t m = l + 1 < n && heap_[l + 1].before(heap_[l]) ? l + 1 : l;
      heap_[i] = heap_[m];
      i = m;
    }
    while (i > 0) {
      size_t parent = (i - 1) / 2;
      if (!last.before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = last;
    return out;
  }

 private:
  std::vector<Event> heap_;
};

}  // namespace gf
