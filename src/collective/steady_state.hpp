// Steady-state forms of the pipelined algorithms, for communicators too large to simulate step by
// step. A ring all-reduce on n ranks and C channels is n x 2(n-1) x C transfers step by step
// (2 x 10^9 at 16,384 ranks): too many to build, route or run. In steady state every edge of the
// pattern is busy for the whole collective, so each (edge, channel) becomes ONE long-lived transfer
// carrying everything that edge carries, with no dependencies, and Transfer::steps = the number of
// steps the step-by-step form takes on its critical path, so a model still pays the per-step
// latency that many times. Every edge runs at once and the collective ends with its slowest edge:
//
//   step by step:  sum over steps of max over edges (alpha + wire_step)
//   steady state:  max over edges (steps x alpha + wire_total)
//
// which agree exactly when one edge is slowest in every step (a ring: every step moves S/n on
// every edge). A pipelined tree or chain moves K chunks through a path of d hops; step by step it
// takes (K + d - 1) chunk-steps, so it also pays (d - 1) chunk wire times filling the pipeline,
// which the steady form leaves out: its time is lower by at most (d - 1) / (K + d - 1) of the
// bandwidth term (docs/models.md states the error measured by tests/steady_state_*_test.cpp).
// Bytes are exact: every rank sends and reduces what it sends and reduces step by step.
//
// When even the steady form would be large (a 131,072-GPU NVLS tree is 16 channels x 8 rails x
// 2 trees x 4 transfers per server), channels that run the same pattern over the same ranks are
// merged, halving the channel count while the form exceeds kSteadyScheduleBudget: the merged
// transfer carries the channels' bytes over the same edge; what is lost is only that ECMP hashes
// (and, on servers with several NICs per GPU, NIC choice) no longer differ per merged channel.
#pragma once

#include <cstdint>
#include <functional>

#include "core/units.hpp"

namespace gf {

// Above this many transfers (estimated before building) an algorithm emits its steady-state form.
// 100,000 keeps every step-by-step schedule of the validation sets (the largest, ring on 192 GB200
// ranks, is 2 x 191 x 192 = 73,344 transfers per channel) and builds in well under a second.
constexpr int64_t kStepScheduleBudget = 100'000;
// Above this many steady-state transfers, channels running the same pattern are merged: a quarter
// of a million transfers route and run on the flow model in a few seconds (docs/performance.md).
constexpr int64_t kSteadyScheduleBudget = 250'000;

// True when a schedule of `estimate` transfers should be built in steady state.
inline bool use_steady_state(int64_t estimate) { return estimate > kStepScheduleBudget; }

// Channels a steady form keeps out of `channels`: halves while channels x per_channel exceeds
// kSteadyScheduleBudget, as long as the count stays a divisor of `channels` and every channel c
// runs the same pattern as the channel c % kept it would merge into (`same(c, k)`).
int steady_channels(int channels, int64_t per_channel, const std::function<bool(int, int)>& same);
// Bytes merged channel k of `kept` carries: the sum of the original channels c = k (mod kept).
Bytes merged_channel_bytes(Bytes total, int channels, int kept, int k);

}  // namespace gf
