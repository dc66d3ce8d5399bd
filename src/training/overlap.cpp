#include "training/overlap.hpp"

#include <algorithm>

#include "training/sm_contention.hpp"

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

UbCost ub_slot_cost(const UbSlot& slot, double comm_s, double gemm_s, int64_t tp, int sms) {
  const double g = gemm_s * (slot.set_sm_margin ? sm_stretch(slot.num_sm, sms) : 1.0);
  UbCost c;
  switch (slot.method) {
    case UbMethod::RingExchange: c.exposed_s = ring_exchange_exposed(comm_s, g, tp); break;
    case UbMethod::Pipeline: c.exposed_s = pipelined_exposed(comm_s, g, slot.num_splits); break;
    case UbMethod::Bulk: c.exposed_s = bulk_exposed(comm_s, g); break;
  }
  c.sm_s = g - gemm_s;
  if (!slot.set_sm_margin && slot.method != UbMethod::RingExchange)
    c.sm_s += sm_contention_s(comm_s - c.exposed_s, slot.num_sm, sms);
  return c;
}

TpExposed tp_overlap_exposed(double ag_s, double rs_s, const TpSplitGemms& g, const LayerTimes& whole, int64_t tp,
                             const TpOverlapCfg& cfg, int sms) {
  TpExposed e;
  auto add = [&](double& exposed, double& sm, const UbSlot& slot, double comm_s, double gemm_s) {
    const UbCost c = ub_slot_cost(slot, comm_s, gemm_s, tp, sms);
    exposed += c.exposed_s;
    sm += c.sm_s;
  };
  add(e.forward_s, e.forward_sm_s, cfg.qkv_fprop, ag_s, g.qkv_s);
  add(e.forward_s, e.forward_sm_s, cfg.proj_fprop, rs_s, g.proj_s);
  add(e.forward_s, e.forward_sm_s, cfg.fc1_fprop, ag_s, g.fc1_s);
  add(e.forward_s, e.forward_sm_s, cfg.fc2_fprop, rs_s, g.fc2_s);
  add(e.backward_s, e.backward_sm_s, cfg.fc2_dgrad, ag_s, g.fc2_dgrad_s);
  add(e.backward_s, e.backward_sm_s, cfg.fc1_dgrad, ag_s, whole.fc1_s);
  add(e.backward_s, e.backward_sm_s, cfg.fc1_wgrad, rs_s, whole.fc1_s);
  add(e.backward_s, e.backward_sm_s, cfg.proj_dgrad, ag_s, g.proj_dgrad_s);
  add(e.backward_s, e.backward_sm_s, cfg.qkv_dgrad, ag_s, whole.qkv_s);
  add(e.backward_s, e.backward_sm_s, cfg.qkv_wgrad, rs_s, whole.qkv_s);
  return e;
}

double cp_ring_exposed(double comm_s, double attn_s, int64_t cp) { return ring_exchange_exposed(comm_s, attn_s, cp); }

}  // namespace gf
