#include "io/dbrx.hpp"

#include "io/config_common.hpp"

namespace infercast {

void parse_dbrx(Reader& top, ModelSpec& m) {
  const i64 h = top.positive_int("d_model");
  const i64 nh = top.positive_int("n_heads");
  const i64 L = config_layer_count(top, "n_layers");
  m.hidden = h;
  m.vocab = top.positive_int("vocab_size");
  m.max_position = top.nonneg_int_or("max_seq_len", 0);
  m.norm = NormKind::Layer;
  m.norm_bias = false;
  if (top.boolean_or("tie_word_embeddings", false))
    top.fail("tie_word_embeddings", "unsupported",
             top.child_path("tie_word_embeddings") + " holds true; DBRX has an untied LM head (DbrxConfig refuses tying)");
  m.tied_embeddings = false;
  if (h % nh != 0)
    top.fail("d_model", "invalid", top.child_path("d_model") + " holds " + std::to_string(h) + ", which is not a multiple of " +
                                       top.child_path("n_heads") + " (" + std::to_string(nh) + ")");
  // DbrxAttentionConfig and DbrxFFNConfig defaults where the nested objects omit a field.
  i64 nkv = 1, width = 3584, experts = 4, top_k = 1;
  std::string act = "silu";
  if (top.has("attn_config")) {
    Reader a = top.object("attn_config");
    nkv = a.positive_int_or("kv_n_heads", 1);
    for (const auto& key : a.unread()) a.raw(key);  // clip_qkv, rope_theta, attn_pdrop: no parameters, no FLOPs counted
  } else {
    top.raw("attn_config");
  }
  if (top.has("ffn_config")) {
    Reader f = top.object("ffn_config");
    width = f.positive_int_or("ffn_hidden_size", 3584);
    experts = f.positive_int_or("moe_num_experts", 4);
    top_k = f.positive_int_or("moe_top_k", 1);
    if (f.has("ffn_act_fn")) {
      Reader fn = f.object("ffn_act_fn");
      act = fn.string_or("name", "silu");
      for (const auto& key : fn.unread()) fn.raw(key);
    }
    for (const auto& key : f.unread()) f.raw(key);  // moe_jitter_eps, moe_loss_weight, ...: training only
    if (top_k > experts)
      throw InputError("model.invalid", f.child_path("moe_top_k"),
                       f.child_path("moe_top_k") + " holds " + std::to_string(top_k) + ", more than the number of experts (" +
                           std::to_string(experts) + ")");
  } else {
    top.raw("ffn_config");
  }
  if (nkv > nh || nh % nkv != 0)
    throw InputError("model.invalid", top.child_path("attn_config") + "/kv_n_heads",
                     top.child_path("attn_config") + "/kv_n_heads holds " + std::to_string(nkv) + ", which does not divide " +
                         top.child_path("n_heads") + " (" + std::to_string(nh) + ")");
  m.activation = act;
  AttentionSpec a;
  a.n_heads = nh;
  a.n_kv_heads = nkv;
  a.head_dim = h / nh;
  a.v_head_dim = a.head_dim;
  a.rope_dim = a.head_dim;
  a.fused_qkv = true;
  FfnSpec f;
  f.moe = true;
  f.gated = true;
  f.n_experts = experts;
  f.top_k = top_k;
  f.expert_intermediate = width;
  f.intermediate = width;
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    layer.ffn = f;
    layer.norms = 2;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
