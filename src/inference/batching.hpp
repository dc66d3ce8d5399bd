// Continuous batching over a stream of requests: iteration-level scheduling as Orca introduced it
// (Yu et al., "Orca: A Distributed Serving System for Transformer-Based Generative Models",
// OSDI 2022, section 3.1: the batch is re-formed every iteration, so a finished request leaves and
// a waiting one joins without waiting for the whole batch) with vLLM's prefill-first policy
// (Kwon et al., "Efficient Memory Management for Large Language Model Serving with
// PagedAttention", SOSP 2023, section 4.5; vLLM's v0 scheduler runs an iteration of prefills
// whenever requests wait and room is free, else one decode step of every running request).
//
// The scheduler, kept simple and documented (docs/inference.md, "Continuous batching"):
//  - requests arrive as a Poisson process of `rate` per second (exponential gaps), each with a
//    prompt and an output length drawn uniformly within +-50 % of --prompt and --output;
//  - at each iteration, if requests wait and fewer than `slots` (--batch) run and their KV caches
//    at full length fit the memory left after weights, the waiting ones are admitted first come
//    first served and prefilled together (one iteration; each gets its first token at its end);
//  - otherwise every running request decodes one token (one iteration at the running batch size
//    and its mean KV-cache length); a request that has its output leaves.
// An iteration's time is the instance's prefill or decode step (infer_step.hpp) at that batch
// size, collectives included. The same seed gives the same stream and the same figures.
#pragma once

#include <cstdint>

#include "inference/infer_step.hpp"

namespace gf {

struct BatchingOptions {
  double rate = 1;        // requests per second
  int64_t requests = 100;
  uint64_t seed = 1;
};

struct Percentiles {
  double p50 = 0, p99 = 0, mean = 0;
};

struct BatchingResult {
  int64_t requests = 0, iterations = 0, prefill_iterations = 0;
  double makespan_s = 0;          // first arrival to last completion
  double output_tokens_per_s = 0; // all requests' output tokens / makespan
  double requests_per_s = 0;
  double mean_batch = 0;          // running requests per decode iteration
  int64_t max_running = 0;        // the most requests running at once (slots or memory bound it)
  Percentiles ttft_s, tpot_s, latency_s;  // latency: arrival to last token
};

// Throws InputError (at --rate, --requests) for a rate or count below the minimum, or when not one
// request fits memory. `memo` (optional): the instance's collective timings, shared with the
// caller's own run_inference of the same instance (inference/comm_memo.hpp).
BatchingResult run_batching(const Cluster& cluster, const Router& router, const ModelShape& model,
                            const InferLayout& layout, const InferOptions& options, const TrainingGpu& gpu,
                            const BatchingOptions& b, InferCommMemo* memo = nullptr);

}  // namespace gf
