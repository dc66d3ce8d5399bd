#include "workload/noise.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "core/hash.hpp"
#include "core/parse_units.hpp"
#include "topology/cluster.hpp"

namespace gf {

namespace {

Time time_value(const std::string& flag, const std::string& text, const std::string& hint) {
  try {
    return parse_time(text);
  } catch (const UnitError& e) {
    throw InputError({}, flag, "'" + text + "': " + e.what(), hint);
  }
}

// A uniform in (0, 1): the top 53 bits of a splitmix64 hash, offset by half a step so neither
// end is reached (Box-Muller takes a logarithm).
double uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t which) {
  const uint64_t h = mix_hash(mix_hash(seed, a), mix_hash(b, which));
  return (static_cast<double>(h >> 11) + 0.5) / 9007199254740992.0;  // 2^53
}

}  // namespace

Straggler parse_straggler(const std::string& flag, const std::string& text) {
  const std::string hint = "e.g. " + flag + " server1/gpu3=+20us (that GPU starts every collective 20 us late)";
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError({}, flag, "'" + text + "' is not GPU=+DELAY", hint);
  std::string delay = text.substr(eq + 1);
  if (delay[0] == '+') delay.erase(0, 1);
  const Time d = time_value(flag, delay, hint);
  if (d > Time::s(1000))
    throw InputError({}, flag, "a delay of " + delay + " is longer than any collective waits", hint);
  return {text.substr(0, eq), d};
}

Jitter parse_jitter(const std::string& flag, const std::string& text) {
  const std::string hint = "e.g. " + flag + " lognormal:median=2us,sigma=0.5";
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (kind != "lognormal")
    throw InputError({}, flag, "unknown distribution '" + kind + "'", "the one distribution is lognormal; " + hint);
  if (colon == std::string::npos) throw InputError({}, flag, "lognormal needs median and sigma", hint);
  Jitter j;
  bool have_median = false, have_sigma = false;
  const std::string params = text.substr(colon + 1);
  for (size_t at = 0; at <= params.size();) {
    size_t end = params.find(',', at);
    if (end == std::string::npos) end = params.size();
    const std::string kv = params.substr(at, end - at);
    const size_t eq = kv.find('=');
    const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (key == "median") {
      j.median = time_value(flag, value, hint);
      have_median = true;
    } else if (key == "sigma") {
      char* stop = nullptr;
      j.sigma = std::strtod(value.c_str(), &stop);
      if (value.empty() || *stop != '\0' || !std::isfinite(j.sigma) || j.sigma < 0 || j.sigma > 5)
        throw InputError({}, flag, "sigma '" + value + "' is not a number from 0 to 5", hint);
      have_sigma = true;
    } else {
      throw InputError({}, flag, "unknown lognormal parameter '" + key + "'",
                       suggest(key, {"median", "sigma"}) + "; " + hint);
    }
    at = end + 1;
  }
  if (!have_median || !have_sigma) throw InputError({}, flag, "lognormal needs both median and sigma", hint);
  if (j.median <= Time::zero()) throw InputError({}, flag, "the median must be above 0", hint);
  return j;
}

std::vector<Time> straggler_delays(const Communicator& comm, const std::vector<Straggler>& stragglers) {
  std::vector<Time> out(static_cast<size_t>(comm.nranks), Time::zero());
  const Cluster& c = *comm.cluster;
  for (const Straggler& s : stragglers) {
    const NodeId node = c.find_node(s.gpu);
    const auto rank = std::find(comm.gpu.begin(), comm.gpu.end(), node);
    if (node == kNoNode || rank == comm.gpu.end()) {
      std::vector<std::string> names;
      for (NodeId g : comm.gpu) names.push_back(c.node_name(g));
      std::string close = suggest(s.gpu, names);
      if (close.size() > 200) close.clear();  // nothing close: every name, too many to print
      throw InputError({}, "--straggler",
                       node == kNoNode
                           ? "'" + s.gpu + "' is not a GPU of the cluster"
                           : "'" + s.gpu + "' is not one of the " + std::to_string(comm.nranks) + " GPUs taking part",
                       (close.empty() ? "" : close + "; ") + "GPUs are named as topo names them: " + names.front() +
                           " .. " + names.back());
    }
    out[static_cast<size_t>(rank - comm.gpu.begin())] += s.delay;
  }
  return out;
}

