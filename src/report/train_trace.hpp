// `train --trace FILE`: one training step as a Trace Event Format timeline (the format of
// `perf --trace`, report/trace.hpp), from the step engine's own schedule (training/train_timeline.hpp).
//
// One process per pipeline stage; per rank shown four tracks: its passes, its PP sends, its PP
// receives and its DP collectives. A pass is a slice ("forward mb 3", "backward mb 3 chunk 1") made
// of its parts in sequence: compute (recompute first in a backward), the TP collectives of its
// layers as one slice, the exposed EP/CP/ZeRO-3 communication as one slice, and a blocking PP send.
// Every rank of a stage runs the same schedule (train_step.hpp), so the ranks shown differ only in
// their groups. The bubble is the gaps between passes. Arrows join each PP send to the pass that
// waits for it on the next stage, when both ranks are shown.
#pragma once

#include <ostream>
#include <utility>
#include <vector>

#include "topology/cluster.hpp"
#include "training/train_step.hpp"
#include "training/train_timeline.hpp"

namespace gf {

// `ranks`: inclusive ranges of global ranks to show; empty: one rank per stage (TP, DP and CP
// index 0). Returns the number of events written.
size_t write_train_trace(std::ostream& out, const Cluster& cluster, const TrainResult& r, const TrainTimeline& t,
                         const std::vector<std::pair<int, int>>& ranks);

}  // namespace gf
