#include "model/packet/queue_series.hpp"

#include <algorithm>

namespace gf {

QueueSeries::QueueSeries(size_t ports, Time first_bucket, size_t max_buckets)
    : width_ps_(std::max<int64_t>(1, first_bucket.picoseconds())), max_(std::max<size_t>(2, max_buckets)), area_(ports) {}

void QueueSeries::widen_to(Time t) {
  while (t.picoseconds() > static_cast<int64_t>(max_) * width_ps_) {
    width_ps_ *= 2;
    for (std::vector<double>& a : area_) {
      for (size_t i = 0; 2 * i < a.size(); ++i) a[i] = a[2 * i] + (2 * i + 1 < a.size() ? a[2 * i + 1] : 0.0);
      a.resize((a.size() + 1) / 2);
    }
  }
}

void QueueSeries::add(size_t port, int64_t bytes, Time from, Time to) {
  if (bytes <= 0 || to <= from) return;
  widen_to(to);
  std::vector<double>& a = area_[port];
  const int64_t f = from.picoseconds(), t = to.picoseconds();
  const auto last = static_cast<size_t>((t - 1) / width_ps_);
  if (a.size() <= last) a.resize(last + 1, 0.0);
  for (auto b = static_cast<size_t>(f / width_ps_); b <= last; ++b) {
    const int64_t lo = std::max(f, static_cast<int64_t>(b) * width_ps_);
    const int64_t hi = std::min(t, static_cast<int64_t>(b + 1) * width_ps_);
    a[b] += static_cast<double>(bytes) * static_cast<double>(hi - lo);
  }
}

Time QueueSeries::bucket_for(Time end) const {
  int64_t w = width_ps_;
  while (end.picoseconds() > static_cast<int64_t>(max_) * w) w *= 2;
  return Time::ps(w);
}

std::vector<double> QueueSeries::means(size_t port, Time end) const {
  const std::vector<double>& a = area_[port];
  if (a.empty() || end.picoseconds() <= 0) return {};
  const int64_t w = bucket_for(end).picoseconds();
  const auto merge = static_cast<size_t>(w / width_ps_);  // a power of two: the run ended with queues empty
  const auto n = static_cast<size_t>((end.picoseconds() + w - 1) / w);
  std::vector<double> out(n, 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    if (i / merge < n) out[i / merge] += a[i];
  for (size_t b = 0; b < n; ++b) {
    const int64_t span = std::min(end.picoseconds(), static_cast<int64_t>(b + 1) * w) - static_cast<int64_t>(b) * w;
    out[b] /= static_cast<double>(span);
  }
  return out;
}

}  // namespace gf