double normal_draw(uint64_t seed, uint64_t a, uint64_t b) {
  const double u1 = uniform(seed, a, b, 1), u2 = uniform(seed, a, b, 2);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::vector<Time> iteration_delays(const std::vector<Time>& fixed, const Jitter& jitter, uint64_t seed, int iteration) {
  std::vector<Time> out = fixed;
  if (!jitter.any()) return out;
  const double median_ps = static_cast<double>(jitter.median.picoseconds());
  for (size_t r = 0; r < out.size(); ++r) {
    const double z = normal_draw(seed, static_cast<uint64_t>(iteration), r);
    // Capped at 1000 s: a draw far out in the tail must not overflow the clock.
    out[r] += Time::ps_rounded(std::min(median_ps * std::exp(jitter.sigma * z), 1e15));
  }
  return out;
}

IterationStats iteration_stats(Time clean, std::vector<Time> times, const std::vector<int>& latest, int nranks) {
  IterationStats s;
  s.clean = clean;
  s.iterations = static_cast<int>(times.size());
  if (times.empty()) return s;
  std::sort(times.begin(), times.end());
  const auto nearest = [&](double q) {
    const auto k = static_cast<size_t>(std::ceil(q * static_cast<double>(times.size())));
    return times[std::max<size_t>(k, 1) - 1];
  };
  s.p50 = nearest(0.50);
  s.p99 = nearest(0.99);
  s.max = times.back();
  double sum = 0;
  for (Time t : times) sum += static_cast<double>(t.picoseconds());
  s.mean = Time::ps_rounded(sum / static_cast<double>(times.size()));
  std::vector<int> count(static_cast<size_t>(nranks), 0);
  for (int r : latest)
    if (r >= 0) ++count[static_cast<size_t>(r)];
  for (int r = 0; r < nranks; ++r)
    if (count[static_cast<size_t>(r)] > s.held_count) {
      s.held_count = count[static_cast<size_t>(r)];
      s.held_rank = r;
    }
  return s;
}

int last_channel(const std::vector<Time>& finish, const std::vector<int>& channel_of) {
  // Each channel's end is its last transfer's finish; the call's end is the latest of them.
  std::vector<Time> end;
  for (size_t id = 0; id < finish.size() && id < channel_of.size(); ++id) {
    const auto c = static_cast<size_t>(channel_of[id]);
    if (end.size() <= c) end.resize(c + 1, Time::zero());
    end[c] = std::max(end[c], finish[id]);
  }
  // The first channel of the latest end; none when every channel ended then (nothing stood out).
  const auto last = std::max_element(end.begin(), end.end());
  if (last == end.end() || std::all_of(end.begin(), end.end(), [&](Time t) { return t == *last; })) return -1;
  return static_cast<int>(last - end.begin());
}

void count_held_channels(IterationStats& s, const std::vector<int>& last_channels) {
  std::vector<int> count;
  for (int c : last_channels) {
    if (c < 0) continue;
    if (count.size() <= static_cast<size_t>(c)) count.resize(static_cast<size_t>(c) + 1, 0);
    ++count[static_cast<size_t>(c)];
  }
  s.held_channel = -1;
  s.held_channel_count = 0;
  for (size_t c = 0; c < count.size(); ++c)
    if (count[c] > s.held_channel_count) {
      s.held_channel_count = count[c];
      s.held_channel = static_cast<int>(c);
    }
}

int iterations_held_by_link(const IterationStats& s, Time link_cost) {
  if (link_cost <= Time::zero()) return 0;
  int n = 0;
  for (size_t i = 0; i < static_cast<size_t>(s.iterations); ++i)
    n += link_cost > (i < s.latest_delay.size() ? s.latest_delay[i] : Time::zero());
  return n;
}

}  // namespace gf
