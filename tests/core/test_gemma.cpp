// Gemma 3n and Gemma 4 (io/config_gemma.cpp, ops/gemma.cpp): every block counted on one layer by hand from
// transformers' modules (models/gemma3n/modeling_gemma3n.py, models/gemma4/modular_gemma4.py), KV sharing's bytes
// per token, the configs in tests/data/configs (SOURCES.md) to the integer, and refusals naming the field.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "configs.hpp"
#include "helpers.hpp"
#include "ops/geometry.hpp"
#include "ops/layers.hpp"

using namespace test;

namespace {

double op_count(const std::vector<Op>& ops, const std::string& name) {
  double n = 0;
  for (const auto& o : ops)
    if (o.name == name) n += static_cast<double>(o.count);
  return n;
}

// h 64, 4 heads of 16, 2 KV heads, MLP 128, vocabulary 1000.
json gemma3n(const json& extra) {
  json c = {{"model_type", "gemma3n_text"}, {"hidden_size", 64}, {"intermediate_size", 128}, {"num_hidden_layers", 1},
            {"num_attention_heads", 4}, {"num_key_value_heads", 2}, {"head_dim", 16}, {"vocab_size", 1000},
            {"vocab_size_per_layer_input", 100}, {"hidden_size_per_layer_input", 8}, {"altup_num_inputs", 2},
            {"laurel_rank", 4}, {"num_kv_shared_layers", 0}, {"layer_types", {"full_attention"}},
            {"activation_sparsity_pattern", {0.5}}, {"sliding_window", 32}};
  for (auto it = extra.begin(); it != extra.end(); ++it) c[it.key()] = it.value();
  return c;
}

json gemma4(const json& extra) {
  json c = {{"model_type", "gemma4_text"}, {"hidden_size", 64}, {"intermediate_size", 128}, {"num_hidden_layers", 1},
            {"num_attention_heads", 4}, {"num_key_value_heads", 2}, {"head_dim", 16}, {"global_head_dim", 32},
            {"vocab_size", 1000}, {"hidden_size_per_layer_input", 0}, {"layer_types", {"full_attention"}},
            {"sliding_window", 32}};
  for (auto it = extra.begin(); it != extra.end(); ++it) c[it.key()] = it.value();
  return c;
}

}  // namespace

TEST_CASE("Gemma 3n, one layer by hand: per-layer embeddings, AltUp, LAuReL, v-norm, activation sparsity", "[gemma]") {
  const ModelSpec m = parse(gemma3n(json::object()));
  // Model: embed_tokens 1000x64 = 64000 (tied head); embed_tokens_per_layer 100 x (1 layer x 8) = 800,
  // per_layer_model_projection 64x8 = 512, per_layer_projection_norm 8; altup_projections and
  // altup_unembed_projections (n - 1 = 1 each) 2 x 64x64 = 8192; final norm 64.
  // Layer: q 64x64 4096, k and v 64x32 2048 each, o 4096, q_norm and k_norm 16 each (v_norm has no weights): 12320;
  // MLP 3 x 64x128 = 24576; 4 norms 256; AltUp correct_output_scale 64, correction_coefs 2x2 4,
  // prediction_coefs 2x4 8, modality_router 64x2 128, router_norm 64: 268; LAuReL 64x4 + 4x64 + norm 64 = 576;
  // per_layer_input_gate 64x8, per_layer_projection 8x64, post_per_layer_input_norm 64: 1088.
  const ParamCounts c = count_params(m);
  CHECK(c.total == 64000 + 1320 + 8192 + 64 + (12320 + 24576 + 256 + 268 + 576 + 1088));
  CHECK(c.total == 112660);
  CHECK(c.active == c.total);
  CHECK(c.embedding == 64000 + 800);           // both tables
  CHECK(c.active_no_embed == c.total - 800);   // the tied table counts as the LM head
  CHECK(m.activation == "gelu_pytorch_tanh");  // Gemma3nTextConfig's hidden_activation
  CHECK(kv_per_token(m) == 2 * 2 * 16 * 2);    // keys and values of 2 heads of 16, bf16

  const auto groups = group_layers(m);
  const auto ops = step_ops(m, groups, {Request{0, 16, 1}}, settings());
  // The blocks' operators: weights as the modules hold them, FLOPs of T = 16 tokens.
  CHECK(find_op(ops, "laurel_left").weight_elements == 64 * 4);
  CHECK(find_op(ops, "laurel_right").weight_elements == 4 * 64);
  CHECK(find_op(ops, "per_layer_input_gate").weight_elements == 64 * 8);
  CHECK(find_op(ops, "per_layer_projection").weight_elements == 8 * 64);
  CHECK(find_op(ops, "per_layer_model_projection").weight_elements == 64 * 8);
  CHECK(find_op(ops, "per_layer_embedding").weight_bytes == 16 * 8 * 2);  // 16 rows of 8, bf16
  CHECK(find_op(ops, "altup_projections").weight_elements == 64 * 64);
  CHECK(find_op(ops, "altup_unembed_projections").weight_elements == 64 * 64);
  CHECK(find_op(ops, "altup_predict_router").weight_elements == 64 * 2);
  CHECK(find_op(ops, "altup_predict_coefs").weight_elements == 2 * 4);
  CHECK(find_op(ops, "altup_correct_coefs").weight_elements == 2 * 2);
  CHECK(find_op(ops, "altup_predict_mix").flops == 16 * 64 * 2 * (2 * 2 + 1));
  CHECK(find_op(ops, "gate_topk").flops == 16 * 128 * 5);  // sparsity 0.5 on the only layer
  CHECK(find_op(ops, "v_norm").act_write_bytes == 16 * 2 * 16 * 2);
  // Without a sparsity the cut is absent.
  const ModelSpec dense = parse(gemma3n({{"activation_sparsity_pattern", {0.0}}}));
  CHECK(op_count(step_ops(dense, group_layers(dense), {Request{0, 16, 1}}, settings()), "gate_topk") == 0);
}

