// GGUF headers of published models, written here as llama.cpp's converter writes them (tensor names, shapes in
// ggml order, the metadata keys each architecture stores: docs/formulas.md, "GGUF"; shapes from the preset's own
// config.json), read back to the config of the same model: parameters exact to the integer, the same KV bytes per
// token, the same sliding, chunked and global layers. What llama.cpp leaves out of a text GGUF (vision towers,
// DeepSeek's MTP module) or adds (Llama 4's rope_freqs) is accounted for by name.
#include <catch2/catch.hpp>
#include <array>
#include <limits>
#include <nlohmann/json.hpp>

#include "api/api.hpp"
#include "configs.hpp"
#include "gguf_writer.hpp"

using namespace infercast;
using test::GgufFile;
using u64 = std::uint64_t;

namespace {

constexpr std::uint32_t BF16 = 30, MXFP4 = 39;

json text_config(const std::string& id) {
  const json& c = find_model_preset(id)->config;
  return c.contains("text_config") ? c["text_config"] : c;
}
u64 get(const json& c, const char* k) { return static_cast<u64>(c.at(k).get<double>()); }

// The sizes of a mixture-of-experts config with plain attention (gpt-oss, Llama 4).
std::array<u64, 8> moe_dims(const json& c) {
  return {get(c, "hidden_size"),         get(c, "num_hidden_layers"), get(c, "num_attention_heads"),
          get(c, "num_key_value_heads"), get(c, "head_dim"),          get(c, "intermediate_size"),
          get(c, "num_local_experts"),   get(c, "vocab_size")};
}

json read_back(const GgufFile& f) {
  const auto env = nlohmann::json::parse(call_bytes("gguf", f.bytes()));
  INFO(env.dump().substr(0, 2000));
  REQUIRE(env["ok"].get<bool>());
  return env["value"];
}

// The same model: every layer's attention window, chunk, heads and KV bytes, and its feed-forward kind.
void check_same_layers(const ModelSpec& a, const ModelSpec& b) {
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    INFO("layer " << i);
    CHECK(a.layers[i].attn.window == b.layers[i].attn.window);
    CHECK(a.layers[i].attn.chunk == b.layers[i].attn.chunk);
    CHECK(a.layers[i].attn.n_heads == b.layers[i].attn.n_heads);
    CHECK(kv_bytes_per_token_layer(a.layers[i].attn, 2) == kv_bytes_per_token_layer(b.layers[i].attn, 2));
    CHECK(a.layers[i].ffn.moe == b.layers[i].ffn.moe);
  }
}

void common(GgufFile& f, const std::string& arch, const json& c) {
  f.text("general.architecture", arch);
  f.text("general.name", "published " + arch);
  f.u32(arch + ".block_count", static_cast<std::uint32_t>(get(c, "num_hidden_layers")));
  // Google's Gemma 3 configs leave the context and vocabulary to transformers' defaults (Gemma3TextConfig).
  f.u32(arch + ".context_length", static_cast<std::uint32_t>(c.value("max_position_embeddings", 131072.0)));
  f.u32(arch + ".embedding_length", static_cast<std::uint32_t>(get(c, "hidden_size")));
  f.u32(arch + ".attention.head_count", static_cast<std::uint32_t>(get(c, "num_attention_heads")));
}

// One Gemma layer's tensors: attention with its q/k norms (Gemma 3 on), four norms around attention and MLP.
void gemma_layer(GgufFile& f, const std::string& b, u64 H, u64 nh, u64 nkv, u64 hd, u64 ff, bool qk_norm) {
  f.tensor(b + "attn_norm.weight", {H});
  f.tensor(b + "attn_q.weight", {H, nh * hd}, BF16);
  f.tensor(b + "attn_k.weight", {H, nkv * hd}, BF16);
  f.tensor(b + "attn_v.weight", {H, nkv * hd}, BF16);
  f.tensor(b + "attn_output.weight", {nh * hd, H}, BF16);
  if (qk_norm) f.tensor(b + "attn_q_norm.weight", {hd}), f.tensor(b + "attn_k_norm.weight", {hd});
  f.tensor(b + "post_attention_norm.weight", {H});
  f.tensor(b + "ffn_norm.weight", {H});
  f.tensor(b + "ffn_gate.weight", {H, ff}, BF16);
  f.tensor(b + "ffn_up.weight", {H, ff}, BF16);
  f.tensor(b + "ffn_down.weight", {ff, H}, BF16);
  f.tensor(b + "post_ffw_norm.weight", {H});
}

