// Model families as data: how a config.json of each family is read. A family whose layers fit the existing building
// blocks is one entry in families.cpp: its model_type and aliases, the Hugging Face architectures that name it,
// transformers' defaults for fields a config may omit, and the traits that choose among the blocks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {

// The schema a config is read with.
enum class Layout {
  LlamaLike, Falcon, DeepSeek, Dbrx,
  // Hybrids of softmax attention and recurrent mixers (io/config_hybrid.hpp).
  GatedDeltaNet, MiniMax, BailingLinear, NemotronH, Jamba, FalconH1, GraniteHybrid, Lfm2,
  // Mamba, Falcon Mamba and Mamba2: state-space layers alone; Bamba (io/config_ssm.cpp); RecurrentGemma
  // (io/config_griffin.cpp).
  Mamba, Bamba, RecurrentGemma,
  // Gemma 3n and Gemma 4 (io/config_gemma.cpp).
  Gemma3n, Gemma4,
  // DeepSeek-V4 (io/config_deepseek.cpp), MiMo-V2-Flash (io/config_mimo.cpp), MiniMax-M3 (io/config_minimax.cpp).
  // Laguna (io/config_laguna.cpp).
  DeepSeekV4, MiMoV2, MiniMaxM3, Step3p7, Laguna,
  // Nemotron-NAS / DeciLM (io/config_decilm.cpp).
  DeciLM,
  // Kimi Linear: Kimi Delta Attention beside MLA, DeepSeek-V3's experts (io/config_kimi.cpp).
  KimiLinear,
  // LongCat-Flash: two MLA sub-layers a block, a shortcut MoE with identity experts (io/config_longcat.cpp).
  LongcatFlash
};
// Which layers use a sliding window when the config has no layer_types.
enum class SlidingRule {
  None,           // none (a window given applies only through layer_types)
  AllLayers,      // every layer when sliding_window is set (Mistral, Mixtral, Phi-3)
  QwenMaxWindow,  // layers from max_window_layers on, when use_sliding_window is true (Qwen)
  Alternate,      // even layers sliding, odd layers full (Gemma 2)
  Pattern,        // every sliding_window_pattern-th layer full, the rest sliding (Gemma 3)
  AttentionTypes, // GPT-Neo's attention_types: [[["global", "local"], n], ...] repeated to the layers
  FirstOfFour,    // layers 0, 4, 8, ... full, the rest sliding (Granite SWASH's default layer_types)
  // Cohere2Moe: the first first_k_dense_replace layers by prefix_dense_sliding_window_pattern (1 by default: all full,
  // and rotating), the rest by sliding_window_pattern counted from the first of them ((i + 1) % n == 0 full).
  DensePrefix,
  LastOfFour,     // every fourth layer counted back from the last full, the rest sliding (Muse Glimmer)
};
// How the MLP becomes a mixture of experts.
enum class MoeRule {
  None,
  Mixtral,  // num_local_experts experts of intermediate_size on every layer
  Qwen,     // num_experts of moe_intermediate_size every decoder_sparse_step layers, except mlp_only_layers
  QwenShared,  // Qwen as above plus one gated shared expert of shared_expert_intermediate_size (Qwen2-MoE)
  GptOss,   // num_local_experts with router and expert biases on every layer
  Llama4,   // a shared expert beside num_local_experts; dense layers of intermediate_size_mlp in between
  DeepSeekLike,  // n_routed_experts + n_shared_experts of moe_intermediate_size, first_k_dense_replace dense layers,
                 // a score-correction bias per expert (GLM-4.5); standard attention
  Ernie,    // moe_num_experts + shared experts of moe_intermediate_size x moe_num_shared_experts on layers
            // moe_layer_start_index..moe_layer_end_index every moe_layer_interval, a score-correction bias (ERNIE 4.5)
  Hunyuan,  // num_experts (or one per layer) of intermediate_size, moe_topk, one shared MLP on every layer
  Cohere2Moe,  // num_experts of intermediate_size and one shared MLP of intermediate_size x num_shared_experts,
               // after first_k_dense_replace dense layers of prefix_dense_intermediate_size
};
// Where q/k/v/o biases come from.
enum class BiasRule {
  Key,      // attention_bias (default `bias_default`) sets q, k, v and o biases
  QkvOnly,  // q, k and v always carry biases, o none (Qwen2)
  None,     // no biases (the key, when present, is read and ignored)
};

// transformers' default for a field a config may omit (the family's configuration_*.py): filled in before the
// config is read, so an omitted field takes this family's default and never another's.
struct FieldDefault {
  std::string key;
  json value;
};

