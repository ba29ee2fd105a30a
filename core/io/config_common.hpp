// What the config readers of the hybrid families share (internal to io/): bounded layer counts, head sizes, head
// divisibility, the keys that change no count, and the dense or MoE feed-forward of a layer.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "io/families.hpp"
#include "io/json_reader.hpp"
#include "model/count.hpp"
#include "model/model.hpp"

namespace infercast {

// A layer count, bounded so that a typo cannot allocate a trillion layer records.
i64 config_layer_count(Reader& r, const std::string& key);
// floor(x * f) for a share f in [0, 1] of a size x (a rotary factor): from 0 to x, never a cast out of range.
i64 config_share(i64 x, double f);
// The layers an integer list at `key` names (mlp_only_layers, moe_layers): whether each of the n layers is listed.
// Entries outside 0..n-1 name no layer and are skipped, as transformers' `i in list` tests skip them; linear in the
// list and the layers. Absent or null: none listed.
std::vector<bool> config_listed_layers(Reader& r, const char* key, i64 n);
// head_dim when given (key `head_dim_key`), else hidden / heads (refused when it does not divide).
i64 config_head_dim(Reader& r, i64 hidden, i64 heads, const char* heads_key, const char* head_dim_key = "head_dim");
// Refuses KV heads (or key heads, or groups) that do not divide the heads.
void config_check_divides(Reader& r, i64 heads, i64 kv, const char* heads_key, const char* kv_key);
// Keys that change no count, FLOP or byte (residual and logit scalings, numerics, initialization, kernel switches):
// read so they are not reported as unused.
void config_ignore(Reader& r, std::initializer_list<const char*> keys);
// The config's storage type for a recurrent state ("float32", "bfloat16", ...) as bits, 0 when absent.
int config_state_bits(Reader& r, const std::string& key, int fallback);
// A standard attention layer of the config's usual keys.
AttentionSpec config_attention(Reader& r, i64 hidden, bool rope);
// Refuses top-k above the expert count, naming the key.
void config_check_top_k(Reader& r, const FfnSpec& f, const char* key);
// A per-layer list of two names at `key` (transformers' layer_types, mlp_layer_types): whether each of the L layers
// holds `b` rather than `a`; empty when the config has no such key. Longer lists are cut to L (some checkpoints list
// their MTP layers too); a shorter list or another name is refused, naming the entry.
std::vector<bool> config_layer_list(Reader& r, const char* key, i64 L, const char* a, const char* b);
// transformers 5's mlp_layer_types ("dense" or "sparse"): whether each layer has experts.
inline std::vector<bool> config_mlp_layer_types(Reader& r, i64 L) { return config_layer_list(r, "mlp_layer_types", L, "dense", "sparse"); }
// How a per-layer list's length is checked against the layer count: one entry a layer, or at least one (the first
// L read: some checkpoints list their MTP layers too).
enum class PerLayer { Exactly, AtLeast };
// Refuses a per-layer list at `key` of n entries for L layers that breaks `rule` ("model.invalid": "<path> has n
// entries; expected one per layer (L)", then `alternative`, such as " or a single integer").
void config_check_per_layer(Reader& r, const std::string& key, std::size_t n, i64 L, PerLayer rule, const char* alternative = "");
// Refuses a key that is set and names a mechanism Infercast does not model ("model.unsupported").
[[noreturn]] void not_modelled(Reader& r, const std::string& key, const std::string& what);

// The fields every decoder config states the same way, with the family's transformers defaults: hidden_size,
// num_hidden_layers (bounded), vocab_size, max_position_embeddings, tie_word_embeddings, hidden_act and
// num_nextn_predict_layers. Fills `m` and returns the layer count.
struct DecoderDefaults {
  i64 hidden = 4096, layers = 32, vocab = 32000, max_position = 4096, mtp_layers = 0;
  bool tied = false;
};
i64 config_decoder_basics(Reader& r, ModelSpec& m, const DecoderDefaults& d);

}  // namespace infercast
