// Model families as data: how a config.json of each family is read. A family whose layers fit the existing building
// blocks is one entry in families.cpp: its model_type and aliases, the Hugging Face architectures that name it,
// transformers' defaults for fields a config may omit, and the traits that choose among the blocks.
#pragma once

#include <string>
#include <vector>

namespace infercast {

// The schema a config is read with.
enum class Layout {
  LlamaLike, Falcon, DeepSeek,
  // Hybrids of softmax attention and recurrent mixers (io/config_hybrid.hpp).
  GatedDeltaNet, MiniMax, NemotronH, Jamba, FalconH1, GraniteHybrid
};
// Which layers use a sliding window when the config has no layer_types.
enum class SlidingRule {
  None,           // none (a window given applies only through layer_types)
  AllLayers,      // every layer when sliding_window is set (Mistral, Mixtral, Phi-3)
  QwenMaxWindow,  // layers from max_window_layers on, when use_sliding_window is true (Qwen)
  Alternate,      // even layers sliding, odd layers full (Gemma 2)
  Pattern,        // every sliding_window_pattern-th layer full, the rest sliding (Gemma 3)
};
// How the MLP becomes a mixture of experts.
enum class MoeRule {
  None,
  Mixtral,  // num_local_experts experts of intermediate_size on every layer
  Qwen,     // num_experts of moe_intermediate_size every decoder_sparse_step layers, except mlp_only_layers
  QwenShared,  // Qwen as above plus one gated shared expert of shared_expert_intermediate_size (Qwen2-MoE)
  GptOss,   // num_local_experts with router and expert biases on every layer
  Llama4,   // a shared expert beside num_local_experts; dense layers of intermediate_size_mlp in between
};
// Where q/k/v/o biases come from.
enum class BiasRule {
  Key,      // attention_bias (default `bias_default`) sets q, k, v and o biases
  QkvOnly,  // q, k and v always carry biases, o none (Qwen2)
  None,     // no biases (the key, when present, is read and ignored)
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
  const char* source = "";                 // where the traits and defaults were read (transformers' files)
};

const std::vector<FamilyTraits>& model_families();
// The family a model_type names (canonical or alias); nullptr when none.
const FamilyTraits* find_family(const std::string& model_type);
// The family one of `architectures` names; nullptr when none.
const FamilyTraits* find_family_by_architecture(const std::vector<std::string>& architectures);
// Every model_type accepted (canonical names and aliases), in the table's order.
std::vector<std::string> supported_model_types();

}  // namespace infercast
