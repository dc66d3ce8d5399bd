#include "training/gpu_catalog.hpp"

#include "core/error.hpp"
#include "core/text.hpp"

namespace gf {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Vendors quote tensor peaks "with sparsity"; every figure here is the dense one (half of it).
// Capacities marketed in GB for HBM2e/HBM3 parts of NVIDIA's A100/H100 are GiB on the device
// (nvidia-smi prints 81920 MiB for an 80 GB H100); later parts quoted in decimal GB are kept so.
std::vector<TrainingGpu> build() {
  return {
      {"V100-SXM2-32GB", 125, 0, 32 * kGiB, 900, "NVIDIA Tesla V100 datasheet (FP16 tensor; no BF16)"},
      {"V100-SXM3-32GB", 125, 0, 32 * kGiB, 900, "NVIDIA Tesla V100 datasheet (FP16 tensor; no BF16)"},
      {"A100-SXM4-40GB", 312, 0, 40 * kGiB, 1555, "NVIDIA A100 Tensor Core GPU datasheet (40GB SXM)"},
      {"A100-SXM4-80GB", 312, 0, 80 * kGiB, 2039, "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM)"},
      {"A40-48GB", 149.7, 0, 48e9, 696, "NVIDIA A40 datasheet (BF16 tensor 299.4 TFLOPS with sparsity)"},
      {"L40S-48GB", 362, 733, 48e9, 864, "NVIDIA L40S datasheet (BF16 733 / FP8 1,466 TFLOPS with sparsity)"},
      {"RTX-4090-24GB", 165, 330, 24e9, 1008,
       "NVIDIA Ada Lovelace GPU architecture white paper, Appendix A (FP32 accumulate)"},
      {"H100-SXM5-80GB", 989, 1979, 80 * kGiB, 3350, "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"},
      {"H20-96GB", 148, 296, 96e9, 4000, "NVIDIA H20 product brief (HGX H20: BF16 148 / FP8 296 TFLOPS dense)"},
      {"H200-SXM-141GB", 989, 1979, 141e9, 4800, "NVIDIA H200 Tensor Core GPU datasheet (SXM)"},
      {"H200-NVL-141GB", 835, 1671, 141e9, 4800,
       "NVIDIA H200 Tensor Core GPU datasheet (NVL: BF16 1,671 / FP8 3,341 sparse)"},
      {"B200-SXM-180GB", 2250, 4500, 180e9, 8000,
       "NVIDIA DGX B200 datasheet (per GPU: 72 / 144 PFLOPS FP8 / FP4 for 8, sparse)"},
      {"B300-SXM6-288GB", 2250, 4500, 288e9, 8000, "NVIDIA HGX B300 spec (per GPU; dense = half the sparse figure)"},
      {"GB200", 2500, 5000, 186e9, 8000,
       "NVIDIA GB200 NVL72 datasheet (13.4 TB HBM3e and 360 PFLOPS BF16 sparse over 72 GPUs)"},
      {"GB300", 2500, 5000, 279e9, 8000,
       "NVIDIA GB300 NVL72 datasheet (20 TB HBM3e and 360 PFLOPS BF16 sparse over 72 GPUs)"},
      {"MI210-64GB", 181, 0, 64e9, 1638, "AMD Instinct MI210 data sheet"},
      {"MI300X-192GB", 1307, 2615, 192e9, 5300,
       "AMD Instinct MI300X data sheet (dense BF16 1,307.4, FP8 2,614.9 TFLOPS)"},
      {"MI325X-256GB", 1307, 2615, 256e9, 6000,
       "AMD Instinct MI325X data sheet (dense BF16 1,307.4, FP8 2,614.9 TFLOPS)"},
      {"MI355X-288GB", 2500, 5000, 288e9, 8000, "AMD Instinct MI355X data sheet (dense BF16 2.5, FP8 5.0 PFLOPS)"},
      {"Gaudi2-96GB", 432, 865, 96e9, 2450, "Intel Gaudi 2 white paper"},
      {"Gaudi3-128GB", 1835, 1835, 128e9, 3700, "Intel Gaudi 3 AI accelerator white paper"},
  };
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const TrainingGpu& g : training_gpus()) n.push_back(g.model);
  return n;
}

}  // namespace

const std::vector<TrainingGpu>& training_gpus() {
  static const std::vector<TrainingGpu> k = build();  // immutable catalog
  return k;
}

std::optional<TrainingGpu> find_training_gpu(const std::string& model) {
  const std::string want = ascii_lower(model);
  for (const TrainingGpu& g : training_gpus())
    if (ascii_lower(g.model) == want) return g;
  return std::nullopt;
}

TrainingGpu training_gpu_for(const GpuSpec& g, const std::string& key) {
  if (auto t = find_training_gpu(g.model)) return *t;
  if (g.bf16_tflops > 0 && g.memory_bw.to_gBps() > 0)
    return {g.model, g.bf16_tflops, 0, 0, g.memory_bw.to_gBps(), g.source.empty() ? "the cluster file" : g.source};
  throw InputError(
      {}, key,
      "GPU '" + (g.model.empty() ? std::string("(unnamed)") : g.model) +
          "' has no peak TFLOP/s in the catalog or the cluster file",
      "pick a catalog GPU with --gpu (" + suggest(g.model, names()) +
          "), or give the server one: `gpu: {model: MyGPU, arch: hopper, memory_bw: 3350GB/s, bf16_tflops: 989}`");
}

}  // namespace gf