// Gemma 2 and Gemma 3 (gemma.py: Gemma2Model, Gemma3Model): tied embeddings, four norms a layer, q/k norms in 3.
GgufFile gemma(const std::string& arch, const json& c, bool qk_norm, bool window = true) {
  GgufFile f;
  common(f, arch, c);
  const u64 H = get(c, "hidden_size"), L = get(c, "num_hidden_layers"), nh = get(c, "num_attention_heads"),
            nkv = get(c, "num_key_value_heads"), hd = get(c, "head_dim"), ff = get(c, "intermediate_size"),
            V = static_cast<u64>(c.value("vocab_size", 262208.0));
  f.u32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(nkv));
  f.u32(arch + ".feed_forward_length", static_cast<std::uint32_t>(ff));
  f.u32(arch + ".attention.key_length", static_cast<std::uint32_t>(hd));
  f.u32(arch + ".attention.value_length", static_cast<std::uint32_t>(hd));
  if (window) f.u32(arch + ".attention.sliding_window", static_cast<std::uint32_t>(get(c, "sliding_window")));
  f.tensor("token_embd.weight", {H, V}, BF16);
  f.tensor("output_norm.weight", {H});
  for (u64 i = 0; i < L; ++i) gemma_layer(f, "blk." + std::to_string(i) + ".", H, nh, nkv, hd, ff, qk_norm);
  return f;
}

}  // namespace

TEST_CASE("GGUF of Gemma 2 and Gemma 3 reads back to the published models", "[gguf][published]") {
  {
    const json c = text_config("gemma-2-9b");
    const json v = read_back(gemma("gemma2", c, false));
    const ModelSpec g = parse_model_config(v["config"], "/config");
    const ModelSpec p = test::preset_model("gemma-2-9b");
    CHECK(v["config"]["model_type"] == "gemma2");
    CHECK(count_params(g).total == count_params(p).total);
    CHECK(v["params_total"].get<i64>() == count_params(p).total);
    check_same_layers(g, p);
  }
  {
    // Gemma 3 27B: the text GGUF holds no vision tower (it goes to the mmproj file).
    const json c = text_config("gemma-3-27b-it");
    const json v = read_back(gemma("gemma3", c, true));
    const ModelSpec g = parse_model_config(v["config"], "/config");
    const ModelSpec p = test::preset_model("gemma-3-27b-it");
    CHECK(v["config"]["model_type"] == "gemma3_text");
    CHECK(count_params(g).total == count_params(p).total - count_params(p).vision);
    CHECK(v["params_total"].get<i64>() == count_params(g).total);
    check_same_layers(g, p);
    CHECK(g.layers[4].attn.window == 1024);
    CHECK(g.layers[5].attn.window == 0);  // five sliding layers, then a global one
  }
  {
    // A Gemma 3 file without a window: llama.cpp's loader slides nowhere.
    const json v = read_back(gemma("gemma3", text_config("gemma-3-4b-text"), true, false));
    const ModelSpec g = parse_model_config(v["config"], "/config");
    for (const auto& l : g.layers) CHECK(l.attn.window == 0);
  }
}

