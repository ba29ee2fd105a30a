// Safetensors headers: headers written here with the real Hugging Face tensor names and shapes of Llama-3.2-1B and
// Qwen3-8B (no weights) read back to the presets' exact parameter counts, in one file or split into shards; a
// config is checked against the shapes or inferred from the names; broken headers get exact errors.
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>
#include <tuple>

#include "api/api.hpp"
#include "configs.hpp"
#include "helpers.hpp"
#include "io/safetensors.hpp"

using namespace infercast;
using nlohmann::json;

namespace {

struct Tensor {
  std::string name, dtype;
  std::vector<std::uint64_t> shape;
};

int bits(const std::string& d) {
  if (d == "F32" || d == "I32") return 32;
  if (d == "BF16" || d == "F16") return 16;
  return 8;
}

// A safetensors file's header: 8-byte little-endian length, then the JSON table (data offsets back to back).
std::string header(const std::vector<Tensor>& ts) {
  json doc = {{"__metadata__", {{"format", "pt"}}}};
  std::uint64_t at = 0;
  for (const auto& t : ts) {
    std::uint64_t n = 1;
    for (auto d : t.shape) n *= d;
    const std::uint64_t b = n * bits(t.dtype) / 8;
    doc[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {at, at + b}}};
    at += b;
  }
  const std::string text = doc.dump();
  const std::uint64_t len = text.size();
  std::string out(8, '\0');
  std::memcpy(&out[0], &len, 8);
  return out + text;
}

// Llama-3.2-1B as transformers saves it: tied embeddings (no lm_head), 16 layers.
std::vector<Tensor> llama_1b(const std::string& w = "BF16", bool scales = false) {
  std::vector<Tensor> ts = {{"model.embed_tokens.weight", "BF16", {128256, 2048}}, {"model.norm.weight", "BF16", {2048}}};
  for (int i = 0; i < 16; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    for (const auto& [n, r, c] : std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>>{
             {"self_attn.q_proj", 2048, 2048}, {"self_attn.k_proj", 512, 2048}, {"self_attn.v_proj", 512, 2048},
             {"self_attn.o_proj", 2048, 2048}, {"mlp.gate_proj", 8192, 2048}, {"mlp.up_proj", 8192, 2048},
             {"mlp.down_proj", 2048, 8192}}) {
      ts.push_back({p + n + ".weight", w, {r, c}});
      if (scales) ts.push_back({p + n + ".weight_scale_inv", "F32", {(r + 127) / 128, (c + 127) / 128}});
    }
    ts.push_back({p + "input_layernorm.weight", "BF16", {2048}});
    ts.push_back({p + "post_attention_layernorm.weight", "BF16", {2048}});
  }
  return ts;
}

// Qwen3-8B: untied LM head, per-head q/k norms of width head_dim 128.
std::vector<Tensor> qwen3_8b() {
  std::vector<Tensor> ts = {{"model.embed_tokens.weight", "BF16", {151936, 4096}},
                            {"lm_head.weight", "BF16", {151936, 4096}},
                            {"model.norm.weight", "BF16", {4096}}};
  for (int i = 0; i < 36; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    ts.push_back({p + "self_attn.q_proj.weight", "BF16", {4096, 4096}});
    ts.push_back({p + "self_attn.k_proj.weight", "BF16", {1024, 4096}});
    ts.push_back({p + "self_attn.v_proj.weight", "BF16", {1024, 4096}});
    ts.push_back({p + "self_attn.o_proj.weight", "BF16", {4096, 4096}});
    ts.push_back({p + "self_attn.q_norm.weight", "BF16", {128}});
    ts.push_back({p + "self_attn.k_norm.weight", "BF16", {128}});
    ts.push_back({p + "mlp.gate_proj.weight", "BF16", {12288, 4096}});
    ts.push_back({p + "mlp.up_proj.weight", "BF16", {12288, 4096}});
    ts.push_back({p + "mlp.down_proj.weight", "BF16", {4096, 12288}});
    ts.push_back({p + "input_layernorm.weight", "BF16", {4096}});
    ts.push_back({p + "post_attention_layernorm.weight", "BF16", {4096}});
  }
  return ts;
}

json ok(const std::string& envelope) {
  const json env = json::parse(envelope);
  INFO(envelope.substr(0, 2000));
  REQUIRE(env["ok"].get<bool>());
  return env["value"];
}

