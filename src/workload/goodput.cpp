#include "workload/goodput.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include "core/error.hpp"
#include "core/hash.hpp"

namespace gf {
namespace {

// splitmix64 stream: the same seed gives the same draws on every platform (std's distributions
// are implementation-defined).
struct Rng {
  uint64_t s;
  double uniform() {  // (0, 1]
    s += 0x9e3779b97f4a7c15ULL;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 1.0) * 0x1.0p-53;
  }
  double exponential(double rate) { return -std::log(uniform()) / rate; }
};

struct Cause {
  double rate;    // per second, for this job
  double down_s;  // detection + restart
  Blast blast;
};

struct RunTally {
  double committed = 0;  // seconds of work kept
  std::vector<int64_t> count;
  std::vector<double> lost_s;  // job-seconds lost per cause
};

// One job life. Segments of `tau` compute then `delta` write; work is kept when its write ends.
RunTally run_once(const std::vector<Cause>& causes, const std::vector<double>& cumulative, double total, double tau,
                  const GoodputOptions& o, uint64_t seed) {
  Rng rng{seed};
  const double T = o.days * 86400, delta = o.checkpoint_write_s, seg = tau + delta;
  RunTally r;
  r.count.assign(causes.size(), 0);
  r.lost_s.assign(causes.size(), 0);
  std::priority_queue<double, std::vector<double>, std::greater<>> in_repair;  // return times
  int64_t spares = o.spares;
  // A leaf's servers cut off: every leaf alike needs no draw (a rail-optimized fabric: all 0).
  const auto& cut = o.leaf_cut_off;
  const bool leaves_alike = cut.empty() || std::all_of(cut.begin(), cut.end(), [&](int64_t n) { return n == cut[0]; });
  double t = 0, next = rng.exponential(total);
  while (t < T) {
    if (next >= T) {  // no failure before the end: what is computed counts, as the job ends
      const double left = T - t, full = std::floor(left / seg);
      r.committed += full * tau + std::min(left - full * seg, tau);
      break;
    }
    const double gap = next - t, full = std::floor(gap / seg);
    r.committed += full * tau;
    double lost = gap - full * seg;  // the unfinished segment, its partial write included
    double tf = next;
    for (;;) {  // a failure at tf; more may strike while the job restarts
      const double u = rng.uniform() * total;
      const size_t k = std::min<size_t>(
          static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()),
          causes.size() - 1);
      ++r.count[k];
      double down = causes[k].down_s;
      int64_t lost_servers = causes[k].blast == Blast::Server ? 1 : 0;
      if (causes[k].blast == Blast::Leaf && !cut.empty())
        lost_servers =
            leaves_alike
                ? cut[0]
                : cut[std::min(cut.size() - 1, static_cast<size_t>(rng.uniform() * static_cast<double>(cut.size())))];
      if (lost_servers > 0) {
        while (!in_repair.empty() && in_repair.top() <= tf) in_repair.pop(), ++spares;
        for (int64_t i = 0; i < lost_servers; ++i) in_repair.push(tf + o.repair_s);  // the failed servers go to repair
        for (int64_t i = 0; i < lost_servers; ++i) {
          if (spares > 0) {
            --spares;
          } else {  // no spare: the first server back from repair (perhaps a failed one) takes its place
            down = std::max(down, in_repair.top() - tf);
            in_repair.pop();
          }
        }
      }
      const double resume = tf + down, again = tf + rng.exponential(total);
      if (again < resume && again < T) {
        r.lost_s[k] += lost + (again - tf);
        lost = 0;
        tf = again;
        continue;
      }
      r.lost_s[k] += lost + (std::min(resume, T) - tf);
      t = resume;
      next = again;
      break;
    }
  }
  r.committed = std::min(r.committed, T);
  return r;
}

struct Batch {
  std::vector<RunTally> runs;
};

// Failures routing survives: they do not touch the job's timeline, so each run only counts them,
// Poisson arrivals over the job's life from their own stream (the interruptions' draws stay the
// same with or without them).
std::vector<int64_t> count_slowdowns(const std::vector<double>& rates, double T, uint64_t seed) {
  Rng rng{mix_hash(seed, 0x5105ULL)};
  std::vector<int64_t> n(rates.size(), 0);
  for (size_t k = 0; k < rates.size(); ++k)
    if (rates[k] > 0)
      for (double t = rng.exponential(rates[k]); t < T; t += rng.exponential(rates[k])) ++n[k];
  return n;
}

Batch run_batch(const std::vector<Cause>& causes, double tau, const GoodputOptions& o) {
  std::vector<double> cumulative;
  double total = 0;
  for (const auto& c : causes) cumulative.push_back(total += c.rate);
  Batch b;
  b.runs.reserve(static_cast<size_t>(o.runs));
  for (int i = 0; i < o.runs; ++i)
    b.runs.push_back(run_once(causes, cumulative, total, tau, o, mix_hash(o.seed, static_cast<uint64_t>(i) + 1)));
  return b;
}

double mean_ett(const Batch& b, double T) {
  double s = 0;
  for (const auto& r : b.runs) s += r.committed / T;
  return s / static_cast<double>(b.runs.size());
}

// A multiple of the step time, at least one step.
double on_steps(double tau, double step) { return step > 0 ? std::max(step, std::round(tau / step) * step) : tau; }

}  // namespace

