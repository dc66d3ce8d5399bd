// Transformer Engine's userbuffers configuration: how each TP collective next to a linear layer is
// overlapped with its GEMM under --overlap tp. TE reads it as a dict keyed by GEMM
// (`initialize_ub(..., ub_cfgs=...)` in transformer_engine/pytorch/module/base.py); Megatron-LM
// loads that dict from the YAML file of `--tp-comm-overlap-cfg`, and NVIDIA's performance recipes
// pass their own (Megatron-Bridge training/comm_overlap.py, TransformerLayerTPOverlapCfg). What the
// step prices per entry: the method (how the GEMM is split and how much of the collective stays
// exposed, training/overlap.hpp) and the SMs the communication takes (training/sm_contention.hpp).
#pragma once

#include <cstdint>
#include <string>

namespace gf {

enum class UbMethod { RingExchange, Pipeline, Bulk };

struct UbSlot {
  UbMethod method = UbMethod::Bulk;
  int num_sm = 16;           // SMs of the communication kernel (TE: "num_sm")
  bool set_sm_margin = true; // the GEMM is launched on the SMs the kernel leaves, for all its time
  int64_t num_splits = 4;    // pipeline only: the GEMM's output features in this many chunks
};

// The ten entries TE knows for a transformer layer: the forward's GEMM after an all-gather (QKV,
// FC1) or before a reduce-scatter (projection, FC2); the backward's data-gradient GEMMs after an
// all-gather (projection, FC2) and the bulk pairs of QKV and FC1 (dgrad: the input's all-gather
// beside the data-gradient GEMM; wgrad: the data gradient's reduce-scatter beside the
// weight-gradient GEMM).
struct TpOverlapCfg {
  UbSlot qkv_fprop, proj_fprop, fc1_fprop, fc2_fprop;
  UbSlot proj_dgrad, fc2_dgrad;
  UbSlot qkv_dgrad, qkv_wgrad, fc1_dgrad, fc1_wgrad;
  std::string source = "Transformer Engine's defaults";  // said in the step's notes
};

// TE's defaults (base.py, `get_default_config` at d0067d0): ring exchange for the all-gathers
// before a GEMM (copy engines, no SM margin), pipeline in 4 splits for the forward's reduce-scatters
// and bulk for the backward pairs, both on 16 SMs with the GEMM on the rest ("set_sm_margin": true).
TpOverlapCfg te_default_tp_overlap_cfg();

// A `--tp-comm-overlap-cfg` YAML file's text: a mapping from entry name (qkv_fprop, ...) to a
// mapping of `method` (ring_exchange, pipeline, bulk), `num_sm`, `set_sm_margin`, `num_splits`;
// TE's other keys (cga_size, aggregate, atomic_gemm, fp8_buf, use_ce) are accepted and change
// nothing here. Entries not given keep TE's default. Each entry takes only the methods TE allows
// there. Errors name file:line and the key.
TpOverlapCfg parse_tp_overlap_cfg_yaml(const std::string& text, const std::string& file);
// The same from a file path.
TpOverlapCfg load_tp_overlap_cfg(const std::string& path);

const char* to_string(UbMethod m);  // "ring_exchange", "pipeline", "bulk"

}  // namespace gf