std::string error(const std::string& envelope) {
  const json env = json::parse(envelope);
  REQUIRE_FALSE(env["ok"].get<bool>());
  return env["error"]["code"].get<std::string>() + " | " + env["error"]["message"].get<std::string>();
}

// The rows of every shard, as the page and the CLI gather them.
json rows_of(const std::vector<std::vector<Tensor>>& shards) {
  json rows = json::array();
  for (const auto& s : shards) {
    const std::string bytes = header(s);
    const json size = ok(call_bytes("safetensors_size", bytes.substr(0, 8)));
    CHECK(size["header_bytes"].get<std::size_t>() == bytes.size());
    const json h = ok(call_bytes("safetensors", bytes));
    CHECK(h["header_bytes"].get<std::size_t>() == bytes.size());
    CHECK(h["metadata"]["format"] == "pt");
    for (const auto& r : h["tensors"]) rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST_CASE("a safetensors checkpoint in shards matches its config exactly", "[safetensors]") {
  const auto all = llama_1b();
  const std::vector<Tensor> a(all.begin(), all.begin() + 60), b(all.begin() + 60, all.end());
  const json rows = rows_of({a, b});
  CHECK(rows.size() == all.size());
  const json v = ok(call("checkpoint", json{{"tensors", rows}, {"model", "llama-3.2-1b"}}.dump()));
  const i64 hf = count_params(test::preset_model("llama-3.2-1b")).total;
  CHECK(hf == 1235814400LL);
  CHECK(v["params_total"].get<i64>() == hf);
  CHECK(v["params_from_config"].get<i64>() == hf);
  CHECK(v["tensor_bytes"].get<i64>() == 2 * hf);
  CHECK(v["matches"].get<bool>());
  CHECK_FALSE(v["inferred"].get<bool>());
  CHECK(v["checks"].size() == 6);
  for (const auto& c : v["checks"]) CHECK(c["ok"].get<bool>());
  CHECK(v["precision"]["weights"] == "bf16");
  CHECK(v["precision"]["by_class"]["lm_head"] == "bf16");  // tied: the embedding's format

  // The same shards against another model's config: each differing shape is named.
  const json w = ok(call("checkpoint", json{{"tensors", rows}, {"model", "llama-3.2-3b"}}.dump()));
  CHECK_FALSE(w["matches"].get<bool>());
  const json hidden = w["checks"][1];
  CHECK(hidden["field"] == "hidden_size");
  CHECK(hidden["config"] == 3072);
  CHECK(hidden["header"] == 2048);
  CHECK_FALSE(hidden["ok"].get<bool>());
}

TEST_CASE("a config inferred from tensor names keeps the exact parameters", "[safetensors]") {
  // Llama: the head size is not in the shapes; 128 is assumed (and said). The total width, and so every FLOP and
  // byte, is exact whatever the split.
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({llama_1b()})}}.dump()));
  CHECK(v["inferred"].get<bool>());
  CHECK(v["assumed"] == json::array({"head_dim"}));
  CHECK(v["config"]["model_type"] == "llama");
  CHECK(v["config"]["hidden_size"] == 2048);
  CHECK(v["config"]["num_hidden_layers"] == 16);
  CHECK(v["config"]["intermediate_size"] == 8192);
  CHECK(v["config"]["tie_word_embeddings"] == true);
  CHECK(v["config"]["num_attention_heads"].get<int>() * v["config"]["head_dim"].get<int>() == 2048);
  CHECK(v["params_from_config"].get<i64>() == 1235814400LL);
  CHECK(v["matches"].get<bool>());

  // Qwen3: q_norm's width is the head size, so nothing is assumed, and the config is the preset's shape.
  const json q = ok(call("checkpoint", json{{"tensors", rows_of({qwen3_8b()})}}.dump()));
  const ModelSpec preset = test::preset_model("qwen3-8b");
  CHECK(q["assumed"].empty());
  CHECK(q["config"]["model_type"] == "qwen3");
  CHECK(q["config"]["num_attention_heads"] == 32);
  CHECK(q["config"]["num_key_value_heads"] == 8);
  CHECK(q["config"]["head_dim"] == 128);
  CHECK(q["config"]["tie_word_embeddings"] == false);
  CHECK(q["params_total"].get<i64>() == count_params(preset).total);
  CHECK(q["params_from_config"].get<i64>() == count_params(preset).total);
  CHECK(q["matches"].get<bool>());
}

