#include "io/gguf_hybrid.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

#include "io/json_reader.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {

struct Inventory {
  // Per block: the tensor names after "blk.N." (without .weight / .bias) and their dims.
  std::map<std::uint64_t, std::map<std::string, std::vector<std::uint64_t>>> blocks;
  bool has_output = false;
  std::uint64_t vocab_rows = 0;
  bool has(std::uint64_t b, const std::string& t) const {
    const auto it = blocks.find(b);
    return it != blocks.end() && it->second.count(t) > 0;
  }
  std::uint64_t dim(std::uint64_t b, const std::string& t, std::size_t i) const {
    const auto& d = blocks.at(b).at(t);
    return i < d.size() ? d[i] : 0;
  }
};

Inventory inventory(const GgufHeader& h) {
  Inventory inv;
  for (const auto& t : h.tensors) {
    if (t.name == "output.weight") inv.has_output = true;
    if (t.name == "token_embd.weight" && t.dims.size() == 2) inv.vocab_rows = t.dims[1];
    if (t.name.rfind("blk.", 0) != 0) continue;
    const auto dot = t.name.find('.', 4);
    if (dot == std::string::npos) continue;
    const std::string num = t.name.substr(4, dot - 4);
    if (num.empty() || num.size() > 9 || num.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string rest = t.name.substr(dot + 1);
    const auto ends = [&](const std::string& tail) {
      return rest.size() > tail.size() && rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends(".weight")) rest.resize(rest.size() - 7);
    else if (ends(".bias")) rest = rest.substr(0, rest.size() - 5) + "_bias";  // a bias apart from its weight
    inv.blocks[std::stoull(num)][rest] = t.dims;
  }
  return inv;
}

struct Meta {
  const json& md;
  std::string arch;
  const json* find(const std::string& k) const {
    const std::string key = arch + "." + k;
    return md.contains(key) ? &md[key] : nullptr;
  }
  // A number (the largest of a per-layer array); null when absent.
  json num(const std::string& k) const {
    const json* v = find(k);
    if (!v) return nullptr;
    if (v->is_array()) {
      json best = nullptr;
      for (const auto& e : *v)
        if (e.is_number() && (best.is_null() || e.get<double>() > best.get<double>())) best = e;
      return best;
    }
    return v->is_number() ? *v : json(nullptr);  // a boolean or a string is not a number: read as absent
  }
  // A boolean; null when absent or of another type.
  json flag(const std::string& k) const {
    const json* v = find(k);
    return v && v->is_boolean() ? *v : json(nullptr);
  }
  json need(const std::string& k) const {
    json v = num(k);
    if (v.is_null())
      throw InputError("gguf.missing_field", "/gguf/" + arch + "." + k,
                       arch + "." + k + " is missing from the GGUF metadata; expected it for a " + arch + " model");
    return v;
  }
  // A whole number within 64 bits; another value (1e300 stored as a float, 2.5) is refused, naming the key, never
  // cast past its range.
  std::int64_t int_of(const std::string& k) const {
    const json v = need(k);
    if (v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX)) return v.get<std::int64_t>();
    if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
    const double d = v.get<double>();
    if (v.is_number_float() && d == std::floor(d) && std::fabs(d) < 9e18) return static_cast<std::int64_t>(d);
    throw InputError("gguf.bad_value", "/gguf/" + arch + "." + k,
                     arch + "." + k + " holds " + number_text(v) + "; expected a whole number");
  }
};

[[noreturn]] void irregular(const std::string& arch, const std::string& what) {
  throw InputError("gguf.unsupported_architecture", "/gguf/general.architecture",
                   arch + " GGUF: " + what + "; Infercast reads this family's layers as transformers does (drop the "
                                         "model's config.json instead)");
}

// period and offset of an index list (Jamba's attention and expert layers), or a refusal when it has none.
std::pair<std::int64_t, std::int64_t> period_of(const std::vector<std::int64_t>& idx, std::int64_t L, const std::string& arch,
                                                const std::string& what) {
  if (idx.empty()) return {L + 1, L};  // none: an offset past every layer
  const std::int64_t offset = idx[0], period = idx.size() > 1 ? idx[1] - idx[0] : L;
  for (std::size_t i = 0; i < idx.size(); ++i)
    if (idx[i] != offset + static_cast<std::int64_t>(i) * period) irregular(arch, what + " do not repeat with one period");
  if (offset >= period) irregular(arch, what + " start past their period");
  return {period, offset};
}

}  // namespace