TEST_CASE("GGUF of gpt-oss reads back to the published model: sinks, biases, MXFP4 experts", "[gguf][published]") {
  const json c = text_config("gpt-oss-20b");
  const auto [H, L, nh, nkv, hd, I, E, V] = moe_dims(c);
  GgufFile f;
  common(f, "gpt-oss", c);
  f.u32s("gpt-oss", {
      {"attention.head_count_kv", nkv},
      {"feed_forward_length", I},
      {"expert_feed_forward_length", I},
      {"attention.key_length", hd},
      {"attention.value_length", hd},
      {"expert_count", E},
      {"expert_used_count", get(c, "num_experts_per_tok")},
      {"attention.sliding_window", get(c, "sliding_window")}});
  f.tensor("token_embd.weight", {H, V}, BF16);
  f.tensor("output_norm.weight", {H});
  f.tensor("output.weight", {H, V}, BF16);
  for (u64 i = 0; i < L; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    f.tensor(b + "attn_norm.weight", {H});
    f.tensor(b + "post_attention_norm.weight", {H});
    f.tensor(b + "attn_q.weight", {H, nh * hd}, BF16), f.tensor(b + "attn_q.bias", {nh * hd});
    f.tensor(b + "attn_k.weight", {H, nkv * hd}, BF16), f.tensor(b + "attn_k.bias", {nkv * hd});
    f.tensor(b + "attn_v.weight", {H, nkv * hd}, BF16), f.tensor(b + "attn_v.bias", {nkv * hd});
    f.tensor(b + "attn_output.weight", {nh * hd, H}, BF16), f.tensor(b + "attn_output.bias", {H});
    f.tensor(b + "attn_sinks.weight", {nh});
    f.tensor(b + "ffn_gate_inp.weight", {H, E}), f.tensor(b + "ffn_gate_inp.bias", {E});
    f.tensor(b + "ffn_gate_exps.weight", {H, I, E}, MXFP4), f.tensor(b + "ffn_gate_exps.bias", {I, E});
    f.tensor(b + "ffn_up_exps.weight", {H, I, E}, MXFP4), f.tensor(b + "ffn_up_exps.bias", {I, E});
    f.tensor(b + "ffn_down_exps.weight", {I, H, E}, MXFP4), f.tensor(b + "ffn_down_exps.bias", {H, E});
  }
  const json v = read_back(f);
  const ModelSpec g = parse_model_config(v["config"], "/config");
  const ModelSpec p = test::preset_model("gpt-oss-20b");
  CHECK(v["config"]["model_type"] == "gpt_oss");
  CHECK(count_params(g).total == count_params(p).total);
  CHECK(count_params(g).active == count_params(p).active);
  CHECK(v["params_total"].get<i64>() == count_params(p).total);
  CHECK(v["precision"]["by_class"]["experts"] == "mxfp4");
  check_same_layers(g, p);
}

TEST_CASE("GGUF of Llama 4 Scout reads back to the published text model", "[gguf][published]") {
  const json c = text_config("llama-4-scout");
  const auto [H, L, nh, nkv, hd, I, E, V] = moe_dims(c);
  GgufFile f;
  common(f, "llama4", c);
  f.u32s("llama4", {
      {"attention.head_count_kv", nkv},
      {"feed_forward_length", get(c, "intermediate_size_mlp")},
      {"expert_feed_forward_length", I},
      {"interleave_moe_layer_step", get(c, "interleave_moe_layer_step")},
      {"attention.key_length", hd},
      {"attention.value_length", hd},
      {"rope.dimension_count", hd},
      {"expert_count", E},
      {"expert_used_count", get(c, "num_experts_per_tok")},
      {"vocab_size", V}});
  f.tensor("token_embd.weight", {H, V}, BF16);
  f.tensor("rope_freqs.weight", {hd / 2});  // Llama 3 RoPE scaling as a tensor: not a parameter of the model
  f.tensor("output_norm.weight", {H});
  f.tensor("output.weight", {H, V}, BF16);
  for (u64 i = 0; i < L; ++i) {  // Scout: every layer MoE (interleave step 1)
    const std::string b = "blk." + std::to_string(i) + ".";
    f.tensor(b + "attn_norm.weight", {H});
    f.tensor(b + "attn_q.weight", {H, nh * hd}, BF16);
    f.tensor(b + "attn_k.weight", {H, nkv * hd}, BF16);
    f.tensor(b + "attn_v.weight", {H, nkv * hd}, BF16);
    f.tensor(b + "attn_output.weight", {nh * hd, H}, BF16);
    f.tensor(b + "ffn_norm.weight", {H});
    f.tensor(b + "ffn_gate_inp.weight", {H, E});
    f.tensor(b + "ffn_gate_exps.weight", {H, I, E}, BF16);
    f.tensor(b + "ffn_up_exps.weight", {H, I, E}, BF16);
    f.tensor(b + "ffn_down_exps.weight", {I, H, E}, BF16);
    f.tensor(b + "ffn_gate_shexp.weight", {H, I}, BF16);
    f.tensor(b + "ffn_up_shexp.weight", {H, I}, BF16);
    f.tensor(b + "ffn_down_shexp.weight", {I, H}, BF16);
  }
  const json v = read_back(f);
  const ModelSpec g = parse_model_config(v["config"], "/config");
  const ModelSpec p = test::preset_model("llama-4-scout");
  CHECK(v["config"]["model_type"] == "llama4_text");
  CHECK(count_params(g).total == count_params(p).total - count_params(p).vision);
  CHECK(count_params(g).active == count_params(p).active);
  CHECK(v["params_total"].get<i64>() == count_params(g).total + static_cast<i64>(hd / 2));
  check_same_layers(g, p);
  CHECK(g.layers[0].attn.chunk == 8192);
  CHECK(g.layers[3].attn.chunk == 0);  // every fourth layer global, without RoPE
}