double young_interval(double delta, double mtbi) { return std::sqrt(2 * delta * mtbi); }

double daly_interval(double delta, double mtbi) {
  if (delta >= 2 * mtbi) return mtbi;
  const double x = delta / (2 * mtbi);
  return std::sqrt(2 * delta * mtbi) * (1 + std::sqrt(x) / 3 + x / 9) - delta;
}

double daly_goodput(double tau, double delta, double restart, double mtbi) {
  return tau / (mtbi * std::exp(restart / mtbi) * std::expm1((tau + delta) / mtbi));
}

GoodputResult run_goodput(const FailureRates& rates, const GoodputOptions& o) {
  if (!(o.days > 0 && o.days <= 3650))
    throw InputError({}, "--days", "must be more than 0 and at most 3650", "e.g. --days 54");
  if (o.runs < 1 || o.runs > 1000000) throw InputError({}, "--runs", "must be from 1 to 1,000,000", "e.g. --runs 1000");
  if (o.interval_s && !(*o.interval_s > 0))
    throw InputError({}, "--checkpoint-interval", "must be more than 0", "e.g. 30m, or auto");
  std::vector<Cause> causes;       // those that interrupt the job
  std::vector<size_t> cause_row;   // their rows in res.causes
  std::vector<double> slow_rates;  // those routing survives
  std::vector<size_t> slow_row;
  GoodputResult res;
  double total = 0;
  for (const auto& c : rates.causes) {
    int64_t units = 0;
    switch (c.unit) {
      case FailureUnit::Gpu:
        units = o.gpus;
        break;
      case FailureUnit::Server:
        units = o.servers;
        break;
      case FailureUnit::Nic:
        units = o.nics;
        break;
      case FailureUnit::Switch:
        units = o.switches;
        break;
      case FailureUnit::Leaf:
        units = static_cast<int64_t>(o.leaf_cut_off.size());
        break;
      case FailureUnit::SpineLink:
        units = o.spine_links;
        break;
    }
    const double rate = c.per_unit_day * static_cast<double>(units) / 86400;
    res.causes.push_back({c.name, c.blast, 0, 0, 0});
    if (c.blast == Blast::Slow) {
      slow_rates.push_back(rate), slow_row.push_back(res.causes.size() - 1);
      continue;
    }
    causes.push_back({rate, c.detect_s + o.restart_s, c.blast});
    cause_row.push_back(res.causes.size() - 1);
    total += rate;
  }
  if (!(total > 0))
    throw InputError({}, "--rates",
                     "no cause that stops this job has a rate above 0 (a `blast: slow` one only slows it)",
                     "give at least one cause that interrupts the job a rate above 0");
  res.rate_per_s = total;
  const double T = o.days * 86400, mtbi = 1 / total, delta = o.checkpoint_write_s;
  res.young_s = young_interval(delta, mtbi);
  res.daly_s = daly_interval(delta, mtbi);
  // Scan: 17 intervals from Daly's / 4 to x 4 (factor 2^(1/4)), same seeds for each (common random
  // numbers, so the comparison is not drowned in run-to-run noise).
  double best = 0;
  for (int i = -8; i <= 8; ++i) {
    const double tau = on_steps(res.daly_s * std::pow(2.0, i / 4.0), o.step_s);
    const double e = mean_ett(run_batch(causes, tau, o), T);
    if (e > res.best_ett) res.best_ett = e, best = tau;
  }
  res.best_s = best;
  res.interval_s = o.interval_s ? on_steps(*o.interval_s, o.step_s) : best;
  const Batch b = run_batch(causes, res.interval_s, o);
  std::vector<double> etts, counts;
  for (const auto& r : b.runs) {
    etts.push_back(r.committed / T);
    counts.push_back(static_cast<double>(std::accumulate(r.count.begin(), r.count.end(), int64_t{0})));
    for (size_t k = 0; k < causes.size(); ++k) {
      res.causes[cause_row[k]].interruptions += static_cast<double>(r.count[k]) / o.runs;
      res.causes[cause_row[k]].lost_gpu_hours += r.lost_s[k] * static_cast<double>(o.gpus) / 3600 / o.runs;
    }
  }
  if (!slow_rates.empty())
    for (int i = 0; i < o.runs; ++i) {
      const auto n = count_slowdowns(slow_rates, T, mix_hash(o.seed, static_cast<uint64_t>(i) + 1));
      for (size_t k = 0; k < n.size(); ++k) {
        res.causes[slow_row[k]].slowdowns += static_cast<double>(n[k]) / o.runs;
        res.slowdowns += static_cast<double>(n[k]) / o.runs;
      }
    }
  const auto mean_sd = [](const std::vector<double>& v, double& mean, double& sd) {
    mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0;
  };
  mean_sd(etts, res.ett, res.ett_sd);
  mean_sd(counts, res.interruptions, res.interruptions_sd);
  std::sort(etts.begin(), etts.end());
  const auto pct = [&](double p) {
    return etts[static_cast<size_t>(std::floor(p * static_cast<double>(etts.size() - 1)))];
  };
  res.ett_p5 = pct(0.05);
  res.ett_p95 = pct(0.95);
  res.mtbi_h = res.interruptions > 0 ? o.days * 24 / res.interruptions : 0;
  for (const auto& c : res.causes) res.lost_gpu_hours += c.lost_gpu_hours;
  return res;
}

}  // namespace gf
