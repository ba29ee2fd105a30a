#include "io/model_config.hpp"

#include "io/config_common.hpp"
#include "io/config_family.hpp"
#include "io/dbrx.hpp"
#include "io/decoder_rules.hpp"
#include "io/config_decilm.hpp"
#include "io/config_deepseek.hpp"
#include "io/config_gemma.hpp"
#include "io/config_kimi.hpp"
#include "io/config_laguna.hpp"
#include "io/config_longcat.hpp"
#include "io/config_mimo.hpp"
#include "io/config_minimax.hpp"
#include "io/config_hybrid.hpp"
#include "io/config_audio.hpp"
#include "io/config_vision.hpp"
#include "io/families.hpp"
#include "quant/dtype.hpp"
#include "util/limits.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace infercast {

namespace {

// Keys that never change FLOPs, bytes or parameter counts (numerics, token ids, training knobs, RoPE scaling).
const std::set<std::string>& harmless_keys() {
  static const std::set<std::string> keys = {
      "_name_or_path", "architectures", "auto_map", "bos_token_id", "eos_token_id", "pad_token_id",
      "initializer_range", "attention_dropout", "hidden_dropout", "embd_pdrop", "resid_pdrop", "dropout",
      "torch_dtype", "dtype", "transformers_version", "use_cache", "rms_norm_eps", "layer_norm_epsilon",
      "layer_norm_eps", "norm_eps", "rope_theta", "rope_scaling", "rope_local_base_freq", "original_max_position_embeddings",
      "pretraining_tp", "output_router_logits", "router_aux_loss_coef", "router_z_loss_coef", "router_jitter_noise",
      "norm_topk_prob", "routed_scaling_factor", "route_scale", "scoring_func", "score_func", "n_group", "topk_group",
      "n_expert_groups", "n_limited_groups", "ep_size", "aux_loss_alpha", "seq_aux", "query_pre_attn_scalar",
      "cache_implementation", "initial_context_length", "swiglu_limit", "mscale", "mscale_all_dim", "beta_fast",
      "beta_slow", "rope_type", "is_decoder", "model_type", "boi_token_index", "eoi_token_index", "image_token_index",
      "apply_residual_connection_post_layernorm", "tokenizer_class", "attn_temperature_tuning", "floor_scale",
      "attn_scale", "fixed_scale", "bos_token", "eos_token", "max_window_layers", "use_sliding_window", "tie_word_embeddings",
      "partial_rotary_factor", "rope_interleave", "use_bidirectional_attention",
      // Every PretrainedConfig's own attributes, which older transformers wrote into every config (and nested
      // text_config) it saved: generation defaults, output switches, labels, encoder-decoder flags.
      "return_dict", "output_hidden_states", "output_attentions", "torchscript", "use_bfloat16", "tf_legacy_loss",
      "pruned_heads", "chunk_size_feed_forward", "is_encoder_decoder", "cross_attention_hidden_size",
      "add_cross_attention", "tie_encoder_decoder", "max_length", "min_length", "do_sample", "early_stopping",
      "num_beams", "num_beam_groups", "diversity_penalty", "temperature", "top_k", "top_p", "typical_p",
      "repetition_penalty", "length_penalty", "no_repeat_ngram_size", "encoder_no_repeat_ngram_size", "bad_words_ids",
      "num_return_sequences", "output_scores", "return_dict_in_generate", "remove_invalid_values",
      "exponential_decay_length_penalty", "suppress_tokens", "begin_suppress_tokens", "finetuning_task", "id2label",
      "label2id", "num_labels", "prefix", "problem_type", "task_specific_params", "_commit_hash",
      "_attn_implementation_autoset", "ignore_index", "use_mrope", "rope_parameters"};
  return keys;
}

struct Ctx {
  Reader& r;
  ModelSpec& m;
  void warn(const std::string& key, const std::string& msg) {
    m.warnings.push_back(Warning{"model.unmodelled_field", r.child_path(key), msg});
  }
};

i64 head_dim_of(Reader& r, i64 hidden, i64 heads, const char* heads_key) {
  if (auto hd = r.optional_positive_int("head_dim")) return *hd;
  if (hidden % heads != 0) {
    throw InputError("model.invalid", r.child_path("hidden_size"),
                     r.child_path("hidden_size") + " holds " + std::to_string(hidden) + ", which is not a multiple of " +
                         r.child_path(heads_key) + " (" + std::to_string(heads) +
                         "); give head_dim explicitly");
  }
  return hidden / heads;
}

void check_kv_divides(Reader& r, i64 heads, i64 kv, const char* heads_key, const char* kv_key) {
  if (kv > heads || heads % kv != 0) {
    throw InputError("model.invalid", r.child_path(kv_key),
                     r.child_path(kv_key) + " holds " + std::to_string(kv) + ", which does not divide " +
                         r.child_path(heads_key) + " (" + std::to_string(heads) + ")");
  }
}

enum class LayerKind { Full, Sliding, Chunked };

// layer_types when given (HF's newer configs), else the family's rule.
// Layer counts are bounded (limit::kModelLayers) so a typo cannot allocate a trillion layer records.
constexpr i64 kMaxParams = 1000000000000000;

// Counts above 1e15 (500x the largest published model) are refused: past them doubles stop holding byte counts to
// the unit, and no such model exists. count_params throws model.too_large past 2^63.
void check_total(const ModelSpec& m, const std::string& path) {
  const i64 total = count_params(m).total;
  if (total > kMaxParams)
    throw InputError("model.too_large", path,
                     (path.empty() ? std::string("the config") : path) + " describes " + std::to_string(total) +
                         " parameters; expected at most " + std::to_string(kMaxParams) + " (check its sizes)");
}

// One note per key the reader did not use, up to 20, then one that counts the rest: a config of a million keys
// gives 21 notes, not a million.
void note_unused(Reader& top, const std::vector<std::string>& keys, const std::string& advice, std::vector<Warning>& out) {
  constexpr std::size_t kNotes = 20;
  for (std::size_t i = 0; i < keys.size() && i < kNotes; ++i)
    out.push_back(Warning{"model.unused_field", top.child_path(keys[i]), top.child_path(keys[i]) + " is not used by Infercast" + advice});
  if (keys.size() > kNotes)
    out.push_back(Warning{"model.unused_field", top.child_path(keys[kNotes]),
                          std::to_string(keys.size() - kNotes) + " more fields of " + (top.path().empty() ? std::string("the config") : top.path()) +
                              ", from " + top.child_path(keys[kNotes]) + " on, are not used by Infercast" + advice});
}
i64 layer_count(Reader& r, const std::string& key) { return config_layer_count(r, key); }

std::vector<LayerKind> read_layer_types(Reader& r, i64 n_layers, const std::vector<LayerKind>& fallback) {
  auto types = r.string_array_or("layer_types");
  if (types.empty()) return fallback;
  config_check_per_layer(r, "layer_types", types.size(), n_layers, PerLayer::Exactly);
  std::vector<LayerKind> out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const auto& t = types[i];
    if (t == "full_attention") out.push_back(LayerKind::Full);
    else if (t == "sliding_attention") out.push_back(LayerKind::Sliding);
    else if (t == "chunked_attention") out.push_back(LayerKind::Chunked);
    else
      throw InputError("model.unsupported", r.child_path("layer_types") + "/" + std::to_string(i),
                       r.child_path("layer_types") + "/" + std::to_string(i) + " holds \"" + t +
                           "\"; supported layer types are full_attention, sliding_attention and chunked_attention");
  }
  return out;
}

std::string activation_of(Reader& r, const std::string& fallback) {
  if (r.has("hidden_activation")) {
    auto a = r.string("hidden_activation");
    r.raw("hidden_act");
    return a;
  }
  return r.string_or("hidden_act", fallback);
}