TEST_CASE("quantized checkpoints: scales apart, packed formats flagged", "[safetensors]") {
  // FP8 with block scales (DeepSeek-V3's layout): the scales are stored bytes, not parameters.
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({llama_1b("F8_E4M3", true)})}}.dump()));
  CHECK(v["params_total"].get<i64>() == 1235814400LL);
  CHECK(v["side_params"].get<i64>() == 16 * (2 * 16 * 16 + 2 * 4 * 16 + 3 * 64 * 16));  // per layer: q, o; k, v; gate, up, down
  CHECK(v["precision"]["weights"] == "fp8");
  CHECK(v["precision"]["by_class"]["ffn"] == "fp8");
  CHECK(v["precision"]["by_class"]["embedding"] == "bf16");
  CHECK_FALSE(v["packed"].get<bool>());
  // GPTQ stores eight 4-bit weights per I32: flagged, the format left to the config's quantization_config.
  std::vector<Tensor> g = {{"model.embed_tokens.weight", "F16", {32000, 4096}},
                           {"model.layers.0.self_attn.q_proj.qweight", "I32", {512, 4096}},
                           {"model.layers.0.self_attn.q_proj.scales", "F16", {32, 4096}},
                           {"model.layers.0.self_attn.q_proj.qzeros", "I32", {32, 512}},
                           {"model.layers.0.self_attn.k_proj.qweight", "I32", {512, 4096}},
                           {"model.layers.0.mlp.gate_proj.qweight", "I32", {512, 11008}}};
  const json p = ok(call("checkpoint", json{{"tensors", rows_of({g})}, {"model", "llama-2-7b"}}.dump()));
  CHECK(p["packed"].get<bool>());
  CHECK(p["precision"]["by_class"]["attention"] == "I32");
  CHECK_FALSE(p["matches"].get<bool>());
  // Each I32 word holds eight 4-bit weights: the parameters are the unpacked count (q_proj: 512 x 8 rows = 4096).
  CHECK(p["params_total"].get<i64>() == 32000LL * 4096 + 8LL * (512 * 4096 * 2 + 512 * 11008));
  // A packed class has no format the header names, so "weights" is left to the config's quantization_config.
  CHECK_FALSE(p["precision"].contains("weights"));
  // gpt-oss's MXFP4 experts: *_blocks hold two fp4 values per byte, *_scales one e8m0 scale per 32 (side bytes).
  std::vector<Tensor> x = {{"model.embed_tokens.weight", "BF16", {1000, 64}},
                           {"model.layers.0.self_attn.q_proj.weight", "BF16", {64, 64}},
                           {"model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", {4, 256, 2, 16}},
                           {"model.layers.0.mlp.experts.gate_up_proj_scales", "U8", {4, 256, 2}},
                           {"model.layers.0.mlp.experts.gate_up_proj_bias", "BF16", {4, 256}}};
  const json o = ok(call("checkpoint", json{{"tensors", rows_of({x})}, {"model", "llama-2-7b"}}.dump()));
  CHECK(o["params_total"].get<i64>() == 1000 * 64 + 64 * 64 + 4 * 256 * 64 + 4 * 256);
  CHECK(o["side_params"].get<i64>() == 4 * 256 * 2);
  CHECK(o["precision"]["by_class"]["attention"] == "bf16");
  CHECK_FALSE(o["precision"].contains("weights"));
}

