// Compute slowed by communication kernels that run beside it. An NCCL collective is one CUDA
// kernel launched with one thread block per channel (NCCL's src/enqueue.cc sets the launch grid
// to the plan's channel count; NCCL_MIN_CTAS / NCCL_MAX_CTAS in NCCL's environment-variable docs
// bound the same number), and each block holds an SM for the whole collective. While a collective
// is hidden behind compute, the GEMMs beside it get the other SMs only.
//
// Model: a collective on c channels, hidden for t seconds behind compute on a GPU of S SMs,
// leaves the compute c/S of that time's work to do afterwards: t x c / S more compute time.
// Counted as if the compute were SM-bound all through the overlap (GEMMs are), and as if the
// overlap window held compute throughout: an upper bound where the window has idle gaps.
#pragma once

#include <string>

namespace gf {

// Streaming multiprocessors of a catalog GPU (training/gpu_catalog.hpp model names), from NVIDIA's
// architecture white papers; 0 when not known (then no contention is charged).
int streaming_multiprocessors(const std::string& gpu_model);

// Extra compute seconds for a collective on `channels` thread blocks hidden for `hidden_s`
// seconds on a GPU of `sms` SMs; 0 when sms is unknown (0) or nothing is hidden.
double sm_contention_s(double hidden_s, int channels, int sms);

}  // namespace gf