TEST_CASE("Gemma 3n KV sharing: shared layers keep their k/v weights but cache nothing", "[gemma]") {
  // Two sliding layers, the second reading the first's cache (Gemma3nTextAttention keeps k_proj, v_proj, k_norm).
  const ModelSpec m = parse(gemma3n({{"num_hidden_layers", 2},
                                     {"layer_types", {"sliding_attention", "sliding_attention"}},
                                     {"num_kv_shared_layers", 1},
                                     {"activation_sparsity_pattern", {0.0, 0.0}},
                                     {"intermediate_size", {128, 256}}}));
  REQUIRE(m.layers.size() == 2);
  CHECK_FALSE(m.layers[0].attn.kv_shared);
  CHECK(m.layers[1].attn.kv_shared);
  CHECK(attention_params(m.layers[1].attn, 64) == attention_params(m.layers[0].attn, 64));
  CHECK(m.layers[1].ffn.intermediate == 256);  // MatFormer: a width per layer
  CHECK(kv_per_token(m) == 128);                // layer 0 only
  const auto ops = step_ops(m, group_layers(m), {Request{0, 16, 1}}, settings());
  CHECK(op_count(ops, "kv_cache_write") == 1);
  CHECK(op_count(ops, "k_proj") == 1);
  CHECK(op_count(ops, "attention") == 2);  // the shared layer still attends, over layer 0's cache
}

TEST_CASE("Gemma 4, one layer by hand: a full layer with its own head size, keys reused as values", "[gemma]") {
  const ModelSpec m = parse(gemma4({{"attention_k_eq_v", true}, {"num_global_key_value_heads", 1}}));
  // q 64 x 4x32 = 8192, k 64 x 1x32 = 2048, no v_proj, o 8192, q_norm and k_norm 32 each: 18496; MLP 24576;
  // 4 norms 256 and layer_scalar 1; embedding 64000 (tied), final norm 64.
  CHECK(count_params(m).total == 64000 + 64 + 18496 + 24576 + 257);
  CHECK(m.layers[0].attn.head_dim == 32);
  CHECK(m.layers[0].attn.n_kv_heads == 1);
  CHECK(m.layers[0].attn.rope_dim == 8);        // partial_rotary_factor 0.25 of 32
  CHECK(kv_per_token(m) == 1 * (32 + 32) * 2);  // keys and values are stored apart (normed apart)
  const auto ops = step_ops(m, group_layers(m), {Request{0, 16, 1}}, settings());
  CHECK(op_count(ops, "v_proj") == 0);
  CHECK(find_op(ops, "layer_scalar").flops == 16 * 64);
  // Without attention_k_eq_v num_global_key_value_heads is not used: 2 KV heads of 32 and a v_proj.
  const ModelSpec plain = parse(gemma4({{"num_global_key_value_heads", 1}}));
  CHECK(count_params(plain).total == 64000 + 64 + (8192 + 4096 + 4096 + 8192 + 64) + 24576 + 257);
}

