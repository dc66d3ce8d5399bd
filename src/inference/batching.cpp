#include "inference/batching.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <random>

#include "core/error.hpp"
#include "inference/comm_memo.hpp"
#include "inference/phase_compute.hpp"

namespace gf {

namespace {

struct Request {
  double arrival = 0, first_token = 0, done = 0;
  int64_t prompt = 0, output = 0, generated = 0;
};

// A uniform double in [0, 1) from the generator's 53 high bits, so the stream does not depend on
// the standard library's distribution algorithms (same seed, same figures everywhere).
double uniform(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

int64_t around(std::mt19937_64& g, int64_t mean) {
  const int64_t lo = std::max<int64_t>(1, (mean + 1) / 2), hi = std::max(lo, mean + mean / 2);
  return lo + static_cast<int64_t>(std::floor(uniform(g) * static_cast<double>(hi - lo + 1)));
}

Percentiles percentiles(std::vector<double> v) {
  Percentiles p;
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  auto rank = [&](double q) {
    const size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size(), std::max<size_t>(1, i)) - 1];
  };
  p.p50 = rank(0.50);
  p.p99 = rank(0.99);
  double s = 0;
  for (double x : v) s += x;
  p.mean = s / static_cast<double>(v.size());
  return p;
}

// Iteration costs: an instance's prefill or decode step at a given batch, its collectives timed
// once per batch size (and per prompt length, rounded up to 64 tokens, for prefills) and reused.
// A prefill iteration times only the prefill's collectives and a decode iteration only the
// decode step's, and every call goes through one memo (inference/comm_memo.hpp), so a call met
// at several batch sizes or in both phases is timed once and the EP group is routed once.
class StepCosts {
 public:
  StepCosts(const Cluster& c, const Router& r, const ModelShape& m, const InferLayout& l, const InferOptions& o,
            const TrainingGpu& g, InferCommMemo& memo)
      : c_(c), r_(r), m_(m), l_(l), o_(o), g_(g), memo_(memo) {}

  double prefill(int64_t n, int64_t prompt_tokens) {
    const int64_t mean = (prompt_tokens + n - 1) / n;
    const int64_t key_len = (mean + 63) / 64 * 64;
    auto it = prefill_.find({n, key_len});
    if (it == prefill_.end()) it = prefill_.emplace(std::pair{n, key_len}, run(n, key_len, InferPhases::Prefill).prefill.total_s()).first;
    return it->second;
  }

  double decode(int64_t b, double context) {
    auto it = decode_comm_.find(b);
    if (it == decode_comm_.end()) {
      const InferResult r = run(b, 64, InferPhases::Decode);
      it = decode_comm_.emplace(b, r.decode.total_s() - r.decode.compute_s).first;
    }
    InferLayout l = l_;
    l.batch = b;
    PhaseBreakdown p;
    decode_compute(m_, l, g_, o_.efficiency, context, p);
    return p.compute_s + it->second;
  }

 private:
  InferResult run(int64_t batch, int64_t prompt, InferPhases phases) {
    InferLayout l = l_;
    l.batch = batch;
    l.prompt = prompt;
    l.output = 1;
    return run_inference(c_, r_, m_, l, o_, g_, &memo_, phases);
  }
  const Cluster& c_;
  const Router& r_;
  const ModelShape& m_;
  InferLayout l_;
  const InferOptions& o_;
  const TrainingGpu& g_;
  InferCommMemo& memo_;
  std::map<std::pair<int64_t, int64_t>, double> prefill_;
  std::map<int64_t, double> decode_comm_;
};

}  // namespace