// Decoder families that share the Llama layout (io/families.cpp says which and how each differs).
// Llama 3.2 Vision (MllamaTextConfig): the layers cross_attention_layers names attend the image tokens instead of
// the text (AttentionSpec::cross: no RoPE, per-head q and k norms, two tanh gates; MllamaTextCrossAttention), and
// the input embedding holds vocab_size + 8 rows (MllamaTextModel.embed_tokens). The family's defaults give 11B's
// list when a config omits it.
void read_cross_attention_layers(Reader& r, ModelSpec& m, i64 L) {
  const std::vector<i64> cross = r.int_array_or("cross_attention_layers");
  const std::string at = r.child_path("cross_attention_layers");
  for (std::size_t i = 0; i < cross.size(); ++i) {
    const i64 k = cross[i];
    if (k < 0 || k >= L)
      throw InputError("model.invalid", at + "/" + std::to_string(i),
                       at + "/" + std::to_string(i) + " holds " + std::to_string(k) + "; expected a layer from 0 to " +
                           std::to_string(L - 1));
    AttentionSpec& a = m.layers[m.layers.size() - static_cast<std::size_t>(L - k)].attn;
    if (a.cross)
      throw InputError("model.invalid", at + "/" + std::to_string(i),
                       at + "/" + std::to_string(i) + " holds " + std::to_string(k) + ", which the list names twice");
    a.cross = true;
    a.rope_dim = 0;
    a.window = a.chunk = 0;
    a.qk_norm = true;
    a.qk_norm_weight = true;
    a.qk_norm_full = false;
    a.qkv_bias = a.o_bias = false;
  }
  m.embedding_rows = m.vocab + 8;
}

