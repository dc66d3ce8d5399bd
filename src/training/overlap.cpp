#include "training/overlap.hpp"

#include <algorithm>

namespace gf {

double ring_exchange_exposed(double comm_s, double gemm_s, int64_t n) {
  if (n < 2) return comm_s;  // nothing to pipeline against
  const double f = static_cast<double>(n - 1) / static_cast<double>(n);
  return std::max(0.0, comm_s - f * gemm_s);
}

double pipelined_exposed(double comm_s, double gemm_s, int64_t splits) {
  if (splits < 1) splits = 1;
  const double k = static_cast<double>(splits);
  return std::max(comm_s / k, comm_s - (k - 1) / k * gemm_s);
}

double bulk_exposed(double comm_s, double gemm_s) { return std::max(0.0, comm_s - gemm_s); }

TpExposed tp_overlap_exposed(double ag_s, double rs_s, const LayerTimes& t, int64_t tp, double stretch) {
  TpSplitGemms g;
  g.qkv_s = t.qkv_s;
  g.proj_s = g.proj_dgrad_s = t.proj_s;
  g.fc1_s = t.fc1_s;
  g.fc2_s = g.fc2_dgrad_s = t.fc2_s;
  return tp_overlap_exposed(ag_s, rs_s, g, t, tp, stretch);
}

TpExposed tp_overlap_exposed(double ag_s, double rs_s, const TpSplitGemms& g, const LayerTimes& whole, int64_t tp,
                             double stretch) {
  TpExposed e;
  // GEMMs that share the GPU with a pipelined or bulk kernel, on the SMs it leaves.
  const double proj = g.proj_s * stretch, fc2 = g.fc2_s * stretch;
  const double fc1 = whole.fc1_s * stretch, qkv = whole.qkv_s * stretch;
  // Forward: AG -> QKV, projection -> RS, AG -> FC1, FC2 -> RS.
  e.forward_s = ring_exchange_exposed(ag_s, g.qkv_s, tp) + pipelined_exposed(rs_s, proj, kTePipelineSplits) +
                ring_exchange_exposed(ag_s, g.fc1_s, tp) + pipelined_exposed(rs_s, fc2, kTePipelineSplits);
  e.forward_sm_s = (proj - g.proj_s) + (fc2 - g.fc2_s);
  // Backward, in the order it runs: FC2's data gradient needs the output gradient gathered (ring
  // exchange); FC1 gathers its input again beside its data-gradient GEMM and reduce-scatters that
  // gradient beside its weight-gradient GEMM (bulk); the same for the projection and QKV.
  e.backward_s = ring_exchange_exposed(ag_s, g.fc2_dgrad_s, tp) + bulk_exposed(ag_s, fc1) + bulk_exposed(rs_s, fc1) +
                 ring_exchange_exposed(ag_s, g.proj_dgrad_s, tp) + bulk_exposed(ag_s, qkv) + bulk_exposed(rs_s, qkv);
  e.backward_sm_s = 2 * (fc1 - whole.fc1_s) + 2 * (qkv - whole.qkv_s);
  return e;
}

double cp_ring_exposed(double comm_s, double attn_s, int64_t cp) { return ring_exchange_exposed(comm_s, attn_s, cp); }

}  // namespace gf
