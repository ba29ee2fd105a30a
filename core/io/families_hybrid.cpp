// The traits entries of the families with new building blocks (issue 20): gated DeltaNet, lightning attention,
// Mamba and Mamba2 hybrids, and DeepSeek-V3.2's sparse attention. Sources name files under huggingface/transformers
// src/transformers/models/ (MiniMax-M1's configuration_minimax_m1.py is MiniMax's own, on its model page).
#include "io/config_hybrid.hpp"

#include <algorithm>

namespace infercast {

void add_hybrid_families(std::vector<FamilyTraits>& v) {
  FamilyTraits next{"qwen3_next", {}, {"Qwen3NextForCausalLM"}};
  next.layout = Layout::GatedDeltaNet;
  next.moe = MoeRule::QwenShared;
  next.qk_norm = true;
  next.source = "qwen3_next/configuration_qwen3_next.py, modular_qwen3_next.py (Qwen3NextGatedDeltaNet, gated attention)";
  v.push_back(next);

  FamilyTraits q35 = next;
  q35.model_type = "qwen3_5_text";
  q35.aliases = {"qwen3_5"};
  q35.architectures = {"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"};
  q35.moe = MoeRule::None;
  q35.source = "qwen3_5/configuration_qwen3_5.py, modular_qwen3_5.py";
  v.push_back(q35);

  FamilyTraits q35moe = next;
  q35moe.model_type = "qwen3_5_moe_text";
  q35moe.aliases = {"qwen3_5_moe"};
  q35moe.architectures = {"Qwen3_5MoeForConditionalGeneration", "Qwen3_5MoeForCausalLM"};
  q35moe.source = "qwen3_5_moe/configuration_qwen3_5_moe.py, modular_qwen3_5_moe.py";
  v.push_back(q35moe);

  // OLMo Hybrid: gated DeltaNet on three layers of four, OLMo 3's attention (post-norms, whole-width q/k norms) on
  // the fourth, dense MLPs.
  FamilyTraits olmo_hybrid = next;
  olmo_hybrid.model_type = "olmo_hybrid";
  olmo_hybrid.architectures = {"OlmoHybridForCausalLM"};
  olmo_hybrid.moe = MoeRule::None;
  olmo_hybrid.qk_norm_full = true;
  olmo_hybrid.config_class = "OlmoHybridConfig";
  olmo_hybrid.source = "olmo_hybrid/configuration_olmo_hybrid.py, modular_olmo_hybrid.py (OlmoHybridGatedDeltaNet, "
                       "OlmoHybridAttention: Olmo3Attention with optional RoPE)";
  v.push_back(olmo_hybrid);

  FamilyTraits minimax{"minimax", {"minimax_m1", "minimax_text_01", "MiniMaxM1", "MiniMaxText01"},
                       {"MiniMaxForCausalLM", "MiniMaxM1ForCausalLM", "MiniMaxText01ForCausalLM"}};
  minimax.layout = Layout::MiniMax;
  minimax.moe = MoeRule::Mixtral;
  minimax.source = "minimax/modular_minimax.py (MiniMaxLightningAttention); MiniMax-AI/MiniMax-M1 modeling_minimax_m1.py";
  v.push_back(minimax);

  // Ring-linear 2.0 (Ring-mini-linear-2.0, Ring-flash-linear-2.0): Ling 2.0 with lightning attention between its
  // softmax layers (remote code; SGLang's and mlx-lm's ports).
  FamilyTraits bailing_linear{"bailing_moe_linear", {}, {"BailingMoeLinearV2ForCausalLM", "BailingMoeLinearForCausalLM"}};
  bailing_linear.layout = Layout::BailingLinear;
  bailing_linear.source = "inclusionAI/Ring-V2 (remote configuration_bailing_moe_linear_v2.py); SGLang's configs/bailing_moe_linear.py "
                          "and models/bailing_moe_linear.py, mlx-lm's models/bailing_moe_linear.py";
  v.push_back(bailing_linear);

  FamilyTraits lfm2{"lfm2", {}, {"Lfm2ForCausalLM"}};
  lfm2.layout = Layout::Lfm2;
  lfm2.qk_norm = true;
  lfm2.tied_default = true;
  lfm2.config_class = "Lfm2Config";
  lfm2.source = "lfm2/configuration_lfm2.py, modeling_lfm2.py (Lfm2ShortConv, Lfm2Attention with q/k layernorms, Lfm2MLP)";
  v.push_back(lfm2);
  // LFM2-MoE (LFM2-8B-A1B, LFM2.5-8B-A1B): LFM2's layers, dense MLPs on the first num_dense_layers, experts after.
  FamilyTraits lfm2_moe = lfm2;
  lfm2_moe.model_type = "lfm2_moe";
  lfm2_moe.architectures = {"Lfm2MoeForCausalLM"};
  lfm2_moe.moe = MoeRule::Mixtral;  // experts: parse_lfm2 reads them (num_experts, moe_intermediate_size)
  lfm2_moe.config_class = "Lfm2MoeConfig";
  lfm2_moe.source = "lfm2_moe/configuration_lfm2_moe.py, modeling_lfm2_moe.py (Lfm2MoeMLP without the width adjustment, "
                    "Lfm2MoeSparseMoeBlock: gate h x E, expert_bias E)";
  lfm2_moe.defaults = {{"vocab_size", 65536},        {"hidden_size", 2048},       {"intermediate_size", 7168},
                       {"moe_intermediate_size", 1792}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                       {"num_key_value_heads", 8},   {"max_position_embeddings", 128000}, {"tie_word_embeddings", true},
                       {"num_dense_layers", 2},      {"num_experts_per_tok", 4},  {"num_experts", 32},
                       {"use_expert_bias", true},    {"conv_L_cache", 3},         {"conv_bias", false}};
  v.push_back(lfm2_moe);

  FamilyTraits nemotron{"nemotron_h", {}, {"NemotronHForCausalLM"}};
  nemotron.layout = Layout::NemotronH;
  nemotron.activation = "relu2";
  nemotron.source = "nemotron_h/configuration_nemotron_h.py, modular_nemotron_h.py";
  v.push_back(nemotron);

  FamilyTraits jamba{"jamba", {}, {"JambaForCausalLM"}};
  jamba.layout = Layout::Jamba;
  jamba.moe = MoeRule::Mixtral;
  jamba.source = "jamba/configuration_jamba.py, modeling_jamba.py";
  v.push_back(jamba);

  FamilyTraits falcon_h1{"falcon_h1", {}, {"FalconH1ForCausalLM"}};
  falcon_h1.layout = Layout::FalconH1;
  falcon_h1.source = "falcon_h1/configuration_falcon_h1.py, modular_falcon_h1.py";
  v.push_back(falcon_h1);

  FamilyTraits granite{"granitemoehybrid", {}, {"GraniteMoeHybridForCausalLM"}};
  granite.layout = Layout::GraniteHybrid;
  granite.source = "granitemoehybrid/configuration_granitemoehybrid.py, modular_granitemoehybrid.py";
  v.push_back(granite);

  // Mamba (Gu & Dao 2023), Falcon Mamba and Mamba2 (Dao & Gu 2024; Codestral Mamba): a state-space mixer and a
  // pre-norm per layer, no attention, no MLP. The defaults are the config classes' (MambaConfig's
  // time_step_rank "auto" is ceil(hidden_size / 16)).
  FamilyTraits mamba{"mamba", {}, {"MambaForCausalLM"}};
  mamba.layout = Layout::Mamba;
  mamba.config_class = "MambaConfig";
  mamba.source = "mamba/configuration_mamba.py, modeling_mamba.py (MambaMixer)";
  mamba.defaults = {{"vocab_size", 50280}, {"hidden_size", 768},       {"state_size", 16},
                    {"num_hidden_layers", 32}, {"expand", 2},        {"conv_kernel", 4},
                    {"use_bias", true},     {"use_conv_bias", true},   {"hidden_act", "silu"},
                    {"time_step_rank", "auto"}, {"tie_word_embeddings", true}};  // the -hf checkpoints write use_bias false
  v.push_back(mamba);
  FamilyTraits falcon_mamba = mamba;
  falcon_mamba.model_type = "falcon_mamba";
  falcon_mamba.architectures = {"FalconMambaForCausalLM"};
  falcon_mamba.config_class = "FalconMambaConfig";
  falcon_mamba.source = "falcon_mamba/configuration_falcon_mamba.py, modeling_falcon_mamba.py (FalconMambaMixer: "
                        "rms_forward on dt, B and C, without weights)";
  for (auto& d : falcon_mamba.defaults)
    if (d.key == "use_bias") d.value = false;  // FalconMambaConfig's default, unlike MambaConfig's
  v.push_back(falcon_mamba);
  FamilyTraits mamba2{"mamba2", {}, {"Mamba2ForCausalLM"}};
  mamba2.layout = Layout::Mamba;
  mamba2.config_class = "Mamba2Config";
  mamba2.source = "mamba2/configuration_mamba2.py, modeling_mamba2.py (Mamba2Mixer, MambaRMSNormGated)";
  mamba2.defaults = {{"num_heads", 128},      {"head_dim", 64},         {"vocab_size", 32768},
                     {"hidden_size", 4096},   {"state_size", 128},      {"num_hidden_layers", 64},
                     {"expand", 2},           {"conv_kernel", 4},       {"n_groups", 8},
                     {"use_bias", false},     {"use_conv_bias", true},  {"hidden_act", "silu"},
                     {"chunk_size", 256},     {"tie_word_embeddings", false}};
  v.push_back(mamba2);

  // Bamba (IBM): Mamba2 layers with a few Llama attention layers, a gated MLP in every layer.
  FamilyTraits bamba{"bamba", {}, {"BambaForCausalLM"}};
  bamba.layout = Layout::Bamba;
  bamba.config_class = "BambaConfig";
  bamba.source = "bamba/configuration_bamba.py, modular_bamba.py (BambaMixer, BambaAttention, BambaMLP)";
  bamba.defaults = {{"vocab_size", 128000},      {"hidden_size", 4096},        {"intermediate_size", 14336},
                    {"num_hidden_layers", 32},   {"num_attention_heads", 32},  {"num_key_value_heads", 8},
                    {"hidden_act", "silu"},      {"max_position_embeddings", 262144}, {"tie_word_embeddings", false},
                    {"mamba_n_heads", 128},      {"mamba_d_head", "auto"},     {"mamba_n_groups", 1},
                    {"mamba_d_state", 256},      {"mamba_d_conv", 4},          {"mamba_expand", 2},
                    {"mamba_chunk_size", 256},   {"mamba_conv_bias", true},    {"mamba_proj_bias", false}};
  v.push_back(bamba);

  // RecurrentGemma (Griffin): two RG-LRU recurrent blocks, then one local MQA attention block, each with a gated
  // GeLU MLP of intermediate_size / 2 with biases.
  FamilyTraits rgemma{"recurrent_gemma", {}, {"RecurrentGemmaForCausalLM"}};
  rgemma.layout = Layout::RecurrentGemma;
  rgemma.config_class = "RecurrentGemmaConfig";
  rgemma.source = "recurrent_gemma/configuration_recurrent_gemma.py, modeling_recurrent_gemma.py (RecurrentGemmaRglru, "
                  "RecurrentGemmaRecurrentBlock, RecurrentGemmaSdpaAttention, RecurrentGemmaMlp)";
  rgemma.defaults = {{"num_hidden_layers", 26},     {"vocab_size", 256000},       {"hidden_size", 2560},
                     {"intermediate_size", 7680},   {"num_attention_heads", 10},  {"attention_window_size", 2048},
                     {"conv1d_width", 4},           {"hidden_activation", "gelu_pytorch_tanh"},
                     {"partial_rotary_factor", 0.5}, {"attention_bias", false},   {"tie_word_embeddings", true}};
  v.push_back(rgemma);

  // Multimodal wrappers whose text model is an existing family (their vision encoders: io/config_vision.cpp).
  const auto alias = [&](const char* family, std::vector<std::string> names, std::vector<std::string> archs) {
    for (auto& f : v) {
      if (std::string(f.model_type) != family) continue;
      for (auto& n : names)
        if (std::find(f.aliases.begin(), f.aliases.end(), n) == f.aliases.end()) f.aliases.push_back(n);
      for (auto& a : archs)
        if (std::find(f.architectures.begin(), f.architectures.end(), a) == f.architectures.end()) f.architectures.push_back(a);
    }
  };
  alias("qwen2", {"qwen2_5_vl", "qwen2_5_vl_text"}, {"Qwen2_5_VLForConditionalGeneration"});
  alias("qwen3", {"qwen3_vl", "qwen3_vl_text"}, {"Qwen3VLForConditionalGeneration"});
  alias("qwen3_moe", {"qwen3_vl_moe", "qwen3_vl_moe_text"}, {"Qwen3VLMoeForConditionalGeneration"});
  alias("mistral", {"mistral3"}, {"Mistral3ForConditionalGeneration"});
  // Xiaomi's MiMo: Qwen2's layers (q, k, v biases) and MTP layers beside them (reported, not counted).
  alias("qwen2", {"mimo"}, {"MiMoForCausalLM"});

  // DeepSeek-V4: compressed attention beside a sliding window, hyper-connections, hash-routed first layers.
  FamilyTraits ds4{"deepseek_v4", {"deepseek_ref"}, {"DeepseekV4ForCausalLM"}};
  ds4.layout = Layout::DeepSeekV4;
  ds4.config_class = "DeepseekV4Config";
  ds4.source = "deepseek_v4/configuration_deepseek_v4.py, modular_deepseek_v4.py; SGLang's models/deepseek_v4.py";
  v.push_back(ds4);

  // MiMo-V2-Flash: sliding layers with their own KV heads and sinks beside full ones, experts after a dense layer.
  FamilyTraits mimo2{"mimo_v2_flash", {}, {"MiMoV2FlashForCausalLM"}};
  mimo2.layout = Layout::MiMoV2;
  mimo2.config_class = "MiMoV2FlashConfig";
  mimo2.source = "mimo_v2_flash/configuration_mimo_v2_flash.py, convert_mimo_v2_flash_weights_to_hf.py; vLLM's models/mimo_v2.py (formerly mimo_v2_flash.py)";
  v.push_back(mimo2);
  // MiMo-V2.5 / V2.5-Pro (mimo_v2; remote code, no transformers class): the same decoder with q, k and v fused into one
  // FP8 qkv_proj (attention_projection_layout "fused_qkv"), beside a vision and an audio encoder (not counted).
  FamilyTraits mimo25{"mimo_v2", {}, {"MiMoV2ForCausalLM"}};
  mimo25.layout = Layout::MiMoV2;
  mimo25.source = "XiaomiMiMo/MiMo-V2.5 config.json (remote configuration_mimo_v2.py); vLLM's models/mimo_v2.py (MiMoV2Attention, "
                  "_shard_fp8_qkv_proj)";
  v.push_back(mimo25);

  // MiniMax-M3: MiniMax Sparse Attention's block indexer on most layers, experts with a shared one.
  FamilyTraits minimax_m3{"minimax_m3", {"minimax_m3_vl"},
                          {"MiniMaxM3ForCausalLM", "MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration"}};
  minimax_m3.layout = Layout::MiniMaxM3;
  minimax_m3.activation = "swigluoai";
  minimax_m3.source = "MiniMaxAI/MiniMax-M3 config.json; vLLM's MiniMax-M3 plugin (MiniMaxM3SparseAttention, MiniMaxM3MoE)";
  v.push_back(minimax_m3);

  // Step-3.7-Flash: a gate per attention head, sliding layers of 512, experts beside a shared one.
  FamilyTraits step3p7{"step3p7", {"step3p5"}, {"Step3p7FlashForCausalLM", "Step3p7ForConditionalGeneration"}};
  step3p7.layout = Layout::Step3p7;
  step3p7.config_class = "Step3p7TextConfig";
  step3p7.source = "step3p7/configuration_step3p7.py, modular_step3p7.py (Step3p7Attention: laguna's LagunaAttention)";
  v.push_back(step3p7);

  // Laguna (Poolside): Step-3.7's attention (LagunaAttention: q/k norms, a softplus gate per head or per element)
  // with a query-head count per layer, sliding layers, experts with one shared after dense layers.
  FamilyTraits laguna{"laguna", {}, {"LagunaForCausalLM"}};
  laguna.layout = Layout::Laguna;
  laguna.config_class = "LagunaConfig";
  laguna.source = "laguna/configuration_laguna.py, modeling_laguna.py (LagunaAttention, LagunaSparseMoeBlock); vLLM's models/laguna.py";
  v.push_back(laguna);

  // LongCat-Flash: blocks of two MLA attentions and two dense MLPs, a shortcut MoE beside the first MLP whose
  // router also picks zero-computation (identity) experts. The checkpoint's MTP block (model.mtp.*) is not loaded by
  // transformers and not counted.
  FamilyTraits longcat{"longcat_flash", {}, {"LongcatFlashForCausalLM"}};
  longcat.layout = Layout::LongcatFlash;
  longcat.config_class = "LongcatFlashConfig";
  longcat.source = "longcat_flash/configuration_longcat_flash.py, modular_longcat_flash.py; vLLM's models/longcat_flash.py";
  longcat.key_aliases = {{"num_hidden_layers", "num_layers"}};
  longcat.ignored_keys = {"num_hidden_layers"};
  longcat.defaults = {{"num_hidden_layers", 28},     {"vocab_size", 131072},        {"hidden_size", 6144},
                      {"num_attention_heads", 64},   {"hidden_act", "silu"},        {"max_position_embeddings", 131072},
                      {"tie_word_embeddings", false}, {"attention_bias", false},    {"ffn_hidden_size", 12288},
                      {"q_lora_rank", 1536},         {"kv_lora_rank", 512},         {"qk_nope_head_dim", 128},
                      {"qk_rope_head_dim", 64},      {"v_head_dim", 128},           {"moe_topk", 12},
                      {"n_routed_experts", 512},     {"zero_expert_num", 256},      {"expert_ffn_hidden_size", 2048}};
  v.push_back(longcat);

  // Nemotron-NAS (DeciLM): Llama's blocks, each sized by block_configs, some without attention.
  FamilyTraits decilm{"nemotron-nas", {"deci", "nemotron_nas"}, {"DeciLMForCausalLM"}};
  decilm.layout = Layout::DeciLM;
  decilm.config_class = "DeciLMConfig";
  decilm.source = "vLLM's models/nemotron_nas.py (DeciLMDecoderLayer); the checkpoints' modeling_decilm.py";
  v.push_back(decilm);

  // Kimi Linear: Kimi Delta Attention on three layers in four, NoPE MLA on the others, experts after a dense layer.
  // The defaults are transformers' KimiLinearConfig's (the 48B model's sizes) for the keys spelled one way; the keys
  // the Hub and transformers spell differently (num_experts / n_routed_experts, linear_attn_config / linear_num_heads,
  // ...) take the same defaults in io/config_kimi.cpp.
  FamilyTraits kimi_linear{"kimi_linear", {}, {"KimiLinearForCausalLM"}};
  kimi_linear.layout = Layout::KimiLinear;
  kimi_linear.config_class = "KimiLinearConfig";
  kimi_linear.source = "kimi_linear/configuration_kimi_linear.py; moonshotai/Kimi-Linear-48B-A3B-Instruct modeling_kimi.py; "
                       "vLLM's models/kimi_linear.py, layers/kda.py";
  kimi_linear.defaults = {{"vocab_size", 163840},        {"hidden_size", 2304},       {"intermediate_size", 9216},
                          {"moe_intermediate_size", 1024}, {"num_hidden_layers", 27},  {"num_attention_heads", 32},
                          {"kv_lora_rank", 512},         {"qk_nope_head_dim", 128},   {"qk_rope_head_dim", 64},
                          {"v_head_dim", 128},           {"hidden_act", "silu"},      {"tie_word_embeddings", false},
                          {"first_k_dense_replace", 1},  {"mla_use_nope", false}};
  v.push_back(kimi_linear);

  // GLM-5 (glm_moe_dsa): DeepSeek-V3.2's MLA, sparse-attention indexer and experts under GLM's names.
  FamilyTraits ds32{"deepseek_v32", {"glm_moe_dsa"}, {"DeepseekV32ForCausalLM", "GlmMoeDsaForCausalLM"}};
  ds32.layout = Layout::DeepSeek;
  ds32.routing_bias = true;
  ds32.source = "deepseek_v32/configuration_deepseek_v32.py; DeepSeek's inference/model.py (Indexer); glm_moe_dsa";
  // GLM-5 restates sizes the MLA keys give (qk_head_dim = nope + rope, head_dim = the rope part) and the indexer's
  // RoPE layout, which changes no count.
  ds32.ignored_keys = {"qk_head_dim", "head_dim", "indexer_rope_interleave"};
  v.push_back(ds32);
}

}  // namespace infercast