const std::vector<std::string>& gguf_hybrid_architectures() {
  static const std::vector<std::string> names = {"falcon-h1", "granitehybrid", "jamba", "mamba", "mamba2", "nemotron_h",
                                                 "nemotron_h_moe", "qwen35", "qwen35moe", "qwen3next"};
  return names;
}

json gguf_hybrid_config(const GgufHeader& h, const std::string& arch) {
  const auto& names = gguf_hybrid_architectures();
  if (std::find(names.begin(), names.end(), arch) == names.end()) return nullptr;
  const Meta m{h.metadata, arch};
  const Inventory inv = inventory(h);
  const std::int64_t hidden = m.int_of("embedding_length");
  // Bounded before the widths are divided by it (a header may say 0, or a negative width).
  if (hidden < 1)
    throw InputError("gguf.bad_value", "/gguf/" + arch + ".embedding_length",
                     arch + ".embedding_length holds " + std::to_string(hidden) + "; expected a positive width");
  std::int64_t L = m.int_of("block_count");
  // Bounded before any per-layer list is built (a header may claim billions of blocks).
  if (L < 1 || L > limit::kModelLayers)
    throw InputError("gguf.bad_value", "/gguf/" + arch + ".block_count",
                     arch + ".block_count holds " + std::to_string(L) + "; expected 1 to " +
                         std::to_string(limit::kModelLayers) + " layers");
  json cfg = json::object();
  cfg["hidden_size"] = hidden;
  cfg["vocab_size"] = m.num("vocab_size").is_null() ? json(inv.vocab_rows) : m.num("vocab_size");
  cfg["tie_word_embeddings"] = !inv.has_output;
  const json heads = m.num("attention.head_count"), kv = m.num("attention.head_count_kv");
  if (!heads.is_null()) cfg["num_attention_heads"] = heads;
  if (!kv.is_null() && kv.get<double>() > 0) cfg["num_key_value_heads"] = kv;
  if (!m.num("attention.key_length").is_null()) cfg["head_dim"] = m.num("attention.key_length");
  if (!m.num("context_length").is_null()) cfg["max_position_embeddings"] = m.num("context_length");
  // The recurrent mixers' sizes: heads (time_step_rank, for Mamba the dt rank), inner size, state, groups, kernel.
  const std::int64_t conv = m.int_of("ssm.conv_kernel"), state = m.int_of("ssm.state_size"), inner = m.int_of("ssm.inner_size");
  const std::int64_t rank = m.int_of("ssm.time_step_rank");
  const auto attn = [&](std::uint64_t b) { return inv.has(b, "attn_q") || inv.has(b, "attn_qkv"); };
  const auto moe = [&](std::uint64_t b) { return inv.has(b, "ffn_gate_inp") || inv.has(b, "ffn_up_exps"); };
  const auto mlp = [&](std::uint64_t b) { return inv.has(b, "ffn_up") || inv.has(b, "ffn_down"); };
  const auto ssm = [&](std::uint64_t b) { return inv.has(b, "ssm_in") || inv.has(b, "ssm_out"); };
  const auto any = [&](const char* t) {
    for (const auto& [b, ts] : inv.blocks)
      if (ts.count(t)) return true;
    return false;
  };
  const auto first_dim = [&](const char* t, std::size_t i) -> json {
    for (const auto& [b, ts] : inv.blocks)
      if (ts.count(t)) return inv.dim(b, t, i);
    return nullptr;
  };

  if (arch == "qwen3next" || arch == "qwen35" || arch == "qwen35moe") {
    cfg["model_type"] = arch == "qwen3next" ? "qwen3_next" : (arch == "qwen35" ? "qwen3_5_text" : "qwen3_5_moe_text");
    cfg["num_hidden_layers"] = L;
    const std::int64_t groups = m.int_of("ssm.group_count");
    cfg["linear_conv_kernel_dim"] = conv;
    cfg["linear_key_head_dim"] = state;
    cfg["linear_num_key_heads"] = groups;
    cfg["linear_num_value_heads"] = rank;
    cfg["linear_value_head_dim"] = rank > 0 ? inner / rank : 0;
    const json rope = m.num("rope.dimension_count"), hd = m.num("attention.key_length");
    if (!rope.is_null() && !hd.is_null() && hd.get<double>() > 0) cfg["partial_rotary_factor"] = rope.get<double>() / hd.get<double>();
    cfg["mamba_ssm_dtype"] = "float32";  // llama.cpp keeps recurrent states in f32
    json types = json::array(), dense_only = json::array();
    for (std::int64_t i = 0; i < L; ++i) {
      types.push_back(attn(static_cast<std::uint64_t>(i)) ? "full_attention" : "linear_attention");
      if (!moe(static_cast<std::uint64_t>(i))) dense_only.push_back(i);
    }
    cfg["layer_types"] = types;
    if (arch != "qwen35") {
      cfg["num_experts"] = m.need("expert_count");
      cfg["num_experts_per_tok"] = m.need("expert_used_count");
      cfg["moe_intermediate_size"] = m.need("expert_feed_forward_length");
      cfg["shared_expert_intermediate_size"] = m.need("expert_shared_feed_forward_length");
      if (!dense_only.empty()) {
        if (arch == "qwen35moe") irregular(arch, "a layer without experts");
        cfg["mlp_only_layers"] = dense_only;
        cfg["intermediate_size"] = m.need("feed_forward_length");
      }
    } else {
      cfg["intermediate_size"] = m.need("feed_forward_length");
    }
    return cfg;
  }

  if (arch == "nemotron_h" || arch == "nemotron_h_moe") {
    cfg["model_type"] = "nemotron_h";
    const json nextn = m.num("nextn_predict_layers");
    if (!nextn.is_null()) {  // llama.cpp appends the MTP block after the model's layers
      const std::int64_t n = m.int_of("nextn_predict_layers");
      if (n < 0 || n >= L)
        throw InputError("gguf.bad_value", "/gguf/" + arch + ".nextn_predict_layers",
                         arch + ".nextn_predict_layers holds " + std::to_string(n) + "; expected 0 to " +
                             std::to_string(L - 1) + " (fewer than the blocks)");
      L -= n;
      cfg["num_nextn_predict_layers"] = nextn;
    }
    std::string pattern;
    for (std::int64_t i = 0; i < L; ++i) {
      const auto b = static_cast<std::uint64_t>(i);
      pattern += ssm(b) ? 'M' : attn(b) ? '*' : moe(b) ? 'E' : mlp(b) ? '-' : '?';
      if (pattern.back() == '?') irregular(arch, "block " + std::to_string(i) + " has none of attention, Mamba2, MLP or experts");
    }
    cfg["hybrid_override_pattern"] = pattern;
    cfg["mamba_num_heads"] = rank;
    cfg["mamba_head_dim"] = rank > 0 ? inner / rank : 0;
    cfg["ssm_state_size"] = state;
    cfg["n_groups"] = m.int_of("ssm.group_count");
    cfg["conv_kernel"] = conv;
    cfg["use_conv_bias"] = any("ssm_conv1d_bias");
    cfg["mamba_ssm_cache_dtype"] = "float32";
    if (pattern.find('-') != std::string::npos) cfg["intermediate_size"] = first_dim("ffn_up", 1);
    if (pattern.find('E') != std::string::npos) {
      cfg["n_routed_experts"] = m.need("expert_count");
      cfg["num_experts_per_tok"] = m.need("expert_used_count");
      cfg["moe_intermediate_size"] = m.need("expert_feed_forward_length");
      cfg["moe_shared_expert_intermediate_size"] = m.need("expert_shared_feed_forward_length");
      if (!m.num("moe_latent_size").is_null()) cfg["moe_latent_size"] = m.num("moe_latent_size");
    }
    return cfg;
  }

  // Mamba and Mamba2 (llama.cpp's mamba and mamba2): a mixer and a norm per block, no attention, no MLP. Falcon
  // Mamba is written as mamba with ssm.dt_b_c_rms; Mamba2's time_step_rank holds its head count. llama.cpp's
  // converter writes head_count 0 and an arbitrary context_length (2^20): neither describes the model.
  if (arch == "mamba" || arch == "mamba2") {
    const json rms = m.flag("ssm.dt_b_c_rms");
    const bool falcon = arch == "mamba" && !rms.is_null() && rms.get<bool>();
    cfg["model_type"] = arch == "mamba2" ? "mamba2" : (falcon ? "falcon_mamba" : "mamba");
    cfg.erase("num_attention_heads");
    cfg.erase("num_key_value_heads");
    cfg.erase("max_position_embeddings");
    cfg["num_hidden_layers"] = L;
    cfg["state_size"] = state;
    cfg["conv_kernel"] = conv;
    cfg["use_conv_bias"] = any("ssm_conv1d_bias");
    cfg["use_bias"] = any("ssm_in_bias");
    cfg["mamba_ssm_cache_dtype"] = "float32";  // llama.cpp keeps recurrent states in f32
    cfg["hidden_act"] = "silu";                 // llama.cpp's mamba graphs gate with SiLU
    if (inner % hidden != 0) irregular(arch, "ssm.inner_size is not a multiple of embedding_length");
    cfg["expand"] = inner / hidden;
    if (arch == "mamba") {
      cfg["intermediate_size"] = inner;
      cfg["time_step_rank"] = rank;
    } else {
      cfg["num_heads"] = rank;
      cfg["head_dim"] = rank > 0 ? inner / rank : 0;
      cfg["n_groups"] = m.int_of("ssm.group_count");
    }
    return cfg;
  }

  if (arch == "jamba") {
    cfg["model_type"] = "jamba";
    cfg["num_hidden_layers"] = L;
    std::vector<std::int64_t> attn_idx, moe_idx;
    for (std::int64_t i = 0; i < L; ++i) {
      if (attn(static_cast<std::uint64_t>(i))) attn_idx.push_back(i);
      if (moe(static_cast<std::uint64_t>(i))) moe_idx.push_back(i);
    }
    const auto [ap, ao] = period_of(attn_idx, L, arch, "attention layers");
    const auto [ep, eo] = period_of(moe_idx, L, arch, "expert layers");
    cfg["attn_layer_period"] = ap, cfg["attn_layer_offset"] = ao;
    cfg["expert_layer_period"] = ep, cfg["expert_layer_offset"] = eo;
    if (inner % hidden != 0) irregular(arch, "ssm.inner_size is not a multiple of embedding_length");
    cfg["mamba_expand"] = inner / hidden;
    cfg["mamba_d_state"] = state;
    cfg["mamba_d_conv"] = conv;
    cfg["mamba_dt_rank"] = rank;
    cfg["mamba_conv_bias"] = any("ssm_conv1d_bias");
    cfg["mamba_proj_bias"] = any("ssm_in_bias");
    cfg["intermediate_size"] = m.need("feed_forward_length");
    cfg["num_experts"] = moe_idx.empty() ? json(1) : m.need("expert_count");
    cfg["num_experts_per_tok"] = moe_idx.empty() ? json(1) : m.need("expert_used_count");
    return cfg;
  }

  // Mamba2 hybrids: Falcon-H1 (attention and Mamba2 in every layer) and Granite 4.0 (one or the other).
  const std::int64_t groups = m.int_of("ssm.group_count");
  cfg["num_hidden_layers"] = L;
  cfg["mamba_n_heads"] = rank;
  cfg["mamba_d_head"] = rank > 0 ? inner / rank : 0;
  cfg["mamba_n_groups"] = groups;
  cfg["mamba_d_state"] = state;
  cfg["mamba_d_conv"] = conv;
  cfg["mamba_conv_bias"] = any("ssm_conv1d_bias");
  cfg["mamba_proj_bias"] = any("ssm_in_bias");
  if (arch == "falcon-h1") {
    cfg["model_type"] = "falcon_h1";
    cfg["mamba_d_ssm"] = inner;
    cfg["mamba_rms_norm"] = any("ssm_norm");
    cfg["projectors_bias"] = any("ssm_out_bias");
    cfg["intermediate_size"] = m.need("feed_forward_length");
    return cfg;
  }
  cfg["model_type"] = "granitemoehybrid";
  if (inner % hidden != 0) irregular(arch, "ssm.inner_size is not a multiple of embedding_length");
  cfg["mamba_expand"] = inner / hidden;
  json types = json::array();
  for (std::int64_t i = 0; i < L; ++i) types.push_back(attn(static_cast<std::uint64_t>(i)) ? "attention" : "mamba");
  cfg["layer_types"] = types;
  const json rope = m.flag("rope.scaling.finetuned");
  cfg["position_embedding_type"] = (!rope.is_null() && rope.is_boolean() && rope.get<bool>()) ? "rope" : "nope";
  if (any("ffn_up_exps")) {
    cfg["num_local_experts"] = first_dim("ffn_up_exps", 2);
    cfg["num_experts_per_tok"] = m.need("expert_used_count");
    cfg["intermediate_size"] = first_dim("ffn_up_exps", 1);
    cfg["shared_intermediate_size"] = first_dim("ffn_up_shexp", 1);
  } else {
    cfg["num_local_experts"] = 0;
    cfg["shared_intermediate_size"] = first_dim("ffn_up", 1);
  }
  return cfg;
}

}  // namespace infercast