struct FamilyTraits {
  const char* model_type;                  // canonical name, as model_type holds it
  std::vector<std::string> aliases;        // other model_type values read the same way
  std::vector<std::string> architectures;  // Hugging Face architectures classes of the family
  Layout layout = Layout::LlamaLike;
  const char* activation = "silu";         // transformers' default hidden_act
  bool tied_default = false;               // transformers' default tie_word_embeddings
  BiasRule bias = BiasRule::Key;
  bool bias_default = false;               // attention_bias when absent
  bool mlp_bias_key = false;               // mlp_bias sets the MLP's biases (Llama)
  bool qk_norm = false;                    // per-head RMS norm of q and k (Qwen3, Gemma 3)
  bool sinks = false;                      // learned attention sink logits (gpt-oss)
  bool fused_qkv = false;                  // one qkv matrix in the checkpoint (Phi-3): one dispatch
  bool fused_gate_up = false;              // one gate_up matrix in the checkpoint (Phi-3)
  int norms = 2;                           // norm weight vectors of width hidden per layer (Gemma 2/3: 4)
  SlidingRule sliding = SlidingRule::None;
  MoeRule moe = MoeRule::None;
  bool chunked_nope = false;               // Llama 4: chunked attention on RoPE layers, NoPE global layers, L2 qk-norm
  bool softcapping = false;                // attention and final logit soft-capping keys (Gemma 2/3): a tanh not counted
  // Where the traits and defaults were read: a folder of transformers' models ("gemma3/configuration_gemma3.py"),
  // named in messages as transformers', or a model repository's own files, named as written.
  const char* source = "";
  const char* config_class = "";           // transformers' config class, named in messages ("LlamaConfig")
  std::vector<FieldDefault> defaults = {}; // transformers' documented defaults of the fields we read
  // Fields this family's configs spell their own way: {field we read, the config's key} (EXAONE 3's num_layers).
  std::vector<std::pair<std::string, std::string>> key_aliases = {};
  // Fields a config may spell either way: {field we read, another key} (BLOOM-176B's n_embed and n_layer, where
  // bloom-560m writes hidden_size): the other key is read where the field is absent.
  std::vector<std::pair<std::string, std::string>> alt_keys = {};
  NormKind norm = NormKind::RMS;           // the norm of every layer and the final norm
  const char* rms_norm_key = "";           // a key that, given, makes every norm an RMSNorm (Cohere2Moe's rms_norm_eps)
  bool norm_bias = false;                  // LayerNorm with a bias (StarCoder2, StableLM, Phi-MoE)
  const char* bias_key = "attention_bias";  // the key BiasRule::Key reads
  bool bias_on_o = true;                   // BiasRule::Key: the key also gives o_proj a bias (GLM: q, k, v only)
  const char* o_bias_key = "";             // BiasRule::Key: o_proj's bias from its own key instead (Seed-OSS attention_out_bias)
  const char* mlp_bias_name = "mlp_bias";  // the key mlp_bias_key reads (StarCoder2, ERNIE: use_bias)
  bool gated_mlp = true;                   // false: up, activation, down (StarCoder2's c_fc / c_proj)
  const char* qk_norm_key = "";            // a key that turns the q/k norm on (Cohere use_qk_norm, StableLM qk_layernorm)
  bool qk_norm_full = false;               // q/k norm weights span every head, not one head_dim vector (OLMo 2, Cohere)
  bool parallel = false;                   // attention and MLP read one norm's output; one residual add (Cohere)
  const char* parallel_key = "";           // a key that chooses the parallel block (StableLM use_parallel_residual)
  bool nope_layers = false;                // no_rope_layers / no_rope_layer_interval mark NoPE layers (SmolLM3)
  // RoPE per layer, all layers rotating when neither key is given (Granite SWASH): layer_rope_theta's base of each
  // layer (0: NoPE), or an earlier revision's no_rope_layers flags (0: NoPE).
  bool rope_per_layer = false;
  bool rope_sliding_only = false;          // full-attention layers have no RoPE (Cohere 2)
  const char* experts_key = "num_local_experts";  // MoeRule::Mixtral's expert count (OLMoE: num_experts)
  // MoeRule::Mixtral applies only where experts_key holds a positive count; absent or 0, every layer is dense
  // (MiniCPM: MiniCPM-MoE-8x2B writes num_experts, the dense models do not).
  // Layout::DeepSeek: no routed experts where n_routed_experts is absent or 0 (every MLP dense), as for MoeRule::Mixtral.
  bool experts_optional = false;
  bool v_head_from_hidden = false;         // Layout::DeepSeek: v_head_dim absent is hidden / heads (MiniCPM3)
  // A score-correction bias per expert: MoeRule::Mixtral's (MiniMax-M2); Layout::DeepSeek's when the config has no
  // topk_method (DeepSeek-V3's noaux_tc router; DeepSeek-V2's greedy and Mistral 4's softmax routers have none).
  bool routing_bias = false;
  const char* shared_expert_key = "";      // MoeRule::Mixtral: a shared expert of this width when positive (MiniMax-M2)
  // MoeRule::DeepSeekLike: a key that says whether the router stores its score-correction bias (Ling 2.0's
  // moe_router_enable_expert_bias; absent: false), and a key giving each shared expert's width (Ling 2.0's
  // moe_shared_expert_intermediate_size; absent: moe_intermediate_size). "": always stored; the experts' width.
  const char* routing_bias_key = "";
  const char* shared_width_key = "";
  const char* lm_head_bias_key = "";       // a key giving the LM head a bias (Phi-MoE lm_head_bias, ERNIE use_bias)
  bool lm_head_bias = false;               // the LM head's bias when no key says (GPT-J, Phi: always)
  bool mlp_bias = false;                   // the MLP's biases when no key says (GPT-NeoX, GPT-2: always)
  int parallel_norms = 1;                  // norms of a parallel block (GPT-NeoX: one before attention, one before the MLP)
  bool rope = true;                        // false: no RoPE (learned positions or ALiBi: GPT-2, OPT, BLOOM)
  // Learned absolute positions (GPT-2, OPT): a table of max_position_embeddings + position_offset rows of the width,
  // read with the input embedding. position_offset: OPT keeps 2 rows past the positions.
  bool learned_positions = false;
  int position_offset = 0;
  bool embedding_norm = false;             // a LayerNorm after the input embedding (BLOOM's word_embeddings_layernorm)
  bool embedding_norm_weight = true;       // false: that norm has no parameters (Muse Glimmer's embed_norm)
  bool qk_norm_weightless = false;         // q/k norms without weights (Muse Glimmer's scaleless RMSNorm)
  bool output_gate = false;                // a sigmoid gate on the attention output from h (AFMoE's gate_proj)
  bool sub_norms = false;                  // BitNet's attn_sub_norm and ffn_sub_norm (LayerSpec::sub_norms)
  // Llama 3.2 Vision's text model: the layers cross_attention_layers names are cross-attention layers, and the input
  // embedding holds vocab + 8 rows (io/model_config.cpp, read_cross_attention_layers).
  bool cross_attention = false;
  // A key that, when true, adds two norms to every layer (HyperCLOVA X's use_post_norm: Peri-LN's norms of the
  // attention's and the MLP's outputs, post_norm1 and post_norm2).
  const char* post_norm_key = "";
  bool norm_weight = true;                 // false: norms without parameters (OLMo 1)
  bool o_bias = false;                     // o_proj has a bias whatever the attention's bias rule says (GPT-Neo)
  // A key that, true, gives one KV head or multi_query_groups_key's count of them (GPT-BigCode's multi_query, true by
  // default; ChatGLM's multi_query_attention with multi_query_group_num, false by default).
  const char* multi_query_key = "";
  bool multi_query_default = true;
  const char* multi_query_groups_key = "";
  const char* intermediate_ratio_key = ""; // the MLP's width as this key's multiple of the hidden size (MPT's expansion_ratio)
  // A nested object of attention settings (MPT's attn_config): alibi must be true (no positions are learned),
  // qk_ln false; the rest (clip_qkv, softmax_scale, kernels) changes no count.
  const char* attn_config_key = "";
  // The MLP's width when the config leaves it null or out: this many times the hidden size (GPT-2's n_inner).
  int intermediate_multiple = 0;
  // Keys whose only modelled value is given (Phi's qk_layernorm false, OPT's do_layer_norm_before true): another
  // value is refused, naming the key.
  std::vector<FieldDefault> fixed_keys = {};
  // Keys that must equal hidden_size when present (OPT's word_embed_proj_dim: 350M's projections are not modelled).
  std::vector<std::string> hidden_keys = {};
  // Keys this family's configs carry that change nothing counted (Granite's multipliers, Cohere's logit_scale):
  // read without the unused-field note.
  std::vector<std::string> ignored_keys = {};
  // Recognized but refused: what the family has that Infercast does not model (Gemma 3n's per-layer embeddings).
  const char* unsupported = "";
};

const std::vector<FamilyTraits>& model_families();
// The family a model_type names (canonical or alias); nullptr when none.
const FamilyTraits* find_family(const std::string& model_type);
// The family one of `architectures` names; nullptr when none.
const FamilyTraits* find_family_by_architecture(const std::vector<std::string>& architectures);
// Every model_type accepted (canonical names and aliases), in the table's order.
std::vector<std::string> supported_model_types();
// The canonical model_types of up to `limit` families whose names resemble `model_type` or one of `architectures`
// (a shared prefix of at least four letters, or a whole family name), closest first.
std::vector<std::string> families_resembling(const std::string& model_type, const std::vector<std::string>& architectures,
                                             std::size_t limit = 3);
// The families added for issue 20 (io/families_decoders.cpp), appended to the table.
void add_decoder_families(std::vector<FamilyTraits>& table);
// GPT-2, GPT-J, GPT-NeoX, Phi, OPT and BLOOM (io/families_legacy.cpp): LayerNorms with biases, ungated MLPs.
void add_legacy_families(std::vector<FamilyTraits>& table);

}  // namespace infercast