TEST_CASE("Gemma 4 MoE beside the dense MLP, by hand", "[gemma]") {
  const ModelSpec m = parse(gemma4({{"attention_k_eq_v", true},
                                    {"num_global_key_value_heads", 1},
                                    {"enable_moe_block", true},
                                    {"num_experts", 4},
                                    {"top_k_experts", 2},
                                    {"moe_intermediate_size", 16}}));
  // Beside the one-layer model above (107393): experts 4 x 3 x 64x16 = 12288, router proj 64x4 + scale 64 +
  // per_expert_scale 4 = 324, pre_feedforward_layernorm_2 and post_feedforward_layernorm_1 and _2: 192.
  const ParamCounts c = count_params(m);
  CHECK(c.total == 107393 + 12288 + 324 + 192);
  CHECK(c.active == c.total - 2 * 3072);  // 2 of the 4 experts idle
  CHECK(c.experts_shared == 3 * 64 * 128);  // the dense MLP, always active
  const auto ops = step_ops(m, group_layers(m), {Request{0, 16, 1}}, settings());
  CHECK(find_op(ops, "router_norm").weight_bytes == (64 + 4) * 2);
  CHECK(op_count(ops, "shared_down_proj") == 1);
  CHECK(find_op(ops, "norms x7").count == 1);
}

TEST_CASE("Gemma 4 KV sharing drops the shared layers' k/v weights, double-wide MLP, per-layer inputs", "[gemma]") {
  const ModelSpec m = parse(gemma4({{"num_hidden_layers", 3},
                                    {"layer_types", {"sliding_attention", "full_attention", "full_attention"}},
                                    {"num_kv_shared_layers", 1},
                                    {"use_double_wide_mlp", true},
                                    {"hidden_size_per_layer_input", 8},
                                    {"vocab_size_per_layer_input", 100}}));
  // Layer 0 (sliding, 2 KV heads of 16): 12320 + MLP 24576 + 257 + per-layer input 1088 = 38241.
  // Layer 1 (full, 2 KV heads of 32): q 8192, k 4096, v 4096, o 8192, norms 64 + 24576 + 257 + 1088 = 50561.
  // Layer 2 (full, shares layer 1): q 8192, o 8192, q_norm 32; MLP twice as wide 49152; 257; 1088 = 66913.
  // Per-layer embeddings 100 x 3x8 = 2400, projection 64 x 24 = 1536, norm 8; embedding 64000; final norm 64.
  CHECK(count_params(m).total == 64000 + 64 + 3944 + 38241 + 50561 + 66913);
  CHECK(m.layers[2].ffn.intermediate == 256);
  CHECK(kv_per_token(m) == 2 * (16 + 16) * 2 + 2 * (32 + 32) * 2);  // layers 0 and 1 only
  const auto ops = step_ops(m, group_layers(m), {Request{0, 16, 1}}, settings());
  CHECK(op_count(ops, "k_proj") == 2);
  CHECK(op_count(ops, "kv_cache_write") == 2);
  CHECK(op_count(ops, "per_layer_input_gate") == 3);
}

TEST_CASE("Gemma 3n and Gemma 4 configs counted to the integer, KV bytes per token by hand", "[gemma]") {
  struct Row {
    const char* file;
    i64 total, active;
    double kv;  // bf16 bytes per token
  };
  // Hand counts (docs/formulas.md, "Gemma 3n and Gemma 4"); KV: the non-shared layers' 2 x kv_heads x head_dim x 2 B.
  // Gemma 3n E4B: 20 non-shared layers (4 full, 16 sliding) x 2 x 2 x 256 x 2 = 40960; E2B: 20 of 30, the same.
  // Gemma 4 E2B: 15 non-shared (3 full of 512, 12 sliding of 256, 1 KV head) = 3x2048 + 12x1024 = 18432.
  // Gemma 4 E4B: 24 non-shared (4 full, 20 sliding, 2 KV heads) = 4x4096 + 20x2048 = 57344.
  // Gemma 4 26B-A4B: 25 sliding x 8 x 512 x 2 + 5 full x 2 x 1024 x 2 = 204800 + 20480 = 225280.
  const Row rows[] = {
      {"gemma-3n-e4b.text.json", 6866696688LL, 6866696688LL, 40960},
      {"gemma-3n-e2b.text.json", 4456156768LL, 4456156768LL, 40960},
      {"gemma-4-e2b.text.json", 4628569379LL, 4628569379LL, 18432},
      {"gemma-4-e4b.text.json", 7463013418LL, 7463013418LL, 57344},
      {"gemma-4-26b-a4b.text.json", 25233141790LL, 3822530590LL, 225280},
  };
  for (const auto& r : rows) {
    INFO(r.file);
    const ModelSpec m = parse(data_config(r.file));
    CHECK(count_params(m).total == r.total);
    CHECK(count_params(m).active == r.active);
    CHECK(kv_per_token(m) == r.kv);
  }
  // Gemma 4 E2B without its per-layer table is the 2.3B "effective" parameters of Google's model card
  // (4628569379 - 262144 x 35 x 256 = 2279759139).
  const ParamCounts e2b = count_params(parse(data_config("gemma-4-e2b.text.json")));
  CHECK(e2b.total - 262144LL * 35 * 256 == 2279759139LL);
}

