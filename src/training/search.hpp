// `train --search`: the fastest layout of a model on N GPUs that fits memory. Every layout that
// divides (TP a divisor of a server's GPUs and of the heads; CP 2, 4, ... where the sequence leaves at
// least 8,192 tokens per rank; PP of the layers; DP = N / (TP x CP x PP);
// for MoE models EP a divisor of DP and of the experts;
// micro-batch x DP dividing the global batch; VPP dividing the layers per stage) is tried with
// each micro-batch size, recompute mode and ZeRO stage asked for; those that fit memory are priced
// by the whole step model with a closed-form network (training/closed_form_network), and the best
// few are run again on the chosen network model, which ranks them.
#pragma once

#include <cstdint>
#include <vector>

#include "training/train_step.hpp"

namespace gf {

struct SearchOptions {
  int64_t gpus = 0;         // the job's GPUs; 0: the cluster's
  double max_memory = 0;    // bytes per GPU; 0: the GPU's capacity
  size_t refine = 3;        // how many of the best estimates run on the network model
  size_t keep = 10;         // how many estimates the result lists
  std::vector<int64_t> micro_batches = {1, 2, 4, 8};
  std::vector<Recompute> recompute = {Recompute::None, Recompute::Selective, Recompute::Full};
  std::vector<int> zero = {0, 1, 2, 3};
  int64_t max_vpp = 8;
  bool sequence_parallel = true;  // on whenever TP > 1
};

struct SearchCandidate {
  TrainLayout layout;
  double estimate_s = 0;   // step time with the closed-form network
  double simulated_s = 0;  // on the network model; 0 when not refined
  double memory_bytes = 0;
};

struct SearchResult {
  int64_t layouts = 0;  // dividing layouts tried
  int64_t fit = 0;      // of which fit memory
  size_t measurements = 0;  // analytical runs that calibrated the closed form
  std::vector<SearchCandidate> best;  // the best estimates, `keep` at most, fastest first
  std::vector<SearchCandidate> refined;  // run on the network model, fastest first
  TrainResult winner;                    // the fastest refined layout's full result
};

// Throws InputError (--gpus, --max-memory) when no layout divides or fits.
SearchResult search_layouts(const Cluster& cluster, const Router& router, const ModelShape& model,
                            const TrainLayout& base, const TrainOptions& options, const TrainingGpu& gpu,
                            const SearchOptions& search);

}  // namespace gf
