// `gpufabric run SCENARIO --trace FILE`: a scenario's run as a Perfetto timeline (report/trace):
// one process per job and server, each rank's calls as slices (every repetition), each call's
// transfers per (rank, channel) with arrows between them, and counter tracks for the busiest
// links. The engine keeps each transfer's finish for a call's last repetition only, so the
// transfers (and the link counters built from them) are those of the last repetition; earlier
// repetitions show as call slices.
#pragma once

#include <string>
#include <vector>

#include "report/trace.hpp"
#include "workload/scenario_view.hpp"

namespace gf {

// Adds every job of `v` to `w` (built on v.cluster and v.router), each call labelled as the engine
// labels it ("all_reduce 64 MiB").
void trace_scenario(TraceWriter& w, const ScenarioView& v);

}  // namespace gf
