#include "training/model_shape.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/yaml_fields.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace gf {

namespace {

// GPT-style: multi-head attention, a 4h GELU MLP, biases.
ModelShape gpt(std::string name, std::string desc, std::string source, int64_t h, int64_t l, int64_t a, int64_t v) {
  ModelShape m;
  m.name = std::move(name);
  m.description = std::move(desc);
  m.source = std::move(source);
  m.hidden = h;
  m.layers = l;
  m.heads = a;
  m.kv_heads = a;
  m.head_dim = h / a;
  m.ffn = 4 * h;
  m.vocab = v;
  m.seq = 2048;
  return m;
}

// Llama-style: grouped-query attention, a SwiGLU MLP, no biases.
ModelShape llama(std::string name, std::string desc, std::string source, int64_t h, int64_t l, int64_t a, int64_t kv,
                 int64_t ffn, int64_t v, int64_t seq) {
  ModelShape m = gpt(std::move(name), std::move(desc), std::move(source), h, l, a, v);
  m.kv_heads = kv;
  m.ffn = ffn;
  m.gated_mlp = true;
  m.seq = seq;
  return m;
}

const char* kSelene =
    "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, MLSys 2023 (arXiv 2205.05198), "
    "Table 3";
const char* kLlama3 =
    "Llama Team, The Llama 3 Herd of Models, arXiv 2407.21783, Table 3 (vocabulary 128,256 as released)";

std::vector<ModelShape> build_presets() {
  std::vector<ModelShape> p;
  // Megatron pads GPT-3's 50,257-token vocabulary to 51,200 (a multiple of 128 x TP), as the
  // Selene runs of the source did.
  p.push_back(gpt(
      "gpt3-175b", "GPT-3 175B (h 12288, 96 layers, 96 heads)",
      "Brown et al., Language Models are Few-Shot Learners, arXiv 2005.14165, Table 2.1; Korthikanti et al. Table 3",
      12288, 96, 96, 51200));
  p.push_back(gpt("megatron-22b", "Megatron 22B (h 6144, 48 layers, 64 heads)", kSelene, 6144, 48, 64, 51200));
  p.push_back(
      gpt("megatron-530b", "Megatron-Turing 530B (h 20480, 105 layers, 128 heads)", kSelene, 20480, 105, 128, 51200));
  p.push_back(gpt("megatron-1t", "Megatron 1T (h 25600, 128 layers, 160 heads)", kSelene, 25600, 128, 160, 51200));
  p.push_back(llama("llama3-8b", "Llama 3 8B (h 4096, 32 layers, GQA 32/8, SwiGLU 14336)", kLlama3, 4096, 32, 32, 8,
                    14336, 128256, 8192));
  p.push_back(llama("llama3-70b", "Llama 3 70B (h 8192, 80 layers, GQA 64/8, SwiGLU 28672)", kLlama3, 8192, 80, 64, 8,
                    28672, 128256, 8192));
  p.push_back(llama("llama3-405b", "Llama 3 405B (h 16384, 126 layers, GQA 128/8, SwiGLU 53248)", kLlama3, 16384, 126,
                    128, 8, 53248, 128256, 8192));
  ModelShape mix =
      llama("mixtral-8x7b", "Mixtral 8x7B (h 4096, 32 layers, 8 experts, top-2)",
            "Jiang et al., Mixtral of Experts, arXiv 2401.04088, Table 1", 4096, 32, 32, 8, 14336, 32000, 4096);
  mix.experts = 8;
  mix.top_k = 2;
  mix.moe_ffn = 14336;
  p.push_back(mix);
  // Multi-head latent attention is priced as multi-head attention of 128 heads of 128 (the value
  // head width); the low-rank K/V compression is left out (docs/training.md, "Limits").
  ModelShape ds = llama("deepseek-v3", "DeepSeek-V3 671B (h 7168, 61 layers, 256 experts top-8 + 1 shared, MLA)",
                        "DeepSeek-AI, DeepSeek-V3 Technical Report, arXiv 2412.19437, section 4.2", 7168, 61, 128, 128,
                        18432, 129280, 4096);
  ds.head_dim = 128;
  ds.experts = 256;
  ds.top_k = 8;
  ds.moe_ffn = 2048;
  ds.shared_experts = 1;
  ds.dense_layers = 3;
  p.push_back(ds);
  return p;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> n;
  for (const ModelShape& m : model_presets()) n.push_back(m.name);
  return n;
}

}  // namespace

