// Llama 3.2 Vision (mllama): the text model's cross-attention layers and the tiled vision encoder, counted to the
// integer against the checkpoints' published totals and costed operator by operator: text-only requests skip the
// cross layers (the 11B model is then Llama-3.1-8B step for step), and a prompt with an image computes its image
// tokens' keys and values once and attends them at every step (docs/formulas.md, "Cross-attention").
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/steps.hpp"
#include "api/api.hpp"
#include "configs.hpp"
#include "helpers.hpp"

using namespace test;

namespace {
using ll = long long;

double sum_over(const std::vector<Op>& ops, const std::string& name, double Op::*field) {
  double s = 0;
  for (const auto& o : ops)
    if (o.name == name) s += o.*field;
  return s;
}

// The text model by hand, module by module as modeling_mllama.py names them: L layers of which `cross` are
// MllamaCrossAttentionDecoderLayer (q, k, v, o; q_norm and k_norm of head_dim; the attention and MLP gates), the
// rest Llama's; the embedding holds vocab + 8 rows, the head vocab.
ll text_params(ll h, ll L, ll cross, ll I) {
  const ll V = 128256, hd = 128, kv = 8;
  const ll layer = 2 * h * h + 2 * h * kv * hd + 3 * h * I + 2 * h;
  return (V + 8) * h + V * h + h + L * layer + cross * (2 * hd + 2);
}

// The vision tower, the same in both releases (MllamaVisionModel): 32 local and 8 global blocks of 1280 (q, k, v, o
// without biases, fc1 and fc2 with them, two LayerNorms), the global ones with gate_attn and gate_ffn; the patch
// convolution without bias, the class token, the position table (1601 x 1280) and its gate, tile_embedding (9 x 4 x
// 1601 x 1280), the pre and post tile embeddings (9 x 4 x 1280, a gate each), layernorm_pre and layernorm_post.
constexpr ll kVision = 40 * (4 * 1280 * 1280 + 2 * 1280 * 5120 + 5120 + 1280 + 4 * 1280) + 8 * 2 + 3 * 14 * 14 * 1280 + 1280 +
                       1601 * 1280 + 1 + 9 * 4 * 1601 * 1280 + 2 * (9 * 4 * 1280 + 1) + 4 * 1280;
}  // namespace

// Llama-3.2-11B-Vision-Instruct (tests/data/configs/llama-3.2-11b-vision-instruct.json, SOURCES.md): a config that
// writes only what differs from MllamaTextConfig's and MllamaVisionConfig's defaults (image_size 560, the llama3
// RoPE); the defaults fill the rest. 10,670,220,835 is the checkpoint's safetensors count on the Hub, as a public
// benchmark's model table records it; the hand split is text 9,775,192,080, vision 863,567,379, projector 31,461,376.
TEST_CASE("Llama 3.2 11B Vision by hand: cross-attention layers, tiles, the projector (mllama)", "[vision][params]") {
  const ModelSpec m = parse(data_config("llama-3.2-11b-vision-instruct.json"));
  const auto c = count_params(m);
  CHECK(kVision == 863567379LL);
  CHECK(text_params(4096, 40, 8, 14336) == 9775192080LL);
  CHECK(c.vision == kVision + 7680LL * 4096 + 4096);
  CHECK(c.total == 10670220835LL);
  CHECK(c.total == text_params(4096, 40, 8, 14336) + c.vision);
  REQUIRE(m.layers.size() == 40);
  // A text_config that does not name its model_type takes the wrapper's (mllama): the same model.
  json unnamed = data_config("llama-3.2-11b-vision-instruct.json");
  unnamed["text_config"].erase("model_type");
  CHECK(count_params(parse(unnamed)).total == c.total);
  for (std::size_t i = 0; i < 40; ++i) CHECK(m.layers[i].attn.cross == (i % 5 == 3));
  CHECK(m.layers[3].attn.rope_dim == 0);
  CHECK(m.layers[3].attn.qk_norm);
  CHECK(m.layers[4].attn.rope_dim == 128);
  CHECK(m.embedding_rows == 128264);
  CHECK(m.vision.kind == VisionKind::Mllama);
  // Only the fine-tuning tool's own keys (unsloth_fixed, unsloth_version) go unread.
  for (const auto& w : m.warnings) CHECK((w.code != "model.unused_field" || w.path.rfind("/model/unsloth_", 0) == 0));
}

// Llama-3.2-90B-Vision (tests/data/configs/llama-3.2-90b-vision-instruct.json, SOURCES.md): 100 layers of 8192, 20
// cross layers ([3, 8, ..., 98]), MLP 28672, 64 heads; the same vision tower, a projector to 8192. 88,593,355,323 by
// hand; the only published figure found is "88.6B".
TEST_CASE("Llama 3.2 90B Vision by hand (mllama)", "[vision][params]") {
  const ModelSpec m = parse(data_config("llama-3.2-90b-vision-instruct.json"));
  const ll total = text_params(8192, 100, 20, 28672) + kVision + 7680LL * 8192 + 8192;
  CHECK(total == 88593355323LL);
  CHECK(count_params(m).total == total);
  CHECK(std::abs(static_cast<double>(total) / 1e9 - 88.6) < 0.05);
}

