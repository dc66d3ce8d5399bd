#include "training/tp_overlap_cfg.hpp"

#include <fstream>
#include <sstream>
#include <vector>

#include "config/yaml_fields.hpp"
#include "core/error.hpp"

namespace gf {

namespace {

UbSlot ring_exchange() { return {UbMethod::RingExchange, 1, false, 4}; }
UbSlot pipeline() { return {UbMethod::Pipeline, 16, true, 4}; }
UbSlot bulk() { return {UbMethod::Bulk, 16, true, 4}; }

struct Entry {
  const char* name;
  UbSlot TpOverlapCfg::*slot;
  std::vector<UbMethod> allowed;  // what TE accepts there and the step can price
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> k = {
      {"qkv_fprop", &TpOverlapCfg::qkv_fprop, {UbMethod::RingExchange}},
      {"proj_fprop", &TpOverlapCfg::proj_fprop, {UbMethod::Pipeline, UbMethod::RingExchange}},
      {"fc1_fprop", &TpOverlapCfg::fc1_fprop, {UbMethod::RingExchange}},
      {"fc2_fprop", &TpOverlapCfg::fc2_fprop, {UbMethod::Pipeline, UbMethod::RingExchange}},
      {"proj_dgrad", &TpOverlapCfg::proj_dgrad, {UbMethod::RingExchange}},
      {"fc2_dgrad", &TpOverlapCfg::fc2_dgrad, {UbMethod::RingExchange}},
      {"qkv_dgrad", &TpOverlapCfg::qkv_dgrad, {UbMethod::Bulk}},
      {"qkv_wgrad", &TpOverlapCfg::qkv_wgrad, {UbMethod::Bulk}},
      {"fc1_dgrad", &TpOverlapCfg::fc1_dgrad, {UbMethod::Bulk}},
      {"fc1_wgrad", &TpOverlapCfg::fc1_wgrad, {UbMethod::Bulk}},
  };
  return k;
}

// TE writes set_sm_margin as a Python bool; Megatron-LM's YAML files as 0 or 1.
bool flag_or(const YamlFields& f, const std::string& key, bool fallback) {
  if (!f.has(key)) return fallback;
  const YAML::Node v = f.get(key);
  if (v.IsScalar() && (v.Scalar() == "0" || v.Scalar() == "1")) return v.Scalar() == "1";
  return f.boolean_or(key, fallback);
}

}  // namespace

const char* to_string(UbMethod m) {
  switch (m) {
    case UbMethod::RingExchange: return "ring_exchange";
    case UbMethod::Pipeline: return "pipeline";
    case UbMethod::Bulk: return "bulk";
  }
  return "bulk";
}

TpOverlapCfg te_default_tp_overlap_cfg() {
  TpOverlapCfg c;
  c.qkv_fprop = c.fc1_fprop = c.proj_dgrad = c.fc2_dgrad = ring_exchange();
  c.proj_fprop = c.fc2_fprop = pipeline();
  c.qkv_dgrad = c.qkv_wgrad = c.fc1_dgrad = c.fc1_wgrad = bulk();
  return c;
}

TpOverlapCfg parse_tp_overlap_cfg_yaml(const std::string& text, const std::string& file) {
  const YAML::Node root = load_yaml_document(
      text, file, "write one entry per GEMM, e.g. `proj_fprop: {method: ring_exchange, num_sm: 1}` (docs/training.md)");
  std::vector<std::string> names;
  for (const Entry& e : entries()) names.emplace_back(e.name);
  const YamlFields top(root, file, "", names);
  TpOverlapCfg c = te_default_tp_overlap_cfg();
  c.source = file;
  for (const Entry& e : entries()) {
    if (!top.has(e.name)) continue;
    const YAML::Node n = top.get(e.name);
    if (!n.IsMap())
      top.fail(e.name, "expected a mapping of method, num_sm, set_sm_margin, num_splits",
               std::string("write `") + e.name + ": {method: ..., num_sm: ...}`");
    const YamlFields f(n, file, e.name,
                       {"method", "num_sm", "set_sm_margin", "num_splits", "cga_size", "aggregate", "atomic_gemm",
                        "fp8_buf", "use_ce", "is_reduce_scatter", "comm_priority", "gemm_priority",
                        "pipeline_rs_overlap_first_gemm"});
    UbSlot& s = c.*(e.slot);
    // TE starts from the entry's default and overrides the keys given (base.py, initialize_ub).
    if (f.has("method")) {
      const std::string m = f.required_string("method");
      std::string allowed;
      bool ok = false;
      for (UbMethod a : e.allowed) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(to_string(a));
        if (m == to_string(a)) {
          s.method = a;
          ok = true;
        }
      }
      if (!ok)
        f.fail("method", "method '" + m + "' is not one " + e.name + " can use here",
               "use " + allowed + " (Transformer Engine's methods for this GEMM that the step prices)");
    }
    if (f.has("num_splits") && s.method != UbMethod::Pipeline)
      f.fail("num_splits", "num_splits is read only by the pipeline method",
             "drop it, or set `method: pipeline` (ring exchange splits into TP chunks)");
    s.num_sm = static_cast<int>(f.integer_or("num_sm", s.num_sm, 0));
    s.set_sm_margin = flag_or(f, "set_sm_margin", s.set_sm_margin);
    s.num_splits = f.integer_or("num_splits", s.num_splits, 1);
  }
  return c;
}

TpOverlapCfg load_tp_overlap_cfg(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw InputError({}, "--tp-comm-overlap-cfg", "cannot read '" + path + "'",
                     "give the path of a YAML file of userbuffers entries (docs/training.md)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_tp_overlap_cfg_yaml(ss.str(), path);
}

}  // namespace gf