double ModelShape::layer_parameters(bool moe_layer) const {
  const double h = static_cast<double>(hidden);
  const double q = static_cast<double>(heads * head_dim), kv = static_cast<double>(kv_heads * head_dim);
  const double attn = h * q + 2 * h * kv + q * h;
  const double mats = gated_mlp ? 3.0 : 2.0;
  double mlp = mats * h * static_cast<double>(ffn);
  if (moe_layer)
    mlp = mats * h * static_cast<double>(moe_ffn) * static_cast<double>(experts + shared_experts) +
          h * static_cast<double>(experts);
  // Norms and biases: GPT-style layers carry 13h of them (Narayanan et al. 2021, section 5.1's
  // parameter count 12lh^2(1 + 13/12h + ...)); Llama-style layers only their two RMSNorm gains.
  const double small = gated_mlp ? 2 * h : 13 * h;
  return attn + mlp + small;
}

double ModelShape::parameters(bool tied) const {
  double p = 0;
  for (int64_t l = 0; l < layers; ++l) p += layer_parameters(moe() && l >= dense_layers);
  const double emb = static_cast<double>(vocab) * static_cast<double>(hidden);
  return p + emb * (tied ? 1 : 2) + static_cast<double>(hidden);
}

const std::vector<ModelShape>& model_presets() {
  static const std::vector<ModelShape> k = build_presets();  // immutable registry
  return k;
}

ModelShape parse_model_yaml(const std::string& text, const std::string& file) {
  YAML::Node root =
      load_yaml_document(text, file, "write at least name, hidden, layers, heads and vocab (docs/training.md)");
  YamlFields f(root, file, "",
               {"name", "description", "source", "hidden", "layers", "heads", "kv_heads", "head_dim", "ffn",
                "gated_mlp", "vocab", "experts", "top_k", "moe_ffn", "shared_experts", "dense_layers", "seq"});
  ModelShape m;
  m.name = f.required_string("name");
  m.description = f.string_or("description", "model file " + file);
  m.source = f.string_or("source", file);
  for (const char* k : {"hidden", "layers", "heads", "vocab"})
    if (!f.has(k))
      f.fail(k, std::string("missing required key '") + k + "'",
             "a model file needs name, hidden, layers, heads and vocab");
  m.hidden = f.integer_or("hidden", 0, 1);
  m.layers = f.integer_or("layers", 0, 1);
  m.heads = f.integer_or("heads", 0, 1);
  m.vocab = f.integer_or("vocab", 0, 1);
  m.kv_heads = f.integer_or("kv_heads", m.heads, 1);
  if (m.heads % m.kv_heads != 0)
    f.fail("kv_heads",
           std::to_string(m.kv_heads) + " key/value heads do not divide " + std::to_string(m.heads) + " heads",
           "use a divisor of heads (grouped-query attention shares each K/V head among heads/kv_heads query heads)");
  if (!f.has("head_dim") && m.hidden % m.heads != 0)
    f.fail("heads", std::to_string(m.heads) + " heads do not divide hidden " + std::to_string(m.hidden),
           "use a divisor of hidden, or give head_dim");
  m.head_dim = f.integer_or("head_dim", m.hidden / m.heads, 1);
  m.ffn = f.integer_or("ffn", 4 * m.hidden, 1);
  m.gated_mlp = f.boolean_or("gated_mlp", false);
  m.experts = f.integer_or("experts", 0, 0);
  m.top_k = f.integer_or("top_k", m.experts > 0 ? 1 : 0, 0);
  m.moe_ffn = f.integer_or("moe_ffn", m.ffn, 1);
  m.shared_experts = f.integer_or("shared_experts", 0, 0);
  m.dense_layers = f.integer_or("dense_layers", 0, 0);
  m.seq = f.integer_or("seq", 2048, 1);
  if (m.top_k > m.experts)
    f.fail("top_k", "top_k " + std::to_string(m.top_k) + " is more than the " + std::to_string(m.experts) + " experts",
           "use 1.." + std::to_string(m.experts) + " (or set experts)");
  if (m.dense_layers > m.layers)
    f.fail("dense_layers", "more dense layers than layers", "use 0.." + std::to_string(m.layers));
  return m;
}

ModelShape find_model(const std::string& name_or_file, const std::string& key) {
  const std::string lower = ascii_lower(name_or_file);
  for (const ModelShape& m : model_presets())
    if (m.name == lower) return m;
  namespace fs = std::filesystem;
  if (fs::is_regular_file(name_or_file)) {
    std::ifstream in(name_or_file);
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_model_yaml(ss.str(), name_or_file);
  }
  throw InputError(
      {}, key, "unknown model '" + name_or_file + "' (not a preset, and no such file)",
      suggest(lower, preset_names()) + "; or a YAML file with name, hidden, layers, heads, vocab (docs/training.md)");
}

}  // namespace gf