TEST_CASE("broken safetensors headers get exact errors", "[safetensors]") {
  const std::string bytes = header(llama_1b());
  CHECK(error(call_bytes("safetensors", bytes.substr(0, 5))) ==
        "safetensors.truncated | a safetensors file starts with an 8-byte header length; only 5 bytes were read");
  CHECK(error(call_bytes("safetensors", bytes.substr(0, 1000))) ==
        "safetensors.truncated | the safetensors header is " + std::to_string(bytes.size()) +
            " bytes long and only 1000 were read; expected the first " + std::to_string(bytes.size()) + " bytes of the file");
  CHECK(error(call_bytes("safetensors", std::string("GGUF\x03\0\0\0\0\0\0\0", 12))) ==
        "safetensors.bad_value | the header length holds 14064895815 bytes; expected 2 to 100000000 (is this a safetensors file?)");
  std::string bad = bytes;
  bad[8] = '[';
  CHECK(error(call_bytes("safetensors", bad)).rfind("safetensors.bad_json | the safetensors header is not valid JSON: ", 0) == 0);
  // A number past a double's range (found by the fuzz target "files"): a JSON error, not an internal one.
  const std::string huge = "{\"x\": 1" + std::string(400, '0') + "}";
  std::string len(8, '\0');
  const std::uint64_t n = huge.size();
  std::memcpy(&len[0], &n, 8);
  CHECK(error(call_bytes("safetensors", len + huge)).rfind("safetensors.bad_json | the safetensors header is not valid JSON: [json.exception.out_of_range.406] number overflow", 0) == 0);
  CHECK(error(call_bytes("safetensors", header({{"x", "Q4", {2}}}))) ==
        "safetensors.bad_value | tensor x: dtype holds \"Q4\"; expected one of F64, F32, F16, BF16, F8_E4M3, F8_E5M2, "
        "F8_E8M0, F6_E2M3, F6_E3M2, F4, I64, I32, I16, I8, U64, U32, U16, U8 or BOOL");
  std::string span = header({{"x", "BF16", {3}}});
  span.replace(span.find("[0,6]"), 5, "[0,8]");
  CHECK(error(call_bytes("safetensors", span)) ==
        "safetensors.bad_value | tensor x: data_offsets span 8 bytes; expected 6 for 3 BF16 elements");
  CHECK(error(call_bytes("bin", bytes)) ==
        "api.unknown_function | unknown function \"bin\" for file bytes; expected gguf, config_text, safetensors or safetensors_size");
  // Every cut is refused, never read past.
  for (std::size_t cut = 0; cut < bytes.size(); cut += 331) CHECK_FALSE(json::parse(call_bytes("safetensors", bytes.substr(0, cut)))["ok"].get<bool>());

  const json rows = rows_of({llama_1b()});
  json twice = rows;
  twice.push_back(rows[0]);
  CHECK(error(call("checkpoint", json{{"tensors", twice}}.dump())) ==
        "safetensors.bad_value | tensor model.embed_tokens.weight appears in two shards; expected each tensor once");
  CHECK(error(call("checkpoint", json{{"tensors", json::array({json::array({"transformer.wte.weight", "F16", {10, 4}})})}}.dump())) ==
        "safetensors.unknown_layout | the tensor names follow no layout this reader infers a config from (expected "
        "model.embed_tokens and model.layers.N.self_attn.q_proj/k_proj, as Llama, Mistral, Qwen and Mixtral use); drop "
        "the checkpoint's config.json with its .safetensors files");
  CHECK(error(call("checkpoint", json{{"tensors", json::array({json::array({"x", "F16", {-1}})})}}.dump())) ==
        "safetensors.bad_value | /tensors/0/2 holds -1 in a shape; expected sizes of 0 or more");
  CHECK(error(call("checkpoint", "{}")) ==
        "request.missing_field | /tensors is missing; expected the [name, dtype, shape] rows of the checkpoint's safetensors headers");
  CHECK(error(call("checkpoint", json{{"tensors", rows}, {"model", 3}}.dump())) ==
        "request.wrong_type | /model holds 3; expected a preset id or a config.json object");
}