namespace {

// DeepSeek-V3 as deepseek.py writes it: MLA as MQA (head_count_kv 1, the heads' sizes in the *_mla keys), kv_b split
// into k_b and v_b per head, the MTP layer dropped. `legacy`: files before that split keep attn_kv_b and the heads'
// own key and value lengths.
GgufFile deepseek(const json& c, bool legacy) {
  const u64 H = get(c, "hidden_size"), L = get(c, "num_hidden_layers"), nh = get(c, "num_attention_heads"),
            ql = get(c, "q_lora_rank"), kvl = get(c, "kv_lora_rank"), nope = get(c, "qk_nope_head_dim"),
            rope = get(c, "qk_rope_head_dim"), vd = get(c, "v_head_dim"), ff = get(c, "intermediate_size"),
            I = get(c, "moe_intermediate_size"), E = get(c, "n_routed_experts"), S = get(c, "n_shared_experts"),
            dense = get(c, "first_k_dense_replace"), V = get(c, "vocab_size");
  GgufFile f;
  common(f, "deepseek2", c);
  f.u32s("deepseek2", {
      {"feed_forward_length", ff},
      {"leading_dense_block_count", dense},
      {"vocab_size", V},
      {"attention.q_lora_rank", ql},
      {"attention.kv_lora_rank", kvl},
      {"rope.dimension_count", rope}});
  if (legacy) {
    f.u32s("deepseek2", {
        {"attention.head_count_kv", nh},
        {"attention.key_length", nope + rope},
        {"attention.value_length", vd}});
  } else {
    f.u32s("deepseek2", {
        {"attention.head_count_kv", 1},
        {"attention.key_length", kvl + rope},
        {"attention.value_length", kvl},
        {"attention.key_length_mla", nope + rope},
        {"attention.value_length_mla", vd}});
  }
  f.u32s("deepseek2", {
      {"expert_feed_forward_length", I},
      {"expert_count", E},
      {"expert_shared_count", S},
      {"expert_used_count", get(c, "num_experts_per_tok")},
      {"expert_gating_func", 2}});
  f.f32("deepseek2.expert_weights_scale", 2.5f);
  f.tensor("token_embd.weight", {H, V}, BF16);
  f.tensor("output_norm.weight", {H});
  f.tensor("output.weight", {H, V}, BF16);
  for (u64 i = 0; i < L; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    f.tensor(b + "attn_norm.weight", {H});
    f.tensor(b + "attn_q_a.weight", {H, ql}, BF16);
    f.tensor(b + "attn_q_a_norm.weight", {ql});
    f.tensor(b + "attn_q_b.weight", {ql, nh * (nope + rope)}, BF16);
    f.tensor(b + "attn_kv_a_mqa.weight", {H, kvl + rope}, BF16);
    f.tensor(b + "attn_kv_a_norm.weight", {kvl});
    if (legacy) {
      f.tensor(b + "attn_kv_b.weight", {kvl, nh * (nope + vd)}, BF16);
    } else {
      f.tensor(b + "attn_k_b.weight", {nope, kvl, nh}, BF16);
      f.tensor(b + "attn_v_b.weight", {kvl, vd, nh}, BF16);
    }
    f.tensor(b + "attn_output.weight", {nh * vd, H}, BF16);
    f.tensor(b + "ffn_norm.weight", {H});
    if (i < dense) {
      f.tensor(b + "ffn_gate.weight", {H, ff}, BF16);
      f.tensor(b + "ffn_up.weight", {H, ff}, BF16);
      f.tensor(b + "ffn_down.weight", {ff, H}, BF16);
    } else {
      f.tensor(b + "ffn_gate_inp.weight", {H, E});
      f.tensor(b + "exp_probs_b.bias", {E});
      f.tensor(b + "ffn_gate_exps.weight", {H, I, E}, BF16);
      f.tensor(b + "ffn_up_exps.weight", {H, I, E}, BF16);
      f.tensor(b + "ffn_down_exps.weight", {I, H, E}, BF16);
      f.tensor(b + "ffn_gate_shexp.weight", {H, I * S}, BF16);
      f.tensor(b + "ffn_up_shexp.weight", {H, I * S}, BF16);
      f.tensor(b + "ffn_down_shexp.weight", {I * S, H}, BF16);
    }
  }
  return f;
}

}  // namespace

