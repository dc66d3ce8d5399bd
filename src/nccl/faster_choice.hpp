// A second opinion on NCCL's choice: the choice is NCCL's (tuner.hpp), made from NCCL's closed
// form, but the simulation may find another enabled (algorithm, protocol) clearly faster on this
// cluster. A user can act on that ("forcing NCCL_ALGO=Tree here should help"), so the sweep names
// it in a note when the chosen one takes more than kFasterChoiceMargin longer.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "nccl/tuner.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

// How much longer than the fastest simulated option the chosen one may take before the note is
// printed: 10 %, the margin issue 18 asks for, above run-to-run noise of nccl-tests tables
// (../shared/validation/README.md: outliers of a few us at small sizes).
inline constexpr double kFasterChoiceMargin = 0.10;

struct FasterChoice {
  std::string algorithm;
  Protocol proto = Protocol::Simple;
  Time time;          // its simulated time
  double saving = 0;  // 1 - time / chosen time
};

// One option the choice had, simulated.
struct OptionTime {
  std::string algorithm;
  Protocol proto = Protocol::Simple;
  Time time;
};

struct RunTick;  // engine/run_tick.hpp

// How a progress line follows the other options' runs, which can take longer than the chosen
// one (LL on a large size); never for results (a run with a tick is the same run).
struct OptionsWatch {
  // Before run k (from 0) of the n: the option it runs.
  std::function<void(size_t k, size_t n, const std::string& algorithm, Protocol proto)> before;
  const RunTick* tick = nullptr;  // inside each run (engine/run_tick.hpp); null: not followed
};

// Every option tuner_options() allows other than `chosen`, in tie order, each run on `model` (a
// fidelity name) with the routing policy and seed the chosen one ran with; `watch`, when given,
// follows the runs.
std::vector<OptionTime> other_option_times(const Communicator& comm, const Router& router, const CollectiveCall& call,
                                           const NcclSettings& s, const TunerChoice& chosen, const std::string& model,
                                           uint64_t seed, RoutingPolicy routing, const OptionsWatch* watch = nullptr);
// The fastest of `others` when `chosen_time` exceeds its time by more than kFasterChoiceMargin.
std::optional<FasterChoice> faster_of(const std::vector<OptionTime>& others, Time chosen_time);

// Runs every other option tuner_options() allows on `model` (a fidelity name) with the routing
// policy and seed the chosen one ran with; the fastest, when `chosen_time` exceeds its time by
// more than kFasterChoiceMargin, else nullopt. Forced choices (one option) have no alternative.
std::optional<FasterChoice> faster_choice(const Communicator& comm, const Router& router, const CollectiveCall& call,
                                          const NcclSettings& s, const TunerChoice& chosen, Time chosen_time,
                                          const std::string& model, uint64_t seed, RoutingPolicy routing);

// "tree/LL takes 34% less time here in this simulation (NCCL_ALGO=Tree NCCL_PROTO=LL to force it)".
std::string faster_choice_note(const FasterChoice& f);

}  // namespace gf
