// MoE expert-parallel dispatch and combine as DeepEP's kernels run them (deepseek-ai/DeepEP,
// docs/legacy.md for the V1 kernels and their published table):
//  - low-latency (decode): every GPU writes each token's top-k copies straight into the buffer of
//    the GPU holding that expert (RDMA across servers, NVLink inside one), no deduplication, one
//    kernel with a completion signal per peer: the `direct` all-to-all pattern, PXN off (each GPU
//    sends from its own NIC), with a fixed cost of one launch and one signal wait;
//  - normal (prefill, training): a token goes over RDMA once per destination server, to the GPU
//    on the sender's rail, which forwards it over NVLink to the GPUs holding its experts
//    (deduplicated per server, then per GPU); the RDMA and NVLink phases are pipelined in chunks, so
//    both run at once here and the slower one bounds the call.
// Dispatch carries FP8 activations with one fp32 scale per 128 channels (hidden x (1 + 4/128)
// bytes per copy), combine BF16 (hidden x 2), as DeepEP's published figures are measured and
// DeepSeek-V3 deploys them (arXiv 2412.19437, section 3.3 and 3.4).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

enum class EpKernel { Nccl, Normal, LowLatency, Auto };
const char* to_string(EpKernel k);
// "nccl", "normal", "low-latency" or "auto"; throws InputError at `flag`.
EpKernel parse_ep_kernel(const std::string& text, const std::string& flag = "--ep-kernel");

struct EpCall {
  double tokens = 0;     // tokens each GPU dispatches (a mean: may be fractional)
  int64_t top_k = 0;
  int64_t experts = 0;   // routed experts over the EP group
  int64_t hidden = 0;
  bool combine = false;  // combine (BF16) rather than dispatch (FP8)
  // DeepSeek-V3's group-limited routing: a token's experts lie on at most this many servers
  // (0: no limit). DeepEP's test uses min(servers, 4).
  int64_t max_servers = 0;
};

// The most servers a token's experts may lie on under the model's routing, 0 when unlimited:
// DeepSeek-V3's node-limited routing sends each token to at most M = 4 nodes (arXiv 2412.19437,
// section 2.1.2); kept here by model name, as the model catalog has no routing field.
int64_t routing_server_limit(const std::string& model);

// Bytes of one token copy: FP8 with its scales for a dispatch, BF16 for a combine.
double ep_copy_bytes(const EpCall& c);
// Expected distinct servers (and GPUs) one token's top-k experts land on, experts spread evenly
// and picked uniformly (within the max_servers groups when limited).
double ep_servers_per_token(const EpCall& c, int64_t servers);
double ep_gpus_per_token(const EpCall& c, int64_t gpus);

struct EpTiming {
  double seconds = 0;
  std::string how;
  // DeepEP's "bottleneck bandwidth": low-latency, all copies' bytes / time; normal, RDMA bytes
  // counted as DeepEP's tests/test_internode.py counts them ((token, server) pairs, the sender's
  // own server included) / time, or NVLink bytes on one server.
  double logical_gBps = 0;
};

class RouteCache;

// What the calls on one EP group can share: the group's communicator and the routes of the
// low-latency kernel's pattern. A dispatch and a combine move different bytes over the same
// transfers (every GPU to every other), and a route depends only on a transfer's endpoints,
// channel and seed (engine/transfer_routes.hpp), so one routing serves both: the times are the
// same as with routes made afresh.
class EpShared {
 public:
  EpShared();
  ~EpShared();
  EpShared(const EpShared&) = delete;
  EpShared& operator=(const EpShared&) = delete;

 private:
  friend struct EpSharedAccess;
  std::vector<int64_t> gpus_;
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<RouteCache> routes_;
};

// One dispatch or combine on the EP group `gpus` (cluster indices, whole servers or a part of
// one), on network model `model`. `shared` (optional) carries the group's communicator and
// routes from one call to the next.
EpTiming time_ep(const Cluster& cluster, const Router& router, const std::string& model,
                 const std::vector<int64_t>& gpus, const EpCall& call, EpKernel kernel, EpShared* shared = nullptr);

}  // namespace gf
