// The pipeline schedule of one step: Megatron's 1F1B (PipeDream-Flush, Narayanan et al. 2021,
// section 2.2.1) and its interleaved form with v model chunks per stage (section 2.2.2). Each stage
// runs its forward and backward passes in the fixed order the schedule gives; a pass starts when
// its stage is free and its input has arrived (the previous virtual stage's pass plus the
// point-to-point time). The bubble is not a formula here: it is the idle time this leaves. On equal
// stages and a free network it comes to (p-1)/m of the ideal time, (p-1)/(m v) interleaved.
#pragma once

#include <cstdint>
#include <vector>

namespace gf {

struct PipelineInput {
  int64_t stages = 1;        // p
  int64_t chunks = 1;        // v (model chunks per stage)
  int64_t microbatches = 1;  // m
  // Per virtual stage vs = chunk x p + stage: one micro-batch's forward and backward time (the
  // backward includes any recompute).
  std::vector<double> forward_s, backward_s;
  double p2p_s = 0;  // one activation (or its gradient) between neighbouring virtual stages
};

struct PassSpan {
  bool forward = true;
  int64_t microbatch = 0, chunk = 0;
  double start = 0, end = 0;
};

struct StageRun {
  std::vector<PassSpan> passes;       // in the order run
  double busy_s = 0;                  // time spent in passes
  double end_s = 0;                   // when its last pass ended
  double last_backwards_start_s = 0;  // the earliest start among each chunk's last backward pass
};

struct PipelineRun {
  std::vector<StageRun> stages;
  double makespan_s = 0;
};

// Throws std::logic_error if the order deadlocks (it cannot for the orders built here).
PipelineRun run_pipeline(const PipelineInput& in);

// The order of passes on stage `stage` (forward?, micro-batch, chunk): 1F1B for one chunk,
// Megatron's interleaved order for several.
std::vector<PassSpan> pass_order(int64_t stage, int64_t stages, int64_t chunks, int64_t microbatches);

}  // namespace gf