void parse_llama_like(Ctx& c, const FamilyTraits& t) {
  Reader& r = c.r;
  ModelSpec& m = c.m;
  for (const auto& [field, key] : t.key_aliases) r.alias(field, key);
  for (const auto& [field, alt] : t.alt_keys)
    if (!r.has(field) && r.has(alt)) r.alias(field, alt);
  m.norm = t.rms_norm_key[0] && r.raw(t.rms_norm_key) ? NormKind::RMS : t.norm;
  m.norm_bias = t.norm_bias;
  m.norm_weight = t.norm_weight;
  m.lm_head_bias = t.lm_head_bias_key[0] ? r.boolean_or(t.lm_head_bias_key, t.lm_head_bias) : t.lm_head_bias;
  for (const auto& f : t.fixed_keys)
    if (const json* v = r.raw(f.key); v && *v != f.value)
      throw InputError("model.unsupported", r.child_path(f.key),
                       r.child_path(f.key) + " holds " + v->dump() + "; Infercast models " + t.config_class + " with " +
                           f.value.dump() + " only (as the released checkpoints have it)");
  const i64 h = r.positive_int("hidden_size");
  const i64 L = layer_count(r, "num_hidden_layers");
  m.hidden = h;
  for (const auto& key : t.hidden_keys)
    if (r.has(key) && r.positive_int(key) != h)
      throw InputError("model.unsupported", r.child_path(key),
                       r.child_path(key) + " holds " + std::to_string(r.positive_int(key)) + ", not hidden_size (" +
                           std::to_string(h) + "): the projections between the two widths are not modelled");
  m.vocab = r.positive_int("vocab_size");
  const i64 nh = r.positive_int("num_attention_heads");
  const bool multi_query = t.multi_query_key[0] && r.boolean_or(t.multi_query_key, t.multi_query_default);
  if (t.multi_query_groups_key[0] && !multi_query) r.raw(t.multi_query_groups_key);  // read only with multi_query
  const i64 nkv = multi_query ? (t.multi_query_groups_key[0] ? r.positive_int_or(t.multi_query_groups_key, 1) : 1)
                              : r.positive_int_or("num_key_value_heads", nh);
  if (t.attn_config_key[0] && r.has(t.attn_config_key)) {
    Reader ac = r.object(t.attn_config_key);
    if (!ac.boolean_or("alibi", true))
      ac.fail("alibi", "unsupported", ac.child_path("alibi") + " is not true: " + t.config_class +
                                          " without ALiBi learns positions, which Infercast does not model for it");
    if (ac.boolean_or("qk_ln", false))
      ac.fail("qk_ln", "unsupported", ac.child_path("qk_ln") + " is true: q/k LayerNorms are not modelled for " + t.config_class);
    if (ac.string_or("attn_type", "multihead_attention") != "multihead_attention")
      ac.fail("attn_type", "unsupported", ac.child_path("attn_type") + " holds \"" + ac.string("attn_type") +
                                              "\"; Infercast models " + t.config_class + " with multihead_attention only");
    for (const auto& key : ac.unread()) ac.raw(key);  // kernels, clipping, scales: no count changes
  }
  if (t.attn_config_key[0] && r.has("ffn_config")) {
    Reader fc = r.object("ffn_config");
    if (fc.string_or("ffn_type", "mptmlp") != "mptmlp")
      fc.fail("ffn_type", "unsupported", fc.child_path("ffn_type") + " holds \"" + fc.string("ffn_type") + "\"; Infercast models " +
                                             t.config_class + " with the plain MLP (mptmlp) only");
    for (const auto& key : fc.unread()) fc.raw(key);
  }
  check_kv_divides(r, nh, nkv, "num_attention_heads", "num_key_value_heads");
  const i64 hd = head_dim_of(r, h, nh, "num_attention_heads");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  if (t.learned_positions) {
    if (m.max_position < 1)
      r.fail("max_position_embeddings", "missing_field", r.child_path("max_position_embeddings") +
                                                             " is missing; expected the rows of the learned position table (a positive integer)");
    if (m.max_position > limit::kPositionRows)
      r.fail("max_position_embeddings", "out_of_range", r.child_path("max_position_embeddings") + " holds " +
                                                            std::to_string(m.max_position) + "; expected at most " +
                                                            std::to_string(limit::kPositionRows) + " rows of learned positions");
    m.position_rows = m.max_position + t.position_offset;
  }
  m.embedding_norm = t.embedding_norm;
  m.embedding_norm_weight = t.embedding_norm_weight;
  // Llama-3.1's "llama3" RoPE scaling: llama.cpp's converter stores its factors as a tensor (rope_freqs).
  if (const json* rs = r.raw("rope_scaling"); rs && rs->is_object()) {
    const auto type = rs->contains("rope_type") ? rs->at("rope_type") : rs->contains("type") ? rs->at("type") : json();
    if (type.is_string() && type.get<std::string>() == "llama3") m.rope_freqs = hd / 2;
  }

  m.tied_embeddings = r.boolean_or("tie_word_embeddings", t.tied_default);
  m.activation = activation_of(r, t.activation);

  AttentionSpec a;
  a.n_heads = nh;
  a.n_kv_heads = nkv;
  a.head_dim = hd;
  a.v_head_dim = hd;
  a.rope_dim = t.rope ? rotary_dims(r, hd) : 0;
  if (t.bias == BiasRule::QkvOnly) {
    a.qkv_bias = true;
    r.raw("attention_bias");
  } else if (t.bias == BiasRule::Key) {
    const bool b = r.boolean_or(t.bias_key, t.bias_default);
    a.qkv_bias = b;
    a.o_bias = t.o_bias_key[0] ? r.boolean_or(t.o_bias_key, false) : b && t.bias_on_o;
  }
  a.o_bias = a.o_bias || t.o_bias;
  a.qk_norm = t.qk_norm || (t.qk_norm_key[0] && r.boolean_or(t.qk_norm_key, false));
  a.qk_norm_full = t.qk_norm_full;
  if (t.qk_norm_weightless) {
    a.qk_norm = true;
    a.qk_norm_weight = false;
  }
  a.fused_qkv = t.fused_qkv;
  a.sinks = t.sinks;
  a.output_gate = t.output_gate;

  // Sliding windows.
  i64 window = 0;
  i64 prefix_rope = 0;  // layers before this one rotate even where rope_sliding_only would make them NoPE
  std::vector<LayerKind> kinds(static_cast<std::size_t>(L), LayerKind::Full);
  if (r.has("sliding_window")) window = r.positive_int("sliding_window");
  else r.raw("sliding_window");
  r.raw("sliding_window_size");  // Gemma-2 duplicate of sliding_window
  switch (t.sliding) {
    case SlidingRule::AllLayers:
      if (window > 0) std::fill(kinds.begin(), kinds.end(), LayerKind::Sliding);
      break;
    case SlidingRule::QwenMaxWindow: {
      const bool use = r.boolean_or("use_sliding_window", false);
      const i64 first = r.nonneg_int_or("max_window_layers", L);
      if (use && window > 0)
        for (i64 i = first; i < L; ++i) kinds[static_cast<std::size_t>(i)] = LayerKind::Sliding;
      break;
    }
    case SlidingRule::Alternate:
      for (i64 i = 0; i < L; ++i) kinds[static_cast<std::size_t>(i)] = (i % 2 == 0) ? LayerKind::Sliding : LayerKind::Full;
      break;
    case SlidingRule::Pattern: {
      const auto sliding = sliding_by_pattern(r, L, 6);
      for (i64 i = 0; i < L; ++i)
        kinds[static_cast<std::size_t>(i)] = sliding[static_cast<std::size_t>(i)] && window > 0 ? LayerKind::Sliding : LayerKind::Full;
      break;
    }
    case SlidingRule::AttentionTypes: {
      // GPTNeoConfig.expand_attention_types_params: each entry [kinds, n] repeats its list of kinds n times.
      std::vector<bool> local;
      const json* types = r.raw("attention_types");
      const std::string at = r.child_path("attention_types");
      const auto bad = [&](const std::string& what) {
        throw InputError("model.invalid", at, at + " " + what + "; expected [[[\"global\", \"local\"], n], ...], one kind per layer in all");
      };
      if (types) {
        if (!types->is_array()) bad("is not a list");
        for (const auto& entry : *types) {
          if (!entry.is_array() || entry.size() != 2 || !entry[0].is_array() || !entry[1].is_number_integer()) bad("holds an entry that is not [kinds, n]");
          const i64 times = entry[1].get<i64>();
          if (times < 0 || times > L) bad("repeats an entry " + std::to_string(times) + " times");
          if (entry[0].empty()) continue;
          for (i64 k = 0; k < times; ++k)
            for (const auto& kind : entry[0]) {
              if (!kind.is_string() || (kind != "global" && kind != "local")) bad("names a kind other than global or local");
              if (static_cast<i64>(local.size()) > L) bad("lists more kinds than the " + std::to_string(L) + " layers");
              local.push_back(kind == "local");
            }
        }
        if (static_cast<i64>(local.size()) != L)
          bad("lists " + std::to_string(local.size()) + " kinds for " + std::to_string(L) + " layers");
      }
      if (local.empty()) local.assign(static_cast<std::size_t>(L), false);
      for (i64 i = 0; i < L; ++i)
        kinds[static_cast<std::size_t>(i)] = local[static_cast<std::size_t>(i)] && window > 0 ? LayerKind::Sliding : LayerKind::Full;
      break;
    }
    case SlidingRule::FirstOfFour:
      if (window > 0)
        for (i64 i = 0; i < L; ++i) kinds[static_cast<std::size_t>(i)] = i % 4 == 0 ? LayerKind::Full : LayerKind::Sliding;
      break;
    case SlidingRule::DensePrefix: {
      const i64 k = std::min(L, r.nonneg_int_or("first_k_dense_replace", 0));
      const i64 prefix = r.positive_int_or("prefix_dense_sliding_window_pattern", 1);
      const i64 n = r.positive_int_or("sliding_window_pattern", 4);
      for (i64 i = 0; i < L; ++i) {
        const bool sliding = i < k ? (i + 1) % prefix != 0 : (i - k + 1) % n != 0;
        kinds[static_cast<std::size_t>(i)] = sliding && window > 0 ? LayerKind::Sliding : LayerKind::Full;
      }
      // Cohere2MoeAttention's force_rope: the dense prefix rotates whatever its kind when its pattern is 1.
      if (prefix == 1) prefix_rope = k;
      break;
    }
    case SlidingRule::LastOfFour:
      if (window > 0)
        for (i64 i = 0; i < L; ++i) kinds[static_cast<std::size_t>(i)] = (L - 1 - i) % 4 == 0 ? LayerKind::Full : LayerKind::Sliding;
      break;
    case SlidingRule::None: break;
  }
  std::vector<bool> nope(static_cast<std::size_t>(L), false);
  // RoPE per layer as the config lists it; without a list, the family's rule below (Muse Glimmer: NoPE on its full
  // layers, as Cohere 2).
  bool rope_listed = false;
  if (t.rope_per_layer) nope = read_rope_per_layer(r, L, rope_listed);
  i64 chunk = 0;
  if (t.chunked_nope || t.nope_layers) {
    if (t.chunked_nope) chunk = r.nonneg_int_or("attention_chunk_size", 0);
    const auto rope_flags = no_rope_flags(r, L);  // 1: the layer uses RoPE, 0: NoPE (global)
    const i64 interval = r.positive_int_or("no_rope_layer_interval", 4);
    for (i64 i = 0; i < L; ++i) {
      const bool uses_rope = rope_flags.empty() ? ((i + 1) % interval != 0) : rope_flags[static_cast<std::size_t>(i)] != 0;
      nope[static_cast<std::size_t>(i)] = !uses_rope;
      kinds[static_cast<std::size_t>(i)] = (uses_rope && chunk > 0) ? LayerKind::Chunked : LayerKind::Full;
    }
  }
  kinds = read_layer_types(r, L, kinds);
  // Cohere 2 and EXAONE 4 rotate only in their sliding layers: the full-attention layers are NoPE.
  if (t.rope_sliding_only && !rope_listed && std::find(kinds.begin(), kinds.end(), LayerKind::Sliding) != kinds.end())
    for (i64 i = 0; i < L; ++i)
      if (kinds[static_cast<std::size_t>(i)] == LayerKind::Full && i >= prefix_rope) nope[static_cast<std::size_t>(i)] = true;
  for (auto k : kinds) {
    if (k == LayerKind::Sliding && window == 0)
      throw InputError("model.missing_field", r.child_path("sliding_window"),
                       r.child_path("sliding_window") + " is missing; layer_types names sliding_attention layers, so a positive window is expected");
    if (k == LayerKind::Chunked && chunk == 0)
      throw InputError("model.missing_field", r.child_path("attention_chunk_size"),
                       r.child_path("attention_chunk_size") + " is missing; layer_types names chunked_attention layers, so a positive chunk size is expected");
  }

  // FFN.
  FfnSpec dense;
  dense.gated = t.gated_mlp;
  dense.bias = t.mlp_bias_key ? r.boolean_or(t.mlp_bias_name, t.mlp_bias) : t.mlp_bias;
  dense.fused_gate_up = t.fused_gate_up;
  // Experts on every layer need no dense width: SolarOpenConfig deletes intermediate_size (its layers are all MoE).
  if (t.moe == MoeRule::DeepSeekLike && !r.has("intermediate_size") && r.nonneg_int_or("first_k_dense_replace", 0) == 0)
    dense.intermediate = 0;
  else if (t.intermediate_ratio_key[0] && r.has(t.intermediate_ratio_key)) {
    const double width = std::round(r.number_in(t.intermediate_ratio_key, 1e-6, 1e6) * static_cast<double>(h));
    if (!(width >= 1 && width <= 1e15))
      r.fail(t.intermediate_ratio_key, "invalid", r.child_path(t.intermediate_ratio_key) + " gives an MLP width of " +
                                                      std::to_string(width) + " x hidden_size; expected a width from 1 to 1e15");
    dense.intermediate = static_cast<i64>(width);
  }
  else if (t.intermediate_multiple > 0)
    dense.intermediate = r.positive_int_or("intermediate_size", t.intermediate_multiple * std::min<i64>(h, i64(1) << 40));  // GPT-2: n_inner null
  else
    dense.intermediate = r.positive_int("intermediate_size");
  // xIELU (Apertus; transformers' activations.py XIELUActivation) learns alpha_p and alpha_n in every MLP.
  if (m.activation == "xielu") dense.act_params = 2;

  FfnSpec moe = dense;
  moe.moe = true;
  std::vector<bool> is_moe(static_cast<std::size_t>(L), false);
  const bool dense_family = t.experts_optional && r.nonneg_int_or(t.experts_key, 0) == 0;
  if (dense_family) r.raw("num_experts_per_tok");  // a dense model's top-k selects nothing
  if (t.moe == MoeRule::Mixtral && !dense_family) {
    moe.n_experts = r.positive_int(t.experts_key);
    moe.top_k = r.positive_int("num_experts_per_tok");
    moe.expert_intermediate = dense.intermediate;
    moe.score_correction_bias = t.routing_bias;
    if (t.shared_expert_key[0]) {
      const i64 shared = r.nonneg_int_or(t.shared_expert_key, 0);
      moe.n_shared = shared > 0 ? 1 : 0;
      moe.shared_intermediate = shared;
    }
    std::fill(is_moe.begin(), is_moe.end(), true);
  } else if (t.moe == MoeRule::Qwen || t.moe == MoeRule::QwenShared) {
    moe.n_experts = r.positive_int("num_experts");
    moe.top_k = r.positive_int("num_experts_per_tok");
    moe.expert_intermediate = r.positive_int("moe_intermediate_size");
    if (t.moe == MoeRule::QwenShared) {
      moe.n_shared = 1;
      moe.shared_intermediate = r.positive_int("shared_expert_intermediate_size");
      moe.shared_gate = true;
    }
    // transformers 5 writes the choice out per layer (mlp_layer_types: "dense" or "sparse"; Mellum has only that).
    const std::vector<bool> listed = config_mlp_layer_types(r, L);
    const i64 step = r.positive_int_or("decoder_sparse_step", 1);
    const auto dense_only = config_listed_layers(r, "mlp_only_layers", L);
    for (i64 i = 0; i < L; ++i)
      is_moe[static_cast<std::size_t>(i)] = listed.empty() ? !dense_only[static_cast<std::size_t>(i)] && ((i + 1) % step == 0)
                                                           : static_cast<bool>(listed[static_cast<std::size_t>(i)]);
  } else if (t.moe == MoeRule::GptOss) {
    moe.n_experts = r.positive_int("num_local_experts");
    moe.top_k = r.has("num_experts_per_tok") ? r.positive_int("num_experts_per_tok") : r.positive_int("experts_per_token");
    r.raw("experts_per_token");
    moe.expert_intermediate = dense.intermediate;
    moe.router_bias = true;
    moe.expert_bias = true;
    std::fill(is_moe.begin(), is_moe.end(), true);
  } else if (t.moe == MoeRule::Llama4) {
    moe.n_experts = r.positive_int("num_local_experts");
    moe.top_k = r.positive_int("num_experts_per_tok");
    moe.expert_intermediate = dense.intermediate;
    moe.n_shared = 1;
    moe.shared_intermediate = dense.intermediate;
    dense.intermediate = r.positive_int_or("intermediate_size_mlp", dense.intermediate);
    const bool given = r.has("moe_layers") && !r.int_array_or("moe_layers").empty();
    const auto listed = config_listed_layers(r, "moe_layers", L);
    const i64 step = r.positive_int_or("interleave_moe_layer_step", 1);
    for (i64 i = 0; i < L; ++i)
      is_moe[static_cast<std::size_t>(i)] = given ? listed[static_cast<std::size_t>(i)] : ((i + 1) % step == 0);
  }
  if (moe.moe && moe.n_experts > 0 && moe.top_k > moe.n_experts) {
    throw InputError("model.invalid", r.child_path("num_experts_per_tok"),
                     r.child_path("num_experts_per_tok") + " holds " + std::to_string(moe.top_k) +
                         ", more than the number of experts (" + std::to_string(moe.n_experts) + ")");
  }

  const bool qk_norm_llama4 = t.chunked_nope && r.boolean_or("use_qk_norm", false);
  const auto rule_ffn = moe_rule_layers(r, t, L, dense);
  const bool parallel = t.parallel_key[0] ? r.boolean_or(t.parallel_key, t.parallel) : t.parallel;
  const int post_norms = t.post_norm_key[0] && r.boolean_or(t.post_norm_key, false) ? 2 : 0;
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    const auto k = kinds[static_cast<std::size_t>(i)];
    if (k == LayerKind::Sliding) layer.attn.window = window;
    if (k == LayerKind::Chunked) layer.attn.chunk = chunk;
    if (nope[static_cast<std::size_t>(i)]) layer.attn.rope_dim = 0;
    if (qk_norm_llama4 && !nope[static_cast<std::size_t>(i)]) {
      layer.attn.qk_norm = true;
      layer.attn.qk_norm_weight = false;
    }
    layer.ffn = is_moe[static_cast<std::size_t>(i)] ? moe : dense;
    if (!rule_ffn.empty()) layer.ffn = rule_ffn[static_cast<std::size_t>(i)];
    layer.norms = (parallel ? t.parallel_norms : t.norms) + post_norms;  // a parallel block normalizes once (GPT-NeoX: twice)
    layer.parallel = parallel;
    layer.sub_norms = t.sub_norms;
    m.layers.push_back(layer);
  }

  m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", 0);  // GLM-4.5's MTP layer: reported, not counted
  if (t.cross_attention) read_cross_attention_layers(r, m, L);
  if (t.softcapping) {
    for (const char* key : {"attn_logit_softcapping", "final_logit_softcapping"}) {
      if (r.has(key)) {
        r.raw(key);
        c.warn(key, std::string(key) + " adds a tanh per element (a few FLOPs per attention score or logit) that is not counted");
      } else {
        r.raw(key);
      }
    }
  }
}