BatchingResult run_batching(const Cluster& cluster, const Router& router, const ModelShape& m, const InferLayout& l,
                            const InferOptions& o, const TrainingGpu& gpu, const BatchingOptions& b,
                            InferCommMemo* memo) {
  if (!(b.rate > 0)) throw InputError({}, "--rate", "must be above 0 requests per second", "e.g. --rate 4");
  if (b.requests < 1) throw InputError({}, "--requests", "must be at least 1", "e.g. --requests 200");
  check_infer_layout(l, m, cluster.gpu_count());
  // KV budget in tokens per attention group: the memory left after weights over one token's cache.
  const ServingMemory mem = serving_memory(m, l, gpu.memory_bytes);
  const double kv_tokens = gpu.memory_bytes > 0 ? mem.left_after_weights / mem.kv_per_token_gpu : 1e300;

  std::mt19937_64 g(b.seed);
  std::vector<Request> reqs(static_cast<size_t>(b.requests));
  double t = 0;
  for (Request& q : reqs) {
    t += -std::log(1.0 - uniform(g)) / b.rate;
    q.arrival = t;
    q.prompt = around(g, l.prompt);
    q.output = around(g, l.output);
    if (static_cast<double>(q.prompt + q.output) > kv_tokens)
      throw InputError({}, "--prompt",
                       "a request of " + std::to_string(q.prompt + q.output) +
                           " tokens does not fit the KV cache left after weights",
                       "raise --tp or --pp, use --dtype fp8, or shorten --prompt and --output");
  }

  InferCommMemo own_memo;
  StepCosts cost(cluster, router, m, l, o, gpu, memo ? *memo : own_memo);
  BatchingResult res;
  res.requests = b.requests;
  std::deque<size_t> waiting;
  std::vector<size_t> running;
  size_t next = 0, finished = 0;
  double now = 0, held = 0, batch_sum = 0;  // held: full-length KV tokens of the running requests
  int64_t decode_iters = 0;
  while (finished < reqs.size()) {
    if (waiting.empty() && running.empty()) now = std::max(now, reqs[next].arrival);
    while (next < reqs.size() && reqs[next].arrival <= now) waiting.push_back(next++);
    std::vector<size_t> admit;
    while (!waiting.empty() && static_cast<int64_t>(running.size() + admit.size()) < l.batch) {
      const Request& q = reqs[waiting.front()];
      const double need = static_cast<double>(q.prompt + q.output);
      if (held + need > kv_tokens) break;
      held += need;
      admit.push_back(waiting.front());
      waiting.pop_front();
    }
    if (!admit.empty()) {
      ++res.iterations;
      int64_t tokens = 0;
      for (size_t i : admit) tokens += reqs[i].prompt;
      now += cost.prefill(static_cast<int64_t>(admit.size()), tokens);
      ++res.prefill_iterations;
      for (size_t i : admit) {
        reqs[i].first_token = now;
        reqs[i].generated = 1;
        running.push_back(i);
      }
    } else if (!running.empty()) {
      ++res.iterations;
      double ctx = 0;
      for (size_t i : running) ctx += static_cast<double>(reqs[i].prompt + reqs[i].generated);
      const int64_t n = static_cast<int64_t>(running.size());
      now += cost.decode(n, ctx / static_cast<double>(n));
      batch_sum += static_cast<double>(n);
      ++decode_iters;
      for (size_t i : running) ++reqs[i].generated;
    } else {
      continue;  // nothing runs: the next arrival is taken at the top of the loop
    }
    res.max_running = std::max<int64_t>(res.max_running, static_cast<int64_t>(running.size()));
    std::vector<size_t> still;
    for (size_t i : running) {
      if (reqs[i].generated >= reqs[i].output) {
        reqs[i].done = now;
        held -= static_cast<double>(reqs[i].prompt + reqs[i].output);
        ++finished;
      } else {
        still.push_back(i);
      }
    }
    running.swap(still);
  }
  std::vector<double> ttft, tpot, lat;
  double tokens = 0, last = 0;
  for (const Request& q : reqs) {
    ttft.push_back(q.first_token - q.arrival);
    if (q.output > 1) tpot.push_back((q.done - q.first_token) / static_cast<double>(q.output - 1));
    lat.push_back(q.done - q.arrival);
    tokens += static_cast<double>(q.output);
    last = std::max(last, q.done);
  }
  res.makespan_s = last - reqs.front().arrival;
  res.output_tokens_per_s = tokens / res.makespan_s;
  res.requests_per_s = static_cast<double>(reqs.size()) / res.makespan_s;
  res.mean_batch = decode_iters > 0 ? batch_sum / static_cast<double>(decode_iters) : 0;
  res.ttft_s = percentiles(ttft);
  res.tpot_s = percentiles(tpot);
  res.latency_s = percentiles(lat);
  return res;
}

}  // namespace gf