TEST_CASE("Llama 3.2 Vision without images is Llama-3.1-8B step for step: the cross layers are skipped", "[vision][ops]") {
  const ModelSpec m = parse(data_config("llama-3.2-11b-vision-instruct.json"));
  const ModelSpec llama = preset_model("llama-3.1-8b");
  for (const Request r : {Request{0, 512, 1}, Request{4095, 1, 8}}) {
    const auto a = step_ops(m, group_layers(m), {r}, settings());
    const auto b = step_ops(llama, group_layers(llama), {r}, settings());
    double fa = 0, fb = 0, wa = 0, wb = 0;
    for (const auto& o : a) fa += o.flops, wa += o.weight_bytes + o.kv_read_bytes;
    for (const auto& o : b) fb += o.flops, wb += o.weight_bytes + o.kv_read_bytes;
    CHECK(fa == fb);
    CHECK(wa == wb);
  }
}

TEST_CASE("an image's tokens: keys and values once in the prefill, attended at every step, held per request", "[vision][ops]") {
  const ModelSpec m = parse(data_config("llama-3.2-11b-vision-instruct.json"));
  StepSettings s = settings();
  s.images = {ImageSize{1120, 560}};
  // Every image is padded to 4 tiles of 1601 tokens (the patches and the class token): 6,404 for cross-attention,
  // one <|image|> token in the prompt, the encoder over 4 x 1608 (each tile padded to a multiple of 8) at once.
  s.cross_tokens = cross_attention_tokens(m.vision, s.images);
  CHECK(s.cross_tokens == 6404);
  CHECK(plan_image(m.vision, s.images[0]).tokens == 1);
  CHECK(plan_image(m.vision, s.images[0]).sequences == std::vector<i64>{6432});
  const double X = 6404, h = 4096, kvw = 8 * 128;
  const auto prefill = step_ops(m, group_layers(m), {Request{0, 100, 1}}, s);
  CHECK(sum_over(prefill, "cross_k_proj", &Op::flops) == 8 * 2 * X * h * kvw);
  CHECK(sum_over(prefill, "cross_kv_cache_write", &Op::kv_write_bytes) == 8 * X * 2 * kvw * 2);
  CHECK(sum_over(prefill, "vision_qkv", &Op::flops) == 40 * 2 * 6432.0 * 1280 * 3 * 1280);
  CHECK(sum_over(prefill, "vision_merger_1", &Op::flops) == 2 * X * 7680 * h + X * h);
  // A decode step: every cross layer reads its 6,404 keys and values and computes none.
  const auto decode = step_ops(m, group_layers(m), {Request{100, 1, 1}}, s);
  CHECK(sum_over(decode, "cross_k_proj", &Op::flops) == 0);
  const auto& cross = find_op(decode, "attention", "dense, cross");
  CHECK(cross.kv_read_bytes == 8 * X * 2 * kvw * 2);
  CHECK(cross.flops == 8 * X * 32 * (2 * 128 + 2 * 128 + s.convention.softmax_flops_per_score + s.convention.score_scale_flops));
  // In memory: the image tokens' keys and values beside the self-attention layers' cache, whatever the context.
  const double state = state_bytes_per_request(group_layers(m), s);
  CHECK(state == 8 * X * 2 * kvw * 2);
}

TEST_CASE("the analyze call with an image: one prompt token, the cross cache in the KV bytes", "[vision][api]") {
  const json v = api_value("analyze", {{"model", data_config("llama-3.2-11b-vision-instruct.json")},
                                        {"hardware", "nvidia-h100-sxm"},
                                        {"workload", {{"batch", 2}, {"prompt", 100}, {"gen", 10}, {"images", {{{"width", 560}, {"height", 560}}}}}}});
  CHECK(v["workload"]["image_tokens"] == 1);
  CHECK(v["memory"]["state_bytes"] == 2 * 8 * 6404.0 * 2 * 1024 * 2);
  CHECK(v["memory"]["image_kv_bytes"] == v["memory"]["state_bytes"]);
  CHECK(v["workload"]["images"][0]["cross_attention_tokens"] == 6404);
  const json text = api_value("analyze", {{"model", data_config("llama-3.2-11b-vision-instruct.json")},
                                           {"hardware", "nvidia-h100-sxm"},
                                           {"workload", {{"batch", 2}, {"prompt", 101}, {"gen", 10}}}});
  CHECK(text["memory"]["state_bytes"] == 0);
  // With the image every decode step also runs the 8 cross layers: slower than text alone.
  CHECK(v["decode"]["tpot_s"].get<double>() > text["decode"]["tpot_s"].get<double>());
}

TEST_CASE("mllama configs that cannot be read are refused, naming the field", "[vision][errors]") {
  json c = data_config("llama-3.2-11b-vision-instruct.json");
  c["text_config"]["cross_attention_layers"] = {3, 40};
  CHECK_THROWS_WITH(parse(c), Catch::Contains("/text_config/cross_attention_layers/1 holds 40; expected a layer from 0 to 39"));
  c["text_config"]["cross_attention_layers"] = {3, 3};
  CHECK_THROWS_WITH(parse(c), Catch::Contains("/text_config/cross_attention_layers/1 holds 3, which the list names twice"));
  json d = data_config("llama-3.2-11b-vision-instruct.json");
  d["vision_config"]["supported_aspect_ratios"] = 8;
  CHECK_THROWS_WITH(parse(d), Catch::Contains("/vision_config/supported_aspect_ratios holds 8"));
}
