#include "collective/nccl_launch.hpp"

namespace gf {

namespace {

// src/include/comm.h and src/include/device.h (NCCL 2.30.7).
constexpr int64_t kLlThreadThreshold = 8;
constexpr int64_t kLl128ThreadThreshold = 8;
constexpr int64_t kSimpleThreadThreshold = 64;
constexpr int64_t kCollNetThreadThreshold = 512;  // tuning.cc: CollNet chain and direct, Simple
constexpr int kLlMaxThreads = 512;
constexpr int kLl128MaxThreads = 640;
constexpr int kSimpleMaxThreads = 512;
constexpr int kMaxThreads = 640;  // NCCL_MAX_NTHREADS

int max_threads(Protocol p) {
  switch (p) {
    case Protocol::LL: return kLlMaxThreads;
    case Protocol::LL128: return kLl128MaxThreads;
    case Protocol::Simple: break;
  }
  return kSimpleMaxThreads;
}

int64_t threshold(Protocol p) {
  switch (p) {
    case Protocol::LL: return kLlThreadThreshold;
    case Protocol::LL128: return kLl128ThreadThreshold;
    case Protocol::Simple: break;
  }
  return kSimpleThreadThreshold;
}

}  // namespace

NcclLaunchRule nccl_ring_launch_rule(Protocol p, int nranks, bool pci_ring) {
  NcclLaunchRule r{true, threshold(p), max_threads(p)};
  if (p == Protocol::LL) r.thread_threshold *= nranks;
  if (p == Protocol::Simple && pci_ring) r.max_threads = 256;
  return r;
}

NcclLaunchRule nccl_tree_launch_rule(Protocol p) { return {true, threshold(p), max_threads(p)}; }

NcclLaunchRule nccl_collnet_chain_launch_rule() { return {true, kCollNetThreadThreshold, kMaxThreads}; }

NcclLaunchRule nccl_launch_rule(const std::string& algorithm, Protocol p, const Communicator& comm) {
  if (algorithm == "ring") {
    const Bandwidth graph_bw = comm.ppn > 1 ? comm.intra_bw : comm.inter_bw;
    return nccl_ring_launch_rule(p, comm.nranks, graph_bw.bytes_per_second() <= 12e9);
  }
  if (algorithm == "tree") return nccl_tree_launch_rule(p);
  if (algorithm == "collnet_chain") return nccl_collnet_chain_launch_rule();
  return {};
}

int launch_channels(const Communicator& comm, const CollectiveCall& call, const std::string& algorithm, Protocol p,
                    int channels) {
  return nccl_launch(call.bytes.count(), channels, nccl_launch_rule(algorithm, p, comm)).channels;
}

NcclLaunch nccl_launch(int64_t nbytes, int channels, const NcclLaunchRule& rule) {
  NcclLaunch out{channels, rule.max_threads};
  if (!rule.cuts) return out;
  const int64_t t = rule.thread_threshold;
  while (nbytes < int64_t{out.channels} * out.threads * t && out.channels >= 2) --out.channels;
  while (nbytes < int64_t{out.channels} * out.threads * t && out.threads % 128 == 0) out.threads /= 2;
  return out;
}

}  // namespace gf