TEST_CASE("a Gemma 3n checkpoint matches its text model, its vision and audio towers reported apart", "[safetensors]") {
  // google/gemma-3n-E4B-it as transformers names its tensors (modeling_gemma3n.py): the text model under
  // model.language_model, the MobileNet vision tower, the conformer audio tower and their embedders beside it.
  const std::uint64_t H = 2048, L = 35, P = 256, F = 16384, hd = 256, R = 64, N = 4;
  std::vector<Tensor> ts;
  const std::string t = "model.language_model.";
  ts.push_back({t + "embed_tokens.weight", "BF16", {262400, H}});
  ts.push_back({t + "embed_tokens_per_layer.weight", "BF16", {262144, L * P}});
  ts.push_back({t + "per_layer_model_projection.weight", "BF16", {L * P, H}});
  ts.push_back({t + "per_layer_projection_norm.weight", "BF16", {P}});
  for (int k = 0; k < 3; ++k) {
    ts.push_back({t + "altup_projections." + std::to_string(k) + ".weight", "BF16", {H, H}});
    ts.push_back({t + "altup_unembed_projections." + std::to_string(k) + ".weight", "BF16", {H, H}});
  }
  ts.push_back({t + "norm.weight", "BF16", {H}});
  for (std::uint64_t i = 0; i < L; ++i) {
    const std::string b = t + "layers." + std::to_string(i) + ".";
    for (const auto& [n, s] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"self_attn.q_proj.weight", {8 * hd, H}}, {"self_attn.k_proj.weight", {2 * hd, H}},
             {"self_attn.v_proj.weight", {2 * hd, H}}, {"self_attn.o_proj.weight", {H, 8 * hd}},
             {"self_attn.q_norm.weight", {hd}}, {"self_attn.k_norm.weight", {hd}}, {"input_layernorm.weight", {H}},
             {"post_attention_layernorm.weight", {H}}, {"pre_feedforward_layernorm.weight", {H}},
             {"post_feedforward_layernorm.weight", {H}}, {"mlp.gate_proj.weight", {F, H}}, {"mlp.up_proj.weight", {F, H}},
             {"mlp.down_proj.weight", {H, F}}, {"per_layer_input_gate.weight", {P, H}},
             {"per_layer_projection.weight", {H, P}}, {"post_per_layer_input_norm.weight", {H}},
             {"altup.correction_coefs.weight", {N, N}}, {"altup.correct_output_scale", {H}},
             {"altup.prediction_coefs.weight", {N * N, N}}, {"altup.modality_router.weight", {N, H}},
             {"altup.router_norm.weight", {H}}, {"laurel.linear_left.weight", {R, H}},
             {"laurel.linear_right.weight", {H, R}}, {"laurel.post_laurel_norm.weight", {H}}})
      ts.push_back({b + n, "BF16", s});
  }
  const std::vector<Tensor> encoders = {
      {"model.vision_tower.timm_model.blocks.3.40.layer_scale.gamma", "BF16", {640}},  // a block index past 35
      {"model.vision_tower.timm_model.conv_stem.conv.weight", "BF16", {64, 3, 3, 3}},
      {"model.audio_tower.conformer.11.attention.attn.q_proj.weight", "BF16", {1536, 1536}},
      {"model.embed_vision.embedding.weight", "BF16", {128, H}},
      {"model.embed_audio.embedding_projection.weight", "BF16", {H, 1536}}};
  std::uint64_t encoder = 0;
  for (const auto& e : encoders) {
    std::uint64_t n = 1;
    for (auto d : e.shape) n *= d;
    encoder += n;
    ts.push_back(e);
  }
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({ts})}, {"model", "gemma-3n-e4b-text"}}.dump()));
  const i64 hf = count_params(test::preset_model("gemma-3n-e4b-text")).total;
  CHECK(v["params_total"].get<i64>() == hf);
  CHECK(v["encoder_params"].get<std::uint64_t>() == encoder);
  for (const auto& c : v["checks"]) CHECK(c["ok"].get<bool>());
  CHECK(v["matches"].get<bool>());
  // A text-only checkpoint has no encoder tensors.
  const json w = ok(call("checkpoint", json{{"tensors", rows_of({llama_1b()})}, {"model", "llama-3.2-1b"}}.dump()));
  CHECK(w["encoder_params"] == 0);
}

