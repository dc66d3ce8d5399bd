// Compute slowed by communication kernels that run beside it. An NCCL collective is one CUDA
// kernel launched with one thread block per channel (NCCL's src/enqueue.cc sets the launch grid
// to the plan's channel count; NCCL_MIN_CTAS / NCCL_MAX_CTAS in NCCL's environment-variable docs
// bound the same number), and each block holds an SM for the whole collective. While a collective
// is hidden behind compute, the GEMMs beside it get the other SMs only.
//
// Model: while a collective on c channels runs beside compute for t seconds on a GPU of S SMs, the
// compute runs on S - c SMs, i.e. stretched by S / (S - c): it does t (S - c) / S seconds' worth
// of its work in those t seconds and has t x c / S left to do afterwards. Counted as if the
// compute were SM-bound all through the overlap (GEMMs are), and as if the overlap window held
// compute throughout: an upper bound where the window has idle gaps. Charged for every NCCL
// collective the step overlaps with compute (training/train_step.cpp): the DP reduction behind
// the last backwards, ZeRO 3's prefetched gathers and overlapped reduce-scatters, CP's K/V ring
// beside attention, PP sends beside the next pass (--overlap pp). Not for collectives on the
// critical path (TP without --overlap tp, EP's all-to-alls, CP all-gather): nothing runs beside them.
//
// TP under --overlap tp does not use NCCL kernels but Transformer Engine's userbuffers, whose
// default configuration (transformer_engine/pytorch/module/base.py, get_default_config, at
// d0067d0) gives the pipelined and bulk methods 16 SMs ("num_sm": 16) and launches their GEMM on
// the rest for all of its duration ("set_sm_margin": true), while ring exchange copies with the
// copy engines ("use_ce": true) and leaves its GEMM every SM ("set_sm_margin": false). So a GEMM
// beside a pipelined or bulk collective is stretched by S / (S - 16) (training/overlap.hpp).
#pragma once

#include <string>

namespace gf {

// Streaming multiprocessors of a catalog GPU (training/gpu_catalog.hpp model names), from NVIDIA's
// architecture white papers; 0 when not known (then no contention is charged).
int streaming_multiprocessors(const std::string& gpu_model);

// Extra compute seconds for a collective on `channels` thread blocks hidden for `hidden_s`
// seconds on a GPU of `sms` SMs; 0 when sms is unknown (0) or nothing is hidden.
double sm_contention_s(double hidden_s, int channels, int sms);

// SMs Transformer Engine's userbuffers give a pipelined or bulk TP overlap (see above).
constexpr int kTeUserbufferSms = 16;

// How much longer compute takes on the SMs a communication kernel of `taken` SMs leaves:
// S / (S - taken); 1 when S is unknown (0) or nothing is taken.
double sm_stretch(int taken, int sms);

}  // namespace gf
