// The decoder families of issue 20 that fit the existing building blocks, one entry each, with transformers'
// defaults (the sources name files under huggingface/transformers src/transformers/models/, or the model
// repository's own configuration file for families transformers does not ship).
#include "io/families.hpp"

namespace infercast {

namespace {


}  // namespace

void add_decoder_families(std::vector<FamilyTraits>& v) {
  const auto add = [&](FamilyTraits t) { v.push_back(std::move(t)); };

  // GLM-4 (THUDM/glm-4-9b-chat-hf): q, k, v biases, o without; fused gate_up; RoPE on half of each head.
  FamilyTraits glm{"glm", {}, {"GlmForCausalLM"}};
  glm.bias_default = true;
  glm.bias_on_o = false;
  glm.fused_gate_up = true;
  glm.config_class = "GlmConfig";
  glm.source = "glm/configuration_glm.py, modeling_glm.py (q/k/v bias=attention_bias, o_proj bias=False)";
  glm.defaults = {{"vocab_size", 151552},     {"hidden_size", 4096},       {"intermediate_size", 13696},
                  {"num_hidden_layers", 40},  {"num_attention_heads", 32}, {"num_key_value_heads", 2},
                  {"partial_rotary_factor", 0.5}, {"head_dim", 128},       {"hidden_act", "silu"},
                  {"max_position_embeddings", 131072}, {"tie_word_embeddings", false}, {"attention_bias", true}};
  add(glm);

  // GLM-4-0414: GLM's block with post-norms after attention and MLP (four norms a layer).
  FamilyTraits glm4 = glm;
  glm4.model_type = "glm4";
  glm4.architectures = {"Glm4ForCausalLM"};
  glm4.norms = 4;
  glm4.config_class = "Glm4Config";
  glm4.source = "glm4/configuration_glm4.py, modular_glm4.py (input, post_self_attn, post_attention, post_mlp norms)";
  add(glm4);

  // GLM-4.5 / 4.6: DeepSeek-V3's MoE (routed + shared experts, first dense layers, score-correction bias) with
  // grouped-query attention, q/k/v biases, optional per-head q/k norms, RoPE on half of each head.
  FamilyTraits glm4_moe{"glm4_moe", {}, {"Glm4MoeForCausalLM"}};
  glm4_moe.bias_on_o = false;
  glm4_moe.qk_norm_key = "use_qk_norm";
  glm4_moe.moe = MoeRule::DeepSeekLike;
  glm4_moe.config_class = "Glm4MoeConfig";
  glm4_moe.source = "glm4_moe/configuration_glm4_moe.py, modeling_glm4_moe.py";
  glm4_moe.defaults = {{"vocab_size", 151552},     {"hidden_size", 4096},       {"intermediate_size", 10944},
                       {"num_hidden_layers", 46},  {"num_attention_heads", 96}, {"num_key_value_heads", 8},
                       {"partial_rotary_factor", 0.5}, {"hidden_act", "silu"},  {"max_position_embeddings", 131072},
                       {"tie_word_embeddings", false}, {"attention_bias", false}, {"moe_intermediate_size", 1408},
                       {"num_experts_per_tok", 8}, {"n_shared_experts", 1},    {"n_routed_experts", 128},
                       {"first_k_dense_replace", 1}, {"use_qk_norm", false}};
  add(glm4_moe);

  // The language models of GLM-4.1V / GLM-4.6V-Flash (glm4v_text) and GLM-4.5V / 4.6V (glm4v_moe_text), the
  // text_config of glm4v and glm4v_moe checkpoints: GLM-4-0414's and GLM-4.5's layers (M-RoPE changes no count),
  // with their own transformers defaults (attention biases on by default for both).
  FamilyTraits glm4v_text = glm4;
  glm4v_text.model_type = "glm4v_text";
  glm4v_text.architectures = {};
  glm4v_text.config_class = "Glm4vTextConfig";
  glm4v_text.source = "glm4v/configuration_glm4v.py, modeling_glm4v.py (Glm4vTextDecoderLayer: GLM-4's four norms)";
  glm4v_text.defaults = {{"vocab_size", 151552},     {"hidden_size", 4096},       {"intermediate_size", 13696},
                         {"num_hidden_layers", 40},  {"num_attention_heads", 32}, {"num_key_value_heads", 2},
                         {"partial_rotary_factor", 0.5}, {"head_dim", 128},       {"hidden_act", "silu"},
                         {"max_position_embeddings", 32768}, {"tie_word_embeddings", false}, {"attention_bias", true}};
  add(glm4v_text);
  FamilyTraits glm4v_moe_text = glm4_moe;
  glm4v_moe_text.model_type = "glm4v_moe_text";
  glm4v_moe_text.architectures = {};
  glm4v_moe_text.config_class = "Glm4vMoeTextConfig";
  glm4v_moe_text.source = "glm4v_moe/configuration_glm4v_moe.py, modeling_glm4v_moe.py (GLM-4.5's decoder layer)";
  glm4v_moe_text.defaults = {{"vocab_size", 151424},     {"hidden_size", 4096},       {"intermediate_size", 10944},
                             {"num_hidden_layers", 46},  {"num_attention_heads", 96}, {"num_key_value_heads", 8},
                             {"partial_rotary_factor", 0.5}, {"hidden_act", "silu"},  {"max_position_embeddings", 65536},
                             {"tie_word_embeddings", false}, {"attention_bias", true}, {"moe_intermediate_size", 1408},
                             {"num_experts_per_tok", 8}, {"n_shared_experts", 1},    {"n_routed_experts", 128},
                             {"first_k_dense_replace", 1}, {"use_qk_norm", false}};
  add(glm4v_moe_text);

  // Solar Open (upstage/Solar-Open-100B, solar_open): Llama's attention without an o bias and GLM-4.5's experts on
  // every layer (SolarOpenConfig deletes intermediate_size and first_k_dense_replace: no dense layers).
  FamilyTraits solar_open = glm4_moe;
  solar_open.model_type = "solar_open";
  solar_open.architectures = {"SolarOpenForCausalLM"};
  solar_open.config_class = "SolarOpenConfig";
  solar_open.source = "solar_open/configuration_solar_open.py, modular_solar_open.py (SolarOpenAttention, SolarOpenMoE = Glm4MoeMoE)";
  solar_open.defaults = {{"vocab_size", 196608},     {"hidden_size", 4096},       {"num_hidden_layers", 48},
                         {"num_attention_heads", 64}, {"num_key_value_heads", 8}, {"head_dim", 128},
                         {"partial_rotary_factor", 1.0}, {"hidden_act", "silu"},  {"max_position_embeddings", 131072},
                         {"tie_word_embeddings", false}, {"attention_bias", false}, {"moe_intermediate_size", 1280},
                         {"num_experts_per_tok", 8}, {"n_shared_experts", 1},    {"n_routed_experts", 128},
                         {"first_k_dense_replace", 0}, {"use_qk_norm", false}};
  add(solar_open);

  // OLMo 2: post-norms only (after attention, after the MLP), RMS q/k norms over the whole projection width.
  FamilyTraits olmo2{"olmo2", {}, {"Olmo2ForCausalLM"}};
  olmo2.qk_norm = true;
  olmo2.qk_norm_full = true;
  olmo2.config_class = "Olmo2Config";
  olmo2.source = "olmo2/configuration_olmo2.py, modeling_olmo2.py (q_norm over n_heads*head_dim, k_norm over n_kv*head_dim)";
  olmo2.defaults = {{"vocab_size", 50304},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                    {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                    {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false}};
  add(olmo2);

  // OLMo 3: OLMo 2's layers (post-norms, whole-width q/k norms) with a 4,096-token window on three layers of every
  // four (layer_types; without them transformers makes every 4th layer full, as sliding_window_pattern 4 does).
  FamilyTraits olmo3 = olmo2;
  olmo3.model_type = "olmo3";
  olmo3.architectures = {"Olmo3ForCausalLM"};
  olmo3.sliding = SlidingRule::Pattern;
  olmo3.config_class = "Olmo3Config";
  olmo3.source = "olmo3/configuration_olmo3.py (layer_types: sliding_attention unless (i + 1) % 4 == 0, sliding_window 4096), "
                 "modular_olmo3.py (Olmo2 layers)";
  olmo3.defaults = {{"vocab_size", 50304},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                    {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                    {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                    {"sliding_window", 4096},   {"sliding_window_pattern", 4}};
  add(olmo3);

  // Apertus (Swiss AI): Llama's attention with per-head q/k RMSNorms, and an MLP without a gate: up, xIELU, down.
  FamilyTraits apertus{"apertus", {}, {"ApertusForCausalLM"}};
  apertus.qk_norm = true;
  apertus.gated_mlp = false;
  apertus.activation = "xielu";
  apertus.config_class = "ApertusConfig";
  apertus.source = "apertus/configuration_apertus.py, modeling_apertus.py (ApertusMLP: up_proj, XIELU, down_proj; q_norm, k_norm)";
  apertus.defaults = {{"vocab_size", 131072},     {"hidden_size", 4096},       {"intermediate_size", 14336},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "xielu"},
                      {"max_position_embeddings", 65536}, {"tie_word_embeddings", false}, {"attention_bias", false}};
  apertus.ignored_keys = {"qk_norm"};  // its q/k norms are always there (read above)
  add(apertus);

  // OLMoE: num_experts experts of intermediate_size on every layer, whole-width q/k norms, pre-norms.
  FamilyTraits olmoe{"olmoe", {}, {"OlmoeForCausalLM"}};
  olmoe.qk_norm = true;
  olmoe.qk_norm_full = true;
  olmoe.moe = MoeRule::Mixtral;
  olmoe.experts_key = "num_experts";
  olmoe.config_class = "OlmoeConfig";
  olmoe.source = "olmoe/configuration_olmoe.py, modeling_olmoe.py";
  olmoe.defaults = {{"vocab_size", 50304},      {"hidden_size", 2048},       {"intermediate_size", 2048},
                    {"num_hidden_layers", 16},  {"num_attention_heads", 16}, {"hidden_act", "silu"},
                    {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}, {"attention_bias", false},
                    {"num_experts_per_tok", 8}, {"num_experts", 64}};
  add(olmoe);

  // FlexOlmo (flex_olmo): OLMo 2's layers (post-norms after attention and MLP, no input norm: two norms a layer,
  // whole-width q/k norms) with OLMoE's experts (num_experts of intermediate_size behind a router without bias).
  // FlexOlmo-7x7B-1T runs all 7 experts (top 7).
  FamilyTraits flex_olmo = olmoe;
  flex_olmo.model_type = "flex_olmo";
  flex_olmo.architectures = {"FlexOlmoForCausalLM"};
  flex_olmo.config_class = "FlexOlmoConfig";
  flex_olmo.source = "flex_olmo/configuration_flex_olmo.py, modular_flex_olmo.py (Olmo2's post-norms, OlmoeSparseMoeBlock)";
  flex_olmo.defaults = {{"vocab_size", 100352},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                        {"num_hidden_layers", 32},   {"num_attention_heads", 32}, {"hidden_act", "silu"},
                        {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}, {"attention_bias", false},
                        {"num_experts_per_tok", 5},  {"num_experts", 7}};
  add(flex_olmo);

  // Muse Glimmer's text model (muse_glimmer_text, Meta): Gemma 2's layer (four centered RMSNorms, a gated MLP) with
  // AFMoE's attention: a sigmoid gate on the output (gate_proj h -> heads x head_dim), q and k normed by one RMSNorm
  // without weights; a norm without weights after the embedding; sliding windows on three layers in four, the full
  // ones counted back from the last and without RoPE unless layer_rope_theta says otherwise.
  {
    FamilyTraits muse{"muse_glimmer_text", {}, {"MuseGlimmerForCausalLM"}};
    muse.activation = "silu";
    muse.norms = 4;
    muse.softcapping = true;
    muse.sliding = SlidingRule::LastOfFour;
    muse.rope_per_layer = true;
    muse.rope_sliding_only = true;
    muse.output_gate = true;
    muse.qk_norm_weightless = true;
    muse.embedding_norm = true;
    muse.embedding_norm_weight = false;
    muse.config_class = "MuseGlimmerTextConfig";
    muse.source = "muse_glimmer/modular_muse_glimmer.py (MuseGlimmerTextAttention over AfmoeAttention, Gemma2DecoderLayer)";
    muse.defaults = {{"vocab_size", 202048},     {"hidden_size", 6656},       {"intermediate_size", 19968},
                     {"num_hidden_layers", 52},  {"num_attention_heads", 32}, {"num_key_value_heads", 2},
                     {"head_dim", 128},          {"hidden_activation", "silu"}, {"max_position_embeddings", 131072},
                     {"tie_word_embeddings", false}, {"attention_bias", false}, {"sliding_window", 2048}};
    muse.ignored_keys = {"qk_scale_factor", "output_multiplier", "post_norm_eps"};
    add(muse);
  }

  // Mellum 2 (mellum, JetBrains; transformers' MellumConfig over Qwen3MoeConfig): Qwen3-MoE's layers with the sliding
  // and full layers in layer_types and the dense and sparse MLPs in mlp_layer_types (no use_sliding_window,
  // decoder_sparse_step or mlp_only_layers: all full and all sparse by default).
  {
    FamilyTraits mellum{"mellum", {}, {"MellumForCausalLM"}};
    mellum.qk_norm = true;
    mellum.moe = MoeRule::Qwen;
    mellum.config_class = "MellumConfig";
    mellum.source = "mellum/configuration_mellum.py, modular_mellum.py";
    mellum.defaults = {{"vocab_size", 98304},       {"hidden_size", 2304},       {"intermediate_size", 7168},
                       {"num_hidden_layers", 28},   {"num_attention_heads", 32}, {"num_key_value_heads", 4},
                       {"head_dim", 128},           {"hidden_act", "silu"},      {"max_position_embeddings", 131072},
                       {"tie_word_embeddings", false}, {"attention_bias", false}, {"sliding_window", 1024},
                       {"moe_intermediate_size", 896}, {"num_experts_per_tok", 8}, {"num_experts", 64}};
    // Qwen3's keys a Mellum config may still carry: transformers' MellumConfig drops them.
    mellum.ignored_keys = {"use_sliding_window", "max_window_layers", "norm_topk_prob"};
    add(mellum);
  }

  // Granite 3.x: Llama's layout; embedding, attention, residual and logit multipliers scale activations and cost
  // nothing that is counted.
  FamilyTraits granite{"granite", {}, {"GraniteForCausalLM"}};
  granite.mlp_bias_key = true;
  granite.config_class = "GraniteConfig";
  granite.source = "granite/configuration_granite.py, modeling_granite.py";
  granite.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                      {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                      {"mlp_bias", false}};
  granite.ignored_keys = {"embedding_multiplier", "attention_multiplier", "residual_multiplier", "logits_scaling"};
  add(granite);

  // HyperCLOVA X SEED (hyperclovax; transformers' HyperCLOVAXConfig): Granite's layers and muP multipliers (which
  // change no count; logits_scaling multiplies rather than divides), an explicit head_dim, and with use_post_norm
  // (Peri-LN) two more RMSNorms a layer, of the attention's and the MLP's outputs. The default of use_post_norm is
  // the newest stored revision's (true; an earlier one had false).
  FamilyTraits hyperclovax{"hyperclovax", {}, {"HyperCLOVAXForCausalLM"}};
  hyperclovax.mlp_bias_key = true;
  hyperclovax.post_norm_key = "use_post_norm";
  hyperclovax.config_class = "HyperCLOVAXConfig";
  hyperclovax.source = "hyperclovax/configuration_hyperclovax.py, modular_hyperclovax.py (post_norm1, post_norm2)";
  hyperclovax.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                          {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                          {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                          {"mlp_bias", false},        {"use_post_norm", true}};
  hyperclovax.ignored_keys = granite.ignored_keys;
  add(hyperclovax);

  // Granite 3.x MoE: num_local_experts experts of intermediate_size (input_linear 2I x h, output_linear), a
  // router without bias, on every layer.
  FamilyTraits granitemoe{"granitemoe", {}, {"GraniteMoeForCausalLM"}};
  granitemoe.moe = MoeRule::Mixtral;
  granitemoe.config_class = "GraniteMoeConfig";
  granitemoe.source = "granitemoe/configuration_granitemoe.py, modeling_granitemoe.py";
  granitemoe.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                         {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                         {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                         {"num_local_experts", 8},   {"num_experts_per_tok", 2}};
  granitemoe.ignored_keys = granite.ignored_keys;
  add(granitemoe);

  // GraniteMoeShared: GraniteMoe's layers and, where shared_intermediate_size is positive, a shared expert beside the
  // routed ones on every layer (shared_mlp: input_linear h -> 2 x shared_intermediate_size, gate and up, and
  // output_linear; no bias, no gate of its own: its output is added to the mixture's).
  FamilyTraits granitemoeshared = granitemoe;
  granitemoeshared.model_type = "granitemoeshared";
  granitemoeshared.architectures = {"GraniteMoeSharedForCausalLM"};
  granitemoeshared.shared_expert_key = "shared_intermediate_size";
  granitemoeshared.config_class = "GraniteMoeSharedConfig";
  granitemoeshared.source = "granitemoeshared/configuration_granitemoeshared.py, modular_granitemoeshared.py (GraniteMoeSharedMLP)";
  granitemoeshared.defaults = {{"vocab_size", 32000},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                               {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                               {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false},
                               {"num_local_experts", 8},   {"num_experts_per_tok", 2},  {"shared_intermediate_size", 0}};
  add(granitemoeshared);

  // Granite SWASH (granite_swa, Granite 4.5): Granite's layers with a learned sink logit per head on every layer
  // (sinks, num_attention_heads wide) and sliding-window attention on the layers layer_types names (by default all
  // but layers 0, 4, 8, ...); layer_rope_theta gives each layer its RoPE base, 0 for none.
  FamilyTraits granite_swa = granite;
  granite_swa.model_type = "granite_swa";
  granite_swa.architectures = {"GraniteSWAForCausalLM"};
  granite_swa.sinks = true;
  granite_swa.sliding = SlidingRule::FirstOfFour;
  granite_swa.rope_per_layer = true;
  granite_swa.config_class = "GraniteSWAConfig";
  granite_swa.source = "granite_swa/modular_granite_swa.py (GraniteSWAConfig over GraniteConfig, GraniteSWAAttention's sinks)";
  granite_swa.defaults = {{"vocab_size", 100352},     {"hidden_size", 2560},       {"intermediate_size", 8192},
                          {"num_hidden_layers", 24},  {"num_attention_heads", 20}, {"num_key_value_heads", 4},
                          {"hidden_act", "silu"},     {"max_position_embeddings", 8192}, {"tie_word_embeddings", true},
                          {"attention_bias", false},  {"mlp_bias", false},         {"sliding_window", 128}};
  add(granite_swa);

  // Granite SWASH MoE (granitemoe_swa): GraniteMoeShared's layers with Granite SWASH's attention (sinks, sliding
  // windows, RoPE per layer).
  FamilyTraits granitemoe_swa = granitemoeshared;
  granitemoe_swa.model_type = "granitemoe_swa";
  granitemoe_swa.architectures = {"GraniteMoeSWAForCausalLM"};
  granitemoe_swa.sinks = true;
  granitemoe_swa.sliding = SlidingRule::FirstOfFour;
  granitemoe_swa.rope_per_layer = true;
  granitemoe_swa.config_class = "GraniteMoeSWAConfig";
  granitemoe_swa.source = "granitemoe_swa/modular_granitemoe_swa.py (GraniteMoeSWAConfig over GraniteMoeSharedConfig)";
  granitemoe_swa.defaults = granitemoeshared.defaults;
  granitemoe_swa.defaults.push_back({"sliding_window", 128});
  add(granitemoe_swa);

  // Command R / R+ (Cohere): attention and MLP in parallel after one LayerNorm without bias; optional per-head
  // LayerNorms of q and k (weights per head); logit_scale multiplies the logits.
  FamilyTraits cohere{"cohere", {}, {"CohereForCausalLM"}};
  cohere.norm = NormKind::Layer;
  cohere.parallel = true;
  cohere.norms = 1;
  cohere.qk_norm_key = "use_qk_norm";
  cohere.qk_norm_full = true;
  cohere.config_class = "CohereConfig";
  cohere.source = "cohere/configuration_cohere.py, modeling_cohere.py (CohereLayerNorm without bias, parallel block)";
  cohere.defaults = {{"vocab_size", 256000},     {"hidden_size", 8192},       {"intermediate_size", 22528},
                     {"num_hidden_layers", 40},  {"num_attention_heads", 64}, {"hidden_act", "silu"},
                     {"max_position_embeddings", 8192}, {"tie_word_embeddings", true}, {"attention_bias", false},
                     {"use_qk_norm", false}};
  cohere.ignored_keys = {"logit_scale"};
  add(cohere);

  // Command R7B / Command A (Cohere 2): Cohere's parallel block; every sliding_window_pattern-th layer full
  // attention without RoPE, the others sliding with RoPE.
  FamilyTraits cohere2 = cohere;
  cohere2.model_type = "cohere2";
  cohere2.architectures = {"Cohere2ForCausalLM"};
  cohere2.qk_norm_key = "";
  cohere2.qk_norm_full = false;
  cohere2.sliding = SlidingRule::Pattern;
  cohere2.rope_sliding_only = true;
  cohere2.config_class = "Cohere2Config";
  cohere2.source = "cohere2/configuration_cohere2.py, modular_cohere2.py (RoPE only where sliding_window is set)";
  cohere2.defaults = {{"vocab_size", 256000},     {"hidden_size", 8192},       {"intermediate_size", 22528},
                      {"num_hidden_layers", 40},  {"num_attention_heads", 64}, {"hidden_act", "silu"},
                      {"max_position_embeddings", 8192}, {"tie_word_embeddings", true}, {"attention_bias", false},
                      {"sliding_window", 4096},   {"sliding_window_pattern", 4}};
  // Command R7B's config repeats its architecture in Cohere's own terms, which transformers ignores.
  cohere2.ignored_keys = {"logit_scale", "layer_switch", "order_of_interleaved_layers", "position_embedding_type",
                          "rotary_pct", "use_embedding_sharing", "use_gated_activation", "use_parallel_block",
                          "use_parallel_embedding"};
  add(cohere2);

  // Cohere2 MoE (Command A+'s text model, North-Mini-Code): Cohere 2's parallel block (one norm: RMSNorm where
  // rms_norm_eps is given, else Cohere's LayerNorm without bias; no q/k norms) with experts after a dense prefix;
  // sliding layers by their own pattern in the prefix and after it, RoPE on the sliding layers and on a dense prefix
  // whose pattern is 1 (force_rope).
  FamilyTraits cohere2_moe = cohere2;
  cohere2_moe.model_type = "cohere2_moe";
  cohere2_moe.architectures = {"Cohere2MoeForCausalLM"};
  cohere2_moe.moe = MoeRule::Cohere2Moe;
  cohere2_moe.sliding = SlidingRule::DensePrefix;
  cohere2_moe.rms_norm_key = "rms_norm_eps";
  cohere2_moe.config_class = "Cohere2MoeConfig";
  cohere2_moe.source = "cohere2_moe/configuration_cohere2_moe.py, modular_cohere2_moe.py (Cohere2MoeSparseMoeBlock, force_rope)";
  cohere2_moe.defaults = {{"vocab_size", 256000},     {"hidden_size", 8192},       {"intermediate_size", 22528},
                          {"num_hidden_layers", 40},  {"num_attention_heads", 64}, {"head_dim", 128},
                          {"hidden_act", "silu"},     {"max_position_embeddings", 8192}, {"tie_word_embeddings", true},
                          {"attention_bias", false},  {"sliding_window", 4096},    {"sliding_window_pattern", 4},
                          {"num_experts", 8},         {"num_experts_per_tok", 2},  {"num_shared_experts", 0},
                          {"first_k_dense_replace", 0}, {"prefix_dense_sliding_window_pattern", 1}};
  cohere2_moe.ignored_keys = {"logit_scale", "expert_selection_fn", "norm_topk_prob", "shared_expert_combination_strategy",
                              "use_parallel_block", "use_qk_norm"};
  add(cohere2_moe);

  // Phi-3.5-MoE: Mixtral's MoE, LayerNorms with bias, optional attention and LM-head biases.
  FamilyTraits phimoe{"phimoe", {}, {"PhimoeForCausalLM", "PhiMoEForCausalLM"}};
  phimoe.norm = NormKind::Layer;
  phimoe.norm_bias = true;
  phimoe.moe = MoeRule::Mixtral;
  phimoe.sliding = SlidingRule::AllLayers;
  phimoe.lm_head_bias_key = "lm_head_bias";
  phimoe.config_class = "PhimoeConfig";
  phimoe.source = "phimoe/configuration_phimoe.py, modeling_phimoe.py (nn.LayerNorm, lm_head bias=lm_head_bias)";
  phimoe.defaults = {{"vocab_size", 32064},      {"hidden_size", 4096},       {"intermediate_size", 6400},
                     {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 8},
                     {"hidden_act", "silu"},     {"max_position_embeddings", 131072}, {"tie_word_embeddings", false},
                     {"num_experts_per_tok", 2}, {"num_local_experts", 16},  {"attention_bias", false},
                     {"lm_head_bias", false}};
  phimoe.ignored_keys = {"input_jitter_noise"};
  add(phimoe);

  // DBRX: its own schema (io/dbrx.cpp).
  FamilyTraits dbrx{"dbrx", {}, {"DbrxForCausalLM"}};
  dbrx.layout = Layout::Dbrx;
  dbrx.norm = NormKind::Layer;
  dbrx.config_class = "DbrxConfig";
  dbrx.source = "dbrx/configuration_dbrx.py, modeling_dbrx.py";
  dbrx.defaults = {{"d_model", 2048}, {"n_heads", 16}, {"n_layers", 24}, {"max_seq_len", 2048}, {"vocab_size", 32000}};
  dbrx.ignored_keys = {"emb_pdrop", "resid_pdrop"};
  add(dbrx);

  // StarCoder2: biases everywhere (use_bias), a plain GELU MLP (c_fc, c_proj), LayerNorms with bias, a sliding
  // window on every layer.
  FamilyTraits starcoder2{"starcoder2", {}, {"Starcoder2ForCausalLM"}};
  starcoder2.norm = NormKind::Layer;
  starcoder2.norm_bias = true;
  starcoder2.bias_key = "use_bias";
  starcoder2.bias_default = true;
  starcoder2.mlp_bias_key = true;
  starcoder2.mlp_bias_name = "use_bias";
  starcoder2.gated_mlp = false;
  starcoder2.sliding = SlidingRule::AllLayers;
  starcoder2.activation = "gelu_pytorch_tanh";
  starcoder2.tied_default = true;
  starcoder2.config_class = "Starcoder2Config";
  starcoder2.source = "starcoder2/configuration_starcoder2.py, modeling_starcoder2.py";
  starcoder2.defaults = {{"vocab_size", 49152},      {"hidden_size", 3072},       {"intermediate_size", 12288},
                         {"num_hidden_layers", 30},  {"num_attention_heads", 24}, {"num_key_value_heads", 2},
                         {"hidden_act", "gelu_pytorch_tanh"}, {"max_position_embeddings", 4096},
                         {"use_bias", true},         {"tie_word_embeddings", true}};
  starcoder2.ignored_keys = {"norm_type", "mlp_type", "norm_epsilon", "residual_dropout", "embedding_dropout"};
  add(starcoder2);

  // StableLM 2 / StableLM 3B: LayerNorms with bias, RoPE on a quarter of each head, optional q/k/v biases,
  // per-head q/k LayerNorms and a parallel residual block.
  FamilyTraits stablelm{"stablelm", {}, {"StableLmForCausalLM"}};
  stablelm.norm = NormKind::Layer;
  stablelm.norm_bias = true;
  stablelm.bias_key = "use_qkv_bias";
  stablelm.bias_on_o = false;
  stablelm.qk_norm_key = "qk_layernorm";
  stablelm.qk_norm_full = true;
  stablelm.parallel_key = "use_parallel_residual";
  stablelm.config_class = "StableLmConfig";
  stablelm.source = "stablelm/configuration_stablelm.py, modeling_stablelm.py";
  stablelm.defaults = {{"vocab_size", 50304},      {"intermediate_size", 6912},   {"hidden_size", 2560},
                       {"num_hidden_layers", 32},  {"num_attention_heads", 32},   {"num_key_value_heads", 32},
                       {"hidden_act", "silu"},     {"max_position_embeddings", 4096}, {"tie_word_embeddings", false},
                       {"use_qkv_bias", false},    {"qk_layernorm", false},       {"use_parallel_residual", false},
                       {"partial_rotary_factor", 0.25}};
  add(stablelm);

  // EXAONE 4.0: OLMo 2's post-norms, per-head q/k norms, 3 sliding layers with RoPE to 1 global NoPE layer.
  FamilyTraits exaone4{"exaone4", {}, {"Exaone4ForCausalLM"}};
  exaone4.qk_norm = true;
  exaone4.sliding = SlidingRule::Pattern;
  exaone4.rope_sliding_only = true;
  exaone4.config_class = "Exaone4Config";
  exaone4.source = "exaone4/modular_exaone4.py (global NoPE when sliding_window is set)";
  exaone4.defaults = {{"vocab_size", 102400},     {"hidden_size", 4096},       {"intermediate_size", 16384},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 32},
                      {"hidden_act", "silu"},     {"max_position_embeddings", 2048}, {"tie_word_embeddings", false},
                      {"sliding_window", 4096},   {"sliding_window_pattern", 4}};
  add(exaone4);

  // K-EXAONE (exaone_moe): EXAONE 4's attention (per-head q/k norms, three sliding layers with RoPE to one global
  // NoPE layer), OLMoE's pre-norm layer, DeepSeek-V3's experts (a sigmoid router with a correction bias, one shared
  // expert of num_shared_experts x moe_intermediate_size) after the dense first layer. transformers spells the expert
  // counts num_experts and num_shared_experts; mlp_layer_types or the older is_moe_layer say which layers route.
  // The released config restates layer_types x sliding_window per layer (sliding_windows) and describes its MTP
  // layer (mtp_layer_types, mtp_sliding_windows; num_nextn_predict_layers is reported, not counted).
  FamilyTraits exaone_moe = exaone4;
  exaone_moe.model_type = "exaone_moe";
  exaone_moe.architectures = {"ExaoneMoeForCausalLM", "ExaoneMoEForCausalLM"};
  exaone_moe.moe = MoeRule::DeepSeekLike;
  exaone_moe.config_class = "ExaoneMoeConfig";
  exaone_moe.source = "exaone_moe/modular_exaone_moe.py (ExaoneMoeDecoderLayer: OlmoeDecoderLayer, Exaone4Attention, "
                      "DeepseekV3MoE with num_experts)";
  exaone_moe.key_aliases = {{"n_routed_experts", "num_experts"}, {"n_shared_experts", "num_shared_experts"}};
  exaone_moe.defaults = {{"vocab_size", 102400},     {"hidden_size", 4096},       {"intermediate_size", 16384},
                         {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"num_key_value_heads", 32},
                         {"hidden_act", "silu"},     {"max_position_embeddings", 2048}, {"tie_word_embeddings", false},
                         {"sliding_window", 4096},   {"sliding_window_pattern", 4}, {"first_k_dense_replace", 1},
                         {"moe_intermediate_size", 1024}, {"n_routed_experts", 64}, {"num_experts_per_tok", 8},
                         {"n_shared_experts", 1}};
  exaone_moe.ignored_keys = {"sliding_windows", "mtp_layer_types", "mtp_sliding_windows"};
  add(exaone_moe);

  // AFMoE (Arcee's Trinity Nano, Mini and Large): per-head q/k norms and a sigmoid gate on the attention output
  // (gate_proj h x heads x head_dim), three sliding layers with RoPE to one global NoPE layer
  // (global_attn_every_n_layers, or layer_types), four norms a layer (before and after attention and the MLP), dense
  // MLPs on the first num_dense_layers and then experts behind a sigmoid router with its expert_bias (one value per
  // expert, stored) and a shared expert of num_shared_experts x moe_intermediate_size. muP scales change no count.
  FamilyTraits afmoe{"afmoe", {}, {"AfmoeForCausalLM"}};
  afmoe.qk_norm = true;
  afmoe.output_gate = true;
  afmoe.norms = 4;
  afmoe.sliding = SlidingRule::Pattern;
  afmoe.rope_sliding_only = true;
  afmoe.moe = MoeRule::DeepSeekLike;
  afmoe.config_class = "AfmoeConfig";
  afmoe.source = "afmoe/configuration_afmoe.py, modular_afmoe.py (AfmoeAttention gate_proj, AfmoeDecoderLayer's four "
                 "norms, AfmoeMoE with expert_bias)";
  afmoe.key_aliases = {{"n_routed_experts", "num_experts"}, {"n_shared_experts", "num_shared_experts"},
                       {"first_k_dense_replace", "num_dense_layers"}, {"sliding_window_pattern", "global_attn_every_n_layers"}};
  afmoe.defaults = {{"vocab_size", 200192},       {"hidden_size", 2048},        {"intermediate_size", 6144},
                    {"moe_intermediate_size", 1408}, {"num_hidden_layers", 32},  {"first_k_dense_replace", 1},
                    {"num_attention_heads", 16},  {"head_dim", 128},            {"hidden_act", "silu"},
                    {"max_position_embeddings", 16384}, {"tie_word_embeddings", false}, {"n_routed_experts", 64},
                    {"num_experts_per_tok", 6},   {"n_shared_experts", 2},      {"sliding_window_pattern", 4},
                    {"sliding_window", 1024}};
  afmoe.ignored_keys = {"mup_enabled", "route_norm", "num_expert_groups", "num_limited_groups", "use_grouped_mm"};
  add(afmoe);

  // Ling 2.0 / Ring 2.0 (bailing_moe; inclusionAI's remote code modeling_bailing_moe_v2.py, BailingMoeV2ForCausalLM):
  // a fused query_key_value (use_qkv_bias) and dense (use_bias), per-head q/k norms (use_qk_norm), partial RoPE,
  // dense MLPs on the first first_k_dense_replace layers, then num_experts experts behind a sigmoid router with its
  // expert_bias (moe_router_enable_expert_bias, stored in fp32) and num_shared_experts shared experts of
  // moe_shared_expert_intermediate_size (vLLM and llama.cpp read it; the remote code's moe_intermediate_size is the
  // same in every release). MTP layers sit after num_hidden_layers: reported, not counted. No transformers class:
  // no defaults; a missing size is refused by name.
  FamilyTraits bailing{"bailing_moe", {"bailing_moe_v2"}, {"BailingMoeV2ForCausalLM", "BailingMoeForCausalLM"}};
  bailing.fused_qkv = true;
  bailing.bias_key = "use_qkv_bias";
  bailing.bias_on_o = false;
  bailing.o_bias_key = "use_bias";
  bailing.qk_norm_key = "use_qk_norm";
  bailing.moe = MoeRule::DeepSeekLike;
  bailing.routing_bias_key = "moe_router_enable_expert_bias";
  bailing.shared_width_key = "moe_shared_expert_intermediate_size";
  bailing.key_aliases = {{"n_routed_experts", "num_experts"}, {"n_shared_experts", "num_shared_experts"}};
  bailing.fixed_keys = {{"use_rmsnorm", true}};
  bailing.ignored_keys = {"embedding_dropout", "output_dropout", "router_dtype", "score_function", "norm_head"};
  bailing.config_class = "BailingMoeV2Config";
  bailing.source = "inclusionAI/Ling-V2 models/modeling_bailing_moe_v2.py; vLLM's models/bailing_moe.py";
  add(bailing);

  // Hy3 (hy_v3; transformers' modular_hy_v3.py): Llama's attention without biases, per-head q/k norms (qk_norm),
  // a dense first layer, then num_experts experts of moe_intermediate_size (the released config restates it as
  // expert_hidden_dim) behind a sigmoid router with its e_score_correction_bias, and num_shared_experts shared ones.
  // The MTP layer is stored as layer num_hidden_layers: reported, not counted.
  FamilyTraits hy3{"hy_v3", {}, {"HYV3ForCausalLM"}};
  hy3.mlp_bias_key = true;  // attention_bias and mlp_bias (false by default; the release omits both)
  hy3.qk_norm_key = "qk_norm";
  hy3.moe = MoeRule::DeepSeekLike;
  hy3.routing_bias_key = "moe_router_enable_expert_bias";
  hy3.key_aliases = {{"n_routed_experts", "num_experts"}, {"n_shared_experts", "num_shared_experts"}};
  hy3.ignored_keys = {"expert_hidden_dim", "enable_attention_fp32_softmax", "enable_lm_head_fp32", "enable_moe_fp32_combine",
                      "moe_router_use_sigmoid", "route_norm", "router_scaling_factor", "use_grouped_mm"};
  hy3.config_class = "HYV3Config";
  hy3.source = "hy_v3/configuration_hy_v3.py, modular_hy_v3.py (HYV3Attention: ApertusAttention's q/k norms; "
               "MiniMaxM2SparseMoeBlock with e_score_correction_bias and shared_experts)";
  hy3.defaults = {{"vocab_size", 120832},      {"hidden_size", 4096},       {"intermediate_size", 13312},
                  {"num_hidden_layers", 80},   {"num_attention_heads", 64}, {"num_key_value_heads", 8},
                  {"head_dim", 128},           {"hidden_act", "silu"},      {"max_position_embeddings", 131072},
                  {"tie_word_embeddings", false}, {"n_routed_experts", 192}, {"num_experts_per_tok", 8},
                  {"n_shared_experts", 1},     {"moe_intermediate_size", 1536}, {"first_k_dense_replace", 1},
                  {"qk_norm", true},           {"moe_router_enable_expert_bias", true}};
  add(hy3);

  // dots.llm1 (dots1; transformers' modular_dots1.py): Qwen3's attention (per-head q/k norms) and DeepSeek-V3's
  // layers: dense MLPs on the first first_k_dense_replace layers, then n_routed_experts behind a sigmoid router with
  // its e_score_correction_bias and n_shared_experts shared ones. Sliding layers only where layer_types names them
  // (the released config has no window).
  FamilyTraits dots1{"dots1", {}, {"Dots1ForCausalLM"}};
  dots1.qk_norm = true;
  dots1.moe = MoeRule::DeepSeekLike;
  dots1.config_class = "Dots1Config";
  dots1.source = "dots1/configuration_dots1.py, modular_dots1.py (Dots1Attention: Qwen3Attention; Dots1MoE: DeepseekV3MoE)";
  dots1.ignored_keys = {"moe_layer_freq"};
  dots1.defaults = {{"vocab_size", 152064},      {"hidden_size", 4608},       {"intermediate_size", 10944},
                    {"moe_intermediate_size", 1408}, {"num_hidden_layers", 62}, {"num_attention_heads", 32},
                    {"num_key_value_heads", 32}, {"first_k_dense_replace", 0}, {"hidden_act", "silu"},
                    {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false}};
  add(dots1);

  // ChatGLM2, ChatGLM3 and GLM-4-9B-chat (chatglm; THUDM's remote modeling_chatglm.py): a fused query_key_value
  // (add_qkv_bias) and dense (add_bias_linear), multi_query_group_num KV heads of kv_channels where
  // multi_query_attention, RoPE on half of each head, a fused SwiGLU (dense_h_to_4h), RMSNorms, an untied
  // output_layer. rmsnorm false (LayerNorms) and post_layer_norm false (no final norm) are refused. The config class's
  // defaults are ChatGLM2-6B's.
  FamilyTraits chatglm{"chatglm", {}, {"ChatGLMModel", "ChatGLMForConditionalGeneration"}};
  chatglm.fused_qkv = true;
  chatglm.fused_gate_up = true;
  chatglm.bias_key = "add_qkv_bias";
  chatglm.o_bias_key = "add_bias_linear";
  chatglm.mlp_bias_key = true;
  chatglm.mlp_bias_name = "add_bias_linear";
  chatglm.multi_query_key = "multi_query_attention";
  chatglm.multi_query_default = false;
  chatglm.multi_query_groups_key = "multi_query_group_num";
  chatglm.key_aliases = {{"num_hidden_layers", "num_layers"}, {"intermediate_size", "ffn_hidden_size"},
                         {"vocab_size", "padded_vocab_size"}, {"head_dim", "kv_channels"},
                         {"max_position_embeddings", "seq_length"}};
  chatglm.fixed_keys = {{"rmsnorm", true}, {"post_layer_norm", true}};
  chatglm.ignored_keys = {"num_hidden_layers", "apply_query_key_layer_scaling", "attention_softmax_in_fp32",
                          "bias_dropout_fusion", "fp32_residual_connection", "layernorm_epsilon", "rope_ratio",
                          "original_rope", "classifier_dropout", "pre_seq_len", "prefix_projection"};
  chatglm.config_class = "ChatGLMConfig";
  chatglm.source = "THUDM/glm-4-9b-chat and chatglm3-6b configuration_chatglm.py, modeling_chatglm.py (GLMBlock, "
                   "SelfAttention.query_key_value, MLP.dense_h_to_4h)";
  chatglm.defaults = {{"num_hidden_layers", 28},  {"vocab_size", 65024},     {"hidden_size", 4096},
                      {"intermediate_size", 13696}, {"head_dim", 128},       {"num_attention_heads", 32},
                      {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"partial_rotary_factor", 0.5},
                      {"hidden_act", "silu"}};
  add(chatglm);

  // ERNIE 4.5 (dense): biases on every projection when use_bias.
  FamilyTraits ernie{"ernie4_5", {}, {"Ernie4_5ForCausalLM"}};
  ernie.bias_key = "use_bias";
  ernie.mlp_bias_key = true;
  ernie.mlp_bias_name = "use_bias";
  ernie.tied_default = true;
  ernie.config_class = "Ernie4_5Config";
  ernie.source = "ernie4_5/configuration_ernie4_5.py, modular_ernie4_5.py";
  ernie.defaults = {{"vocab_size", 103424},     {"hidden_size", 1024},       {"intermediate_size", 3072},
                    {"num_hidden_layers", 18},  {"num_attention_heads", 16}, {"num_key_value_heads", 2},
                    {"hidden_act", "silu"},     {"max_position_embeddings", 131072}, {"tie_word_embeddings", true},
                    {"use_bias", false},        {"head_dim", 128}};
  add(ernie);

  // ERNIE 4.5 MoE (21B-A3B, 300B-A47B): MoE layers between moe_layer_start_index and moe_layer_end_index.
  FamilyTraits ernie_moe = ernie;
  ernie_moe.model_type = "ernie4_5_moe";
  ernie_moe.architectures = {"Ernie4_5_MoeForCausalLM"};
  ernie_moe.moe = MoeRule::Ernie;
  ernie_moe.lm_head_bias_key = "use_bias";
  ernie_moe.config_class = "Ernie4_5_MoeConfig";
  ernie_moe.source = "ernie4_5_moe/configuration_ernie4_5_moe.py, modular_ernie4_5_moe.py";
  ernie_moe.defaults = {{"vocab_size", 103424},     {"hidden_size", 2560},       {"intermediate_size", 12288},
                        {"num_hidden_layers", 28},  {"num_attention_heads", 20}, {"num_key_value_heads", 4},
                        {"hidden_act", "silu"},     {"max_position_embeddings", 131072}, {"tie_word_embeddings", true},
                        {"use_bias", false},        {"moe_intermediate_size", 1536}, {"moe_k", 6},
                        {"moe_num_experts", 64},    {"moe_num_shared_experts", 2}, {"moe_layer_start_index", 1},
                        {"moe_layer_end_index", -1}, {"moe_layer_interval", 1}};
  add(ernie_moe);

  // Hunyuan dense (Hunyuan-7B and the 0.5B to 4B models): per-head q/k RMS norms after RoPE.
  FamilyTraits hunyuan{"hunyuan_v1_dense", {}, {"HunYuanDenseV1ForCausalLM"}};
  hunyuan.qk_norm = true;
  hunyuan.config_class = "HunYuanDenseV1Config";
  hunyuan.source = "hunyuan_v1_dense/configuration_hunyuan_v1_dense.py, modeling_hunyuan_v1_dense.py";
  hunyuan.defaults = {{"vocab_size", 290943},     {"hidden_size", 4096},       {"intermediate_size", 11008},
                      {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                      {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false}};
  add(hunyuan);

  // Hunyuan-A13B: on every layer num_experts experts and one shared MLP of intermediate_size.
  FamilyTraits hunyuan_moe = hunyuan;
  hunyuan_moe.model_type = "hunyuan_v1_moe";
  hunyuan_moe.architectures = {"HunYuanMoEV1ForCausalLM"};
  hunyuan_moe.moe = MoeRule::Hunyuan;
  hunyuan_moe.config_class = "HunYuanMoEV1Config";
  hunyuan_moe.source = "hunyuan_v1_moe/configuration_hunyuan_v1_moe.py, modular_hunyuan_v1_moe.py";
  hunyuan_moe.defaults = hunyuan.defaults;
  hunyuan_moe.defaults.push_back({"num_experts", 1});
  hunyuan_moe.defaults.push_back({"moe_topk", 1});
  add(hunyuan_moe);

  // SmolLM3: Llama's layout with every no_rope_layer_interval-th layer NoPE (or as no_rope_layers lists).
  FamilyTraits smollm3{"smollm3", {}, {"SmolLM3ForCausalLM"}};
  smollm3.mlp_bias_key = true;
  smollm3.nope_layers = true;
  smollm3.tied_default = true;
  smollm3.config_class = "SmolLM3Config";
  smollm3.source = "smollm3/configuration_smollm3.py, modeling_smollm3.py";
  smollm3.defaults = {{"vocab_size", 128256},     {"hidden_size", 2048},       {"intermediate_size", 11008},
                      {"num_hidden_layers", 36},  {"num_attention_heads", 16}, {"num_key_value_heads", 4},
                      {"hidden_act", "silu"},     {"max_position_embeddings", 32768}, {"tie_word_embeddings", true},
                      {"attention_bias", false},  {"mlp_bias", false},         {"no_rope_layer_interval", 4}};
  add(smollm3);

  // EXAONE 3.0 / 3.5 and EXAONE Deep (remote code, configuration_exaone.py): Llama's layout under GPT-2's key
  // names (num_layers, activation_function). transformers ships no class, so no defaults are filled.
  FamilyTraits exaone{"exaone", {}, {"ExaoneForCausalLM"}};
  exaone.key_aliases = {{"num_hidden_layers", "num_layers"}, {"hidden_act", "activation_function"}};
  exaone.ignored_keys = {"embed_dropout"};
  exaone.config_class = "ExaoneConfig";
  exaone.source = "the model repositories' configuration_exaone.py and modeling_exaone.py (LGAI-EXAONE/EXAONE-3.5-*)";
  add(exaone);

  // InternLM2 / 2.5 (remote code, modeling_internlm2.py): Llama's layout with one fused wqkv (q, then per KV head
  // its keys and values) and `bias` on wqkv and wo. transformers ships no class, so no defaults are filled.
  FamilyTraits internlm2{"internlm2", {}, {"InternLM2ForCausalLM"}};
  internlm2.fused_qkv = true;
  internlm2.bias_key = "bias";
  internlm2.config_class = "InternLM2Config";
  internlm2.ignored_keys = {"attn_implementation"};
  internlm2.source = "the model repositories' configuration_internlm2.py and modeling_internlm2.py (internlm/internlm2_5-7b-chat)";
  add(internlm2);

  // InternLM3 (remote code, modeling_internlm3.py): Llama's layout with separate q, k, v and o, `qkv_bias` on all
  // four, `bias` on the MLP's gate, up and down. transformers ships no class, so no defaults are filled.
  FamilyTraits internlm3{"internlm3", {}, {"InternLM3ForCausalLM"}};
  internlm3.bias_key = "qkv_bias";
  internlm3.mlp_bias_key = true;
  internlm3.mlp_bias_name = "bias";
  internlm3.config_class = "InternLM3Config";
  internlm3.ignored_keys = {"attn_implementation"};
  internlm3.source = "the model repositories' configuration_internlm3.py and modeling_internlm3.py (internlm/internlm3-8b-instruct)";
  add(internlm3);

  // Gemma 3n (E2B, E4B): per-layer embeddings, AltUp's four streams, LAuReL, KV sharing across the last layers,
  // activation sparsity on the first layers, a MatFormer width per layer (io/config_gemma.cpp).
  FamilyTraits gemma3n{"gemma3n", {"gemma3n_text"}, {"Gemma3nForConditionalGeneration", "Gemma3nForCausalLM"}};
  gemma3n.layout = Layout::Gemma3n;
  gemma3n.activation = "gelu_pytorch_tanh";
  gemma3n.tied_default = true;
  gemma3n.qk_norm = true;
  gemma3n.norms = 4;
  gemma3n.softcapping = true;
  gemma3n.config_class = "Gemma3nTextConfig";
  gemma3n.source = "gemma3n/configuration_gemma3n.py, modeling_gemma3n.py";
  gemma3n.defaults = {{"vocab_size", 262400},      {"hidden_size", 2048},        {"intermediate_size", 16384},
                      {"num_hidden_layers", 35},   {"num_attention_heads", 8},   {"num_key_value_heads", 2},
                      {"head_dim", 256},           {"hidden_activation", "gelu_pytorch_tanh"},
                      {"max_position_embeddings", 32768}, {"tie_word_embeddings", true}, {"attention_bias", false},
                      {"sliding_window", 512},     {"vocab_size_per_layer_input", 262144},
                      {"hidden_size_per_layer_input", 256}, {"altup_num_inputs", 4}, {"num_kv_shared_layers", 15},
                      {"laurel_rank", 64}};
  add(gemma3n);

  // Gemma 4 (E2B, E4B, 26B-A4B, 31B): global layers with their own head_dim and KV heads, keys reused as values,
  // an MoE block beside the dense MLP, per-layer embeddings, KV sharing, layer_scalar (io/config_gemma.cpp).
  FamilyTraits gemma4{"gemma4", {"gemma4_text"}, {"Gemma4ForConditionalGeneration", "Gemma4ForCausalLM"}};
  gemma4.layout = Layout::Gemma4;
  gemma4.activation = "gelu_pytorch_tanh";
  gemma4.tied_default = true;
  gemma4.qk_norm = true;
  gemma4.norms = 4;
  gemma4.softcapping = true;
  gemma4.config_class = "Gemma4TextConfig";
  gemma4.source = "gemma4/configuration_gemma4.py, modular_gemma4.py";
  gemma4.defaults = {{"vocab_size", 262144},      {"hidden_size", 2304},        {"intermediate_size", 9216},
                     {"num_hidden_layers", 30},   {"num_attention_heads", 8},   {"num_key_value_heads", 4},
                     {"head_dim", 256},           {"hidden_activation", "gelu_pytorch_tanh"},
                     {"max_position_embeddings", 131072}, {"tie_word_embeddings", true}, {"attention_bias", false},
                     {"sliding_window", 512},     {"vocab_size_per_layer_input", 262144},
                     {"hidden_size_per_layer_input", 256}, {"attention_k_eq_v", false}, {"num_kv_shared_layers", 0},
                     {"enable_moe_block", false}, {"use_double_wide_mlp", false}, {"global_head_dim", 512}};
  add(gemma4);

  // Gemma 4 12B's text model (gemma4_unified_text): Gemma 4's layers without per-layer inputs or experts (its configs
  // still carry their keys; Gemma4UnifiedTextConfig has no such fields), 1,024-token windows.
  FamilyTraits gemma4u = gemma4;
  gemma4u.model_type = "gemma4_unified_text";
  gemma4u.aliases = {};
  gemma4u.architectures = {"Gemma4UnifiedForConditionalGeneration"};
  gemma4u.config_class = "Gemma4UnifiedTextConfig";
  gemma4u.source = "gemma4_unified/configuration_gemma4_unified.py, modular_gemma4_unified.py";
  gemma4u.defaults = {{"vocab_size", 262144},      {"hidden_size", 2304},        {"intermediate_size", 9216},
                      {"num_hidden_layers", 30},   {"num_attention_heads", 8},   {"num_key_value_heads", 4},
                      {"head_dim", 256},           {"hidden_activation", "gelu_pytorch_tanh"},
                      {"max_position_embeddings", 262144}, {"tie_word_embeddings", true}, {"attention_bias", false},
                      {"sliding_window", 1024},    {"attention_k_eq_v", false}, {"num_kv_shared_layers", 0},
                      {"use_double_wide_mlp", false}, {"global_head_dim", 512}};
  add(gemma4u);

  // Seed-OSS: Llama's layout; attention_bias gives q, k and v biases, attention_out_bias o's.
  FamilyTraits seed{"seed_oss", {}, {"SeedOssForCausalLM"}};
  seed.mlp_bias_key = true;
  seed.bias_default = true;
  seed.bias_on_o = false;
  seed.o_bias_key = "attention_out_bias";
  seed.config_class = "SeedOssConfig";
  seed.source = "seed_oss/configuration_seed_oss.py, modeling_seed_oss.py (q, k, v biases from attention_bias, o from attention_out_bias)";
  seed.defaults = {{"vocab_size", 155136},      {"hidden_size", 4096},        {"intermediate_size", 27648},
                   {"num_hidden_layers", 64},   {"num_attention_heads", 80},  {"num_key_value_heads", 8},
                   {"head_dim", 128},           {"hidden_act", "silu"},       {"max_position_embeddings", 524288},
                   {"tie_word_embeddings", false}, {"attention_bias", true}, {"attention_out_bias", false},
                   {"mlp_bias", false}};
  seed.ignored_keys = {"residual_dropout"};
  add(seed);

  // MiniMax-M2: Mixtral's experts (num_local_experts of intermediate_size), a sigmoid router with a score-correction
  // bias per expert, RMS q/k norms over the whole projection width, RoPE on rotary_dim of each head.
  FamilyTraits minimax_m2{"minimax_m2", {}, {"MiniMaxM2ForCausalLM"}};
  minimax_m2.bias = BiasRule::None;
  minimax_m2.qk_norm = true;
  minimax_m2.qk_norm_full = true;
  minimax_m2.moe = MoeRule::Mixtral;
  minimax_m2.routing_bias = true;
  minimax_m2.shared_expert_key = "shared_intermediate_size";
  minimax_m2.config_class = "MiniMaxM2Config";
  minimax_m2.source = "minimax_m2/modular_minimax_m2.py (MiniMaxM2Attention: q_norm over n_heads*head_dim, k_norm over "
                      "n_kv*head_dim; MiniMaxM2SparseMoeBlock: e_score_correction_bias; rotary_dim as partial_rotary_factor)";
  minimax_m2.defaults = {{"vocab_size", 200064},     {"hidden_size", 3072},       {"intermediate_size", 1536},
                         {"num_hidden_layers", 62},  {"num_attention_heads", 48}, {"num_key_value_heads", 8},
                         {"head_dim", 128},          {"hidden_act", "silu"},      {"max_position_embeddings", 196608},
                         {"tie_word_embeddings", false}, {"num_experts_per_tok", 8}, {"num_local_experts", 256}};
  // Switches transformers' class does not read (it always norms and always biases the router) and the MTP modules,
  // which decoding without speculation never runs.
  minimax_m2.ignored_keys = {"use_qk_norm", "qk_norm_type", "use_routing_bias", "use_mtp", "mtp_transformer_layers",
                             "num_mtp_modules", "attn_type_list"};
  add(minimax_m2);

  // Nemotron-3, Minitron and Nemotron-Mini (NemotronForCausalLM): Llama's attention with RoPE on
  // partial_rotary_factor of each head, an ungated MLP (up_proj, ReLU squared, down_proj; mlp_bias), LayerNorm1P (a
  // LayerNorm with a weight and a bias) before attention, before the MLP and at the end, an untied head. vLLM's
  // NemotronConfig also reads head_dim from kv_channels and the RoPE share from rope_percent / rope_percentage, as
  // older checkpoints spell them; transformers' class reads neither (Minitron-8B's first config gave only kv_channels,
  // 128, where hidden / heads is 85).
  FamilyTraits nemotron{"nemotron", {}, {"NemotronForCausalLM"}};
  nemotron.activation = "relu2";
  nemotron.norm = NormKind::Layer;
  nemotron.norm_bias = true;
  nemotron.gated_mlp = false;
  nemotron.mlp_bias_key = true;
  nemotron.alt_keys = {{"head_dim", "kv_channels"}, {"partial_rotary_factor", "rope_percent"},
                       {"partial_rotary_factor", "rope_percentage"}};
  nemotron.config_class = "NemotronConfig";
  nemotron.source = "nemotron/configuration_nemotron.py, modeling_nemotron.py (NemotronLayerNorm1P, NemotronMLP up_proj / "
                    "down_proj); vLLM's transformers_utils/configs/nemotron.py (kv_channels, rope_percent)";
  nemotron.defaults = {{"vocab_size", 256000},      {"hidden_size", 6144},       {"intermediate_size", 24576},
                       {"num_hidden_layers", 32},   {"num_attention_heads", 48}, {"hidden_act", "relu2"},
                       {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}, {"partial_rotary_factor", 0.5},
                       {"attention_bias", false},   {"mlp_bias", false}};
  add(nemotron);

  // Arcee's AFM (arcee; transformers' ArceeConfig): Llama's attention and RMSNorms with Nemotron's ungated MLP
  // (up_proj, ReLU squared, down_proj; mlp_bias), an untied head.
  FamilyTraits arcee{"arcee", {}, {"ArceeForCausalLM"}};
  arcee.activation = "relu2";
  arcee.gated_mlp = false;
  arcee.mlp_bias_key = true;
  arcee.config_class = "ArceeConfig";
  arcee.source = "arcee/configuration_arcee.py, modeling_arcee.py (ArceeMLP: up_proj and down_proj, relu2)";
  arcee.defaults = {{"vocab_size", 32000},       {"hidden_size", 2560},       {"intermediate_size", 18432},
                    {"num_hidden_layers", 32},   {"num_attention_heads", 32}, {"hidden_act", "relu2"},
                    {"max_position_embeddings", 4096}, {"tie_word_embeddings", false}, {"attention_bias", false},
                    {"mlp_bias", false}};
  add(arcee);

  // Kyutai's Helium preview (helium; transformers' HeliumConfig, whose defaults are helium-1-preview-2b's): Llama's
  // layers with an explicit head_dim, q/k/v biases where attention_bias says and never one on o_proj (built as a
  // hidden x hidden Linear without bias, so only checkpoints with heads x head_dim = hidden load), mlp_bias, RoPE
  // on interleaved pairs (no count change), an untied head. The released helium-1-2b checkpoints are model_type
  // llama.
  FamilyTraits helium{"helium", {}, {"HeliumForCausalLM"}};
  helium.bias_on_o = false;
  helium.mlp_bias_key = true;
  helium.config_class = "HeliumConfig";
  helium.source = "helium/configuration_helium.py, modular_helium.py (HeliumAttention: o_proj without bias)";
  helium.defaults = {{"vocab_size", 48000},       {"hidden_size", 2560},       {"intermediate_size", 7040},
                     {"num_hidden_layers", 24},   {"num_attention_heads", 20}, {"num_key_value_heads", 20},
                     {"head_dim", 128},           {"hidden_act", "silu"},      {"max_position_embeddings", 4096},
                     {"tie_word_embeddings", false}, {"attention_bias", false}, {"mlp_bias", false}};
  add(helium);

  // BitNet b1.58 (bitnet; transformers' BitNetConfig and modular_bitnet.py): Llama's attention and RMSNorms, a gated
  // MLP (GemmaMLP, never a bias) with ReLU squared, and two sub-norms a layer: attn_sub_norm (hidden wide) on the
  // attention output before o_proj and ffn_sub_norm (intermediate wide) before down_proj. Its quantization_config
  // (quant_method bitnet) declares the ternary weights (io/model_config.cpp, read_quantization).
  FamilyTraits bitnet{"bitnet", {}, {"BitNetForCausalLM"}};
  bitnet.activation = "relu2";
  bitnet.bias = BiasRule::Key;
  bitnet.sub_norms = true;
  bitnet.config_class = "BitNetConfig";
  bitnet.source = "bitnet/configuration_bitnet.py, modular_bitnet.py (BitNetAttention.attn_sub_norm, BitNetMLP.ffn_sub_norm)";
  bitnet.defaults = {{"vocab_size", 128256},      {"hidden_size", 2560},       {"intermediate_size", 6912},
                     {"num_hidden_layers", 30},   {"num_attention_heads", 20}, {"num_key_value_heads", 5},
                     {"hidden_act", "relu2"},     {"max_position_embeddings", 2048}, {"tie_word_embeddings", false},
                     {"attention_bias", false}};
  add(bitnet);

  // MiniCPM 1, 2 and 4 (remote code, openbmb's modeling_minicpm.py; vLLM's models/minicpm.py): Llama's layout with
  // muP scalars on the embedding, the residual branches and the logits (scale_emb, scale_depth, dim_model_base),
  // which change no count. MiniCPM-MoE-8x2B writes num_experts: that many experts of intermediate_size behind a
  // router without bias (w1, w2, w3), top num_experts_per_tok, on every layer. The head is tied unless the config
  // says otherwise: MiniCPM-2B's config does not say, and its published 2,724,880,896 parameters count it tied.
  // MiniCPM4's sparse_config (InfLLM v2's block-sparse attention past dense_len tokens) is not modelled: attention
  // is timed dense, and the key is reported as unused.
  FamilyTraits minicpm{"minicpm", {}, {"MiniCPMForCausalLM"}};
  minicpm.tied_default = true;
  minicpm.moe = MoeRule::Mixtral;
  minicpm.experts_key = "num_experts";
  minicpm.experts_optional = true;
  minicpm.config_class = "MiniCPMConfig";
  minicpm.ignored_keys = {"scale_emb", "dim_model_base", "scale_depth", "hidden_act_param", "use_mup"};
  minicpm.source = "the model repositories' configuration_minicpm.py and modeling_minicpm.py (openbmb/MiniCPM-2B-sft-bf16, "
                   "MiniCPM-MoE-8x2B); vLLM's models/minicpm.py (MiniCPMMoE)";
  minicpm.defaults = {{"tie_word_embeddings", true}};
  add(minicpm);

  // MiniCPM3 (minicpm3; transformers' MiniCPM3Config, whose defaults are MiniCPM3-4B's): DeepSeek-V2's MLA
  // (q_a_proj, q_a_layernorm, q_b_proj, kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj) with values of
  // hidden / heads where v_head_dim is not given, Llama's dense MLP on every layer, the head tied; MiniCPM's muP
  // scalars, and a head_dim that transformers overwrites with qk_rope_head_dim, change no count.
  FamilyTraits minicpm3{"minicpm3", {}, {"MiniCPM3ForCausalLM"}};
  minicpm3.layout = Layout::DeepSeek;
  minicpm3.experts_optional = true;
  minicpm3.v_head_from_hidden = true;
  minicpm3.config_class = "MiniCPM3Config";
  minicpm3.ignored_keys = {"scale_emb", "dim_model_base", "scale_depth", "head_dim"};
  minicpm3.source = "minicpm3/modular_minicpm3.py (MiniCPM3Attention, MiniCPM3Config.__post_init__: v_head_dim)";
  minicpm3.defaults = {{"vocab_size", 73448},      {"hidden_size", 2560},     {"intermediate_size", 6400},
                       {"num_hidden_layers", 62},  {"num_attention_heads", 40}, {"num_key_value_heads", 40},
                       {"hidden_act", "silu"},     {"max_position_embeddings", 32768}, {"tie_word_embeddings", true},
                       {"attention_bias", false},  {"kv_lora_rank", 256},     {"q_lora_rank", 768},
                       {"qk_nope_head_dim", 64},   {"qk_rope_head_dim", 32}};
  add(minicpm3);

  // Youtu-LLM (youtu; transformers' YoutuConfig, whose defaults are Youtu-LLM-2B's): DeepSeek-V3's MLA (q_lora_rank,
  // kv_lora_rank, nope 128 + rope 64, values of 128) on Llama's body with a dense SwiGLU MLP on every layer (Qwen3's
  // MLP: no biases, whatever mlp_bias says), the head tied. transformers sets head_dim to qk_rope_head_dim, which
  // sizes nothing. The first Base revision's remote code named it youtu_llm.
  FamilyTraits youtu{"youtu", {"youtu_llm"}, {"YoutuForCausalLM"}};
  youtu.layout = Layout::DeepSeek;
  youtu.experts_optional = true;
  youtu.config_class = "YoutuConfig";
  youtu.ignored_keys = {"head_dim", "mlp_bias"};
  youtu.source = "youtu/configuration_youtu.py, modular_youtu.py (DeepseekV3Attention, Qwen3MLP)";
  youtu.defaults = {{"vocab_size", 128256},      {"hidden_size", 2048},       {"intermediate_size", 6144},
                    {"num_hidden_layers", 32},   {"num_attention_heads", 16}, {"num_key_value_heads", 16},
                    {"hidden_act", "silu"},      {"max_position_embeddings", 131072}, {"tie_word_embeddings", true},
                    {"attention_bias", false},   {"kv_lora_rank", 512},       {"q_lora_rank", 1536},
                    {"qk_nope_head_dim", 128},   {"qk_rope_head_dim", 64},    {"v_head_dim", 128}};
  add(youtu);
}

}  // namespace infercast
