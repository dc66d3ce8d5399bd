#include "model/packet/queue_series.hpp"

#include <algorithm>

namespace gf {

QueueSeries::QueueSeries(size_t ports, Time first_bucket, size_t max_buckets)
    : width_ps_(std::max<int64_t>(1, first_bucket.picoseconds())), max_(std::max<size_t>(2, max_buckets)), b_(ports) {}

void QueueSeries::widen_to(Time t) {
  while (t.picoseconds() > static_cast<int64_t>(max_) * width_ps_) {
    width_ps_ *= 2;
    for (std::vector<Bucket>& a : b_) {
      for (size_t i = 0; 2 * i < a.size(); ++i) {
        Bucket m = a[2 * i];
        if (2 * i + 1 < a.size()) {
          const Bucket& o = a[2 * i + 1];
          m.area += o.area;
          m.paused_ps += o.paused_ps;
          m.peak = std::max(m.peak, o.peak);
          m.marks += o.marks;
          m.pause_frames += o.pause_frames;
        }
        a[i] = m;
      }
      a.resize((a.size() + 1) / 2);
    }
  }
}

std::vector<QueueSeries::Bucket>& QueueSeries::reach(size_t port, size_t last) {
  std::vector<Bucket>& a = b_[port];
  if (a.size() <= last) a.resize(last + 1);
  return a;
}

void QueueSeries::add(size_t port, int64_t bytes, Time from, Time to) {
  if (bytes <= 0 || to <= from) return;
  widen_to(to);
  const int64_t f = from.picoseconds(), t = to.picoseconds();
  const auto last = static_cast<size_t>((t - 1) / width_ps_);
  std::vector<Bucket>& a = reach(port, last);
  for (auto b = static_cast<size_t>(f / width_ps_); b <= last; ++b) {
    const int64_t lo = std::max(f, static_cast<int64_t>(b) * width_ps_);
    const int64_t hi = std::min(t, static_cast<int64_t>(b + 1) * width_ps_);
    a[b].area += static_cast<double>(bytes) * static_cast<double>(hi - lo);
    a[b].peak = std::max(a[b].peak, bytes);
  }
}

void QueueSeries::mark(size_t port, Time at) {
  widen_to(at + Time::ps(1));  // the bucket holding `at` starts before max x width
  const auto b = static_cast<size_t>(at.picoseconds() / width_ps_);
  ++reach(port, b)[b].marks;
}

void QueueSeries::pause_frame(size_t port, Time at) {
  widen_to(at + Time::ps(1));
  const auto b = static_cast<size_t>(at.picoseconds() / width_ps_);
  ++reach(port, b)[b].pause_frames;
}

void QueueSeries::paused(size_t port, Time from, Time to) {
  if (to <= from) return;
  widen_to(to);
  const int64_t f = from.picoseconds(), t = to.picoseconds();
  const auto last = static_cast<size_t>((t - 1) / width_ps_);
  std::vector<Bucket>& a = reach(port, last);
  for (auto b = static_cast<size_t>(f / width_ps_); b <= last; ++b) {
    const int64_t lo = std::max(f, static_cast<int64_t>(b) * width_ps_);
    const int64_t hi = std::min(t, static_cast<int64_t>(b + 1) * width_ps_);
    a[b].paused_ps += static_cast<double>(hi - lo);
  }
}

Time QueueSeries::bucket_for(Time end) const {
  int64_t w = width_ps_;
  while (end.picoseconds() > static_cast<int64_t>(max_) * w) w *= 2;
  return Time::ps(w);
}

std::vector<double> QueueSeries::means(size_t port, Time end) const {
  const std::vector<Bucket>& a = b_[port];
  if (a.empty() || end.picoseconds() <= 0) return {};
  const int64_t w = bucket_for(end).picoseconds();
  const auto merge = static_cast<size_t>(w / width_ps_);  // a power of two: the run ended with queues empty
  const auto n = static_cast<size_t>((end.picoseconds() + w - 1) / w);
  std::vector<double> out(n, 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    if (i / merge < n) out[i / merge] += a[i].area;
  for (size_t b = 0; b < n; ++b) {
    const int64_t span = std::min(end.picoseconds(), static_cast<int64_t>(b + 1) * w) - static_cast<int64_t>(b) * w;
    out[b] /= static_cast<double>(span);
  }
  return out;
}

PortTimeline QueueSeries::timeline(size_t port, Time end, Time paused_since) const {
  PortTimeline out;
  out.link = static_cast<LinkId>(port);
  out.end = end;
  out.bucket = bucket_for(end);
  const std::vector<Bucket>& a = b_[port];
  if ((a.empty() && paused_since >= end) || end.picoseconds() <= 0) return out;
  const int64_t w = out.bucket.picoseconds();
  const auto merge = static_cast<size_t>(w / width_ps_);
  const auto n = static_cast<size_t>((end.picoseconds() + w - 1) / w);
  out.peak_queue.assign(n, 0);
  out.ecn_marks.assign(n, 0);
  out.pause_frames.assign(n, 0);
  out.paused.assign(n, 0.0);
  for (size_t i = 0; i < a.size(); ++i) {
    // A mark or pause at the very instant the run ended counts in the last bucket.
    const size_t b = std::min(i / merge, n - 1);
    out.peak_queue[b] = std::max(out.peak_queue[b], a[i].peak);
    out.ecn_marks[b] += a[i].marks;
    out.pause_frames[b] += a[i].pause_frames;
    out.paused[b] += a[i].paused_ps;
  }
  for (size_t b = 0; b < n; ++b) {
    const int64_t lo = static_cast<int64_t>(b) * w;
    const int64_t hi = std::min(end.picoseconds(), lo + w);
    // The pause still in force when the run ended.
    if (paused_since < end) out.paused[b] += static_cast<double>(std::max<int64_t>(0, hi - std::max(lo, paused_since.picoseconds())));
    out.paused[b] = std::min(1.0, out.paused[b] / static_cast<double>(hi - lo));
  }
  return out;
}

}  // namespace gf
