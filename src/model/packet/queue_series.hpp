// Each egress port's activity over time in a bounded number of time buckets: the integral of
// queued bytes (so a bucket's mean is exact however often the queue changed inside it), the
// deepest level the queue held for a positive time, ECN marks, PFC pause frames received and the
// time a class of the port spent paused. The buckets start 1 us wide; when the run outgrows
// `max_buckets` of them, every series merges neighbouring pairs (sums add, peaks take the larger)
// and the width doubles, so memory stays at most max_buckets entries per port that ever did
// anything, for a run of any length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/units.hpp"
#include "model/model.hpp"

namespace gf {

class QueueSeries {
 public:
  explicit QueueSeries(size_t ports, Time first_bucket = Time::us(1), size_t max_buckets = 128);

  // `bytes` sat in port p's queue over [from, to).
  void add(size_t port, int64_t bytes, Time from, Time to);
  // A packet joining port p's queue was ECN-marked at `at`.
  void mark(size_t port, Time at);
  // Port p received a pause frame at `at` that paused one of its classes.
  void pause_frame(size_t port, Time at);
  // A class of port p was paused over [from, to).
  void paused(size_t port, Time from, Time to);

  // The mean queue bytes of each bucket of width bucket_for(end) over [0, end); empty when the
  // port never queued anything.
  std::vector<double> means(size_t port, Time end) const;
  // Port p's activity in buckets of width bucket_for(end) over [0, end), with a pause still in
  // force since `paused_since` (Time::infinity() for none) counted up to `end`.
  PortTimeline timeline(size_t port, Time end, Time paused_since = Time::infinity()) const;
  // Whether port p ever queued, was marked or was paused.
  bool active(size_t port) const { return !b_[port].empty(); }
  // The bucket width means() uses for a run that ended at `end`: at most max_buckets cover it.
  Time bucket_for(Time end) const;

 private:
  struct Bucket {
    double area = 0;       // byte-picoseconds queued
    double paused_ps = 0;  // picoseconds with a class paused
    int64_t peak = 0;      // bytes
    int32_t marks = 0;
    int32_t pause_frames = 0;
  };
  void widen_to(Time t);
  // Port p's buckets reaching at least index `last`.
  std::vector<Bucket>& reach(size_t port, size_t last);
  int64_t width_ps_;
  size_t max_;
  std::vector<std::vector<Bucket>> b_;  // per port
};

}  // namespace gf
