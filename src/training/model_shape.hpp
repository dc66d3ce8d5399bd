// A transformer's shape: what the FLOP, byte and memory formulas of a training step need. Presets
// carry cited shapes (`gpufabric list models`); any other model is a YAML file whose minimal form
// is `name`, `hidden`, `layers`, `heads`, `vocab` (docs/training.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gf {

struct ModelShape {
  std::string name;
  std::string description;  // one line for `gpufabric list models`
  std::string source;       // where the shape is published
  int64_t hidden = 0;       // h
  int64_t layers = 0;       // l
  int64_t heads = 0;        // a, attention (query) heads
  int64_t kv_heads = 0;     // grouped-query attention: key/value heads (= heads for multi-head)
  int64_t head_dim = 0;     // per head; hidden / heads unless the model says otherwise
  int64_t ffn = 0;          // the MLP's inner width (4h for GPT-style models)
  bool gated_mlp = false;   // SwiGLU: three ffn-wide matrices instead of two
  int64_t vocab = 0;        // V (as padded for the embedding, as trained)
  // Mixture of experts: every MoE layer routes each token to `top_k` of `experts` experts of width
  // `moe_ffn`, plus `shared_experts` always-on experts; the first `dense_layers` layers are dense.
  int64_t experts = 0;  // 0: dense model
  int64_t top_k = 0;
  int64_t moe_ffn = 0;
  int64_t shared_experts = 0;
  int64_t dense_layers = 0;
  int64_t seq = 2048;  // the sequence length the model is usually trained at (--seq overrides)

  bool moe() const { return experts > 0; }
  // Parameters (weights) of the whole model: attention, MLP or experts, norms, embedding (untied
  // output layer counted once more when `tied` is false).
  double parameters(bool tied = true) const;
  // Parameters of one transformer layer (`moe_layer`: an MoE layer's, all experts).
  double layer_parameters(bool moe_layer) const;
};

// Built-in shapes, in the order `gpufabric list models` prints them.
const std::vector<ModelShape>& model_presets();
// A preset by name, or a YAML model file by path. Throws InputError at `key` ("--model") with
// the valid names for an unknown one, or file:line:key for a bad file.
ModelShape find_model(const std::string& name_or_file, const std::string& key = "--model");
// A YAML model file's text (docs/training.md, "Model files"); `file` names it in messages.
ModelShape parse_model_yaml(const std::string& text, const std::string& file);

}  // namespace gf
