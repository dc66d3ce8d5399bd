// What a GPU's in-switch (NVLS) legs get of its NVLink rate: NCCL's nvlsEfficiency, held to a
// per-GPU NVLS rate that does not grow with the domain (docs/models.md, "NVLS per GPU").
#pragma once

#include <string>

namespace gf {

// A GPU that owns 1/H of an NVLS all-reduce (a head) moves S + S/H on its NVLinks each way, the
// others S (collective/algorithms/nvls.cpp). NCCL 2.27.3's data path has no other NVLink bytes
// (src/device/all_reduce.h: scatter and gather stay in the GPU's own NVLS buffer), so a link-bound
// GPU would run faster per byte the more heads there are; measured on GB200 it does not (4 GPUs
// 442, 64 GPUs 453 GB/s algbw at 8 GiB). The cap says the slowest GPU moves its S at no more than
// kNvlsGpuRateFraction of its NVLink rate, charged as the efficiency
//   min(nvlsEfficiency, fraction x (1 + 1/H))
// on the in-switch legs, so the head's S(1 + 1/H) takes S / (fraction x NVLink rate) when the cap
// binds and NCCL's figure rules below it (one tray: H = 4).
double nvls_switch_efficiency(const std::string& arch, int heads);

// The fraction above per architecture; 0 where none is known (no cap). FITTED on Blackwell only.
double nvls_gpu_rate_fraction(const std::string& arch);

}  // namespace gf
