#include "io/families.hpp"

#include <algorithm>
#include <cctype>
#include "io/config_hybrid.hpp"

namespace infercast {

// Sources name files under huggingface/transformers src/transformers/models/.
const std::vector<FamilyTraits>& model_families() {
  static const std::vector<FamilyTraits> table = [] {
    std::vector<FamilyTraits> v;
    const auto add = [&](FamilyTraits t) { v.push_back(std::move(t)); };
    FamilyTraits llama{"llama", {}, {"LlamaForCausalLM"}};
    llama.mlp_bias_key = true;
    llama.source = "llama/configuration_llama.py, modeling_llama.py";
    llama.config_class = "LlamaConfig";
    llama.defaults = {{"vocab_size", 32000},           {"hidden_size", 4096},         {"intermediate_size", 11008},
                      {"num_hidden_layers", 32},       {"num_attention_heads", 32},   {"hidden_act", "silu"},
                      {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                      {"mlp_bias", false}};
    add(llama);

    // Ministral (8B), Ministral 3 and Mistral 3's language model read the same way; the wrappers keep it in text_config.
    FamilyTraits mistral{"mistral", {"ministral", "ministral3", "mistral3"},
                         {"MistralForCausalLM", "MinistralForCausalLM", "Mistral3ForConditionalGeneration"}};
    mistral.bias = BiasRule::None;
    mistral.sliding = SlidingRule::AllLayers;
    mistral.source = "mistral/configuration_mistral.py";
    mistral.config_class = "MistralConfig";
    mistral.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},      {"intermediate_size", 14336},
                        {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 8},
                        {"hidden_act", "silu"},     {"max_position_embeddings", 131072},
                        {"tie_word_embeddings", false}, {"sliding_window", 4096}};
    add(mistral);

    FamilyTraits mixtral = mistral;
    mixtral.model_type = "mixtral";
    mixtral.aliases = {};
    mixtral.architectures = {"MixtralForCausalLM"};
    mixtral.moe = MoeRule::Mixtral;
    mixtral.source = "mixtral/configuration_mixtral.py";
    mixtral.config_class = "MixtralConfig";
    mixtral.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},      {"intermediate_size", 14336},
                        {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 8},
                        {"hidden_act", "silu"},     {"max_position_embeddings", 131072},
                        {"tie_word_embeddings", false}, {"num_experts_per_tok", 2}, {"num_local_experts", 8}};
    add(mixtral);

    // Qwen2-VL and Qwen2.5-VL: Qwen2's language model, at the top level of older configs, in text_config of newer ones.
    FamilyTraits qwen2{"qwen2", {"qwen2_vl", "qwen2_vl_text", "qwen2_5_vl", "qwen2_5_vl_text"},
                       {"Qwen2ForCausalLM", "Qwen2VLForConditionalGeneration", "Qwen2_5_VLForConditionalGeneration"}};
    qwen2.bias = BiasRule::QkvOnly;
    qwen2.sliding = SlidingRule::QwenMaxWindow;
    qwen2.source = "qwen2/configuration_qwen2.py, modeling_qwen2.py (q, k, v with bias=True, o without)";
    qwen2.config_class = "Qwen2Config";
    qwen2.defaults = {{"vocab_size", 151936},     {"hidden_size", 4096},       {"intermediate_size", 22016},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 32},
                      {"hidden_act", "silu"},     {"max_position_embeddings", 32768}, {"tie_word_embeddings", false},
                      {"use_sliding_window", false}, {"sliding_window", 4096}, {"max_window_layers", 28}};
    add(qwen2);

    FamilyTraits qwen2_moe = qwen2;
    qwen2_moe.model_type = "qwen2_moe";
    qwen2_moe.aliases = {};
    qwen2_moe.architectures = {"Qwen2MoeForCausalLM"};
    qwen2_moe.moe = MoeRule::QwenShared;
    qwen2_moe.source = "qwen2_moe/configuration_qwen2_moe.py, modeling_qwen2_moe.py";
    qwen2_moe.config_class = "Qwen2MoeConfig";
    qwen2_moe.defaults = {{"vocab_size", 151936},     {"hidden_size", 2048},       {"intermediate_size", 5632},
                          {"num_hidden_layers", 24},  {"num_attention_heads", 16}, {"num_key_value_heads", 16},
                          {"hidden_act", "silu"},     {"max_position_embeddings", 32768}, {"tie_word_embeddings", false},
                          {"use_sliding_window", false}, {"sliding_window", 4096}, {"max_window_layers", 28},
                          {"decoder_sparse_step", 1}, {"moe_intermediate_size", 1408},
                          {"shared_expert_intermediate_size", 5632}, {"num_experts_per_tok", 4}, {"num_experts", 60}};
    add(qwen2_moe);

    FamilyTraits qwen3{"qwen3", {"qwen3_vl", "qwen3_vl_text"}, {"Qwen3ForCausalLM", "Qwen3VLForConditionalGeneration"}};
    qwen3.qk_norm = true;
    qwen3.sliding = SlidingRule::QwenMaxWindow;
    qwen3.source = "qwen3/configuration_qwen3.py, modeling_qwen3.py";
    qwen3.config_class = "Qwen3Config";
    qwen3.defaults = {{"vocab_size", 151936},     {"hidden_size", 4096},       {"intermediate_size", 22016},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 32},
                      {"head_dim", 128},          {"hidden_act", "silu"},      {"max_position_embeddings", 32768},
                      {"tie_word_embeddings", false}, {"attention_bias", false}, {"use_sliding_window", false},
                      {"sliding_window", 4096},   {"max_window_layers", 28}};
    add(qwen3);

    FamilyTraits qwen3_moe = qwen3;
    qwen3_moe.model_type = "qwen3_moe";
    qwen3_moe.aliases = {"qwen3_vl_moe", "qwen3_vl_moe_text"};
    qwen3_moe.architectures = {"Qwen3MoeForCausalLM", "Qwen3VLMoeForConditionalGeneration"};
    qwen3_moe.moe = MoeRule::Qwen;
    qwen3_moe.source = "qwen3_moe/configuration_qwen3_moe.py, modeling_qwen3_moe.py";
    qwen3_moe.config_class = "Qwen3MoeConfig";
    qwen3_moe.defaults = {{"vocab_size", 151936},     {"hidden_size", 2048},       {"intermediate_size", 6144},
                          {"num_hidden_layers", 24},  {"num_attention_heads", 32}, {"num_key_value_heads", 4},
                          {"hidden_act", "silu"},     {"max_position_embeddings", 32768}, {"tie_word_embeddings", false},
                          {"attention_bias", false},  {"use_sliding_window", false}, {"sliding_window", 4096},
                          {"decoder_sparse_step", 1}, {"moe_intermediate_size", 768}, {"num_experts_per_tok", 8},
                          {"num_experts", 128}};
    add(qwen3_moe);

    // Qwen3-Omni's thinker language model (qwen3_omni_moe_text, in thinker_config.text_config): Qwen3-MoE's layers.
    // Its config restates the per-head q/k norm every Qwen3 layer has (use_qk_norm) and a shared expert width of 0
    // the thinker has no module for (Qwen3OmniMoeThinkerTextSparseMoeBlock).
    FamilyTraits qwen3_omni = qwen3_moe;
    qwen3_omni.model_type = "qwen3_omni_moe_text";
    qwen3_omni.aliases = {"qwen3_omni_moe", "qwen3_omni_moe_thinker"};
    qwen3_omni.architectures = {"Qwen3OmniMoeForConditionalGeneration"};
    qwen3_omni.source = "qwen3_omni_moe/configuration_qwen3_omni_moe.py, modeling_qwen3_omni_moe.py";
    qwen3_omni.config_class = "Qwen3OmniMoeTextConfig";
    qwen3_omni.defaults = {{"vocab_size", 3584},         {"hidden_size", 2048},       {"intermediate_size", 18944},
                           {"num_hidden_layers", 28},    {"num_attention_heads", 28}, {"num_key_value_heads", 4},
                           {"hidden_act", "silu"},       {"max_position_embeddings", 32768}, {"tie_word_embeddings", false},
                           {"attention_bias", false},    {"decoder_sparse_step", 1}, {"moe_intermediate_size", 768},
                           {"num_experts_per_tok", 8},   {"num_experts", 128}};
    qwen3_omni.ignored_keys = {"use_qk_norm", "shared_expert_intermediate_size"};
    add(qwen3_omni);

    FamilyTraits gemma{"gemma", {}, {"GemmaForCausalLM"}};
    gemma.activation = "gelu_pytorch_tanh";
    gemma.tied_default = true;
    gemma.source = "gemma/configuration_gemma.py";
    gemma.config_class = "GemmaConfig";
    gemma.defaults = {{"vocab_size", 256000},     {"hidden_size", 3072},       {"intermediate_size", 24576},
                      {"num_hidden_layers", 28},  {"num_attention_heads", 16}, {"num_key_value_heads", 16},
                      {"head_dim", 256},          {"max_position_embeddings", 8192}, {"tie_word_embeddings", true},
                      {"attention_bias", false}};
    add(gemma);

    FamilyTraits gemma2 = gemma;
    gemma2.model_type = "gemma2";
    gemma2.architectures = {"Gemma2ForCausalLM"};
    gemma2.norms = 4;
    gemma2.sliding = SlidingRule::Alternate;
    gemma2.softcapping = true;
    gemma2.source = "gemma2/configuration_gemma2.py, modeling_gemma2.py (pre- and post-norms around attention and MLP)";
    gemma2.config_class = "Gemma2Config";
    gemma2.defaults = {{"vocab_size", 256000},     {"hidden_size", 2304},      {"intermediate_size", 9216},
                       {"num_hidden_layers", 26},  {"num_attention_heads", 8}, {"num_key_value_heads", 4},
                       {"head_dim", 256},          {"hidden_activation", "gelu_pytorch_tanh"},
                       {"max_position_embeddings", 8192}, {"tie_word_embeddings", true}, {"attention_bias", false},
                       {"sliding_window", 4096}};
    add(gemma2);

    // VaultGemma (Google's differentially private Gemma): Gemma 2's layers without the post-norms (two norms a
    // layer), Gemma2Config's defaults; VaultGemma-1B's config makes every layer full attention through layer_types.
    FamilyTraits vaultgemma = gemma2;
    vaultgemma.model_type = "vaultgemma";
    vaultgemma.architectures = {"VaultGemmaForCausalLM"};
    vaultgemma.norms = 2;
    vaultgemma.source = "vaultgemma/modular_vaultgemma.py (VaultGemmaDecoderLayer deletes post_attention_layernorm and "
                        "post_feedforward_layernorm)";
    vaultgemma.config_class = "VaultGemmaConfig";
    add(vaultgemma);

    FamilyTraits gemma3 = gemma2;
    gemma3.model_type = "gemma3_text";
    gemma3.aliases = {"gemma3"};
    gemma3.architectures = {"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"};
    gemma3.qk_norm = true;
    gemma3.sliding = SlidingRule::Pattern;
    gemma3.source = "gemma3/configuration_gemma3.py, modeling_gemma3.py";
    gemma3.config_class = "Gemma3TextConfig";
    gemma3.defaults = {{"vocab_size", 262208},     {"hidden_size", 2304},      {"intermediate_size", 9216},
                       {"num_hidden_layers", 26},  {"num_attention_heads", 8}, {"num_key_value_heads", 4},
                       {"head_dim", 256},          {"hidden_activation", "gelu_pytorch_tanh"},
                       {"max_position_embeddings", 131072}, {"tie_word_embeddings", true}, {"attention_bias", false},
                       {"sliding_window", 4096},   {"sliding_window_pattern", 6}};
    add(gemma3);

    FamilyTraits phi3{"phi3", {}, {"Phi3ForCausalLM"}};
    phi3.bias = BiasRule::None;
    phi3.fused_qkv = true;
    phi3.fused_gate_up = true;
    phi3.sliding = SlidingRule::AllLayers;
    phi3.source = "phi3/configuration_phi3.py, modeling_phi3.py (qkv_proj, gate_up_proj)";
    phi3.config_class = "Phi3Config";
    phi3.defaults = {{"vocab_size", 32064},      {"hidden_size", 3072},       {"intermediate_size", 8192},
                     {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                     {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}};
    add(phi3);

    FamilyTraits llama4{"llama4_text", {"llama4"}, {"Llama4ForCausalLM", "Llama4ForConditionalGeneration"}};
    llama4.moe = MoeRule::Llama4;
    llama4.chunked_nope = true;
    llama4.source = "llama4/configuration_llama4.py, modeling_llama4.py";
    llama4.config_class = "Llama4TextConfig";
    llama4.defaults = {{"vocab_size", 202048},     {"hidden_size", 5120},       {"intermediate_size", 8192},
                       {"intermediate_size_mlp", 16384}, {"num_hidden_layers", 48}, {"num_attention_heads", 40},
                       {"num_key_value_heads", 8}, {"head_dim", 128},           {"hidden_act", "silu"},
                       {"max_position_embeddings", 131072}, {"tie_word_embeddings", false},
                       {"num_experts_per_tok", 1}, {"num_local_experts", 16},   {"interleave_moe_layer_step", 1},
                       {"use_qk_norm", true},      {"no_rope_layer_interval", 4}, {"attention_chunk_size", 8192}};
    add(llama4);

    // Llama 3.2 Vision's language model (mllama_text_model, the text_config of mllama checkpoints): Llama 3.1's
    // layers with cross-attention layers at cross_attention_layers and 8 more embedding rows (the image tokens). A
    // text_config without its own model_type takes the wrapper's, mllama.
    FamilyTraits mllama{"mllama_text_model", {"mllama"}, {"MllamaForConditionalGeneration", "MllamaForCausalLM"}};
    mllama.cross_attention = true;
    mllama.source = "mllama/configuration_mllama.py, modeling_mllama.py (MllamaTextModel, MllamaCrossAttentionDecoderLayer)";
    mllama.config_class = "MllamaTextConfig";
    mllama.defaults = {{"vocab_size", 128256},      {"hidden_size", 4096},        {"intermediate_size", 14336},
                       {"num_hidden_layers", 40},   {"num_attention_heads", 32},  {"num_key_value_heads", 8},
                       {"hidden_act", "silu"},      {"max_position_embeddings", 131072}, {"tie_word_embeddings", false},
                       {"cross_attention_layers", json::array({3, 8, 13, 18, 23, 28, 33, 38})}};
    add(mllama);

    FamilyTraits gpt_oss{"gpt_oss", {}, {"GptOssForCausalLM"}};
    gpt_oss.bias_default = true;
    gpt_oss.sinks = true;
    gpt_oss.moe = MoeRule::GptOss;
    gpt_oss.source = "gpt_oss/configuration_gpt_oss.py, modeling_gpt_oss.py";
    gpt_oss.config_class = "GptOssConfig";
    gpt_oss.defaults = {{"vocab_size", 201088},     {"hidden_size", 2880},       {"intermediate_size", 2880},
                        {"num_hidden_layers", 36},  {"num_attention_heads", 64}, {"num_key_value_heads", 8},
                        {"head_dim", 64},           {"max_position_embeddings", 131072}, {"tie_word_embeddings", false},
                        {"attention_bias", true},   {"num_local_experts", 128},  {"sliding_window", 128}};
    add(gpt_oss);

    FamilyTraits falcon{"falcon", {"RefinedWeb", "RefinedWebModel"}, {"FalconForCausalLM", "RWForCausalLM"}};
    falcon.layout = Layout::Falcon;
    falcon.source = "falcon/configuration_falcon.py (and the RefinedWeb schema of tiiuae's first checkpoints)";
    falcon.config_class = "FalconConfig";
    // The head and layer counts are not defaulted: FalconConfig maps them onto n_head / n_layer, the keys of the
    // RefinedWeb schema, and a config spells them one way or the other.
    falcon.defaults = {{"vocab_size", 65024}, {"hidden_size", 4544},  {"multi_query", true}, {"parallel_attn", true},
                       {"bias", false},       {"alibi", false}};
    add(falcon);

    FamilyTraits ds2{"deepseek_v2", {}, {"DeepseekV2ForCausalLM"}};
    ds2.layout = Layout::DeepSeek;
    ds2.source = "deepseek_v2/configuration_deepseek_v2.py";
    ds2.config_class = "DeepseekV2Config";
    add(ds2);
    // Moonshot's Kimi K2 (kimi_k2) ships DeepSeek-V3's modeling code under its own model_type.
    FamilyTraits ds3{"deepseek_v3", {"kimi_k2"}, {"DeepseekV3ForCausalLM"}};
    ds3.layout = Layout::DeepSeek;
    ds3.routing_bias = true;
    ds3.source = "deepseek_v3/configuration_deepseek_v3.py";
    ds3.config_class = "DeepseekV3Config";
    // q_lora_rank is left out on purpose: an absent q_lora_rank reads as no query compression (DeepSeek-V2-Lite,
    // whose copies omit the null), with a note; DeepseekV3Config's default would be 1536.
    ds3.defaults = {{"vocab_size", 129280},       {"hidden_size", 7168},        {"intermediate_size", 18432},
                    {"moe_intermediate_size", 2048}, {"num_hidden_layers", 61},  {"num_attention_heads", 128},
                    {"n_shared_experts", 1},      {"n_routed_experts", 256},    {"kv_lora_rank", 512},
                    {"qk_rope_head_dim", 64},     {"v_head_dim", 128},          {"qk_nope_head_dim", 128},
                    {"num_experts_per_tok", 8},   {"first_k_dense_replace", 3}, {"hidden_act", "silu"},
                    {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}};
    add(ds3);
    // GLM-4.7-Flash (glm4_moe_lite): DeepSeek-V3's MLA and experts (a sigmoid router with a correction bias, one
    // shared expert, dense first layers) at GLM's sizes; vLLM and lmdeploy read it with their DeepSeek code.
    FamilyTraits glm_lite{"glm4_moe_lite", {}, {"Glm4MoeLiteForCausalLM"}};
    glm_lite.layout = Layout::DeepSeek;
    glm_lite.routing_bias = true;
    glm_lite.source = "glm4_moe_lite/configuration_glm4_moe_lite.py (transformers 008e574)";
    glm_lite.config_class = "Glm4MoeLiteConfig";
    glm_lite.defaults = {{"vocab_size", 154880},       {"hidden_size", 2048},        {"intermediate_size", 10240},
                         {"moe_intermediate_size", 1536}, {"num_hidden_layers", 47},  {"num_attention_heads", 20},
                         {"n_shared_experts", 1},      {"n_routed_experts", 64},     {"kv_lora_rank", 512},
                         {"q_lora_rank", 768},         {"qk_rope_head_dim", 64},     {"v_head_dim", 256},
                         {"qk_nope_head_dim", 192},    {"num_experts_per_tok", 4},   {"first_k_dense_replace", 1},
                         {"hidden_act", "silu"},       {"max_position_embeddings", 202752}, {"tie_word_embeddings", false}};
    // transformers 5 writes qk_head_dim (qk_nope_head_dim + qk_rope_head_dim) out with the config.
    glm_lite.ignored_keys = {"qk_head_dim"};
    add(glm_lite);
    // Mistral Small 4 (mistral4, the language model of a mistral3 checkpoint): DeepSeek-V3's MLA and experts under
    // the same keys, every layer MoE by default, a softmax router without DeepSeek-V3's correction bias
    // (modeling_mistral4.py, Mistral4TopkRouter); head_dim restates qk_nope_head_dim + qk_rope_head_dim.
    FamilyTraits mistral4{"mistral4", {}, {"Mistral4ForCausalLM"}};
    mistral4.layout = Layout::DeepSeek;
    mistral4.source = "mistral4/configuration_mistral4.py (transformers 008e574)";
    mistral4.config_class = "Mistral4Config";
    mistral4.defaults = {{"vocab_size", 131072},       {"hidden_size", 4096},        {"intermediate_size", 12288},
                         {"moe_intermediate_size", 2048}, {"num_hidden_layers", 36},  {"num_attention_heads", 32},
                         {"n_shared_experts", 1},      {"n_routed_experts", 128},    {"kv_lora_rank", 256},
                         {"q_lora_rank", 1024},        {"qk_rope_head_dim", 64},     {"v_head_dim", 128},
                         {"qk_nope_head_dim", 64},     {"num_experts_per_tok", 4},   {"first_k_dense_replace", 0},
                         {"hidden_act", "silu"},       {"max_position_embeddings", 1048576}, {"tie_word_embeddings", false}};
    mistral4.ignored_keys = {"head_dim"};
    add(mistral4);
    add_decoder_families(v);
    add_legacy_families(v);
    add_hybrid_families(v);
    return v;
  }();
  return table;
}

