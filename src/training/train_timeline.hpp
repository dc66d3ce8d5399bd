// One training step as scheduled, for `train --trace` (report/train_trace.hpp): the pipeline's
// passes per stage, what one micro-batch's pass on each virtual stage is made of, and what each
// stage does after its last pass. run_training fills it when TrainOptions::timeline points at one;
// nothing here is computed for the trace alone, it is the step engine's own figures.
#pragma once

#include <vector>

#include "training/pipeline.hpp"

namespace gf {

// One micro-batch's pass on a virtual stage (chunk x PP + stage), in seconds, in the order drawn.
struct TimelinePass {
  double forward_compute_s = 0, recompute_s = 0, backward_compute_s = 0;
  double tp_forward_s = 0, tp_backward_s = 0;      // TP collectives on the critical path
  double other_forward_s = 0, other_backward_s = 0;  // EP all-to-alls, CP's ring and ZeRO 3, exposed
  double send_s = 0;                                 // a blocking PP send (no pp in --overlap)
  // Compute left over because overlapped communication kernels held SMs (sm_contention.hpp).
  double sm_forward_s = 0, sm_backward_s = 0;
};

// After a stage's last pass: the gradient reduction (its exposed part ends at end_s +
// dp_exposed_s), the optimizer, then the weights' all-gather of the distributed optimizer.
struct TimelineTail {
  double dp_s = 0, dp_exposed_s = 0, optimizer_s = 0, dp_after_s = 0;
  double contention_s = 0;  // the backward slowed by hidden DP kernels' SMs (sm_contention.hpp)
};

struct TrainTimeline {
  PipelineRun pipe;
  std::vector<TimelinePass> passes;  // per virtual stage
  std::vector<TimelineTail> tails;   // per stage
  double p2p_s = 0;                  // one activation between neighbouring virtual stages
  bool overlap_pp = true;            // sends beside the passes (true) or inside them
  double step_s = 0;
};

}  // namespace gf
