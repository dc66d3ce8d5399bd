// What a training step needs of a GPU beyond the network: dense peak tensor throughput per data
// type, memory capacity and bandwidth. Keyed by the model name the cluster's server gives its GPU
// (topology/server_template.hpp GpuSpec::model), every figure from the vendor's datasheet.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/server_template.hpp"

namespace gf {

struct TrainingGpu {
  std::string model;        // "H100-SXM5-80GB", as GpuSpec::model spells it
  double bf16_tflops = 0;   // dense (no 2:4 sparsity) BF16/FP16 tensor peak
  double fp8_tflops = 0;    // dense FP8 tensor peak; 0 where the GPU has none
  double memory_bytes = 0;  // HBM (or GDDR) capacity; 0 when unknown (the fit is not checked)
  double memory_gBps = 0;   // memory bandwidth, 1 GB/s = 1e9 B/s
  std::string source;
};

const std::vector<TrainingGpu>& training_gpus();
std::optional<TrainingGpu> find_training_gpu(const std::string& model);
// The cluster GPU's figures: the catalog entry of its model, else what the cluster file gives
// (bf16_tflops, memory_bw; capacity unknown). Throws InputError at `key` when neither knows its
// peak, with a hint that shows how to write a `gpu:` entry or pick a catalog GPU with --gpu.
TrainingGpu training_gpu_for(const GpuSpec& g, const std::string& key = "--gpu");

}  // namespace gf
