#include "io/gguf_decoders.hpp"

#include "util/limits.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace infercast {

namespace {

struct Arch {
  const char* gguf;        // llama.cpp's architecture name
  const char* model_type;  // the family that reads the config
};

const std::vector<Arch>& archs() {
  static const std::vector<Arch> table = {
      {"olmo2", "olmo2"},         {"olmoe", "olmoe"},           {"granite", "granite"},
      {"granitemoe", "granitemoe"}, {"command-r", "cohere"},    {"cohere2", "cohere2"},
      {"phimoe", "phimoe"},       {"dbrx", "dbrx"},             {"starcoder2", "starcoder2"},
      {"stablelm", "stablelm"},   {"exaone", "exaone"},         {"exaone4", "exaone4"},
      {"glm4", "glm4"},           {"glm4moe", "glm4_moe"},      {"ernie4_5", "ernie4_5"},
      {"ernie4_5-moe", "ernie4_5_moe"}, {"hunyuan-moe", "hunyuan_v1_moe"}, {"hunyuan-dense", "hunyuan_v1_dense"},
      {"smollm3", "smollm3"},     {"internlm2", "internlm2"},   {"gemma2", "gemma2"},
      {"gemma3", "gemma3_text"},  {"gpt-oss", "gpt_oss"},       {"llama4", "llama4_text"},
      {"deepseek2", "deepseek_v3"}, {"gemma3n", "gemma3n_text"}, {"nemotron", "nemotron"},
      {"minicpm", "minicpm"},     {"minicpm3", "minicpm3"},     {"bitnet", "bitnet"},
      // The GPT lineage (io/families_legacy.cpp): their configs spell the sizes their own way (legacy_names below).
      {"gpt2", "gpt2"},           {"starcoder", "gpt_bigcode"}, {"gptneox", "gpt_neox"},
      {"phi2", "phi"},            {"bloom", "bloom"},           {"mpt", "mpt"},
      {"olmo", "olmo"},
      // Granite SWASH, dense and MoE under one architecture (llama.cpp's granite-swa.cpp): granitemoe_swa where the
      // file counts experts.
      {"granite_swa", "granite_swa"},
      {"cohere2moe", "cohere2_moe"},
  };
  return table;
}

// Layer kinds as llama.cpp's loader takes them (llama-model.cpp, load_swa_pattern): a per-layer array
// `<arch>.attention.sliding_window_pattern` (true: sliding), else the same key as a period, else the family's period;
// with a period n, layer i slides unless i % n == n - 1 (the last of each period is global), or with `first_global`
// unless i % n == 0 (hparams.set_swa_pattern(n, dense_first): Cohere2 MoE).
json layer_types(const json& md, const std::string& arch, double layers, std::int64_t period, const char* local,
                 bool first_global = false) {
  const std::string key = arch + ".attention.sliding_window_pattern";
  const json* v = md.contains(key) ? &md[key] : nullptr;
  json out = json::array();
  // Past the layer limit the array is not built: the config's reader refuses block_count with its message.
  if (!(layers >= 1 && layers <= static_cast<double>(limit::kModelLayers))) return out;
  const auto n = static_cast<std::int64_t>(layers);
  if (v && v->is_array() && static_cast<std::int64_t>(v->size()) == n) {
    for (const auto& b : *v) out.push_back((b.is_boolean() ? b.get<bool>() : b.is_number() && b.get<double>() != 0) ? local : "full_attention");
    return out;
  }
  if (v && v->is_number() && v->get<double>() >= 1 && v->get<double>() <= 1e6) period = static_cast<std::int64_t>(v->get<double>());
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back((first_global ? i % period != 0 : i % period < period - 1) ? local : "full_attention");
  return out;
}

// Gemma 3n (gemma.py, Gemma3NModel): what its converter writes beside the common keys, back in
// Gemma3nTextConfig's fields. llama.cpp's loader reads few of them (it fixes 4 AltUp inputs, LAuReL rank 64 and KV
// from the first 20 layers); the file still holds them, and the LAuReL rank is the laurel_l tensor's width.
void gemma3n_fields(json& cfg, const GgufHeader& h, const json& md) {
  const std::string a = "gemma3n";
  const double layers = cfg["num_hidden_layers"].get<double>();
  if (!(layers >= 1 && layers <= static_cast<double>(limit::kModelLayers))) return;  // refused by the config's reader
  const auto L = static_cast<std::size_t>(layers);
  const auto per_layer = [&](const std::string& k) -> const json* {
    const std::string key = a + "." + k;
    return md.contains(key) && md[key].is_array() && md[key].size() == L ? &md[key] : nullptr;
  };
  const auto dims = [&](const std::string& name) -> const std::vector<std::uint64_t>* {
    for (const auto& t : h.tensors)
      if (t.name == name) return &t.dims;
    return nullptr;
  };
  const auto scalar = [&](const std::string& k, double fallback) {
    const std::string key = a + "." + k;
    return md.contains(key) && md[key].is_number() ? md[key].get<double>() : fallback;
  };
  if (const json* ff = per_layer("feed_forward_length")) cfg["intermediate_size"] = *ff;
  cfg["layer_types"] = layer_types(md, a, static_cast<double>(L), 5, "sliding_attention");
  const auto* pl_norm = dims("per_layer_proj_norm.weight");
  cfg["hidden_size_per_layer_input"] = scalar("embedding_length_per_layer_input", pl_norm && !pl_norm->empty() ? static_cast<double>((*pl_norm)[0]) : 256);
  cfg["altup_num_inputs"] = scalar("altup.num_inputs", 4);
  cfg["altup_active_idx"] = scalar("altup.active_idx", 0);
  cfg["num_kv_shared_layers"] = scalar("attention.shared_kv_layers", std::max(0.0, static_cast<double>(L) - 20));
  const auto* laurel = dims("blk.0.laurel_l.weight");
  cfg["laurel_rank"] = laurel && laurel->size() == 2 ? static_cast<double>((*laurel)[1]) : 64.0;
  // Activation sparsity is stored as the normal quantile of each layer's fraction (0.95 -> 1.6449, 0 -> -inf).
  if (const json* q = per_layer("activation_sparsity_scale")) {
    json p = json::array();
    for (const auto& x : *q) {
      const double v = x.is_number() ? x.get<double>() : 0;
      p.push_back(std::isfinite(v) ? std::round(0.5 * std::erfc(-v / std::sqrt(2.0)) * 1e6) / 1e6 : (v > 0 ? 1.0 : 0.0));
    }
    cfg["activation_sparsity_pattern"] = p;
  }
  // The converter makes the two embedding tables one size: older files cut the token table to the per-layer one's
  // 262,144 rows, newer ones pad the per-layer table to 262,400. Either way the model is Gemma3nTextConfig's
  // 262,400 and 262,144 (every published Gemma 3n); other sizes are taken as they are.
  const auto* tok = dims("token_embd.weight");
  const auto* pl = dims("per_layer_token_embd.weight");
  const double vt = tok && tok->size() == 2 ? static_cast<double>((*tok)[1]) : 0;
  const double vp = pl && pl->size() == 2 ? static_cast<double>((*pl)[1]) : vt;
  const bool published = vt == vp && (vt == 262144 || vt == 262400);
  cfg["vocab_size"] = published ? 262400.0 : vt;
  cfg["vocab_size_per_layer_input"] = published ? 262144.0 : vp;
}

// The GPT lineage's configs name the common sizes their own way (GPT2Config's n_embd, BloomConfig's n_layer,
// MptConfig's d_model); the families read them under those names. The file's copies of a tied embedding
// (llama.cpp's converters write output.weight for GPT-2, BLOOM, StarCoder and MPT) stay untied: the file holds both.
void legacy_names(json& cfg, const std::string& a, const json& md, const std::function<json(const std::string&)>& num,
                  bool has_qkv_bias) {
  const auto rename = [&](const char* from, const char* to) {
    if (cfg.contains(from)) {
      cfg[to] = cfg[from];
      cfg.erase(from);
    }
  };
  const double h = cfg["hidden_size"].is_number() ? cfg["hidden_size"].get<double>() : 0;
  const double heads = cfg["num_attention_heads"].is_number() ? cfg["num_attention_heads"].get<double>() : 0;
  // RoPE on rope.dimension_count of each head (GPT-NeoX, Phi): the share the configs give.
  if ((a == "gptneox" || a == "phi2") && !num("rope.dimension_count").is_null() && h > 0 && heads > 0)
    cfg[a == "gptneox" ? "rotary_pct" : "partial_rotary_factor"] = num("rope.dimension_count").get<double>() / (h / heads);
  // GPT-NeoX's one boolean key.
  const std::string parallel_key = a + ".use_parallel_residual";
  if (a == "gptneox" && md.contains(parallel_key) && md[parallel_key].is_boolean()) cfg["use_parallel_residual"] = md[parallel_key];
  if (a == "gpt2" || a == "starcoder") {
    if (a == "starcoder") cfg["multi_query"] = cfg.value("num_key_value_heads", json(heads)) == json(1.0) ||
                                               cfg.value("num_key_value_heads", json(heads)) == json(1);
    for (const auto& [from, to] : {std::pair{"hidden_size", "n_embd"}, {"num_hidden_layers", "n_layer"},
                                   {"num_attention_heads", "n_head"}, {"intermediate_size", "n_inner"},
                                   {"max_position_embeddings", "n_positions"}})
      rename(from, to);
  } else if (a == "bloom") {
    rename("num_hidden_layers", "n_layer");
    rename("num_attention_heads", "n_head");
    cfg.erase("intermediate_size");  // BloomMLP is 4 x hidden
  } else if (a == "mpt") {
    if (cfg.contains("intermediate_size") && h > 0) cfg["expansion_ratio"] = cfg["intermediate_size"].get<double>() / h;
    cfg.erase("intermediate_size");
    for (const auto& [from, to] : {std::pair{"hidden_size", "d_model"}, {"num_hidden_layers", "n_layers"},
                                   {"num_attention_heads", "n_heads"}, {"max_position_embeddings", "max_seq_len"}})
      rename(from, to);
  } else if (a == "gptneox" || a == "phi2") {
    cfg["attention_bias"] = has_qkv_bias;
  }
  // One KV head or all of them, as the families read it.
  if (a != "olmo") cfg.erase("num_key_value_heads");
}

}  // namespace