// `type` "RefinedWeb" is the schema of Falcon-40B's first checkpoints: its modelling_RW.py builds the new decoder
// architecture (grouped KV heads, ln_attn and ln_mlp) without a new_decoder_architecture key; "RefinedWebModel"
// (Falcon-7B) is the old one.
void parse_falcon(Ctx& c, const std::string& type) {
  Reader& r = c.r;
  ModelSpec& m = c.m;
  const bool old_schema = r.has("n_head") || r.has("n_layer");
  const char* heads_key = old_schema ? "n_head" : "num_attention_heads";
  const i64 h = r.positive_int("hidden_size");
  const i64 nh = r.positive_int(heads_key);
  const i64 L = layer_count(r, old_schema ? "n_layer" : "num_hidden_layers");
  m.hidden = h;
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 2048);
  m.norm = NormKind::Layer;
  m.norm_bias = true;
  m.activation = "gelu";
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", true);
  const bool new_arch = r.boolean_or("new_decoder_architecture", type == "RefinedWeb");
  const bool multi_query = r.boolean_or("multi_query", true);
  const char* kv_key = old_schema ? "n_head_kv" : "num_kv_heads";
  i64 nkv = nh;
  if (new_arch) nkv = r.positive_int(kv_key);
  else if (multi_query) nkv = 1;
  else r.raw(kv_key);
  if (!new_arch && r.has(kv_key)) nkv = r.positive_int(kv_key);
  check_kv_divides(r, nh, nkv, heads_key, kv_key);
  const bool bias = r.boolean_or("bias", false);
  const bool parallel = r.boolean_or("parallel_attn", true);
  if (r.boolean_or("alibi", false))
    c.warn("alibi", "/alibi is true: ALiBi position biases replace RoPE; their per-score add is not counted");

  AttentionSpec a;
  a.n_heads = nh;
  a.n_kv_heads = nkv;
  a.head_dim = h / nh;
  if (h % nh != 0) head_dim_of(r, h, nh, heads_key);
  a.v_head_dim = a.head_dim;
  a.rope_dim = a.head_dim;
  a.qkv_bias = bias;
  a.o_bias = bias;
  a.fused_qkv = true;
  FfnSpec f;
  f.gated = false;
  f.bias = bias;
  f.intermediate = r.positive_int_or("ffn_hidden_size", 4 * h);
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    layer.ffn = f;
    layer.parallel = parallel;
    layer.norms = (new_arch && parallel) ? 2 : (parallel ? 1 : 2);
    m.layers.push_back(layer);
  }
}

struct DeepSeekKeys {
  const char *hidden, *layers, *heads, *inter, *moe_inter, *experts, *shared, *topk, *first_dense, *vocab;
};

