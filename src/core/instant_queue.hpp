// A discrete-event queue for models whose events pile up on few instants: events are (time, key)
// as in EventQueue (event_queue.hpp), and come out in the same order, (time, key) ascending, but
// a whole instant at a time. A flow model's events do pile up: every flow of a ring step starts,
// activates and ends at one instant (the SimGrid peer's ring at N = 1,024 has 4 million flow
// events on 22,478 instants), so a binary heap of single events spends log2(events pending)
// comparisons per event on order that an instant's bucket gets from one sort (usually already
// sorted, since callers push in key order).
//
// Each pending instant is a bucket, a vector of keys. A push finds its instant's bucket through a
// small direct-mapped cache of recent instants; on a miss it opens a new bucket, so one instant
// may own several buckets, which pop_instant merges. Buckets and their vectors are recycled, and
// pop_instant swaps the bucket's vector with the caller's: after warm-up nothing allocates.
//
// The buckets are ordered by time in sorted runs, not in one heap of buckets: the buckets opened
// since the queue was last read become one run, sorted once, and a small heap orders the runs by
// their first bucket. A flow model reschedules every flow whose rate changed, each to its own
// finish instant, and leaves the old event behind as stale: the 671B decode step (docs/
// performance.md) opens about 7 million buckets over ~230 solves, up to 2 million pending at
// once, and pops most of the passed ones a few at a time while it looks for completions to merge.
// A binary heap of 2 million buckets costs a cache miss per level on each of those pops; a run is
// read in order, and the heap of runs holds one entry per solve still pending. The order out is
// the same: buckets by time (a tie between buckets is merged into one instant, whose keys are
// sorted).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/radix_sort.hpp"
#include "core/units.hpp"

namespace gf {

class InstantQueue {
 public:
  bool empty() const { return size_ == 0; }
  // The earliest instant with an event; Time::infinity() when empty.
  Time next_time() const {
    settle();
    return run_heap_.empty() ? Time::infinity() : front(run_heap_.front()).at;
  }
  size_t size() const { return size_; }

  // Inlined: the common push goes to the previous push's instant and its bucket has room, and is
  // then a compare, a store and two increments; any other push (a new instant, a bucket to grow)
  // goes through push_slow, out of line, so that the inlined part stays small. (Before, push
  // itself stayed out of line with the vector's growth path inside it: about 38 instructions a
  // push, most of them its register saves, in the SimGrid peer's ring.)
  [[gnu::always_inline]] void push(Time at, uint64_t key) {
    if (last_bucket_ != kNone && last_at_ == at) [[likely]] {
      std::vector<uint64_t>& keys = buckets_[last_bucket_].keys;
      if (keys.size() < keys.capacity()) [[likely]] {
        keys.push_back(key);
        ++size_;
        return;
      }
    }
    push_slow(at, key);
  }

  // One key of the earliest instant (the first pushed to one of its buckets, not necessarily its
  // least), without popping anything: a caller that gives an instant back whole when it holds one
  // kind of key can look at one first. The queue must not be empty.
  uint64_t peek_key() const {
    settle();
    return buckets_[front(run_heap_.front()).bucket].keys.front();
  }

  // Moves every event of the earliest instant into `keys` (its previous content is dropped), in
  // increasing key order, and returns that instant. The queue must not be empty.
  Time pop_instant(std::vector<uint64_t>& keys) {
    settle();
    const Time at = front(run_heap_.front()).at;
    keys.clear();
    last_bucket_ = kNone;  // the buckets popped below may be reopened for other instants
    bool first = true;
    while (!run_heap_.empty() && front(run_heap_.front()).at == at) {
      const uint32_t b = take_front();
      Bucket& x = buckets_[b];
      if (first) {
        keys.swap(x.keys);  // the bucket keeps the caller's (cleared) vector and its capacity
        first = false;
      } else {
        keys.insert(keys.end(), x.keys.begin(), x.keys.end());
        x.keys.clear();
      }
      x.live = false;
      free_.push_back(b);
    }
    sort_ids(keys, scratch_);
    size_ -= keys.size();
    return at;
  }

 private:
  struct Bucket {
    Time at;
    std::vector<uint64_t> keys;
    bool live = false;
  };
  struct CacheEntry {
    uint32_t bucket = UINT32_MAX;
  };
  static constexpr size_t kCache = 64;
  static constexpr uint32_t kNone = UINT32_MAX;  // power of two; a few distinct instants are pending at once

