#include "training/sm_contention.hpp"

#include <algorithm>

namespace gf {

int streaming_multiprocessors(const std::string& gpu_model) {
  auto starts = [&](const char* p) { return gpu_model.rfind(p, 0) == 0; };
  // NVIDIA A100 Tensor Core GPU Architecture white paper (2020): 108 SMs on A100 (SXM4 and PCIe).
  if (starts("A100")) return 108;
  // NVIDIA H100 Tensor Core GPU Architecture white paper (2022): 132 SMs on H100 SXM5; H200 is the
  // same GH100 part with HBM3e (H200 datasheet), so the same 132.
  if (starts("H100-SXM") || starts("H200-SXM")) return 132;
  return 0;
}

double sm_stretch(int taken, int sms) {
  if (sms <= 0 || taken <= 0) return 1.0;
  return static_cast<double>(sms) / static_cast<double>(sms - std::min(taken, sms - 1));
}

double sm_contention_s(double hidden_s, int channels, int sms) {
  if (sms <= 0 || channels <= 0 || hidden_s <= 0) return 0.0;
  return hidden_s * static_cast<double>(std::min(channels, sms)) / static_cast<double>(sms);
}

}  // namespace gf