TEST_CASE("Gemma 3n and Gemma 4 refusals name the field", "[gemma][errors]") {
  InputError e = error_of(gemma3n({{"num_hidden_layers", 2}, {"layer_types", {"sliding_attention", "full_attention"}},
                                   {"num_kv_shared_layers", 1}, {"activation_sparsity_pattern", {0.0, 0.0}}}));
  CHECK(e.path() == "/model/num_kv_shared_layers");
  CHECK(std::string(e.what()) ==
        "/model/num_kv_shared_layers holds 1: layer 1 (full attention) would share the cache of an earlier layer of "
        "its kind, and there is none");
  e = error_of(gemma3n({{"intermediate_size", {128, 128}}}));
  CHECK(std::string(e.what()) ==
        "/model/intermediate_size has 2 entries; expected one per layer (1) or a single number");
  e = error_of(gemma3n({{"activation_sparsity_pattern", {1.5}}}));
  CHECK(e.path() == "/model/activation_sparsity_pattern/0");
  e = error_of(gemma4({{"layer_types", {"chunked_attention"}}}));
  CHECK(std::string(e.what()) ==
        "/model/layer_types/0 holds \"chunked_attention\"; expected sliding_attention or full_attention");
  e = error_of(gemma4({{"enable_moe_block", true}, {"num_experts", 4}, {"top_k_experts", 8}, {"moe_intermediate_size", 16}}));
  CHECK(e.path() == "/model/top_k_experts");
}

TEST_CASE("Gemma 3n's wrapper counts its audio tower and says audio is not forecast", "[gemma]") {
  // Gemma3nAudioConfig's defaults (an empty audio_config): the tower of E2B and E4B (test_vision.cpp, by hand).
  json cfg = {{"model_type", "gemma3n"}, {"architectures", {"Gemma3nForConditionalGeneration"}},
              {"text_config", gemma3n(json::object())}, {"audio_config", {{"model_type", "gemma3n_audio"}}}};
  const ModelSpec m = parse(cfg);
  CHECK(m.audio.kind == AudioKind::Gemma3n);
  CHECK(audio_params(m.audio) == 681348640LL + 128 * 1536 + 2 * 1536 + 1536LL * m.hidden);
  bool said = false;
  for (const auto& w : m.warnings) said = said || (w.code == "model.audio_not_forecast" && w.path == "/model/audio_config");
  CHECK(said);
  // A subsampler other than the 3 x 3, stride 2 convolutions the count assumes is refused by name.
  cfg["audio_config"]["sscp_conv_stride_size"] = {{2, 2}, {1, 1}};
  const InputError e = error_of(cfg);
  CHECK(e.path() == "/model/audio_config/sscp_conv_stride_size");
  CHECK(std::string(e.what()) == "/model/audio_config/sscp_conv_stride_size is not [[2, 2], [2, 2]], the subsampler "
                                 "Gemma 3n ships and Infercast counts");
}

TEST_CASE("Gemma 3n and Gemma 4 take their own config class's defaults", "[gemma]") {
  json c = gemma3n(json::object());
  c.erase("vocab_size");
  c.erase("laurel_rank");
  const ModelSpec m = parse(c);
  CHECK(m.vocab == 262400);               // Gemma3nTextConfig's, not Gemma 3's 262208 nor Llama's 32000
  CHECK(m.layers[0].laurel_rank == 64);
  bool named = false;
  for (const auto& w : m.warnings)
    named = named || (w.code == "model.defaults" &&
                      w.message == "/model omits 6 field(s); Gemma3nTextConfig's defaults fill them: vocab_size 262400, "
                                   "hidden_activation gelu_pytorch_tanh, max_position_embeddings 32768, "
                                   "tie_word_embeddings true, attention_bias false, laurel_rank 64 (transformers "
                                   "gemma3n/configuration_gemma3n.py, modeling_gemma3n.py)");
  CHECK(named);
  // Gemma 4: hidden_size_per_layer_input absent is 256 (Gemma4TextConfig); null (None: falsy in the model) is none.
  json g = gemma4({{"vocab_size_per_layer_input", 100}});
  g.erase("hidden_size_per_layer_input");
  CHECK(parse(g).layers[0].per_layer_input == 256);
  g["hidden_size_per_layer_input"] = nullptr;
  CHECK(parse(g).layers[0].per_layer_input == 0);
  CHECK(parse(g).ple_vocab == 0);
}