void parse_deepseek(Ctx& c, bool native, const FamilyTraits& t) {
  const bool routing_bias = t.routing_bias;
  const bool dsa_family = std::string(t.model_type) == "deepseek_v32";
  Reader& r = c.r;
  ModelSpec& m = c.m;
  const DeepSeekKeys k = native ? DeepSeekKeys{"dim", "n_layers", "n_heads", "inter_dim", "moe_inter_dim", "n_routed_experts",
                                               "n_shared_experts", "n_activated_experts", "n_dense_layers", "vocab_size"}
                                : DeepSeekKeys{"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                                               "moe_intermediate_size", "n_routed_experts", "n_shared_experts",
                                               "num_experts_per_tok", "first_k_dense_replace", "vocab_size"};
  const i64 h = r.positive_int(k.hidden);
  const i64 L = layer_count(r, k.layers);
  m.hidden = h;
  m.vocab = r.positive_int(k.vocab);
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "silu");
  AttentionSpec a;
  a.kind = AttnKind::MLA;
  a.n_heads = r.positive_int(k.heads);
  if (!native) {
    const i64 nkv = r.positive_int_or("num_key_value_heads", a.n_heads);
    (void)nkv;  // MLA caches one latent per token; num_key_value_heads only describes the expanded form
  }
  a.n_kv_heads = a.n_heads;
  if (r.has("q_lora_rank")) {
    a.q_lora_rank = r.nonneg_int_or("q_lora_rank", 0);
  } else {
    r.raw("q_lora_rank");
    c.m.warnings.push_back(Warning{"model.assumed", r.child_path("q_lora_rank"),
                                   r.child_path("q_lora_rank") +
                                       " is absent or null: no query compression (as DeepSeek-V2-Lite); Hugging Face's class default would be 1536"});
  }
  a.kv_lora_rank = r.positive_int("kv_lora_rank");
  a.qk_nope_dim = r.positive_int("qk_nope_head_dim");
  a.qk_rope_dim = r.positive_int("qk_rope_head_dim");
  a.v_head_dim = t.v_head_from_hidden && !r.has("v_head_dim") ? h / a.n_heads : r.positive_int("v_head_dim");
  if (a.v_head_dim < 1)
    r.fail("v_head_dim", "missing_field", r.child_path("v_head_dim") + " is missing and hidden_size (" + std::to_string(h) +
                                              ") is smaller than the head count; expected a positive integer");
  a.head_dim = (Count(a.qk_nope_dim) + a.qk_rope_dim).v;
  a.rope_dim = a.qk_rope_dim;
  a.qkv_bias = false;
  if (!native) r.boolean_or("attention_bias", false);
  // DeepSeek sparse attention (V3.2): the lightning indexer's sizes (transformers' DeepseekV32Config defaults).
  if (dsa_family || r.has("index_topk") || r.has("index_n_heads") || r.has("index_head_dim")) {
    a.index_topk = r.positive_int_or("index_topk", 2048);
    a.index_heads = r.positive_int_or("index_n_heads", 64);
    a.index_head_dim = r.positive_int_or("index_head_dim", 128);
    if (a.q_lora_rank == 0)
      throw InputError("model.unsupported", r.child_path("index_topk"),
                       r.child_path("index_topk") + " names a sparse-attention indexer, which reads the query latent; " +
                           r.child_path("q_lora_rank") + " is absent or 0, so there is none");
  }

  FfnSpec dense;
  dense.intermediate = r.positive_int(k.inter);
  // A family whose models may have no experts (MiniCPM3): every MLP dense.
  if (t.experts_optional && r.nonneg_int_or(k.experts, 0) == 0) {
    for (const char* key : {k.topk, k.moe_inter, k.shared, k.first_dense}) r.raw(key);
    LayerSpec layer;
    layer.attn = a;
    layer.ffn = dense;
    m.layers.insert(m.layers.end(), static_cast<std::size_t>(L), layer);
    m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", 0);
    return;
  }
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int(k.experts);
  moe.top_k = r.positive_int(k.topk);
  moe.expert_intermediate = r.positive_int(k.moe_inter);
  moe.n_shared = r.nonneg_int_or(k.shared, 0);
  moe.shared_intermediate = moe.expert_intermediate;
  if (native) {
    moe.score_correction_bias = r.string_or("score_func", "softmax") == "sigmoid";
    // DeepSeek's inference code (model.py, kernel.py) stores every Linear in fp8 with one scale per 128 x 128
    // block when dtype is "fp8", the embedding, the head and the gate in bf16: what quantization_config says of
    // the Hugging Face checkpoint, activation_scheme "dynamic" included. Both files describe one checkpoint, so they
    // declare the same activations, and the runtime decides (request.cpp, for either file alike): fp8 GEMMs with
    // activations quantized per 128-wide group where the device and the runtime have them (vLLM, SGLang), bf16 after
    // dequantizing elsewhere. DeepSeek's own model.py is such a runtime: its gemm_impl defaults to "bf16"
    // (weight_dequant, then F.linear); fp8_gemm runs only when that global is set to "fp8".
    if (r.string_or("dtype", "bf16") == "fp8") {
      m.declared_quant = "fp8";
      m.declared_weights = "fp8_block128";
      m.declared_activations = "fp8";
    }
  } else {
    moe.score_correction_bias = r.string_or("topk_method", routing_bias ? "noaux_tc" : "greedy") == "noaux_tc";
  }
  if (moe.top_k > moe.n_experts) {
    throw InputError("model.invalid", r.child_path(k.topk),
                     r.child_path(k.topk) + " holds " + std::to_string(moe.top_k) + ", more than the number of experts (" +
                         std::to_string(moe.n_experts) + ")");
  }
  const i64 first_dense = r.nonneg_int_or(k.first_dense, 0);
  const i64 freq = native ? 1 : r.positive_int_or("moe_layer_freq", 1);
  // transformers 5 writes the same choice out per layer (GLM-4.7-Flash's mlp_layer_types); the list decides.
  const std::vector<bool> listed = native ? std::vector<bool>{} : config_mlp_layer_types(r, L);
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    const bool sparse = listed.empty() ? i >= first_dense && i % freq == 0 : listed[static_cast<std::size_t>(i)];
    layer.ffn = sparse ? moe : dense;
    m.layers.push_back(layer);
  }
  m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", 0);
}

}  // namespace