  static size_t slot_of(Time at) {
    // Fibonacci hashing of the picoseconds: nearby instants land in different slots.
    return static_cast<size_t>((static_cast<uint64_t>(at.picoseconds()) * 0x9e3779b97f4a7c15ull) >> 58) & (kCache - 1);
  }

  [[gnu::noinline]] void push_slow(Time at, uint64_t key) {
    if (last_bucket_ == kNone || last_at_ != at) find_bucket(at);
    buckets_[last_bucket_].keys.push_back(key);
    ++size_;
  }

  // Makes at's bucket the one push appends to: through the cache, or a new one.
  [[gnu::noinline]] void find_bucket(Time at) {
    CacheEntry& c = cache_[slot_of(at)];
    uint32_t b = c.bucket;
    if (b >= buckets_.size() || !buckets_[b].live || buckets_[b].at != at) {
      b = open_bucket(at);
      c = {b};
    }
    last_bucket_ = b;
    last_at_ = at;
  }

  uint32_t open_bucket(Time at) {
    uint32_t b;
    if (!free_.empty()) {
      b = free_.back();
      free_.pop_back();
    } else {
      b = static_cast<uint32_t>(buckets_.size());
      buckets_.emplace_back();
    }
    Bucket& x = buckets_[b];
    x.at = at;
    x.live = true;
    x.keys.clear();
    fresh_.push_back({at, b});
    return b;
  }

  // A bucket's place in the order: its instant, then its index (unique among live buckets, so the
  // order is total and the same on every run).
  struct Entry {
    Time at;
    uint32_t bucket;
    bool before(const Entry& o) const { return at != o.at ? at < o.at : bucket < o.bucket; }
  };
  struct Run {
    std::vector<Entry> entries;  // sorted
    size_t next = 0;             // entries before it are popped
  };
  const Entry& front(uint32_t run) const { return runs_[run].entries[runs_[run].next]; }
  bool run_before(uint32_t a, uint32_t b) const { return front(a).before(front(b)); }

  // Makes the buckets opened since the last read one sorted run. It changes how the pending
  // buckets are held, not which they are, so the const readers call it (hence `mutable`).
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
    auto less = [](const Entry& a, const Entry& b) { return a.before(b); };
    if (!std::is_sorted(run.entries.begin(), run.entries.end(), less)) std::sort(run.entries.begin(), run.entries.end(), less);
    run_heap_.push_back(r);
    size_t i = run_heap_.size() - 1;
    while (i > 0) {
      const size_t parent = (i - 1) / 2;
      if (!run_before(run_heap_[i], run_heap_[parent])) break;
      std::swap(run_heap_[i], run_heap_[parent]);
      i = parent;
    }
  }

  // Pops the earliest bucket (settled, queue not empty) and returns it.
  uint32_t take_front() {
    const uint32_t r = run_heap_.front();
    Run& run = runs_[r];
    const uint32_t b = run.entries[run.next++].bucket;
    if (run.next == run.entries.size()) {  // drained: recycled, its heap slot filled by the last
      run.entries.clear();
      free_runs_.push_back(r);
      run_heap_.front() = run_heap_.back();
      run_heap_.pop_back();
    }
    // Sift the top down to its place.
    const size_t n = run_heap_.size();
    size_t i = 0;
    for (;;) {
      const size_t l = 2 * i + 1;
      if (l >= n) break;
      const size_t m = l + 1 < n && run_before(run_heap_[l + 1], run_heap_[l]) ? l + 1 : l;
      if (!run_before(run_heap_[m], run_heap_[i])) break;
      std::swap(run_heap_[i], run_heap_[m]);
      i = m;
    }
    return b;
  }

  std::vector<Bucket> buckets_;
  std::vector<uint32_t> free_;
  mutable std::vector<Entry> fresh_;      // buckets opened since the last settle, in opening order
  mutable std::vector<Run> runs_;         // recycled when drained
  mutable std::vector<uint32_t> free_runs_;
  mutable std::vector<uint32_t> run_heap_;  // runs with buckets left, least front first
  std::array<CacheEntry, kCache> cache_{};
  size_t size_ = 0;
  std::vector<uint64_t> scratch_;
  uint32_t last_bucket_ = kNone;  // the bucket of the previous push (pushes come in runs of one instant)
  Time last_at_;
};

}  // namespace gf