TEST_CASE("a Gemma 4 31B checkpoint matches its config with the vision tower, and an audio tower is reported apart",
          "[safetensors][gemma]") {
  // google/gemma-4-31B-it's 1,188 tensors as a public listing of the checkpoint gives them (tests/data/configs/
  // SOURCES.md): 31,273,088,876 parameters. Every sixth layer is a full layer: q and o of 32 x 512, k of 4 x 512
  // (keys reused as values: no v_proj), norms of 512; the others have 16 KV heads of 256.
  const std::uint64_t H = 5376, F = 21504, V = 1152, VI = 4304;
  std::vector<Tensor> ts;
  const std::string t = "model.language_model.";
  ts.push_back({t + "embed_tokens.weight", "BF16", {262144, H}});
  ts.push_back({t + "norm.weight", "BF16", {H}});
  for (int i = 0; i < 60; ++i) {
    const std::string b = t + "layers." + std::to_string(i) + ".";
    const bool full = i % 6 == 5;
    const std::uint64_t hd = full ? 512 : 256, q = 32 * hd, kv = (full ? 4 : 16) * hd;
    for (const auto& [n, s] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"self_attn.q_proj.weight", {q, H}}, {"self_attn.k_proj.weight", {kv, H}}, {"self_attn.o_proj.weight", {H, q}},
             {"self_attn.q_norm.weight", {hd}}, {"self_attn.k_norm.weight", {hd}}, {"input_layernorm.weight", {H}},
             {"post_attention_layernorm.weight", {H}}, {"pre_feedforward_layernorm.weight", {H}},
             {"post_feedforward_layernorm.weight", {H}}, {"mlp.gate_proj.weight", {F, H}}, {"mlp.up_proj.weight", {F, H}},
             {"mlp.down_proj.weight", {H, F}}, {"layer_scalar", {1}}})
      ts.push_back({b + n, "BF16", s});
    if (!full) ts.push_back({b + "self_attn.v_proj.weight", "BF16", {kv, H}});
  }
  for (int i = 0; i < 27; ++i) {
    const std::string b = "model.vision_tower.encoder.layers." + std::to_string(i) + ".";
    for (const auto& [n, s] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"self_attn.q_proj.linear.weight", {V, V}}, {"self_attn.k_proj.linear.weight", {V, V}},
             {"self_attn.v_proj.linear.weight", {V, V}}, {"self_attn.o_proj.linear.weight", {V, V}},
             {"self_attn.q_norm.weight", {72}}, {"self_attn.k_norm.weight", {72}}, {"mlp.gate_proj.linear.weight", {VI, V}},
             {"mlp.up_proj.linear.weight", {VI, V}}, {"mlp.down_proj.linear.weight", {V, VI}},
             {"input_layernorm.weight", {V}}, {"post_attention_layernorm.weight", {V}},
             {"pre_feedforward_layernorm.weight", {V}}, {"post_feedforward_layernorm.weight", {V}}})
      ts.push_back({b + n, "BF16", s});
  }
  ts.push_back({"model.vision_tower.patch_embedder.input_proj.weight", "BF16", {V, 768}});
  ts.push_back({"model.vision_tower.patch_embedder.position_embedding_table", "BF16", {2, 10240, V}});
  ts.push_back({"model.vision_tower.std_bias", "BF16", {V}});
  ts.push_back({"model.vision_tower.std_scale", "BF16", {V}});  // a parameter, not a quantization scale
  ts.push_back({"model.embed_vision.embedding_projection.weight", "BF16", {H, V}});
  CHECK(ts.size() == 1188);
  const json config = test::data_config("gemma-4-31b-it.json");
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({ts})}, {"model", config}}.dump()));
  CHECK(v["params_total"].get<std::uint64_t>() == 31273088876ULL);
  CHECK(v["params_from_config"].get<std::uint64_t>() == 31273088876ULL);
  CHECK(v["encoder_params"] == 0);
  CHECK(v["side_params"] == 0);
  CHECK(v["matches"].get<bool>());
  // An audio tower (the small models carry one) is not modelled: its tensors are reported apart.
  ts.push_back({"model.audio_tower.layers.0.feed_forward1.ffw_layer_1.linear.weight", "BF16", {4096, 1024}});
  ts.push_back({"model.embed_audio.embedding_projection.weight", "BF16", {H, 1536}});
  const json a = ok(call("checkpoint", json{{"tensors", rows_of({ts})}, {"model", config}}.dump()));
  CHECK(a["encoder_params"].get<std::uint64_t>() == 4096ULL * 1024 + H * 1536);
  CHECK(a["params_total"].get<std::uint64_t>() == 31273088876ULL);
  CHECK(a["matches"].get<bool>());
}

