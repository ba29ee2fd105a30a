// The normalized description of a decoder-only transformer, independent of the config schema it came from.
// Every layer carries its own attention and FFN description, because real models mix layer kinds
// (Gemma's local/global layers, DeepSeek's first dense layers, Llama-4's interleaved MoE and chunked layers).
// Parameter counting lives here, once (docs/formulas.md, "Parameters").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/audio.hpp"
#include "model/vision.hpp"
#include "util/error.hpp"
#include "util/names.hpp"

namespace infercast {

// Compressed: DeepSeek-V4's attention (docs/formulas.md, "DeepSeek-V4"): one shared key-value head of head_dim,
// queries through q_lora_rank, a sliding window beside keys pooled from every compress_ratio tokens (CSA, ratio 4,
// an indexer picking index_topk of them; HCA, ratio 128, all of them; 0: the window alone), attention sinks and a
// grouped low-rank output projection (o_groups x o_lora_rank).
enum class AttnKind { Standard, MLA, Compressed };
enum class NormKind { RMS, Layer };

struct AttentionSpec {
  AttnKind kind = AttnKind::Standard;
  i64 n_heads = 0;
  i64 n_kv_heads = 0;
  i64 head_dim = 0;    // query/key head dimension (for MLA: qk_nope + qk_rope)
  i64 v_head_dim = 0;  // value head dimension
  // MLA (DeepSeek-V2/V3): low-rank query and joint KV compression.
  i64 q_lora_rank = 0;  // 0: no query compression (q_proj is a plain h x (heads*head_dim) matrix)
  i64 kv_lora_rank = 0;
  i64 qk_nope_dim = 0;
  i64 qk_rope_dim = 0;
  i64 rope_dim = 0;  // dimensions rotated by RoPE per head (0: NoPE layer)
  i64 window = 0;    // sliding window in tokens (0: full attention)
  i64 chunk = 0;     // chunked attention: tokens attend within their chunk only (0: none)
  bool qkv_bias = false;
  bool o_bias = false;
  bool qk_norm = false;  // per-head norm of q and k (Qwen3, Gemma-3, Llama-4)
  bool qk_norm_weight = true;  // Llama-4's L2 qk-norm has no weights
  bool qk_norm_full = false;   // weights over every head (OLMo 2, Cohere): n_h*d for q, n_kv*d for k, not d each
  bool sinks = false;    // learned per-head attention sink logits (gpt-oss)
  bool fused_qkv = false;  // checkpoint stores one qkv matrix (Phi-3, Falcon): one dispatch, same FLOPs
  bool output_gate = false;  // gated attention (Qwen3-Next, Qwen3.5): q_proj also yields a sigmoid gate on the output
  bool head_gate = false;    // a gate per head (Step-3.7's g_proj, h x n_h): each head's output times sigmoid(g)
  // Cross-attention (Llama 3.2 Vision's cross-attention layers): queries from the text, keys and values projected
  // from the image tokens (StepSettings::cross_tokens a sequence), computed once in its prefill and cached; no RoPE,
  // a tanh gate on the attention's and the MLP's output (two stored scalars). Without images the whole layer is
  // skipped, as transformers and vLLM skip it.
  bool cross = false;
  // DeepSeek sparse attention (DeepSeek-V3.2): a lightning indexer with its own heads scores every cached key and
  // each query attends only its index_topk best (0: dense attention).
  i64 index_topk = 0;
  i64 index_heads = 0;
  i64 index_head_dim = 0;
  // MiniMax-M3's block-sparse attention (MSA): the indexer's index_heads queries and one shared key come from the
  // hidden state (with per-head norms), score every cached key and pick blocks of index_block keys; index_topk is
  // then the keys a query attends (the blocks x index_block). 0: DeepSeek-V3.2's token-level indexer.
  i64 index_block = 0;
  // Gemma 3n / Gemma 4: the last num_kv_shared_layers layers read the cache of the last earlier layer of their kind
  // and compute no keys or values of their own (no cache of their own either). Gemma 3n still stores their k/v
  // projections and k-norm (kv_weights_kept); Gemma 4 drops them.
  bool kv_shared = false;
  bool kv_weights_kept = false;
  bool k_eq_v = false;   // Gemma 4's attention_k_eq_v on full layers: no v_proj, values are the keys' projection
  bool v_norm = false;   // a per-head RMS norm of the values without weights (Gemma 3n, Gemma 4)
  // DeepSeek-V4 (kind Compressed): tokens pooled into one cached entry (0: none), and the grouped output projection.
  i64 compress_ratio = 0;
  i64 o_groups = 0;
  i64 o_lora_rank = 0;
};

// Token mixers whose cache is a constant state per sequence instead of keys growing with the context
// (docs/formulas.md, "Linear attention and state-space layers"). The recurrent state of every kind is
// heads x head_dim x state_dim values; the short causal convolution keeps its last conv_kernel - 1 inputs.
// KimiDelta: Kimi Delta Attention (Kimi Linear), a gated DeltaNet whose decay is one value per key channel, with
// low-rank (state_dim-wide) projections of that decay and of the output gate.
enum class RecurrentKind { None, GatedDeltaNet, Mamba, Mamba2, Lightning, ShortConv, KimiDelta, RgLru };
const NameTable<RecurrentKind>& recurrent_kind_names();

struct RecurrentSpec {
  RecurrentKind kind = RecurrentKind::None;
  i64 heads = 0;        // value heads (gated DeltaNet, KDA), SSM heads (Mamba2), heads (lightning), channels d_inner
                        // (Mamba), conv channels (short conv: LFM2's conv_dim), gate blocks (RG-LRU)
  i64 groups = 0;       // key heads (gated DeltaNet, KDA), B/C groups (Mamba2; 1 for Mamba), 0 for lightning
  i64 head_dim = 0;     // value width per head: d_v (gated DeltaNet, KDA), P (Mamba2), d (lightning), 1 (Mamba), the
                        // block width lru_width / heads (RG-LRU)
  i64 state_dim = 0;    // key width per head: d_k (gated DeltaNet, KDA), d_state N (Mamba, Mamba2), d (lightning), 1
                        // (RG-LRU: one value per channel)
  i64 conv_kernel = 0;  // short causal depthwise convolution (0: none)
  i64 dt_rank = 0;      // Mamba: rank of the time-step projection
  i64 chunk = 0;        // chunk length of the prefill algorithm (fla's 64, SSD's chunk_size, lightning's block_size)
  bool in_bias = false;    // in_proj bias
  bool out_bias = false;   // out_proj bias
  bool conv_bias = false;  // convolution bias
  bool norm = true;        // gated RMSNorm before out_proj
  bool dt_norms = false;   // RMSNorms of the time step, B and C (Jamba, Falcon Mamba)
  bool dt_norm_weights = true;  // those norms have weights (Jamba's) or none (Falcon Mamba's rms_forward)
  int state_bits = 0;      // bits per element of the stored recurrent state (0: the activations' type)
  bool qk_norm = false;    // lightning: per-head RMSNorms of q and k, one head_dim-wide weight each (Ring-linear)
  bool qkv_act = true;     // lightning: the activation on q, k and v (MiniMax's SiLU; Ring-linear's linear_silu)
};

struct FfnSpec {
  bool moe = false;
  bool gated = true;  // SwiGLU/GeGLU: gate and up projections
  bool bias = false;
  bool fused_gate_up = false;
  i64 intermediate = 0;  // dense FFN width
  // MoE
  i64 n_experts = 0;
  i64 top_k = 0;
  i64 expert_intermediate = 0;
  // Identity experts beside the routed ones (LongCat-Flash's zero-computation experts): the router scores
  // n_experts + zero_experts slots and a token's top_k picks among them; a pick of an identity expert passes the
  // token through unchanged, so a token computes top_k x n_experts / (n_experts + zero_experts) experts on average.
  i64 zero_experts = 0;
  i64 n_shared = 0;             // shared experts (always active)
  i64 shared_intermediate = 0;  // width of each shared expert
  bool shared_gate = false;     // Qwen2-MoE: sigmoid gate on the shared expert (h x 1)
  bool shared_bias = false;     // shared experts with biases (ERNIE 4.5 with use_bias)
  bool router_bias = false;     // gpt-oss router has a bias
  bool expert_bias = false;     // gpt-oss experts have biases
  bool score_correction_bias = false;  // DeepSeek-V3 e_score_correction_bias (E values)
  bool hash_routed = false;     // DeepSeek-V4's hash layers: experts chosen by a stored token-id table (vocab x top_k)
  bool router_scales = false;   // Gemma 4's router: a scale over the hidden width and one per expert (h + E values)
  bool gaussian_topk = false;   // Gemma 3n's activation sparsity: a statistical top-k cut of the gate (no weights)
  i64 act_params = 0;           // learnable scalars of a dense MLP's activation (xIELU's alpha_p and alpha_n: 2)
  // A latent MoE (Nemotron 3 Super and Ultra, moe_latent_size): the routed experts read and write a latent of this
  // width; fc1_latent_proj (h x latent) projects every token into it, fc2_latent_proj (latent x h) back, both with
  // biases when `bias` (mlp_bias). The router and the shared experts stay at h. 0: the experts read h.
  i64 latent = 0;
};

struct LayerSpec {
  AttentionSpec attn;
  RecurrentSpec recurrent;  // kind None: attention is the layer's only token mixer
  FfnSpec ffn;
  int norms = 2;          // norm weight vectors of width hidden in the block (2 pre-norm, 4 for Gemma-2/3)
  bool parallel = false;  // attention and FFN read the same input (Falcon, GPT-J): one residual add
  bool has_attention = true;  // false: no softmax attention (a recurrent layer, or Nemotron-H's MLP-only blocks)
  bool has_ffn = true;        // false: a mixer-only block (Nemotron-H)
  // BitNet's sub-norms: an RMSNorm of the attention output (hidden wide) before o_proj and one of the dense MLP's
  // activated intermediate before down_proj.
  bool sub_norms = false;
  // Gemma 3n / Gemma 4 blocks around attention and MLP (docs/formulas.md, "Gemma 3n and Gemma 4").
  i64 per_layer_input = 0;    // per-layer input width P: gate h x P, projection P x h, a norm of h
  i64 laurel_rank = 0;        // LAuReL: h x r and r x h projections and a norm of h (Gemma 3n)
  i64 altup = 0;              // AltUp with n streams: router h x n, prediction n x n^2, correction n x n, 2 vectors of h
  bool layer_scalar = false;  // Gemma 4's layer_scalar: one stored value per layer
  // Manifold-constrained hyper-connections (DeepSeek-V4, hc_mult n): the residual is n streams of h; before attention
  // and before the FFN a mixing of (2 + n) x n weights over the n*h streams (+ its bias and 3 scales) collapses them
  // into the block's input and writes the block's output back (docs/formulas.md, "DeepSeek-V4"). 0: a plain residual.
  i64 hc_mult = 0;
  i64 hc_sinkhorn_iters = 0;  // Sinkhorn-Knopp iterations of the stream-mixing matrix
};

// Weight classes that can be stored in their own format (a checkpoint's quantization_config often keeps attention,
// the router, the embedding and the LM head in bf16 and quantizes only the MLP or the experts).
enum class WeightClass { Attention, Ffn, Experts, Router, Embedding, LmHead, Vision };
constexpr int kWeightClasses = 7;
const NameTable<WeightClass>& weight_class_names();
inline const char* weight_class_name(WeightClass c) { return weight_class_names().name(c); }

struct ModelSpec {
  std::string id;
  std::string name;
  std::string model_type;
  i64 hidden = 0;
  i64 vocab = 0;
  i64 embedding_rows = 0;  // rows of the input embedding when not vocab (Llama 3.2 Vision: vocab + 8 image tokens)
  bool tied_embeddings = false;
  bool lm_head_bias = false;  // the LM head adds a bias of V values (Phi-MoE lm_head_bias, ERNIE 4.5 MoE use_bias)
  NormKind norm = NormKind::RMS;
  bool norm_bias = false;  // LayerNorm with bias
  bool norm_weight = true; // false: norms without learned parameters (OLMo 1's non-parametric LayerNorm)
  std::string activation = "silu";
  std::vector<LayerSpec> layers;
  i64 mtp_layers = 0;  // multi-token-prediction layers: reported, not counted in the model
  i64 hc_mult = 0;     // hyper-connections' streams (DeepSeek-V4): the head collapses them (n x n*h + n + 1 values)
  VisionSpec vision;   // the vision encoder and projector (kind None: a text-only model)
  AudioSpec audio;     // the audio encoder and its embedder (counted, not forecast)
  // Per-layer embeddings (Gemma 3n, Gemma 4): a second table of ple_vocab x ple_layers * ple_dim, a projection
  // h x ple_layers * ple_dim and a norm of ple_dim (ple_vocab 0: none). The whole model's layers, kept when a
  // pipeline stage holds a slice of them (the first stage holds the table).
  i64 ple_vocab = 0;
  i64 ple_layers = 0;
  i64 ple_dim = 0;
  // AltUp (Gemma 3n): altup_inputs - 1 projections h x h into the extra streams and as many back out (0: none).
  i64 altup_inputs = 0;
  // A pipeline stage holds a slice of the layers: the first keeps the input embedding, the last the final norm and
  // the LM head (a tied head is then its own copy of the embedding). A whole model has both.
  bool has_embedding = true;
  bool has_head = true;
  i64 max_position = 0;
  // Learned absolute positions (GPT-2, OPT): rows of width hidden, gathered with the input embedding (0: none).
  i64 position_rows = 0;
  bool embedding_norm = false;  // a norm after the input embedding (BLOOM), of the model's norm kind
  bool embedding_norm_weight = true;  // false: that norm has no parameters (Muse Glimmer's scaleless RMSNorm)
  i64 rope_freqs = 0;  // RoPE frequency factors a GGUF stores as a tensor (Llama-3.1's llama3 scaling): f32, not a parameter
  std::string declared_quant;  // quantization_config.quant_method, if any
  // What the checkpoint's quantization_config means for storage: the format of the quantized weights (a dtype
  // name, "" when none or not understood) and which weight classes it leaves in bf16 (modules_to_not_convert and
  // each method's habits). Indexed by WeightClass: router, embedding and LM head are kept unless said otherwise.
  std::string declared_weights;
  // What the checkpoint's GEMMs compute in, when it says: "fp8" for FP8 weights with an activation_scheme (dynamic or
  // static: W8A8, as vLLM and SGLang run them on devices with FP8 matrix units); empty otherwise.
  std::string declared_activations;
  // The routed experts' format where the checkpoint stores them apart (DeepSeek-V4's expert_dtype "fp4", ModelOpt's
  // moe_quant_algo); empty: as declared_weights.
  std::string declared_expert_weights;
  bool declared_keeps[kWeightClasses] = {false, false, false, true, true, true, true};
  std::vector<Warning> warnings;
};

// Learned vectors of width hidden in each of the model's norms: the weight (unless non-parametric) and a LayerNorm's bias.
inline int norm_vectors(const ModelSpec& m) {
  return (m.norm_weight ? 1 : 0) + (m.norm == NormKind::Layer && m.norm_bias ? 1 : 0);
}

struct ParamCounts {
  i64 total = 0;            // every parameter, tied embeddings once
  i64 active = 0;           // per token: routed experts counted top_k times, input embedding included
  i64 active_no_embed = 0;  // the same without the input embedding table (the convention some vendors use)
  i64 embedding = 0;
  i64 lm_head = 0;  // 0 when tied
  i64 attention = 0;
  i64 ffn_dense = 0;       // dense MLPs, Gemma 3n/4 blocks and a latent MoE's two projections
  i64 experts_routed = 0;  // all routed experts of all layers
  i64 experts_shared = 0;
  i64 router = 0;
  i64 norms = 0;
  i64 vision = 0;  // the vision encoder and its projector: in total, not in active (per text token)
  i64 audio = 0;   // the audio encoder and its embedder: in total, not in active
};

ParamCounts count_params(const ModelSpec& m);

// Converting a trained MHA/GQA model to multi-head latent attention (TransMLA, MHA2MLA; LIFE's "bf16-int4-mla"
// variant): every standard attention layer becomes MLA with these sizes, keeping its head count, window and output
// bias. Layers that already use MLA are left as they are.
struct MlaConversion {
  i64 q_lora_rank = 128;  // LIFE appendix 8.2
  i64 kv_lora_rank = 128;
  i64 qk_nope_dim = 128;
  i64 qk_rope_dim = 64;
  i64 v_head_dim = 128;
};
ModelSpec convert_to_mla(const ModelSpec& m, const MlaConversion& c);

// Parameters of one layer's attention block (projections, biases, q/k norms, sinks, MLA norms, DSA's indexer).
i64 attention_params(const AttentionSpec& a, i64 hidden);
// Parameters of one recurrent mixer (model/recurrent.cpp).
i64 recurrent_params(const RecurrentSpec& r, i64 hidden);
// Elements of one layer's state per sequence: the recurrent state and the convolution's window.
i64 recurrent_state_elements(const RecurrentSpec& r);
i64 recurrent_conv_elements(const RecurrentSpec& r);
// Channels of the short convolution (0 when the mixer has none).
i64 recurrent_conv_channels(const RecurrentSpec& r);
// Parameters of one routed expert (or a dense FFN of the given width).
i64 ffn_params(i64 hidden, i64 width, bool gated, bool bias);

}  // namespace infercast
