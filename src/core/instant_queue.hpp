// A discrete-event queue for models whose events pile up on few instants: events are (time, key)
// as in EventQueue (event_queue.hpp), and come out in the same order, (time, key) ascending, but
// a whole instant at a time. A flow model's events do pile up: every flow of a ring step starts,
// activates and ends at one instant (the SimGrid peer's ring at N = 1,024 has 4 million flow
// events on 22,478 instants), so a binary heap of single events spends log2(events pending)
// comparisons per event on order that an instant's bucket gets from one sort (usually already
// sorted, since callers push in key order).
//
// Each pending instant is a bucket, a vector of keys; a heap orders the buckets by time. A push
// finds its instant's bucket through a small direct-mapped cache of recent instants; on a miss it
// opens a new bucket, so one instant may own several buckets, which pop_instant merges. Buckets
// and their vectors are recycled, and pop_instant swaps the bucket's vector with the caller's:
// after warm-up nothing allocates.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/event_queue.hpp"
#include "core/radix_sort.hpp"
#include "core/units.hpp"

namespace gf {

class InstantQueue {
 public:
  bool empty() const { return order_.empty(); }
  // The earliest instant with an event; Time::infinity() when empty.
  Time next_time() const { return order_.next_time(); }
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
  uint64_t peek_key() const { return buckets_[static_cast<uint32_t>(order_.top().key)].keys.front(); }

  // Moves every event of the earliest instant into `keys` (its previous content is dropped), in
  // increasing key order, and returns that instant. The queue must not be empty.
  Time pop_instant(std::vector<uint64_t>& keys) {
    const Time at = order_.next_time();
    keys.clear();
    last_bucket_ = kNone;  // the buckets popped below may be reopened for other instants
    bool first = true;
    while (!order_.empty() && order_.next_time() == at) {
      const auto b = static_cast<uint32_t>(order_.pop().key);
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
    order_.push({at, b});
    return b;
  }

  std::vector<Bucket> buckets_;
  std::vector<uint32_t> free_;
  EventQueue order_;  // one entry per bucket: (its instant, its index)
  std::array<CacheEntry, kCache> cache_{};
  size_t size_ = 0;
  std::vector<uint64_t> scratch_;
  uint32_t last_bucket_ = kNone;  // the bucket of the previous push (pushes come in runs of one instant)
  Time last_at_;
};

}  // namespace gf
