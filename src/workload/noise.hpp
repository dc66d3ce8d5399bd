// Stragglers and launch jitter over repeated iterations: what `gpufabric perf -n ITERS
// --straggler server1/gpu3=+20us --jitter lognormal:median=2us,sigma=0.5 --seed S` asks
// (docs/failures.md, "Stragglers and jitter").
//
// Each iteration, every rank starts the collective a delay after a common reference (the
// previous iteration's end, as nccl-tests' back-to-back launches are): its straggler delay plus a
// fresh jitter draw. The engine starts a rank's transfers no earlier than its delay
// (engine/job_runner.hpp JobCall::rank_delay), so the schedule's own dependencies decide what a
// late rank costs: a ring all-reduce waits once for the late rank, not once per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "core/units.hpp"

namespace gf {

struct Straggler {
  std::string gpu;  // as topo names it: "server1/gpu3"
  Time delay;       // added to that rank's start of every collective
};

// Launch jitter: lognormal, each rank and iteration drawn independently. A log-normal has
// median exp(mu) (so mu = ln median) and log-standard-deviation sigma.
struct Jitter {
  Time median = Time::zero();  // zero: no jitter
  double sigma = 0;
  bool any() const { return median > Time::zero(); }
};

struct NoiseOptions {
  std::vector<Straggler> stragglers;
  Jitter jitter;
  int iterations = 0;  // 0: noise off, one clean run per size
  uint64_t seed = 0;
  bool any() const { return iterations > 0 && (!stragglers.empty() || jitter.any()); }
};

// "server1/gpu3=+20us" (the + is optional). Throws InputError naming `flag`.
Straggler parse_straggler(const std::string& flag, const std::string& text);
// "lognormal:median=2us,sigma=0.5". Throws InputError naming `flag`.
Jitter parse_jitter(const std::string& flag, const std::string& text);

// Per rank of `comm`, the stragglers' fixed delays. Throws InputError (key "--straggler") for a
// name that is not a GPU of the cluster (with a did-you-mean) or a GPU outside the communicator.
std::vector<Time> straggler_delays(const Communicator& comm, const std::vector<Straggler>& stragglers);

// The delay of every rank in iteration `iteration`: `fixed` plus the jitter's draw, which
// depends only on (seed, iteration, rank), so runs are reproducible and independent of order.
std::vector<Time> iteration_delays(const std::vector<Time>& fixed, const Jitter& jitter, uint64_t seed, int iteration);

// A standard normal draw from (seed, a, b): Box-Muller over two splitmix64 uniforms, the same on
// every platform (std::normal_distribution is not specified bit for bit).
double normal_draw(uint64_t seed, uint64_t a, uint64_t b);

// What a size's iterations gave.
struct IterationStats {
  int iterations = 0;
  Time clean;                // the same call with no delays
  Time mean, p50, p99, max;  // nearest-rank percentiles over the iterations
  int held_rank = -1;        // the rank that was last to start most often (-1: none late)
  int held_count = 0;        // in how many iterations
  std::vector<Time> latest_delay;  // per iteration: the last rank's start delay (zero when none is late)
  // The channel that ended last (last_channel below) most often, and in how many iterations: a
  // degraded rail's channel, or a slow reducer's. -1 when the channels ended together in every
  // iteration.
  int held_channel = -1;
  int held_channel_count = 0;
};

// The channel whose last transfer finished last (the lowest of those ending together), from a
// run's per-transfer finish times and each transfer's channel; -1 when every channel ended at the
// same instant (a symmetric run: no channel held it up).
int last_channel(const std::vector<Time>& finish, const std::vector<int>& channel_of);
// Sets s.held_channel / held_channel_count from each iteration's last_channel (the most frequent
// one >= 0, the lowest on ties).
void count_held_channels(IterationStats& s, const std::vector<int>& last_channels);

// In how many iterations a failed or degraded link held the call up more than its late rank:
// `link_cost` is what the link costs the call without delays (its clean time with the failure
// less the healthy cluster's), and a late rank costs its delay x once, not per step (a ring pays
// about x: docs/failures.md, "Stragglers and jitter"), so the two add and the larger is the
// holder. An iteration counts for the link when link_cost > its latest delay.
int iterations_held_by_link(const IterationStats& s, Time link_cost);

// Percentiles by the nearest-rank method: the ceil(q n)-th smallest. `latest` per iteration is the
// rank that started last (lowest rank on ties; -1 when no rank was late).
IterationStats iteration_stats(Time clean, std::vector<Time> times, const std::vector<int>& latest, int nranks);

}  // namespace gf
