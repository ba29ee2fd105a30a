// Nemotron-NAS (DeciLM). The structure is vLLM's models/nemotron_nas.py (DeciLMDecoderLayer) and the checkpoints'
// modeling_decilm.py: a block whose attention is no_op has no attention and no input norm, one whose FFN is no_op no
// MLP and no post-attention norm; an MLP of ffn_mult is int(2 x ffn_mult x h / 3) wide, rounded up to a multiple of
// 256 (_ffn_mult_to_intermediate_size). Blocks replaced by a linear layer (replace_with_linear) are refused.
#include "io/config_decilm.hpp"

#include <string>

#include "util/limits.hpp"

namespace infercast {

void parse_decilm(Reader& r, ModelSpec& m) {
  const i64 h = r.positive_int("hidden_size");
  m.hidden = h;
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "silu");
  // Llama's RoPE scaling and numerics; intermediate_size and num_key_value_heads are null: every block says its own.
  config_ignore(r, {"rope_scaling", "rope_theta", "pretraining_tp", "intermediate_size", "num_key_value_heads"});
  const bool bias = r.boolean_or("attention_bias", false);
  const bool mlp_bias = r.boolean_or("mlp_bias", false);
  const i64 heads = r.positive_int("num_attention_heads");
  const i64 head_dim = config_head_dim(r, h, heads, "num_attention_heads");
  std::vector<Reader> blocks = r.object_array("block_configs");
  if (static_cast<i64>(blocks.size()) > limit::kModelLayers)
    r.fail("block_configs", "out_of_range", r.child_path("block_configs") + " has " + std::to_string(blocks.size()) +
                                                " entries; expected at most " + std::to_string(limit::kModelLayers) + " layers");
  if (r.has("num_hidden_layers")) {
    const i64 L = config_layer_count(r, "num_hidden_layers");
    config_check_per_layer(r, "block_configs", blocks.size(), L, PerLayer::Exactly);
  }
  for (auto& b : blocks) {
    LayerSpec layer;
    layer.norms = 0;
    Reader at = b.object("attention");
    if (at.boolean_or("replace_with_linear", false)) not_modelled(at, "replace_with_linear", "an attention block replaced by a linear layer");
    if (at.has("window_length")) not_modelled(at, "window_length", "a windowed attention block");
    if (at.has("sparsify")) not_modelled(at, "sparsify", "a sparsified attention block");
    if (at.boolean_or("no_op", false)) {
      layer.has_attention = false;
    } else {
      AttentionSpec a;
      a.n_heads = heads;
      const i64 group = at.positive_int("n_heads_in_group");
      config_check_divides(at, heads, group, "n_heads_in_group", "n_heads_in_group");
      a.n_kv_heads = heads / group;
      a.head_dim = a.v_head_dim = a.rope_dim = head_dim;
      a.qkv_bias = a.o_bias = bias;
      layer.attn = a;
      layer.norms += 1;  // input_layernorm
    }
    // Sink tokens and prefill windows of sink attention, unset on the released checkpoints: no count changes.
    for (const auto& key : at.unread()) at.raw(key);
    Reader f = b.object("ffn");
    if (f.boolean_or("replace_with_linear", false)) not_modelled(f, "replace_with_linear", "an FFN block replaced by a linear layer");
    if (f.has("sparsify")) not_modelled(f, "sparsify", "a sparsified FFN block");
    if (f.boolean_or("no_op", false)) {
      layer.has_ffn = false;
    } else {
      FfnSpec mlp;
      mlp.bias = mlp_bias;
      if (f.has("ffn_mult")) {
        const double mult = f.number_in("ffn_mult", 0, 1000);
        const double exact = 2 * mult * static_cast<double>(h) / 3;
        if (!(exact < 1e15))  // past any model's width, and past exact doubles
          f.fail("ffn_mult", "out_of_range", f.child_path("ffn_mult") + " gives an MLP " + number_text(json(exact)) +
                                                 " wide (2/3 x ffn_mult x hidden_size); expected at most 1e15");
        i64 width = static_cast<i64>(exact);
        if (width % 256 != 0) width += 256 - width % 256;
        if (width <= 0) f.fail("ffn_mult", "invalid", f.child_path("ffn_mult") + " gives an MLP of no width");
        mlp.intermediate = width;
      } else {
        mlp.intermediate = f.positive_int("intermediate_size");
      }
      layer.ffn = mlp;
      layer.norms += 1;  // post_attention_layernorm
    }
    for (const auto& key : f.unread()) f.raw(key);
    for (const auto& key : b.unread()) b.raw(key);
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
