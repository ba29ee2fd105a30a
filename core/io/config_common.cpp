#include "io/config_common.hpp"

#include <algorithm>
#include <cmath>

#include "util/limits.hpp"

namespace infercast {

i64 config_layer_count(Reader& r, const std::string& key) {
  const i64 L = r.positive_int(key);
  if (L > limit::kModelLayers)
    r.fail(key, "out_of_range", r.child_path(key) + " holds " + std::to_string(L) + "; expected at most " +
                                    std::to_string(limit::kModelLayers) + " layers");
  return L;
}

i64 config_share(i64 x, double f) {
  if (!(f < 1)) return x;
  if (!(f > 0) || x <= 0) return 0;
  const double v = std::floor(static_cast<double>(x) * f);
  return v >= 9.2e18 ? x : std::min(x, static_cast<i64>(v));
}

std::vector<bool> config_listed_layers(Reader& r, const char* key, i64 n) {
  std::vector<bool> out(static_cast<std::size_t>(std::max<i64>(n, 0)), false);
  for (const i64 i : r.int_array_or(key))
    if (i >= 0 && i < n) out[static_cast<std::size_t>(i)] = true;
  return out;
}

i64 config_head_dim(Reader& r, i64 hidden, i64 heads, const char* heads_key, const char* head_dim_key) {
  if (auto hd = r.optional_positive_int(head_dim_key)) return *hd;
  r.raw(head_dim_key);
  if (hidden % heads != 0)
    throw InputError("model.invalid", r.child_path("hidden_size"),
                     r.child_path("hidden_size") + " holds " + std::to_string(hidden) + ", which is not a multiple of " +
                         r.child_path(heads_key) + " (" + std::to_string(heads) + "); give " + head_dim_key + " explicitly");
  return hidden / heads;
}

void config_check_divides(Reader& r, i64 heads, i64 kv, const char* heads_key, const char* kv_key) {
  if (kv > heads || heads % kv != 0)
    throw InputError("model.invalid", r.child_path(kv_key),
                     r.child_path(kv_key) + " holds " + std::to_string(kv) + ", which does not divide " +
                         r.child_path(heads_key) + " (" + std::to_string(heads) + ")");
}

void not_modelled(Reader& r, const std::string& key, const std::string& what) {
  throw InputError("model.unsupported", r.child_path(key),
                   r.child_path(key) + " is set: " + what + " is not modelled by Infercast; remove it only if the model does not use it");
}

i64 config_decoder_basics(Reader& r, ModelSpec& m, const DecoderDefaults& d) {
  m.hidden = r.positive_int_or("hidden_size", d.hidden);
  const i64 layers = r.has("num_hidden_layers") ? config_layer_count(r, "num_hidden_layers") : d.layers;
  r.raw("num_hidden_layers");
  m.vocab = r.positive_int_or("vocab_size", d.vocab);
  m.max_position = r.nonneg_int_or("max_position_embeddings", d.max_position);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", d.tied);
  m.activation = r.string_or("hidden_act", "silu");
  m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", d.mtp_layers);
  return layers;
}

void config_ignore(Reader& r, std::initializer_list<const char*> keys) {
  for (const char* k : keys) r.raw(k);
}

int config_state_bits(Reader& r, const std::string& key, int fallback) {
  if (!r.has(key)) {
    r.raw(key);
    return fallback;
  }
  const std::string t = r.string(key);
  if (t == "float32" || t == "fp32") return 32;
  if (t == "bfloat16" || t == "float16" || t == "bf16" || t == "fp16") return 16;
  if (t == "auto") return 0;
  r.fail(key, "out_of_range", r.child_path(key) + " holds \"" + t + "\"; expected float32, bfloat16, float16 or auto");
}

AttentionSpec config_attention(Reader& r, i64 hidden, bool rope) {
  AttentionSpec a;
  a.n_heads = r.positive_int("num_attention_heads");
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", a.n_heads);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = config_head_dim(r, hidden, a.n_heads, "num_attention_heads");
  a.v_head_dim = a.head_dim;
  a.rope_dim = rope ? a.head_dim : 0;
  return a;
}

void config_check_per_layer(Reader& r, const std::string& key, std::size_t n, i64 L, PerLayer rule, const char* alternative) {
  const i64 count = static_cast<i64>(n);
  if (rule == PerLayer::AtLeast ? count >= L : count == L) return;
  r.fail(key, "invalid", r.child_path(key) + " has " + std::to_string(n) + " entries; expected one per layer (" + std::to_string(L) + ")" +
                             alternative);
}

std::vector<bool> config_layer_list(Reader& r, const char* key, i64 L, const char* a, const char* b) {
  std::vector<bool> out;
  if (!r.has(key)) return out;
  const auto t = r.string_array_or(key);
  config_check_per_layer(r, key, t.size(), L, PerLayer::AtLeast);
  out.resize(static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    const auto& s = t[static_cast<std::size_t>(i)];
    if (s != a && s != b) {
      const std::string at = r.child_path(key) + "/" + std::to_string(i);
      throw InputError("model.unsupported", at, at + " holds \"" + s + "\"; expected " + a + " or " + b);
    }
    out[static_cast<std::size_t>(i)] = s == b;
  }
  return out;
}

void config_check_top_k(Reader& r, const FfnSpec& f, const char* key) {
  if (f.moe && f.top_k > f.n_experts)
    throw InputError("model.invalid", r.child_path(key),
                     r.child_path(key) + " holds " + std::to_string(f.top_k) + ", more than the number of experts (" +
                         std::to_string(f.n_experts) + ")");
}

}  // namespace infercast
