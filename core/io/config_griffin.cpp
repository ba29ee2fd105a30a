// RecurrentGemma (Griffin; De et al. 2024): transformers' configuration_recurrent_gemma.py and
// modeling_recurrent_gemma.py. Layers follow block_types' cycle (the default recurrent, recurrent, attention);
// the released checkpoints write it as `_block_types`, an older attribute name that transformers no longer reads, so
// it is read here when block_types is absent (the same cycle for recurrentgemma-2b). Every layer has a temporal and
// a channel pre-norm and a gated GeLU MLP of intermediate_size / 2 whose three projections have biases.
#include "io/config_hybrid.hpp"

#include <string>
#include <vector>

namespace infercast {

void parse_recurrent_gemma(Reader& r, ModelSpec& m) {
  const i64 L = read_hybrid_frame(r, m, {2560, 26, 256000, 0, true});
  const i64 h = m.hidden;
  m.max_position = 0;  // local attention and a recurrence: no trained window bounds the context
  m.activation = r.string_or("hidden_activation", "gelu_pytorch_tanh");
  config_ignore(r, {"rms_norm_eps", "rope_theta", "embeddings_scale_by_sqrt_dim", "w_init_variance_scale",
                    "final_w_init_variance_scale", "attention_dropout", "initializer_range", "use_cache"});
  if (r.has("logits_soft_cap"))
    m.warnings.push_back(Warning{"model.assumed", r.child_path("logits_soft_cap"),
                                 r.child_path("logits_soft_cap") + " adds a tanh per logit that is not counted"});
  r.raw("logits_soft_cap");

  // RecurrentGemmaSdpaAttention: local attention over attention_window_size tokens, RoPE on partial_rotary_factor
  // of each head, q/k/v biases with attention_bias, o_proj always with a bias.
  AttentionSpec a = config_attention(r, h, true);
  a.rope_dim = config_share(a.head_dim, r.number_in_or("partial_rotary_factor", 0, 1, 0.5));
  a.window = r.positive_int_or("attention_window_size", 2048);
  a.qkv_bias = r.boolean_or("attention_bias", false);
  a.o_bias = true;

  RecurrentSpec g;
  g.kind = RecurrentKind::RgLru;
  const i64 width = r.has("lru_width") ? r.positive_int("lru_width") : h;
  r.raw("lru_width");
  g.heads = a.n_heads;  // the gates' blocks: num_attention_heads of them
  if (width % g.heads != 0)
    throw InputError("model.invalid", r.child_path("lru_width"),
                     r.child_path("lru_width") + " holds " + std::to_string(width) + ", which is not a multiple of " +
                         r.child_path("num_attention_heads") + " (" + std::to_string(g.heads) + ")");
  g.head_dim = width / g.heads;
  g.groups = 0;
  g.state_dim = 1;
  g.conv_kernel = r.positive_int_or("conv1d_width", 4);
  g.conv_bias = g.in_bias = g.out_bias = true;
  g.norm = false;
  g.chunk = 1;
  g.state_bits = 32;  // the recurrence's state is kept in float32 (RecurrentGemmaRglru)

  FfnSpec mlp;  // RecurrentGemmaMlp: gate_proj and up_proj of intermediate_size // 2, down_proj, all with biases
  mlp.intermediate = r.positive_int_or("intermediate_size", 7680) / 2;
  mlp.bias = true;
  if (mlp.intermediate == 0)
    r.fail("intermediate_size", "out_of_range", r.child_path("intermediate_size") + " holds 1; expected at least 2 (the MLP is half as wide)");

  const char* key = r.has("block_types") ? "block_types" : "_block_types";
  std::vector<std::string> cycle = r.string_array_or(key);
  if (std::string(key) == "_block_types") r.raw("block_types");
  else r.raw("_block_types");
  if (cycle.empty()) cycle = {"recurrent", "recurrent", "attention"};
  for (std::size_t i = 0; i < cycle.size(); ++i)
    if (cycle[i] != "recurrent" && cycle[i] != "attention")
      throw InputError("model.unsupported", r.child_path(key) + "/" + std::to_string(i),
                       r.child_path(key) + "/" + std::to_string(i) + " holds \"" + cycle[i] + "\"; expected recurrent or attention");
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    if (cycle[static_cast<std::size_t>(i) % cycle.size()] == "attention") layer.attn = a;
    else {
      layer.has_attention = false;
      layer.recurrent = g;
    }
    layer.ffn = mlp;  // temporal_pre_norm and channel_pre_norm: the default two norms
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