TEST_CASE("a Gemma 4 E2B checkpoint matches its config with both encoders, its unloaded k and v apart",
          "[safetensors][gemma]") {
  // google/gemma-4-E2B-it's tensors as its safetensors header names them (a public dump of the file: 2,011
  // tensors, 5,123,178,979 elements): 35 layers of 1536 (every fifth a full layer of head 512, the others 256; one
  // KV head), per-layer inputs of 256, a double-wide MLP on the 20 KV-shared layers, whose k and v the file still
  // holds; the small vision tower and the audio tower with their scalar clip bounds (shape []).
  const std::uint64_t H = 1536, L = 35, P = 256, V = 768, A = 1024;
  std::vector<Tensor> ts;
  const auto add = [&](const std::string& n, std::vector<std::uint64_t> s) { ts.push_back({n, "BF16", std::move(s)}); };
  const auto clipped = [&](const std::string& n, std::vector<std::uint64_t> s) {
    add(n + ".linear.weight", std::move(s));
    for (const char* b : {".input_min", ".input_max", ".output_min", ".output_max"}) add(n + b, {});
  };
  const std::string t = "model.language_model.";
  add(t + "embed_tokens.weight", {262144, H});
  add(t + "embed_tokens_per_layer.weight", {262144, L * P});
  add(t + "per_layer_model_projection.weight", {L * P, H});
  add(t + "per_layer_projection_norm.weight", {P});
  add(t + "norm.weight", {H});
  for (std::uint64_t i = 0; i < L; ++i) {
    const std::string b = t + "layers." + std::to_string(i) + ".";
    const std::uint64_t hd = i % 5 == 4 ? 512 : 256, F = i >= 15 ? 12288 : 6144;
    for (const auto& [n, s] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"self_attn.q_proj.weight", {8 * hd, H}}, {"self_attn.k_proj.weight", {hd, H}}, {"self_attn.v_proj.weight", {hd, H}},
             {"self_attn.o_proj.weight", {H, 8 * hd}}, {"self_attn.q_norm.weight", {hd}}, {"self_attn.k_norm.weight", {hd}},
             {"input_layernorm.weight", {H}}, {"post_attention_layernorm.weight", {H}}, {"pre_feedforward_layernorm.weight", {H}},
             {"post_feedforward_layernorm.weight", {H}}, {"mlp.gate_proj.weight", {F, H}}, {"mlp.up_proj.weight", {F, H}},
             {"mlp.down_proj.weight", {H, F}}, {"layer_scalar", {1}}, {"per_layer_input_gate.weight", {P, H}},
             {"per_layer_projection.weight", {H, P}}, {"post_per_layer_input_norm.weight", {H}}})
      add(b + n, s);
  }
  add("model.vision_tower.patch_embedder.input_proj.weight", {V, 768});
  add("model.vision_tower.patch_embedder.position_embedding_table", {2, 10240, V});
  for (int i = 0; i < 16; ++i) {
    const std::string b = "model.vision_tower.encoder.layers." + std::to_string(i) + ".";
    for (const char* n : {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj"}) clipped(b + n, {V, V});
    clipped(b + "mlp.gate_proj", {3072, V});
    clipped(b + "mlp.up_proj", {3072, V});
    clipped(b + "mlp.down_proj", {V, 3072});
    for (const char* n : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) add(b + n, {64});
    for (const char* n : {"input_layernorm.weight", "post_attention_layernorm.weight", "pre_feedforward_layernorm.weight",
                          "post_feedforward_layernorm.weight"})
      add(b + n, {V});
  }
  add("model.embed_vision.embedding_projection.weight", {H, V});
  const std::string a = "model.audio_tower.";
  add(a + "subsample_conv_projection.layer0.conv.weight", {128, 1, 3, 3});
  add(a + "subsample_conv_projection.layer0.norm.weight", {128});
  add(a + "subsample_conv_projection.layer1.conv.weight", {32, 128, 3, 3});
  add(a + "subsample_conv_projection.layer1.norm.weight", {32});
  add(a + "subsample_conv_projection.input_proj_linear.weight", {A, A});
  for (int i = 0; i < 12; ++i) {
    const std::string b = a + "layers." + std::to_string(i) + ".";
    for (const char* f : {"feed_forward1.", "feed_forward2."}) {
      clipped(b + f + "ffw_layer_1", {4 * A, A});
      clipped(b + f + "ffw_layer_2", {A, 4 * A});
      add(b + f + "pre_layer_norm.weight", {A});
      add(b + f + "post_layer_norm.weight", {A});
    }
    for (const char* n : {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.post"}) clipped(b + n, {A, A});
    add(b + "self_attn.relative_k_proj.weight", {A, A});
    add(b + "self_attn.per_dim_scale", {128});
    clipped(b + "lconv1d.linear_start", {2 * A, A});
    clipped(b + "lconv1d.linear_end", {A, A});
    add(b + "lconv1d.depthwise_conv1d.weight", {A, 1, 5});
    add(b + "lconv1d.pre_layer_norm.weight", {A});
    add(b + "lconv1d.conv_norm.weight", {A});
    for (const char* n : {"norm_pre_attn.weight", "norm_post_attn.weight", "norm_out.weight"}) add(b + n, {A});
  }
  add(a + "output_proj.weight", {1536, A});
  add(a + "output_proj.bias", {1536});
  add("model.embed_audio.embedding_projection.weight", {H, 1536});
  CHECK(ts.size() == 2011);
  std::uint64_t header = 0;
  for (const auto& x : ts) {
    std::uint64_t n = 1;
    for (auto d : x.shape) n *= d;
    header += n;
  }
  CHECK(header == 5123178979ULL);  // the file's 2,011 tensors
  json config = test::data_config("gemma-4-e2b.text.json");
  config["vision_config"] = {{"model_type", "gemma4_vision"}, {"hidden_size", 768}, {"intermediate_size", 3072},
                             {"num_hidden_layers", 16}, {"num_attention_heads", 12}, {"num_key_value_heads", 12},
                             {"head_dim", 64}, {"use_clipped_linears", true}, {"standardize", false}};
  config["audio_config"] = {{"model_type", "gemma4_audio"}};
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({ts})}, {"model", config}}.dump()));
  INFO(v["side_params"].dump() + " side, " + v["mtp_params"].dump() + " mtp");
  CHECK(v["unloaded_params"].get<std::uint64_t>() == 18880512ULL);  // 20 shared layers' k_proj, v_proj and k_norm
  CHECK(v["encoder_params"] == 0);
  CHECK(v["params_total"].get<std::uint64_t>() == 5123178979ULL - 18880512ULL);
  CHECK(v["params_from_config"] == v["params_total"]);
  for (const auto& c : v["checks"]) CHECK(c["ok"].get<bool>());
  CHECK(v["matches"].get<bool>());
}