std::vector<std::string> gguf_decoder_architectures() {
  std::vector<std::string> out;
  for (const auto& a : archs()) out.push_back(a.gguf);
  return out;
}

void put_gguf_field(json& cfg, const json& value, const std::string& arch, const char* hf, const std::string& key,
                    bool required) {
  if (value.is_null()) {
    if (required)
      throw InputError("gguf.missing_field", "/gguf/" + arch + "." + key,
                       arch + "." + key + " is missing from the GGUF metadata; expected it for a " + arch + " model");
    return;
  }
  cfg[hf] = value;
}

json gguf_decoder_config(const GgufHeader& h, const std::string& arch, std::uint64_t vocab_rows, bool has_output) {
  const auto it = std::find_if(archs().begin(), archs().end(), [&](const Arch& a) { return arch == a.gguf; });
  if (it == archs().end()) return nullptr;
  const json& md = h.metadata;
  const auto num = [&](const std::string& k) -> json {
    const std::string key = arch + "." + k;
    if (!md.contains(key)) return nullptr;
    const json& v = md[key];
    // Per-layer arrays: the first layer's value. Anything but a number (a boolean, a string) reads as absent, as in
    // io/gguf.cpp: a required field is then named as missing rather than failing inside.
    const json& first = v.is_array() && !v.empty() ? v[0] : v;
    return first.is_number() ? first : json(nullptr);
  };
  const auto has_tensor = [&](const std::string& name) {
    return std::any_of(h.tensors.begin(), h.tensors.end(), [&](const GgufTensor& t) { return t.name == name; });
  };
  const std::string name_key = "general.name";
  const std::string name = md.contains(name_key) && md[name_key].is_string() ? md[name_key].get<std::string>() : arch;
  json cfg = {{"model_type", it->model_type}, {"_name_or_path", name}};
  const auto put = [&](const char* hf, const std::string& key, bool required) {
    put_gguf_field(cfg, num(key), arch, hf, key, required);
  };
  // DeepSeek-V2's MLA as llama.cpp writes it (deepseek2, minicpm3): the common sizes, the two ranks (no
  // q_lora_rank: a plain q_proj) and the rotated part of a head.
  const auto mla_sizes = [&] {
    put("hidden_size", "embedding_length", true);
    put("num_hidden_layers", "block_count", true);
    put("num_attention_heads", "attention.head_count", true);
    put("max_position_embeddings", "context_length", false);
    put("intermediate_size", "feed_forward_length", true);
    put("kv_lora_rank", "attention.kv_lora_rank", true);
    put("q_lora_rank", "attention.q_lora_rank", false);
    put("qk_rope_head_dim", "rope.dimension_count", true);
  };
  // llama.cpp counts MTP (NextN) layers among the blocks, so a file that names them has block_count -
  // nextn_predict_layers model layers (GLM-4.5, Cohere2 MoE).
  const auto nextn_out_of_blocks = [&] {
    const json nextn = num("nextn_predict_layers");
    if (!nextn.is_null()) {
      cfg["num_nextn_predict_layers"] = nextn;
      cfg["num_hidden_layers"] = cfg["num_hidden_layers"].get<double>() - nextn.get<double>();
    }
  };
  // DeepSeek's mixture-of-experts keys, which GLM-4.5 shares.
  const auto deepseek_moe = [&] {
    put("n_routed_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("moe_intermediate_size", "expert_feed_forward_length", true);
    put("n_shared_experts", "expert_shared_count", false);
    put("first_k_dense_replace", "leading_dense_block_count", false);
    nextn_out_of_blocks();
  };
  const auto bias = has_tensor("blk.0.attn_q.bias");
  const auto q_norm = has_tensor("blk.0.attn_q_norm.weight");
  const std::string a = arch;

  if (a == "dbrx") {  // DBRX's own schema
    put("d_model", "embedding_length", true);
    put("n_layers", "block_count", true);
    put("n_heads", "attention.head_count", true);
    put("max_seq_len", "context_length", false);
    json attn = json::object(), ffn = json::object();
    if (!num("attention.head_count_kv").is_null()) attn["kv_n_heads"] = num("attention.head_count_kv");
    if (!num("feed_forward_length").is_null()) ffn["ffn_hidden_size"] = num("feed_forward_length");
    if (!num("expert_count").is_null()) ffn["moe_num_experts"] = num("expert_count");
    if (!num("expert_used_count").is_null()) ffn["moe_top_k"] = num("expert_used_count");
    cfg["attn_config"] = attn;
    cfg["ffn_config"] = ffn;
  } else if (a == "deepseek2") {  // MLA written as MQA: the head sizes are in the *_mla keys (docs/formulas.md, "GGUF")
    mla_sizes();
    cfg["num_key_value_heads"] = cfg["num_attention_heads"];
    if (!num("attention.key_length_mla").is_null()) {
      cfg["qk_nope_head_dim"] = num("attention.key_length_mla").get<double>() - cfg["qk_rope_head_dim"].get<double>();
      put("v_head_dim", "attention.value_length_mla", true);
    } else {  // files before the split of kv_b: key_length and value_length are the heads' own
      put("v_head_dim", "attention.value_length", true);
      const json k = num("attention.key_length");
      if (k.is_null())
        throw InputError("gguf.missing_field", "/gguf/deepseek2.attention.key_length_mla",
                         "deepseek2.attention.key_length_mla and deepseek2.attention.key_length are missing from the GGUF "
                         "metadata; expected one for a deepseek2 model");
      cfg["qk_nope_head_dim"] = k.get<double>() - cfg["qk_rope_head_dim"].get<double>();
    }
    if (cfg.value("qk_nope_head_dim", json(0)).get<double>() < 0)
      throw InputError("gguf.bad_value", "/gguf/deepseek2.rope.dimension_count",
                       "deepseek2.rope.dimension_count is larger than the key length; expected the rotated part of a head");
    if (!cfg.contains("q_lora_rank")) cfg["q_lora_rank"] = nullptr;  // V2-Lite: a plain q_proj
    deepseek_moe();
    put("routed_scaling_factor", "expert_weights_scale", false);
    // DeepSeek's MTP module is dropped by the converter unless the file names it.
    if (!cfg.contains("num_nextn_predict_layers")) cfg["num_nextn_predict_layers"] = 0;
    // The router's score-correction bias (exp_probs_b) marks DeepSeek-V3's sigmoid routing.
    const double gating = num("expert_gating_func").is_null() ? 1 : num("expert_gating_func").get<double>();
    cfg["scoring_func"] = gating == 2 ? "sigmoid" : "softmax";
    cfg["topk_method"] = has_tensor("blk." + cfg.value("first_k_dense_replace", json(0)).dump() + ".exp_probs_b.bias") ? "noaux_tc" : "greedy";
  } else if (a == "minicpm3") {
    // DeepSeek-V2's MLA with a dense MLP (llama.cpp's MiniCPM3Model): key_length holds nope + rope, and no
    // value_length is written, so values are hidden / heads wide (MiniCPM3Config's default, v_head_from_hidden).
    // The RoPE factors (rope_factors_long / _short, f32) are tensors, not parameters.
    mla_sizes();
    put("num_key_value_heads", "attention.head_count_kv", false);
    put("v_head_dim", "attention.value_length", false);
    const json k = num("attention.key_length");
    if (k.is_null())
      throw InputError("gguf.missing_field", "/gguf/minicpm3.attention.key_length",
                       "minicpm3.attention.key_length is missing from the GGUF metadata; expected the query and key "
                       "head size (qk_nope_head_dim + qk_rope_head_dim)");
    cfg["qk_nope_head_dim"] = k.get<double>() - cfg["qk_rope_head_dim"].get<double>();
    if (cfg["qk_nope_head_dim"].get<double>() < 0)
      throw InputError("gguf.bad_value", "/gguf/minicpm3.rope.dimension_count",
                       "minicpm3.rope.dimension_count is larger than the key length; expected the rotated part of a head");
    if (!cfg.contains("q_lora_rank")) cfg["q_lora_rank"] = nullptr;
  } else {
    put("hidden_size", "embedding_length", true);
    put(a == "exaone" ? "num_layers" : "num_hidden_layers", "block_count", true);
    put("num_attention_heads", "attention.head_count", true);
    put("num_key_value_heads", "attention.head_count_kv", false);
    put("max_position_embeddings", "context_length", false);
    put("head_dim", "attention.key_length", false);
    put("intermediate_size", "feed_forward_length", false);
    put("sliding_window", "attention.sliding_window", false);
  }
  // Whatever RoPE does not rotate: rope.dimension_count of a head_dim (GLM, StableLM, Nemotron).
  if (!num("rope.dimension_count").is_null() && (a == "glm4" || a == "glm4moe" || a == "stablelm" || a == "nemotron")) {
    const double heads = num("attention.head_count").get<double>();
    const double hd = !num("attention.key_length").is_null() ? num("attention.key_length").get<double>()
                                                               : num("embedding_length").get<double>() / heads;
    cfg["partial_rotary_factor"] = num("rope.dimension_count").get<double>() / hd;
  }
  if (a == "granite" || a == "granitemoe" || a == "granite_swa" || a == "cohere2moe" || a == "command-r" || a == "cohere2" || a == "phimoe" || a == "glm4" ||
      a == "glm4moe" || a == "hunyuan-moe" || a == "hunyuan-dense" || a == "smollm3" || a == "olmo2" || a == "olmoe" ||
      a == "nemotron" || a == "bitnet")
    cfg["attention_bias"] = bias;
  if (a == "granite" || a == "smollm3" || a == "nemotron") cfg["mlp_bias"] = has_tensor("blk.0.ffn_up.bias");
  if (a == "starcoder2" || a == "ernie4_5" || a == "ernie4_5-moe") cfg["use_bias"] = bias;
  if (a == "internlm2") cfg["bias"] = has_tensor("blk.0.attn_qkv.bias");
  if (a == "command-r") cfg["use_qk_norm"] = q_norm;
  if (a == "glm4moe") cfg["use_qk_norm"] = q_norm;
  if (a == "phimoe") cfg["lm_head_bias"] = has_tensor("output.bias");
  if (a == "stablelm") {
    cfg["use_qkv_bias"] = bias;
    cfg["qk_layernorm"] = q_norm;
    cfg["use_parallel_residual"] = !has_tensor("blk.0.ffn_norm.weight");
  }
  // Mixture-of-experts keys, each family's own.
  if (a == "olmoe") {
    put("num_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("intermediate_size", "expert_feed_forward_length", false);
  } else if (a == "granitemoe" || a == "phimoe") {
    put("num_local_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("intermediate_size", "expert_feed_forward_length", false);
  } else if (a == "glm4moe") {
    deepseek_moe();
  } else if (a == "ernie4_5-moe") {
    put("moe_num_experts", "expert_count", true);
    put("moe_k", "expert_used_count", true);
    put("moe_intermediate_size", "expert_feed_forward_length", true);
    put("moe_num_shared_experts", "expert_shared_count", false);
    put("moe_layer_start_index", "leading_dense_block_count", false);
    put("moe_layer_interval", "moe_every_n_layers", false);
  } else if (a == "minicpm") {  // MiniCPM-MoE: experts where the file counts them, else the dense model
    put("num_experts", "expert_count", false);
    put("num_experts_per_tok", "expert_used_count", false);
  } else if (a == "hunyuan-moe") {
    put("num_experts", "expert_count", true);
    put("moe_topk", "expert_used_count", true);
  } else if (a == "cohere2moe") {
    // Cohere2 MoE (llama.cpp's cohere2moe.cpp): feed_forward_length is the dense prefix's width, the experts'
    // expert_feed_forward_length; RMSNorm where its epsilon is written (else LayerNorm); the sliding layers as a
    // per-layer array (true: sliding) or a period n (layer i full when i % n == 0; 4 when absent); the dense prefix
    // rotates (force_rope).
    if (cfg.contains("intermediate_size")) cfg["prefix_dense_intermediate_size"] = cfg["intermediate_size"];
    put("intermediate_size", "expert_feed_forward_length", true);
    put("num_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("num_shared_experts", "expert_shared_count", false);
    put("first_k_dense_replace", "leading_dense_block_count", false);
    nextn_out_of_blocks();
    put("rms_norm_eps", "attention.layer_norm_rms_epsilon", false);
    const json shexp = num("expert_shared_feed_forward_length");
    if (!shexp.is_null() && cfg.contains("num_shared_experts") &&
        shexp.get<double>() != cfg["intermediate_size"].get<double>() * cfg["num_shared_experts"].get<double>())
      throw InputError("gguf.unsupported", "/gguf/cohere2moe.expert_shared_feed_forward_length",
                       "cohere2moe.expert_shared_feed_forward_length holds " + shexp.dump() +
                           "; only the experts' width times expert_shared_count is modelled (Cohere2MoeConfig's shared MLP)");
    cfg["layer_types"] = layer_types(md, a, cfg["num_hidden_layers"].get<double>(), 4, "sliding_attention", true);
  } else if (a == "granite_swa") {
    // Granite SWASH: experts (and a shared expert, ffn_up_shexp fused 2 x its width) where expert_count is written;
    // the sliding layers as a per-layer array (true: sliding), else GraniteSWAConfig's default pattern; RoPE per
    // layer as rope_pattern (0: none), no_rope_layers' convention. Sinks on every layer (attn_sinks).
    if (!num("expert_count").is_null() && num("expert_count").get<double>() > 0) {
      cfg["model_type"] = "granitemoe_swa";
      put("num_local_experts", "expert_count", true);
      put("num_experts_per_tok", "expert_used_count", true);
      put("intermediate_size", "expert_feed_forward_length", false);
      put("shared_intermediate_size", "expert_shared_feed_forward_length", false);
    }
    const std::string pattern = a + ".attention.sliding_window_pattern";
    if (md.contains(pattern) && md[pattern].is_array())
      cfg["layer_types"] = layer_types(md, a, cfg["num_hidden_layers"].get<double>(), 4, "sliding_attention");
    const std::string rope = a + ".attention.rope_pattern";
    if (md.contains(rope) && md[rope].is_array()) {
      if (static_cast<double>(md[rope].size()) != cfg["num_hidden_layers"].get<double>())
        throw InputError("gguf.bad_value", "/gguf/" + rope,
                         rope + " has " + std::to_string(md[rope].size()) + " entries; expected one per block (" + a +
                             ".block_count)");
      cfg["no_rope_layers"] = json::array();
      for (const auto& f : md[rope]) cfg["no_rope_layers"].push_back(f.is_boolean() ? (f.get<bool>() ? 1 : 0) : f.is_number() && f.get<double>() != 0 ? 1 : 0);
    }
  } else if (a == "gpt-oss") {
    put("num_local_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("intermediate_size", "expert_feed_forward_length", true);
    put("sliding_window", "attention.sliding_window", true);
    cfg["attention_bias"] = bias;
    cfg["layer_types"] = layer_types(md, a, cfg["num_hidden_layers"].get<double>(), 2, "sliding_attention");
  } else if (a == "llama4") {
    // The converter swaps the widths: feed_forward_length is the dense layers' (intermediate_size_mlp) and
    // expert_feed_forward_length the experts' and the shared expert's (intermediate_size).
    if (cfg.contains("intermediate_size")) cfg["intermediate_size_mlp"] = cfg["intermediate_size"];
    put("intermediate_size", "expert_feed_forward_length", true);
    put("num_local_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("interleave_moe_layer_step", "interleave_moe_layer_step", true);
    // llama.cpp's loader: chunked attention of 8,192 tokens on three layers in four (the fourth global, without
    // RoPE), unless the file says sliding_window 0 (every layer global); L2 q/k norms unless 128 experts.
    const bool chunked = num("attention.sliding_window").is_null() || num("attention.sliding_window").get<double>() != 0;
    cfg.erase("sliding_window");
    cfg["attention_chunk_size"] = chunked ? 8192 : 0;
    if (!chunked) cfg["no_rope_layers"] = json::array();
    const double layers = cfg["num_hidden_layers"].get<double>();
    if (!chunked && layers <= static_cast<double>(limit::kModelLayers))
      for (double i = 0; i < layers; ++i) cfg["no_rope_layers"].push_back(1);
    cfg["use_qk_norm"] = num("expert_count").get<double>() != 128;
  }
  if (a == "gemma3n") gemma3n_fields(cfg, h, md);
  if (a == "gpt2" || a == "starcoder" || a == "gptneox" || a == "phi2" || a == "bloom" || a == "mpt" || a == "olmo")
    legacy_names(cfg, a, md, num, has_tensor("blk.0.attn_qkv.bias") || bias);
  if (a == "gemma3") {
    // The loader slides only with a window, five layers in six (load_swa_pattern(ml, 6)).
    const bool sliding = !num("attention.sliding_window").is_null() && num("attention.sliding_window").get<double>() > 0;
    cfg["layer_types"] = sliding ? layer_types(md, a, cfg["num_hidden_layers"].get<double>(), 6, "sliding_attention")
                                 : layer_types(md, a, cfg["num_hidden_layers"].get<double>(), 1, "sliding_attention");
  }
  const json vocab = num("vocab_size");
  if (!cfg.contains("vocab_size")) cfg["vocab_size"] = !vocab.is_null() ? vocab : json(vocab_rows);
  if (cfg["vocab_size"].get<double>() <= 0) {
    const std::string key = "tokenizer.ggml.tokens";
    if (md.contains(key) && md[key].is_object()) cfg["vocab_size"] = md[key]["length"];
  }
  cfg["tie_word_embeddings"] = !has_output;
  if (a == "dbrx") cfg.erase("tie_word_embeddings");
  return cfg;
}

}  // namespace infercast