TEST_CASE("GGUF of DeepSeek-V3 reads back to the published model without its MTP layer", "[gguf][published]") {
  const json c = text_config("deepseek-v3");
  json no_mtp = c;
  no_mtp["num_nextn_predict_layers"] = 0;  // llama.cpp's converter drops the MTP module
  const ModelSpec p = parse_model_config(no_mtp, "/config");
  for (const bool legacy : {false, true}) {
    INFO((legacy ? "kv_b unsplit" : "kv_b split into k_b and v_b"));
    const json v = read_back(deepseek(c, legacy));
    const ModelSpec g = parse_model_config(v["config"], "/config");
    CHECK(v["config"]["model_type"] == "deepseek_v3");
    CHECK(v["config"]["qk_nope_head_dim"] == 128);
    CHECK(v["config"]["num_key_value_heads"] == 128);
    CHECK(count_params(g).total == count_params(p).total);
    CHECK(count_params(g).active == count_params(p).active);
    CHECK(v["params_total"].get<i64>() == count_params(g).total);
    check_same_layers(g, p);
  }
}

namespace {

// Gemma 3n E4B as gemma.py's Gemma3NModel writes it: per-layer embeddings and AltUp projections, each layer's
// LAuReL, AltUp and per-layer-input tensors (KV-shared layers keep their k and v like transformers), activation
// sparsity as normal quantiles, the layer kinds as a boolean array. `padded`: newer converters pad the per-layer
// table to the token table's 262,400 rows; older ones cut the token table to 262,144.
GgufFile gemma3n(const json& c, bool padded) {
  const u64 H = get(c, "hidden_size"), L = get(c, "num_hidden_layers"), nh = get(c, "num_attention_heads"),
            nkv = get(c, "num_key_value_heads"), hd = get(c, "head_dim"), P = get(c, "hidden_size_per_layer_input"),
            R = get(c, "laurel_rank"), N = get(c, "altup_num_inputs");
  const u64 V = padded ? 262400 : 262144;
  GgufFile f;
  common(f, "gemma3n", c);
  f.u32s("gemma3n", {
      {"attention.head_count_kv", nkv},
      {"attention.key_length", hd},
      {"attention.value_length", hd},
      {"attention.sliding_window", get(c, "sliding_window")},
      {"altup.active_idx", 0},
      {"altup.num_inputs", N},
      {"embedding_length_per_layer_input", P},
      {"attention.shared_kv_layers", get(c, "num_kv_shared_layers")}});
  std::vector<bool> sliding;
  std::vector<float> sparsity;
  std::vector<std::int32_t> ff;
  for (u64 i = 0; i < L; ++i) {
    sliding.push_back(c["layer_types"][i] == "sliding_attention");
    const double p = c["activation_sparsity_pattern"][i].get<double>();
    sparsity.push_back(p > 0 ? 1.6448536f : -std::numeric_limits<float>::infinity());  // the normal quantile of 0.95
    ff.push_back(static_cast<std::int32_t>(c["intermediate_size"][i].get<double>()));
  }
  f.bools("gemma3n.attention.sliding_window_pattern", sliding);
  f.f32s("gemma3n.activation_sparsity_scale", sparsity);
  f.i32s("gemma3n.feed_forward_length", ff);
  f.tensor("token_embd.weight", {H, V}, BF16);
  f.tensor("per_layer_token_embd.weight", {L * P, padded ? V : 262144}, BF16);
  f.tensor("per_layer_model_proj.weight", {H, L * P}, BF16);
  f.tensor("per_layer_proj_norm.weight", {P});
  f.tensor("altup_proj.weight", {H, H, N - 1}, BF16);
  f.tensor("altup_unembd_proj.weight", {H, H, N - 1}, BF16);
  f.tensor("output_norm.weight", {H});
  for (u64 i = 0; i < L; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    gemma_layer(f, b, H, nh, nkv, hd, static_cast<u64>(ff[i]), true);
    f.tensor(b + "inp_gate.weight", {H, P}, BF16);
    f.tensor(b + "proj.weight", {P, H}, BF16);
    f.tensor(b + "post_norm.weight", {H});
    f.tensor(b + "altup_correct_coef.weight", {N, N});
    f.tensor(b + "altup_correct_scale.weight", {H});
    f.tensor(b + "altup_predict_coef.weight", {N, N * N});
    f.tensor(b + "altup_router.weight", {H, N}, BF16);
    f.tensor(b + "altup_router_norm.weight", {H});
    f.tensor(b + "laurel_l.weight", {H, R}, BF16);
    f.tensor(b + "laurel_r.weight", {R, H}, BF16);
    f.tensor(b + "laurel_post_norm.weight", {H});
  }
  return f;
}

}  // namespace