TEST_CASE("shapes that cannot size a model are refused, and encoder tensors past the layers are not MTP layers", "[safetensors]") {
  // Found by reading (stop 51): a scalar q_proj or gate_proj had shape[0] read from an empty shape (a segfault); a
  // q_norm of width 0 became the head size and divided the widths (SIGFPE).
  for (const char* name : {"model.layers.0.self_attn.q_proj.weight", "model.layers.0.mlp.gate_proj.weight"}) {
    auto ts = llama_1b();
    for (auto& t : ts)
      if (t.name == name) t.shape = {};
    CHECK(error(call("checkpoint", json{{"tensors", rows_of({ts})}}.dump())) ==
          std::string("safetensors.unknown_layout | ") + name +
              " has shape []; expected a matrix of at least one row, as a projection is; drop the checkpoint's "
              "config.json with its .safetensors files");
  }
  auto qn = llama_1b();
  qn.push_back({"model.layers.0.self_attn.q_norm.weight", "BF16", {0}});
  const json v = ok(call("checkpoint", json{{"tensors", rows_of({qn})}}.dump()));
  CHECK(v["config"]["head_dim"] == 128);  // the width 0 is no head size: the guess of 128, said
  CHECK(v["assumed"] == json::array({"head_dim"}));

  // A vision tensor whose layer index is past a DeepSeek-V3 config's one layer (the config has an MTP layer): it
  // was subtracted as an MTP tensor and again as an encoder tensor, and the unsigned total wrapped to 1.8e19.
  std::vector<Tensor> ts = {{"model.embed_tokens.weight", "BF16", {100, 64}}, {"model.norm.weight", "BF16", {64}},
                            {"model.layers.0.self_attn.q_proj.weight", "BF16", {64, 64}},
                            {"model.layers.0.mlp.down_proj.weight", "BF16", {64, 128}},
                            {"model.vision_tower.layers.5.mlp.fc1.weight", "BF16", {4096, 4096}}};
  const json cfg = {{"model_type", "deepseek_v3"}, {"hidden_size", 64}, {"num_hidden_layers", 1}, {"num_attention_heads", 4},
                    {"intermediate_size", 128}, {"moe_intermediate_size", 32}, {"n_routed_experts", 4},
                    {"num_experts_per_tok", 2}, {"n_shared_experts", 1}, {"first_k_dense_replace", 1},
                    {"kv_lora_rank", 16}, {"q_lora_rank", nullptr}, {"qk_rope_head_dim", 8}, {"qk_nope_head_dim", 16},
                    {"v_head_dim", 16}, {"vocab_size", 100}, {"num_nextn_predict_layers", 1}, {"tie_word_embeddings", false}};
  const json d = ok(call("checkpoint", json{{"tensors", rows_of({ts})}, {"model", cfg}}.dump()));
  CHECK(d["params_total"].get<i64>() == 100 * 64 + 64 + 64 * 64 + 64 * 128);  // the vision tower reported apart
  CHECK(d["encoder_params"].get<i64>() == 4096 * 4096);
}