const FamilyTraits* find_family(const std::string& model_type) {
  for (const auto& f : model_families()) {
    if (model_type == f.model_type) return &f;
    for (const auto& a : f.aliases)
      if (model_type == a) return &f;
  }
  return nullptr;
}

const FamilyTraits* find_family_by_architecture(const std::vector<std::string>& architectures) {
  for (const auto& arch : architectures)
    for (const auto& f : model_families())
      for (const auto& a : f.architectures)
        if (arch == a) return &f;
  return nullptr;
}

namespace {

// A name reduced for comparison: lower case, letters and digits only, without the class suffixes.
std::string name_key(std::string s) {
  for (const char* suffix : {"ForConditionalGeneration", "ForCausalLM", "LMHeadModel", "Model"}) {
    const std::string x = suffix;
    if (s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0) {
      s.erase(s.size() - x.size());
      break;
    }
  }
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t common_prefix(const std::string& a, const std::string& b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

std::vector<std::string> families_resembling(const std::string& model_type, const std::vector<std::string>& architectures,
                                             std::size_t limit) {
  std::vector<std::string> probes{name_key(model_type)};
  for (const auto& a : architectures) probes.push_back(name_key(a));
  struct Hit {
    std::size_t score;
    std::size_t order;
    std::string name;
  };
  std::vector<Hit> hits;
  const auto& table = model_families();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& f = table[i];
    if (f.unsupported[0] != '\0') continue;
    std::vector<std::string> names{f.model_type};
    names.insert(names.end(), f.aliases.begin(), f.aliases.end());
    names.insert(names.end(), f.architectures.begin(), f.architectures.end());
    std::size_t best = 0;
    for (const auto& n : names) {
      const std::string k = name_key(n);
      for (const auto& p : probes) {
        if (p.empty() || k.empty()) continue;
        const std::size_t c = common_prefix(p, k);
        if (c >= 4 || (c == k.size() && c >= 3)) best = std::max(best, c);
      }
    }
    if (best > 0) hits.push_back(Hit{best, i, f.model_type});
  }
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.score > b.score; });
  std::vector<std::string> out;
  for (const auto& h : hits)
    if (out.size() < limit) out.push_back(h.name);
  return out;
}

std::vector<std::string> supported_model_types() {
  std::vector<std::string> out;
  for (const auto& f : model_families()) {
    out.push_back(f.model_type);
    for (const auto& a : f.aliases) out.push_back(a);
  }
  return out;
}

}  // namespace infercast
