#include "collective/nvls_switch_rate.hpp"

#include <algorithm>

#include "collective/nccl_constants.hpp"

namespace gf {

double nvls_gpu_rate_fraction(const std::string& arch) {
  // FITTED to gb200-16tray-1rack-allreduce's 8 GiB row (validation/datasets.yaml calibration):
  // 64 GB200 GPUs, 32 heads, measured 18967 us. The flow model's time there is A / fraction + L;
  // runs at 0.60 and 0.65 gave 20017.99 and 18481.06 us, so A = 11988.05 us and L = 37.91 us, and
  // fraction = A / (18967 - L) = 0.6333: 0.633 x 721.8 GB/s (18 NVLink5 links at NCCL's 40.1) =
  // 456.9 GB/s of S per GPU. Every other set is held out. Hopper: no NVLink domain above 8 GPUs
  // is measured, so no cap.
  if (arch == "blackwell") return 0.633;
  return 0.0;
}

double nvls_switch_efficiency(const std::string& arch, int heads) {
  const double nccl = nccl_nvls_efficiency(arch), fraction = nvls_gpu_rate_fraction(arch);
  if (fraction <= 0 || heads < 1) return nccl;
  return std::min(nccl, fraction * (1.0 + 1.0 / heads));
}

}  // namespace gf
