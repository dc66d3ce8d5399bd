// Queue depth over time for every egress port, in a bounded number of time buckets: each bucket
// holds the integral of queued bytes over its span, so its mean is exact however often the queue
// changed inside it. The buckets start 1 us wide; when the run outgrows `max_buckets` of them,
// every series merges neighbouring pairs and the width doubles, so memory stays at most
// max_buckets doubles per port that ever queued anything, for a run of any length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/units.hpp"

namespace gf {

class QueueSeries {
 public:
  explicit QueueSeries(size_t ports, Time first_bucket = Time::us(1), size_t max_buckets = 128);

  // `bytes` sat in port p's queue over [from, to).
  void add(size_t port, int64_t bytes, Time from, Time to);
  // The mean queue bytes of each bucket of width bucket_for(end) over [0, end); empty when the
  // port never queued anything.
  std::vector<double> means(size_t port, Time end) const;
  // The bucket width means() uses for a run that ended at `end`: at most max_buckets cover it.
  Time bucket_for(Time end) const;

 private:
  void widen_to(Time t);
  int64_t width_ps_;
  size_t max_;
  std::vector<std::vector<double>> area_;  // per port: byte-picoseconds per bucket
};

}  // namespace gf