namespace {

// A compressed-tensors scheme's `weights` (num_bits, type int|float, strategy, group_size, block_structure) as a
// storage format; empty when it names none Infercast has.
std::string compressed_tensors_format(const json& w) {
  if (!w.is_object()) return "";
  const auto integer = [&](const char* k) {
    const auto it = w.find(k);
    return it != w.end() && it->is_number_integer() ? it->get<i64>() : i64{0};
  };
  const auto text = [&](const char* k) {
    const auto it = w.find(k);
    return it != w.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const i64 bits = integer("num_bits"), group = integer("group_size");
  const std::string type = text("type"), strategy = text("strategy");
  if (type == "float" && bits == 8) {
    const auto b = w.find("block_structure");
    const bool b128 = strategy == "block" && b != w.end() && b->is_array() && b->size() == 2 && (*b)[0] == 128 && (*b)[1] == 128;
    return b128 ? "fp8_block128" : "fp8";
  }
  if (type == "float" && bits == 4) return group == 16 ? "nvfp4" : group == 32 ? "mxfp4" : "";
  if (type == "int" && bits >= 2 && bits <= 8) {
    // A symmetric group scheme stores no zero point (weight_zero_point only when symmetric is false).
    const auto sym = w.find("symmetric");
    const bool symmetric = sym != w.end() && sym->is_boolean() && sym->get<bool>();
    const std::string name = "int" + std::to_string(bits) +
                             (strategy == "group" && group > 0 ? "-g" + std::to_string(group) + (symmetric ? "-sym" : "") : "");
    return find_dtype(name) ? name : "";
  }
  return "";
}

// Module names or patterns a checkpoint leaves unquantized (modules_to_not_convert, compressed-tensors' `ignore`,
// ModelOpt's `exclude_modules`) -> the weight classes kept in bf16.
void keep_unconverted(const std::vector<std::string>& patterns, ModelSpec& m) {
  const auto keep = [&](WeightClass c) { m.declared_keeps[static_cast<int>(c)] = true; };
  for (const auto& pattern : patterns) {
    const auto has = [&](const char* x) { return pattern.find(x) != std::string::npos; };
    if (has("attn")) keep(WeightClass::Attention);
    if (has("router") || has(".gate") || has("gate$")) keep(WeightClass::Router);
    if (has("embed")) keep(WeightClass::Embedding);
    if (has("lm_head")) keep(WeightClass::LmHead);
    if (has("visual") || has("vision")) keep(WeightClass::Vision);
    // Shared experts and dense MLPs (Kimi-K2's int4 checkpoints quantize only the routed experts).
    if (has("shared_expert") || (has("mlp") && has("_proj") && !has("experts"))) keep(WeightClass::Ffn);
  }
}

}  // namespace

// quantization_config -> the storage format of the quantized weight classes (docs/formulas.md, "Declared
// quantization"). Anything not understood is reported and left in bf16.
static void read_quantization(Reader q, ModelSpec& m) {
  m.declared_quant = q.string_or("quant_method", "");
  // ModelOpt (NVIDIA TensorRT Model Optimizer) may write only its quant_algo; mlx-lm only its bits and groups.
  if (m.declared_quant.empty() && q.has("quant_algo")) m.declared_quant = "modelopt";
  if (m.declared_quant.empty() && q.has("bits") && q.has("group_size")) m.declared_quant = "mlx";
  const std::string& method = m.declared_quant;
  bool online = false;  // weights quantized as the model runs: stored and loaded as they are (BitNet's online mode)
  if (method == "mlx") {
    // mlx-lm (mlx-community): `mode` affine (N-bit integers, an fp16 scale and bias per group of G: mlxN-gG), or
    // the MX / NV formats.
    const std::string mode = q.string_or("mode", "affine");
    const i64 bits = q.positive_int_or("bits", 4), group = q.positive_int_or("group_size", 64);
    if (mode == "mxfp4" || mode == "nvfp4" || mode == "mxfp8") m.declared_weights = mode;
    else if (mode == "affine") m.declared_weights = "mlx" + std::to_string(bits) + "-g" + std::to_string(group);
    if (!find_dtype(m.declared_weights)) m.declared_weights.clear();
    // mlx_lm.convert quantizes every Linear and Embedding whose width divides into groups: the token embedding
    // and the LM head too (per-layer overrides, such as 8-bit MoE gates, are not read).
    m.declared_keeps[static_cast<int>(WeightClass::Embedding)] = false;
    m.declared_keeps[static_cast<int>(WeightClass::LmHead)] = false;
  } else if (method == "compressed-tensors") {
    // config_groups: {name: {targets, weights, input_activations}}; the group that targets Linear layers (or the
    // first) sets the format.
    const json* groups = q.raw("config_groups");
    const json* chosen = nullptr;
    if (groups && groups->is_object()) {
      for (const auto& [name, g] : groups->items()) {
        if (!g.is_object()) continue;
        const auto t = g.find("targets");
        const bool linear = t != g.end() && t->is_array() && std::any_of(t->begin(), t->end(), [](const json& x) { return x == "Linear"; });
        if (!chosen || linear) chosen = &g;
        if (linear) break;
      }
    }
    if (chosen && chosen->contains("weights")) m.declared_weights = compressed_tensors_format(chosen->at("weights"));
    if (chosen && chosen->contains("input_activations")) {
      const json& a = chosen->at("input_activations");
      if (a.is_object() && a.value("type", json("")) == "float" && a.value("num_bits", json(0)) == 8) m.declared_activations = "fp8";
    }
    keep_unconverted(q.string_array_or("ignore"), m);
  } else if (method == "modelopt") {
    // quant_algo: FP8 (per-tensor weights and activations), NVFP4, W4A16_AWQ / W4A8_AWQ (int4, groups of 128).
    const std::string algo = q.string_or("quant_algo", "");
    if (algo == "FP8") {
      m.declared_weights = "fp8";
      m.declared_activations = "fp8";
    } else if (algo == "FP8_PB_WO" || algo == "FP8_BLOCK") {
      m.declared_weights = "fp8_block128";
    } else if (algo == "NVFP4") {
      m.declared_weights = "nvfp4";
    } else if (algo == "MIXED_PRECISION") {
      // quantized_layers names each module's algorithm (NVIDIA's MiniMax-M3 NVFP4: the routed experts in NVFP4, the
      // other projections in MXFP8): the experts' and the rest's formats, the first of each.
      const json* layers = q.raw("quantized_layers");
      const auto format = [](const json& v) -> std::string {
        const std::string a = v.is_object() && v.contains("quant_algo") && v["quant_algo"].is_string() ? v["quant_algo"].get<std::string>() : "";
        if (a == "NVFP4") return "nvfp4";
        if (a == "MXFP8") return "mxfp8";
        if (a == "MXFP4") return "mxfp4";
        if (a == "FP8") return "fp8";
        return "";
      };
      if (layers && layers->is_object())
        for (const auto& [name, v] : layers->items()) {
          const bool routed = name.find(".experts.") != std::string::npos && name.find("shared_experts") == std::string::npos;
          std::string& slot = routed ? m.declared_expert_weights : m.declared_weights;
          if (slot.empty()) slot = format(v);
        }
      if (m.declared_weights.empty()) m.declared_weights = m.declared_expert_weights;
    } else if (algo == "W4A16_AWQ" || algo == "W4A8_AWQ") {
      const json* group = q.raw("group_size");
      const i64 g = group && group->is_number_integer() && group->get<i64>() > 0 ? group->get<i64>() : 128;
      m.declared_weights = "int4-g" + std::to_string(g);
      if (!find_dtype(m.declared_weights)) m.declared_weights.clear();
      if (algo == "W4A8_AWQ") m.declared_activations = "fp8";
    }
    // hf_quant_config.json names the kept modules exclude_modules; the config.json a checkpoint publishes, ignore
    // (vLLM's modelopt.py reads both).
    keep_unconverted(q.string_array_or("exclude_modules"), m);
    keep_unconverted(q.string_array_or("ignore"), m);
  } else if (method == "bitsandbytes") {
    // load_in_4bit: NF4 or FP4 codes with one fp32 absmax per 64 weights (nf4, 4.5 bits), or with double
    // quantization an 8-bit absmax per 64 and an fp32 scale per 256 absmaxes (nf4-dq, 4.127 bits).
    // load_in_8bit: LLM.int8(), int8 with row scales.
    if (q.boolean_or("load_in_4bit", false)) m.declared_weights = q.boolean_or("bnb_4bit_use_double_quant", false) ? "nf4-dq" : "nf4";
    else if (q.boolean_or("load_in_8bit", false)) m.declared_weights = "int8";
    keep_unconverted(q.string_array_or("llm_int8_skip_modules"), m);
  } else if (method == "fp8") {
    const json* block = q.raw("weight_block_size");
    const bool b128 = block && block->is_array() && block->size() == 2 && (*block)[0] == 128 && (*block)[1] == 128;
    m.declared_weights = b128 ? "fp8_block128" : "fp8";
    q.raw("fmt");
    const json* scheme = q.raw("activation_scheme");
    if (scheme && scheme->is_string() && (*scheme == "dynamic" || *scheme == "static")) m.declared_activations = "fp8";
  } else if (method == "bitnet") {
    // BitNet b1.58 (transformers' BitNetQuantConfig): quantization_mode "offline" is the checkpoint of ternary
    // weights packed four per byte with one scale per Linear (i2_s); "online" keeps bf16 masters and ternarizes them
    // on the fly, so the stored and loaded weights are bf16. The embedding and the head stay bf16 either way.
    const std::string mode = q.string_or("quantization_mode", "offline");
    q.raw("linear_class");
    if (mode == "offline") {
      m.declared_weights = "i2_s";
    } else {
      online = true;
      m.warnings.push_back(Warning{"model.quantization_online", q.child_path("quantization_mode"),
                                   q.child_path("quantization_mode") + " holds \"" + mode +
                                       "\": the checkpoint keeps bf16 weights and ternarizes them as it runs; weights are "
                                       "forecast in bf16 (set precision.weights to i2_s or tq2_0 for a ternary runtime)"});
    }
  } else if (method == "mxfp4") {
    m.declared_weights = "mxfp4";
  } else if (method == "fbgemm_fp8") {
    // Meta's FP8 releases (Llama-3.1-405B-Instruct-FP8): fp8 weights with a scale per output channel, activations
    // quantized per token on the fly (transformers' FbgemmFp8Config; vLLM's fbgemm_fp8.py).
    m.declared_weights = "fp8";
    m.declared_activations = "fp8";
  } else if (method == "awq" || method == "gptq") {
    const json* bits = q.raw(method == "awq" && q.has("w_bit") ? "w_bit" : "bits");
    const json* group = q.raw(method == "awq" && q.has("q_group_size") ? "q_group_size" : "group_size");
    const char* bits_key = method == "awq" && q.has("w_bit") ? "w_bit" : "bits";
    const char* group_key = method == "awq" && q.has("q_group_size") ? "q_group_size" : "group_size";
    const bool bits_ok = !bits || (bits->is_number_integer() && (bits->get<i64>() == 2 || bits->get<i64>() == 3 ||
                                                                 bits->get<i64>() == 4 || bits->get<i64>() == 8));
    if (!bits_ok)
      q.fail(bits_key, "out_of_range", q.child_path(bits_key) + " holds " + describe(*bits) + "; expected 2, 3, 4 or 8 (bits per weight)");
    const bool group_ok = !group || (group->is_number_integer() && (group->get<i64>() == -1 || (group->get<i64>() >= 8 && group->get<i64>() <= 65536)));
    if (!group_ok)
      q.fail(group_key, "out_of_range", q.child_path(group_key) + " holds " + describe(*group) +
                                            "; expected -1 (one scale per output channel) or a group of 8 to 65536 weights");
    const i64 b = bits ? bits->get<i64>() : 4;
    const i64 g = group ? group->get<i64>() : 128;
    m.declared_weights = g > 0 ? "int" + std::to_string(b) + "-g" + std::to_string(g) : "int" + std::to_string(b);
    if (!find_dtype(m.declared_weights)) m.declared_weights.clear();
  }
  // ModelOpt's mixed precision (NVIDIA's DeepSeek-V4 NVFP4): the routed experts in NVFP4, the rest as declared.
  if (q.string_or("moe_quant_algo", "") == "NVFP4") m.declared_expert_weights = "nvfp4";
  if (m.declared_weights.empty() && !online) {
    m.warnings.push_back(Warning{"model.quantization_not_applied", q.path(),
                                 q.path() + " declares quant_method \"" + method +
                                     "\", which Infercast does not read; weights default to bf16 (set precision.weights)"});
  }
  keep_unconverted(q.string_array_or("modules_to_not_convert"), m);
  for (const auto& key : q.unread()) q.raw(key);  // other keys (version, zero_point, ...) do not change storage
}

namespace {

// How many text_config levels `path` is inside.
int text_config_depth(const std::string& path) {
  int n = 0;
  for (std::size_t at = path.find("/text_config"); at != std::string::npos; at = path.find("/text_config", at + 1)) ++n;
  return n;
}

// Mistral's own params.json (mistral-inference; Devstral, Magistral and Mistral Small publish it beside or instead
// of config.json) as the Hugging Face config it converts to (transformers' convert_mistral_weights_to_hf.py): a
// Mistral, or with `moe` a Mixtral. Keys that change nothing counted are dropped; the rest stay and are reported.
json mistral_params_as_hf(const json& c) {
  static const std::map<std::string, std::string> names = {
      {"dim", "hidden_size"},          {"n_layers", "num_hidden_layers"}, {"head_dim", "head_dim"},
      {"hidden_dim", "intermediate_size"}, {"n_heads", "num_attention_heads"}, {"n_kv_heads", "num_key_value_heads"},
      {"vocab_size", "vocab_size"},    {"norm_eps", "rms_norm_eps"},      {"rope_theta", "rope_theta"},
      {"sliding_window", "sliding_window"}, {"tied_embeddings", "tie_word_embeddings"},
      {"max_seq_len", "max_position_embeddings"}, {"max_position_embeddings", "max_position_embeddings"}};
  json out = {{"model_type", "mistral"}, {"tie_word_embeddings", false}, {"sliding_window", nullptr}};
  for (const auto& [key, value] : c.items()) {
    const auto it = names.find(key);
    if (it != names.end()) {
      out[it->second] = value;
    } else if (key == "moe" && value.is_object()) {
      out["model_type"] = "mixtral";
      if (value.contains("num_experts")) out["num_local_experts"] = value["num_experts"];
      if (value.contains("num_experts_per_tok")) out["num_experts_per_tok"] = value["num_experts_per_tok"];
    } else if (key != "_name_or_path" && key != "lora" && key != "quantization") {
      out[key] = value;  // reported as unused (vision_encoder and anything new)
    }
  }
  return out;
}

ModelSpec parse_config(const json& config, const std::string& path);

// An omni checkpoint (Qwen3OmniMoeConfig): the thinker is read as any multimodal config is; the talker (a second MoE
// decoder that writes speech codes, with its code predictor) and code2wav (the codes to a waveform) are reported,
// not counted: they run after the thinker's tokens, on speech output only.
ModelSpec parse_omni(Reader& top, const json& config, const std::string& path, const std::string& type) {
  Reader thinker = top.object("thinker_config");
  if (path.find("/thinker_config") != std::string::npos)
    top.fail("thinker_config", "invalid", thinker.path() + " is inside another thinker_config; expected one omni wrapper");
  json inner = config.at("thinker_config");
  if (!inner.contains("model_type") || !inner["model_type"].is_string() || inner["model_type"].get<std::string>().empty())
    inner["model_type"] = type + "_thinker";
  ModelSpec m = parse_config(inner, thinker.path());
  const bool speaks = top.boolean_or("enable_audio_output", true);
  for (const char* key : {"talker_config", "code2wav_config"}) {
    if (!top.raw(key) || !speaks) continue;
    m.warnings.push_back(Warning{"model.speech_not_modelled", top.child_path(key),
                                 top.child_path(key) + std::string(key == std::string("talker_config")
                                                                       ? " (the talker, which turns the thinker's output into speech codes)"
                                                                       : " (code2wav, which turns speech codes into a waveform)") +
                                     " is not counted or forecast: parameters, weights in memory and times cover the "
                                     "thinker (text, image and audio in, text out)"});
  }
  std::vector<std::string> unused;
  for (const auto& key : top.unread())
    if (!harmless_keys().count(key) && key.find("token") == std::string::npos) unused.push_back(key);
  note_unused(top, unused, "", m.warnings);
  return m;
}

ModelSpec parse_config(const json& config, const std::string& path) {
  Reader probe(config, path, "model");
  ModelSpec m;
  // Multimodal wrappers keep the language model in text_config.
  std::string type;
  if (probe.has("model_type")) type = probe.string("model_type");
  // Mistral's params.json names its sizes as DeepSeek's inference schema does (dim, n_layers), with hidden_dim
  // where DeepSeek writes inter_dim.
  if (type.empty() && probe.has("n_heads") && !probe.has("inter_dim") && !probe.has("kv_lora_rank") &&
      (probe.has("dim") || probe.has("n_layers") || probe.has("hidden_dim"))) {
    // A params.json without one of its sizes: named as it is spelled there.
    for (const char* key : {"dim", "n_layers", "hidden_dim"})
      if (!probe.has(key))
        probe.fail(key, "missing_field", probe.child_path(key) + " is missing; expected a positive integer (Mistral's params.json: " +
                                             std::string(key == std::string("dim") ? "the hidden size" : key == std::string("n_layers") ? "the number of layers" : "the MLP's width") + ")");
    return parse_config(mistral_params_as_hf(config), path);
  }
  const bool native_deepseek = type.empty() && probe.has("dim") && probe.has("n_layers");
  // Omni models (Qwen3-Omni) keep the multimodal wrapper that understands (the thinker: text_config, vision_config,
  // audio_config) in thinker_config, beside the talker and code2wav that speak.
  if (probe.has("thinker_config")) return parse_omni(probe, config, path, type);
  if (probe.has("text_config")) {
    Reader& top = probe;
    Reader text = top.object("text_config");
    if (text_config_depth(path) >= limit::kTextConfigDepth)
      top.fail("text_config", "out_of_range", text.path() + " nests text_config " + std::to_string(limit::kTextConfigDepth + 1) +
                                                  " levels deep; expected at most " + std::to_string(limit::kTextConfigDepth) +
                                                  " (a multimodal config holds its language model in one text_config)");
    std::string inner = text.string_or("model_type", type);
    json inner_cfg = config.at("text_config");
    if (!inner_cfg.contains("model_type") || inner_cfg["model_type"].is_null()) inner_cfg["model_type"] = type;
    // The LM head belongs to the wrapper: where the text config does not say whether it is tied, the wrapper's
    // tie_word_embeddings does (Qwen3-VL writes it at the top level only).
    if (!inner_cfg.contains("tie_word_embeddings") && config.contains("tie_word_embeddings"))
      inner_cfg["tie_word_embeddings"] = config.at("tie_word_embeddings");
    // So does the checkpoint's quantization_config (Kimi-K2.5 writes it beside text_config).
    if (!inner_cfg.contains("quantization_config") && config.contains("quantization_config")) {
      inner_cfg["quantization_config"] = config.at("quantization_config");
      top.raw("quantization_config");
    }
    ModelSpec inner_spec = parse_config(inner_cfg, text.path());
    if (inner_spec.model_type.empty()) inner_spec.model_type = inner;
    // The vision encoder and its projector (io/config_vision.cpp), or a warning that it is not modelled.
    // A null encoder config (Gemma 4's 31B writes "audio_config": null) means the model has none.
    if (top.has("vision_config")) read_vision_config(top, type, inner_spec);
    else top.raw("vision_config");
    if (top.has("audio_config")) read_audio_config(top, type, inner_spec, m.warnings);
    else top.raw("audio_config");
    // Qwen3-Omni's thinker: how audio and video positions advance, which changes no count.
    if (type == "qwen3_omni_moe_thinker") config_ignore(top, {"position_id_per_seconds", "seconds_per_chunk"});
    // Kimi K2.5: the video prompt's placeholder, how vision chunks are batched and the loss's ignore index.
    if (type == "kimi_k25") config_ignore(top, {"video_placeholder", "use_unified_vision_chunk", "ignore_index"});
    std::vector<std::string> unused;
    for (const auto& key : top.unread())
      if (!harmless_keys().count(key) && key.find("token") == std::string::npos) unused.push_back(key);
    note_unused(top, unused, "", m.warnings);
    for (auto& w : m.warnings) inner_spec.warnings.insert(inner_spec.warnings.begin(), w);
    return inner_spec;
  }
  if (type.empty() && !native_deepseek) {
    if (probe.has("model_type")) probe.string("model_type");  // null or another type: refused as such
    type = type_from_architectures(config, path, m.warnings);
  }
  const FamilyTraits& family = native_deepseek ? *find_family("deepseek_v3") : family_of_config(config, path, type, m.warnings);
  m.model_type = native_deepseek ? "deepseek_v3" : type;
  // transformers' defaults fill what the config omits (the native DeepSeek schema has no transformers class).
  std::vector<std::string> filled;
  const json doc = native_deepseek ? config : with_family_defaults(config, family, filled);
  if (!native_deepseek) check_schema(config, family, filled, path);
  Reader top(doc, path, "model");
  top.raw("model_type");
  for (const auto& key : family.ignored_keys) top.raw(key);
  Ctx c{top, m};
  switch (family.layout) {
    case Layout::LlamaLike: parse_llama_like(c, family); break;
    case Layout::Falcon: parse_falcon(c, type); break;
    case Layout::DeepSeek:
      parse_deepseek(c, native_deepseek, family);
      break;
    case Layout::Dbrx: parse_dbrx(top, m); break;
    case Layout::GatedDeltaNet: parse_gated_deltanet_hybrid(top, m, family); break;
    case Layout::MiniMax: parse_minimax(top, m, family); break;
    case Layout::BailingLinear: parse_bailing_linear(top, m); break;
    case Layout::Lfm2: parse_lfm2(top, m, family); break;
    case Layout::NemotronH: parse_nemotron_h(top, m, family); break;
    case Layout::Jamba: parse_jamba(top, m, family); break;
    case Layout::FalconH1: parse_falcon_h1(top, config, m, family); break;
    case Layout::GraniteHybrid: parse_granite_hybrid(top, m, family); break;
    case Layout::Mamba: parse_mamba(top, m, family); break;
    case Layout::Bamba: parse_bamba(top, m, family); break;
    case Layout::RecurrentGemma: parse_recurrent_gemma(top, m); break;
    case Layout::Gemma3n: parse_gemma3n(top, m); break;
    case Layout::Gemma4: parse_gemma4(top, m, family.model_type == std::string("gemma4_unified_text")); break;
    case Layout::DeepSeekV4: parse_deepseek_v4(top, m); break;
    case Layout::MiMoV2: parse_mimo_v2_flash(top, m); break;
    case Layout::MiniMaxM3: parse_minimax_m3(top, m); break;
    case Layout::Step3p7: parse_step3p7(top, m); break;
    case Layout::Laguna: parse_laguna(top, m); break;
    case Layout::DeciLM: parse_decilm(top, m); break;
    case Layout::KimiLinear: parse_kimi_linear(top, m); break;
    case Layout::LongcatFlash: parse_longcat_flash(top, m); break;
  }
  // A multimodal config with the text model's keys at the top level (Qwen2.5-VL's own format; MiMo-V2.5's audio too).
  if (top.has("vision_config")) read_vision_config(top, type, m);
  if (top.has("audio_config")) read_audio_config(top, type, m, m.warnings);
  // Quantization declared by the checkpoint.
  // mlx-lm writes its scheme as `quantization` (and often again as `quantization_config`).
  if (top.has("quantization_config")) {
    read_quantization(top.object("quantization_config"), m);
    top.raw("quantization");
  } else if (top.has("quantization")) {
    read_quantization(top.object("quantization"), m);
  }
  check_total(m, path);  // before the notes: a config past the limit is refused whatever else it says
  std::vector<std::string> unused;
  for (const auto& key : top.unread()) {
    if (harmless_keys().count(key) || key.find("token_id") != std::string::npos) continue;
    if (std::find(filled.begin(), filled.end(), key) != filled.end()) continue;  // a default nobody read
    unused.push_back(key);
  }
  note_unused(top, unused, "; check that it does not change the architecture", m.warnings);
  note_defaults(family, doc, filled, path, m.warnings);
  return m;
}

}  // namespace

ModelSpec parse_model_config(const json& config, const std::string& path) {
  try {
    ModelSpec m = parse_config(config, path);
    check_total(m, path);  // with the vision and audio towers a wrapper adds around its text model
    if (m.mtp_layers > limit::kModelLayers)
      throw InputError("model.out_of_range", path,
                       (path.empty() ? std::string("the config") : path) + " describes " + std::to_string(m.mtp_layers) +
                           " MTP layers (num_nextn_predict_layers or its family's key); expected at most " +
                           std::to_string(limit::kModelLayers));
    return m;
  } catch (const InputError& e) {
    // A non-finite number (Python's json writes NaN and Infinity) where a finite one is computed with: the
    // message names the field, and here the model whose config holds it.
    if (config.is_object() && non_finite_at(config, path, e.path()))
      throw InputError(e.code(), e.path(), std::string(e.what()) + " (in the config of " + model_label(config) + ")");
    throw;
  }
}

ModelPreset parse_model_preset(const json& doc, const std::string& path, const std::string& code_prefix) {
  Reader r(doc, path, code_prefix);
  ModelPreset p;
  const auto version = r.positive_int("schema_version");
  if (version != 1)
    r.fail("schema_version", "unsupported", r.child_path("schema_version") + " holds " + std::to_string(version) + "; expected 1");
  p.id = r.string("id");
  p.name = r.string("name");
  p.source = r.string("source");
  p.notes = r.string_or("notes", "");
  Reader stated = r.object("stated_params");
  p.stated_total = stated.string("total");
  p.stated_active = stated.string_or("active", "");
  stated.string_or("source", "");
  stated.reject_unknown();
  r.object("config");
  p.config = doc.at("config");
  r.reject_unknown();
  return p;
}

}  // namespace infercast
