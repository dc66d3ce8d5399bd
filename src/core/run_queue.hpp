// A discrete-event queue for events pushed in batches, each batch a few events per instant at
// many instants: (time, key) pairs held flat, the pairs pushed since the queue was last read made
// one run sorted by time, and a small heap ordering the runs by their first pair. Events come out
// as InstantQueue's do (instant_queue.hpp): a whole instant at a time, the earliest first, its
// keys in increasing order.
//
// Why a second queue: the flow model pushes a completion for every flow whose rate a solve
// changed, each at that flow's own finish instant. When the flows' rates differ (an all-to-all
// over separate ECMP cables: the 671B decode step of docs/performance.md, about 32,000 rate
// changes per solve, 7 million per step), nearly every push opens an instant of one key, and
// InstantQueue's bucket per instant (a vector of keys, found through a cache) costs an allocation,
// a cache lookup and a 40-byte record per event. Here a push is a 16-byte append; a read sorts
// the new batch by time once (LSD radix, one byte a pass, skipping the bytes all of its times
// share) and merges it with the pending runs. A ring's completions (every flow of a step due at
// one instant, pushed in key order) are one run already sorted, read in order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/radix_sort.hpp"
#include "core/units.hpp"

namespace gf {

class RunQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest instant with an event; Time::infinity() when empty.
  Time next_time() const {
    settle();
    return heap_.empty() ? Time::infinity() : Time::ps(front(heap_.front()).at);
  }
  void push(Time at, uint64_t key) {
    fresh_.push_back({at.picoseconds(), key});
    ++size_;
  }
  // One key of the earliest instant (not necessarily its least), without popping anything. The
  // queue must not be empty.
  uint64_t peek_key() const {
    settle();
    return front(heap_.front()).key;
  }
  // Moves every event of the earliest instant into `keys` (its previous content is dropped), in
  // increasing key order, and returns that instant. The queue must not be empty.
  Time pop_instant(std::vector<uint64_t>& keys) {
    settle();
    const int64_t at = front(heap_.front()).at;
    keys.clear();
    while (!heap_.empty() && front(heap_.front()).at == at) {
      const uint32_t r = heap_.front();
      Run& run = runs_[r];
      // The run's pairs of this instant are consecutive: take them all before reordering the heap.
      do keys.push_back(run.entries[run.next++].key);
      while (run.next < run.entries.size() && run.entries[run.next].at == at);
      if (run.next == run.entries.size()) {  // drained: recycled, its heap slot filled by the last
        run.entries.clear();
        free_runs_.push_back(r);
        heap_.front() = heap_.back();
        heap_.pop_back();
      }
      sift_down();
    }
    sort_ids(keys, key_scratch_);
    size_ -= keys.size();
    return Time::ps(at);
  }

 private:
  struct Entry {
    int64_t at;  // picoseconds
    uint64_t key;
  };
  struct Run {
    std::vector<Entry> entries;  // by time
    size_t next = 0;             // entries before it are popped
  };
  const Entry& front(uint32_t r) const { return runs_[r].entries[runs_[r].next]; }
  // Runs are ordered by their first pair's time, then by index (unique among pending runs), so
  // the heap's shape, though not what comes out, is the same on every run of a program.
  bool run_before(uint32_t a, uint32_t b) const {
    const int64_t x = front(a).at, y = front(b).at;
    return x != y ? x < y : a < b;
  }

  // Makes the pairs pushed since the last read one run sorted by time. It changes how the pending
  // pairs are held, not which they are, so the const readers call it (hence `mutable`).
  void settle() const {
    if (fresh_.empty()) return;
    uint32_t r;
    if (!free_runs_.empty()) {
      r = free_runs_.back();
      free_runs_.pop_back();
    } else {
      r = static_cast<uint32_t>(runs_.size());
      runs_.emplace_back();
    }
    Run& run = runs_[r];
    run.entries.swap(fresh_);  // fresh_ takes the run's cleared vector and its capacity
    run.next = 0;
    sort_by_time(run.entries);
    heap_.push_back(r);
    for (size_t i = heap_.size() - 1; i > 0;) {
      const size_t parent = (i - 1) / 2;
      if (!run_before(heap_[i], heap_[parent])) break;
      std::swap(heap_[i], heap_[parent]);
      i = parent;
    }
  }

  void sift_down() const {
    const size_t n = heap_.size();
    for (size_t i = 0;;) {
      const size_t l = 2 * i + 1;
      if (l >= n) break;
      const size_t m = l + 1 < n && run_before(heap_[l + 1], heap_[l]) ? l + 1 : l;
      if (!run_before(heap_[m], heap_[i])) break;
      std::swap(heap_[i], heap_[m]);
      i = m;
    }
  }

  // By time only: the keys of one instant are sorted when it is popped. Times are never negative
  // (an event is never due before time 0).
  void sort_by_time(std::vector<Entry>& v) const {
    bool sorted = true;
    for (size_t i = 1; i < v.size() && sorted; ++i) sorted = v[i - 1].at <= v[i].at;
    if (sorted) return;
    if (v.size() < 256) {
      std::sort(v.begin(), v.end(), [](const Entry& a, const Entry& b) { return a.at < b.at; });
      return;
    }
    std::array<std::array<uint32_t, 256>, 8> count{};
    for (const Entry& e : v)
      for (size_t b = 0; b < 8; ++b) ++count[b][(static_cast<uint64_t>(e.at) >> (8 * b)) & 0xff];
    sort_scratch_.resize(v.size());
    for (size_t b = 0; b < 8; ++b) {
      auto& c = count[b];
      if (c[(static_cast<uint64_t>(v.front().at) >> (8 * b)) & 0xff] == v.size()) continue;  // all alike
      uint32_t sum = 0;
      for (uint32_t& k : c) {
        const uint32_t here = k;
        k = sum;
        sum += here;
      }
      for (const Entry& e : v) sort_scratch_[c[(static_cast<uint64_t>(e.at) >> (8 * b)) & 0xff]++] = e;
      v.swap(sort_scratch_);
    }
  }

  mutable std::vector<Entry> fresh_;  // pushed since the last settle
  mutable std::vector<Run> runs_;     // recycled when drained
  mutable std::vector<uint32_t> free_runs_;
  mutable std::vector<uint32_t> heap_;  // runs with pairs left, least front first
  mutable std::vector<Entry> sort_scratch_;
  std::vector<uint64_t> key_scratch_;
  size_t size_ = 0;
};

}  // namespace gf