TEST_CASE("GGUF of Gemma 3n reads back to the published text model, padded or cut", "[gguf][published]") {
  const json c = text_config("gemma-3n-e4b-text");
  const ModelSpec p = test::preset_model("gemma-3n-e4b-text");
  const i64 H = static_cast<i64>(get(c, "hidden_size")), L = static_cast<i64>(get(c, "num_hidden_layers"));
  for (const bool padded : {true, false}) {
    INFO((padded ? "per-layer table padded to 262,400 rows" : "token table cut to 262,144 rows"));
    const json v = read_back(gemma3n(c, padded));
    const ModelSpec g = parse_model_config(v["config"], "/config");
    CHECK(v["config"]["model_type"] == "gemma3n_text");
    CHECK(v["config"]["activation_sparsity_pattern"][0] == 0.95);
    CHECK(v["config"]["activation_sparsity_pattern"][10] == 0.0);
    CHECK(v["config"]["laurel_rank"] == 64);
    CHECK(count_params(g).total == count_params(p).total);
    CHECK(count_params(g).active == count_params(p).active);
    // The file's own elements differ by the rows the converter added or cut.
    CHECK(v["params_total"].get<i64>() == count_params(p).total + (padded ? 256 * L * 256 : -256 * H));
    check_same_layers(g, p);
  }
}

TEST_CASE("a Gemma GGUF whose heads divide the width exactly keeps its head size", "[gguf][published]") {
  // Gemma's own default head_dim is 256: a file of 4 heads of 16 on a width of 64 must not fall back to it.
  const json c = {{"hidden_size", 64}, {"num_hidden_layers", 2}, {"num_attention_heads", 4}, {"num_key_value_heads", 2},
                  {"head_dim", 16}, {"intermediate_size", 128}, {"vocab_size", 100}, {"sliding_window", 32},
                  {"max_position_embeddings", 4096}};
  const json v = read_back(gemma("gemma2", c, false));
  CHECK(v["config"]["head_dim"] == 16);
  const ModelSpec g = parse_model_config(v["config"], "/config");
  CHECK(g.layers[0].attn.head_dim == 16);
  CHECK(count_params(g).total == v["params_total"].get<i64>());
}

TEST_CASE("a GGUF claiming 1.5 billion layers is refused before any per-layer list is built", "[gguf][published]") {
  // Fuzz finding (tests/fuzz/corpus/gguf/finding-layer-types-oom.gguf): gpt-oss's layer kinds were listed for
  // block_count layers before the config's reader bounded it: 2.2 GB, then out of memory.
  json c = text_config("gpt-oss-20b");
  c["num_hidden_layers"] = 1526726658;
  GgufFile f;
  common(f, "gpt-oss", c);
  f.u32s("gpt-oss", {
      {"expert_count", 4},
      {"expert_used_count", 2},
      {"expert_feed_forward_length", 32},
      {"attention.sliding_window", 128}});
  f.tensor("token_embd.weight", {64, 100});
  const auto env = nlohmann::json::parse(call_bytes("gguf", f.bytes()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["code"] == "model.out_of_range");
  CHECK(env["error"]["message"] == "/gguf/config/num_hidden_layers holds 1526726658; expected at most 100000 layers");
}
