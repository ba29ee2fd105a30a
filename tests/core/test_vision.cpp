// Vision encoders of multimodal configs: parameters exact to the integer (each total is the published count of the
// checkpoint, and the vision part is computed by hand from transformers' modeling code), the tokens an image adds
// to the prompt, and the encoder's operators in the prefill (docs/formulas.md, "Vision encoders").
#include <catch2/catch.hpp>

#include "configs.hpp"
#include "helpers.hpp"
#include "model/mobilenet.hpp"

using namespace test;

namespace {
using ll = long long;

// A multimodal config: a preset's text config as text_config, the published vision_config and top-level keys.
json multimodal(const std::string& type, const json& text, const json& vision, json top = json::object()) {
  top["model_type"] = type;
  top["text_config"] = text;
  top["vision_config"] = vision;
  return top;
}
json preset_config(const std::string& id) { return find_model_preset(id)->config; }

// The ViT blocks: two norms, q, k, v, o with biases, and the MLP.
ll blocks(ll L, ll h, ll I, bool layer_norm_bias, bool attn_bias, bool gated, bool mlp_bias) {
  const ll norm = layer_norm_bias ? 2 * h : h;
  ll layer = 2 * norm + 4 * h * h + (attn_bias ? 4 * h : 0);
  layer += gated ? 3 * h * I + (mlp_bias ? 2 * I + h : 0) : 2 * h * I + (mlp_bias ? I + h : 0);
  return L * layer;
}
}  // namespace

TEST_CASE("Gemma 3 4B: SigLIP at 896 x 896, 256 tokens per image, the projector to the text width", "[vision]") {
  // google/gemma-3-4b-it's vision_config and mm_tokens_per_image, over the gemma-3-4b-text preset's text model.
  auto m = parse_model_config(multimodal("gemma3", preset_config("gemma-3-4b-text"),
                                         json{{"hidden_size", 1152}, {"image_size", 896}, {"intermediate_size", 4304},
                                              {"model_type", "siglip_vision_model"}, {"num_attention_heads", 16},
                                              {"num_hidden_layers", 27}, {"patch_size", 14}, {"vision_use_head", false}},
                                         json{{"mm_tokens_per_image", 256}}),
                              "/model");
  const ll h = 1152;
  const ll vision = (3 * 14 * 14 * h + h) + 4096 * h + blocks(27, h, 4304, true, true, false, true) + 2 * h  // post-norm
                    + h * 2560 + h;  // mm_input_projection and mm_soft_emb_norm
  const auto c = count_params(m);
  CHECK(c.vision == vision);
  CHECK(c.vision == 419816304);
  CHECK(c.total == 4300079472LL);  // google/gemma-3-4b-it: 4,300,079,472 parameters
  CHECK(c.active == 3880263168LL);  // per text token: the text model only
  // Any image: 64 x 64 patches through the encoder, pooled 4 x 4 to 256 tokens; in the prompt with "\n\n", boi,
  // eoi and "\n\n" (Gemma3Processor's full_image_sequence).
  const ImagePlan p = plan_image(m.vision, ImageSize{3000, 200});
  CHECK(p.merged == 256);
  CHECK(p.tokens == 260);
  CHECK(p.sequences == std::vector<i64>{4096});
  const auto ops = step_ops(m, group_layers(m), {{0, 300 + 256, 1}}, [&] {
    StepSettings s = settings();
    s.images = {ImageSize{640, 480}};
    return s;
  }());
  CHECK(find_op(ops, "vision_patch_embed").flops == 2.0 * 4096 * 588 * h + 4096 * h);
  CHECK(find_op(ops, "vision_attention").flops / 27 == 4096.0 * 4096 * 16 * (4 * 72 + 5));
  CHECK(find_op(ops, "vision_merger_1").flops == 2.0 * 256 * h * 2560);
}

TEST_CASE("Llama 4 Scout: 336 x 336 tiles, a global tile, pixel shuffle to 144 tokens per tile", "[vision]") {
  auto m = parse_model_config(
      multimodal("llama4", preset_config("llama-4-scout")["text_config"],
                 json{{"hidden_act", "gelu"}, {"hidden_size", 1408}, {"image_size", 336}, {"intermediate_size", 5632},
                      {"model_type", "llama4_vision_model"}, {"multi_modal_projector_bias", false}, {"num_attention_heads", 16},
                      {"num_channels", 3}, {"num_hidden_layers", 34}, {"patch_size", 14}, {"pixel_shuffle_ratio", 0.5},
                      {"projector_input_dim", 4096}, {"projector_output_dim", 4096}, {"vision_output_dim", 4096}}),
      "/model");
  const ll h = 1408;
  // Unfold + linear patch embedding (no bias), class token, 577 positions, pre/post LayerNorms, 34 blocks with
  // biases and a GELU MLP; Llama4VisionMLP2 (5632 -> 4096 -> 4096) and the projector to 5120.
  const ll vision = 588 * h + h + 577 * h + 4 * h + blocks(34, h, 5632, true, true, false, true) + 5632LL * 4096 +
                    4096LL * 4096 + 4096LL * 5120;
  const auto c = count_params(m);
  CHECK(c.vision == vision);
  CHECK(c.total == 108641793536LL);  // meta-llama/Llama-4-Scout-17B-16E-Instruct: 108,641,793,536 parameters
  // 1024 x 768: 4 x 3 tiles and the global one.
  const ImagePlan p = plan_image(m.vision, ImageSize{1024, 768});
  CHECK(p.sequences.size() == 13);
  CHECK(p.sequences[0] == 577);
  CHECK(p.tokens == 13 * 144);
  CHECK(plan_image(m.vision, ImageSize{300, 300}).tokens == 144);  // one tile, no global one
  CHECK(plan_image(m.vision, ImageSize{8000, 8000}).sequences.size() == 17);  // at most 16 tiles, and the global one
}

TEST_CASE("Qwen2.5-VL 7B: dynamic resolution, window attention, the merger to 3584", "[vision]") {
  // Qwen/Qwen2.5-VL-7B-Instruct's format: the text model's keys at the top level, vision_config beside them.
  json cfg = preset_config("qwen2-7b");
  cfg["model_type"] = "qwen2_5_vl";
  cfg["vision_config"] = json{{"depth", 32}, {"fullatt_block_indexes", {7, 15, 23, 31}}, {"hidden_act", "silu"},
                              {"hidden_size", 1280}, {"in_chans", 3}, {"intermediate_size", 3420}, {"model_type", "qwen2_5_vl"},
                              {"num_heads", 16}, {"out_hidden_size", 3584}, {"patch_size", 14}, {"spatial_merge_size", 2},
                              {"spatial_patch_size", 14}, {"temporal_patch_size", 2}, {"tokens_per_second", 2},
                              {"window_size", 112}};
  auto m = parse_model_config(cfg, "/model");
  const ll h = 1280;
  const ll vision = 3 * 2 * 14 * 14 * h + blocks(32, h, 3420, false, true, true, true) + h  // ln_q
                    + (4 * h * 4 * h + 4 * h) + (4 * h * 3584 + 3584);
  const auto c = count_params(m);
  CHECK(c.vision == vision);
  CHECK(c.vision == 676550144);
  CHECK(c.total == 8292166656LL);  // Qwen/Qwen2.5-VL-7B-Instruct: 8,292,166,656 parameters
  // 1024 x 768 -> 1036 x 756 (multiples of 28): 74 x 54 patches, 999 tokens; windows of 8 x 8 patches.
  const ImagePlan p = plan_image(m.vision, ImageSize{1024, 768});
  CHECK(p.sequences == std::vector<i64>{74 * 54});
  CHECK(p.tokens == 999);
  StepSettings s = settings();
  s.images = {ImageSize{1024, 768}};
  const auto ops = step_ops(m, group_layers(m), {{0, 1100, 1}}, s);
  CHECK(find_op(ops, "vision_attention", "vision").flops / 4 == 3996.0 * 3996 * 16 * (4 * 80 + 5));
  CHECK(find_op(ops, "vision_attention", "vision windowed").flops / 28 == 3996.0 * 64 * 16 * (4 * 80 + 5));
}

TEST_CASE("Qwen3-VL 8B: learned positions, LayerNorm blocks, three deepstack mergers", "[vision]") {
  const ll h = 1152;
  const ll merger = (4 * h * 4 * h + 4 * h) + (4 * h * 4096 + 4096);
  const ll vision = (3 * 2 * 16 * 16 * h + h) + 2304 * h + blocks(27, h, 4304, true, true, false, true) + 2 * h + merger +
                    3 * (2 * 4 * h + merger);
  const auto c = count_params(preset_model("qwen3-vl-8b"));
  CHECK(c.vision == vision);
  CHECK(c.vision == 576388336);
  CHECK(c.total == 8190735360LL + 576388336);
  // Qwen3-VL resizes to multiples of 32 within 65,536 and 16,777,216 pixels: 1024 x 768 stays, 48 x 32 tokens.
  const auto m = preset_model("qwen3-vl-8b");
  CHECK(plan_image(m.vision, ImageSize{1024, 768}).tokens == 32 * 24);
  CHECK(plan_image(m.vision, ImageSize{100, 100}).tokens == 8 * 8);  // scaled up to the minimum area
}

TEST_CASE("Mistral Small 3.1: Pixtral at up to 1540 pixels, row breaks, the patch merger", "[vision]") {
  const json text = {{"model_type", "mistral"}, {"hidden_size", 5120}, {"num_hidden_layers", 40}, {"num_attention_heads", 32},
                     {"num_key_value_heads", 8}, {"head_dim", 128}, {"intermediate_size", 32768}, {"vocab_size", 131072},
                     {"max_position_embeddings", 131072}, {"tie_word_embeddings", false}};
  auto m = parse_model_config(
      multimodal("mistral3", text,
                 json{{"hidden_size", 1024}, {"image_size", 1540}, {"intermediate_size", 4096}, {"model_type", "pixtral"},
                      {"num_attention_heads", 16}, {"num_hidden_layers", 24}, {"patch_size", 14}, {"num_channels", 3}},
                 json{{"spatial_merge_size", 2}, {"multimodal_projector_bias", false}, {"projector_hidden_act", "gelu"}}),
      "/model");
  const ll h = 1024;
  const ll vision = 3 * 14 * 14 * h + h /*ln_pre*/ + blocks(24, h, 4096, false, false, true, false) + h /*norm*/ +
                    4 * h * h /*patch merger*/ + h * 5120 + 5120LL * 5120;
  const auto c = count_params(m);
  CHECK(c.vision == vision);
  CHECK(c.total == 24011361280LL);  // mistralai/Mistral-Small-3.1-24B-Instruct-2503: 24,011,361,280 parameters
  // 1024 x 768 in units of 28 pixels: 37 x 28 tokens, one break per row.
  CHECK(plan_image(m.vision, ImageSize{1024, 768}).tokens == 37 * 28 + 28);
  // 3080 x 1540 is scaled to 1540 x 770: 55 x 28 tokens.
  CHECK(plan_image(m.vision, ImageSize{3080, 1540}).tokens == 55 * 28 + 28);
}

TEST_CASE("images join the prompt: tokens in the prefill and the cache, the encoder's time in TTFT", "[vision]") {
  // echo_requests: the result repeats the requests the images joined (schema 2).
  const json r = json::parse(call("analyze", R"({"model": "qwen3-vl-8b", "hardware": "nvidia-h100-sxm", "echo_requests": true,
      "workload": {"prompt": 100, "gen": 2, "images": [{"width": 1024, "height": 768, "count": 2}]}})"));
  REQUIRE(r["ok"] == true);
  const auto& v = r["value"];
  CHECK(v["workload"]["image_tokens"] == 2 * 768);
  CHECK(v["workload"]["requests"][0]["input"] == 100 + 2 * 768);
  CHECK(v["prefill"]["tokens"] == 100 + 2 * 768);
  const json plain = json::parse(call("analyze", R"({"model": "qwen3-vl-8b", "hardware": "nvidia-h100-sxm",
      "workload": {"prompt": 1636, "gen": 2}})"));
  CHECK(v["ttft_s"].get<double>() > plain["value"]["ttft_s"].get<double>());  // the encoder runs first
  CHECK(v["memory"]["kv_cache_bytes"] == plain["value"]["memory"]["kv_cache_bytes"]);
  // A model without a vision encoder refuses images, naming the field.
  const json bad = json::parse(call("analyze", R"({"model": "llama-3.1-8b", "workload": {"images": [{"width": 64, "height": 64}]}})"));
  REQUIRE(bad["ok"] == false);
  CHECK(bad["error"]["path"] == "/workload/images");
  const json cached = json::parse(call("analyze", R"({"model": "qwen3-vl-8b",
      "workload": {"requests": [{"cached": 100, "input": 1}], "images": [{"width": 64, "height": 64}]}})"));
  REQUIRE(cached["ok"] == false);
  CHECK(cached["error"]["code"] == "request.conflict");
}

TEST_CASE("Gemma 4 31B: its vision tower counted to the published total", "[vision][gemma]") {
  // google/gemma-4-31B-it as transformers loads it (tests/data/configs/SOURCES.md): 27 blocks of 1152 with four
  // RMSNorms, q and k norms over a 72-wide head (v's has no weight), a gated MLP of 4304 and no biases; a linear
  // patch embedding of 3 x 16 x 16 pixels without bias, a factorized table of 2 x 10240 positions, std_bias and
  // std_scale (standardize), and embed_vision: an RMSNorm without weight and a 1152 x 5376 projection.
  const ModelSpec m = parse_model_config(data_config("gemma-4-31b-it.json"), "/model");
  const ll h = 1152, I = 4304;
  const ll block = 4 * h + 4 * h * h + 3 * h * I + 2 * 72;
  const ll vision = 27 * block + 768 * h + 2 * 10240 * h + 2 * h + h * 5376;
  const auto c = count_params(m);
  CHECK(c.vision == vision);
  CHECK(c.vision == 575743536);
  CHECK(c.total == 31273088876LL);   // the checkpoint's 1,188 tensors: 31,273,088,876 parameters
  CHECK(c.active == 30697345340LL);  // per text token: the language model only
  CHECK(m.vision.kind == VisionKind::Gemma4);
  // Gemma4ImageProcessor: scaled to the budget of 280 x 9 = 2,520 patches of 16 pixels, each side rounded down to
  // a pooled cell of 48 pixels; the encoder runs on the whole budget (the image's patches and padding); the prompt
  // holds the cells between boi and eoi. 896 x 896 -> 768 x 768: 16 x 16 cells.
  const ImagePlan p = plan_image(m.vision, ImageSize{896, 896});
  CHECK(p.merged == 256);
  CHECK(p.tokens == 258);
  CHECK(p.sequences == std::vector<i64>{2520});
  // 1024 x 768 -> 912 x 672: 19 x 14 cells; a small image is scaled up (224 x 224 -> 768 x 768); a side that rounds
  // to nothing keeps one cell and the other the aspect ratio, at most the budget (3 x 900: 1 x 280).
  CHECK(plan_image(m.vision, ImageSize{1024, 768}).merged == 266);
  CHECK(plan_image(m.vision, ImageSize{224, 224}).merged == 256);
  CHECK(plan_image(m.vision, ImageSize{3, 900}).merged == 280);
  CHECK(plan_image(m.vision, ImageSize{900, 30}).merged == 3 * 91);
  const auto ops = step_ops(m, group_layers(m), {{0, 300 + 256, 1}}, [&] {
    StepSettings s = settings();
    s.images = {ImageSize{896, 896}};
    return s;
  }());
  CHECK(find_op(ops, "vision_patch_embed").flops == 2.0 * 2520 * 768 * h);
  CHECK(find_op(ops, "vision_attention").flops / 27 == 2520.0 * 2520 * 16 * (4 * 72 + 5));
  CHECK(find_op(ops, "vision_norms x4").flops / 27 == 4.0 * 2520 * h * settings().convention.rmsnorm_flops_per_element);
  CHECK(find_op(ops, "vision_merger_1").flops == 2.0 * 256 * h * 5376);
}

TEST_CASE("Gemma 4 E2B, E4B and 26B-A4B with their encoders: the checkpoints' totals", "[vision][gemma]") {
  // The vision towers of Gemma 4's converter (convert_gemma4_weights.py): the small one (E2B, E4B) of 16 blocks of
  // 768 with clipped linears (4 scalar bounds on each of 7 linears per block), the large one (26B-A4B, 31B) of 27
  // blocks of 1152 with std_bias and std_scale; the audio tower (E2B, E4B) at Gemma4AudioConfig's defaults.
  const json small{{"model_type", "gemma4_vision"}, {"hidden_size", 768},       {"intermediate_size", 3072},
                   {"num_hidden_layers", 16},       {"num_attention_heads", 12}, {"num_key_value_heads", 12},
                   {"head_dim", 64},                {"patch_size", 16},         {"pooling_kernel_size", 3},
                   {"position_embedding_size", 10240}, {"default_output_length", 280}, {"use_clipped_linears", true},
                   {"standardize", false}};
  json large = small;
  const json large_sizes{{"hidden_size", 1152}, {"intermediate_size", 4304}, {"num_hidden_layers", 27},
                         {"num_attention_heads", 16}, {"num_key_value_heads", 16}, {"head_dim", 72},
                         {"use_clipped_linears", false}, {"standardize", true}};
  large.update(large_sizes);
  const json audio{{"model_type", "gemma4_audio"}};
  const auto with = [](json c, const json& vision, const json& audio_config) {
    c["vision_config"] = vision;
    if (!audio_config.is_null()) c["audio_config"] = audio_config;
    return c;
  };
  // By hand: the small vision tower 16,318,464 (patch embedding, 2 x 10240 positions) + 16 x 9,440,412; the large
  // one 24,477,696 + 27 x 20,187,792 + 2,304; the audio tower 1,086,752 (subsampler) + 12 x 25,180,328 (24 H^2 +
  // 9 H + 5 H + H / 8 + 40 bounds) + 1,574,400 (output projection with bias) = 304,825,088.
  const ll small_tower = 768 * 768 + 2 * 10240 * 768 + 16 * (4 * 768 + 4 * 768 * 768 + 3 * 768 * 3072 + 2 * 64 + 28);
  const ll large_tower = 768 * 1152 + 2 * 10240 * 1152 + 27 * (4 * 1152 + 4 * 1152 * 1152 + 3 * 1152 * 4304 + 2 * 72) + 2 * 1152;
  const ll H = 1024;
  const ll audio_tower = (9 * 128 + 128 + 9 * 128 * 32 + 32 + 32 * 32 * H) + 12 * (24 * H * H + 9 * H + 5 * H + H / 8 + 40) + H * 1536 + 1536;
  CHECK(small_tower == 167365056);
  CHECK(large_tower == 569550384);
  CHECK(audio_tower == 304825088);
  struct Row {
    const char* file;
    json vision, audio;
    ll text_hidden, published, unloaded;
  };
  // `published`: the sum of every tensor in the checkpoint's safetensors headers; `unloaded`: the k and v weights
  // of the KV-shared layers, stored in E2B's and E4B's checkpoints but never built by transformers (Gemma4 ignores
  // them on load), so not in the model's count.
  for (const Row& r : {Row{"gemma-4-e2b.text.json", small, audio, 1536, 5123178979LL, 18880512},
                       Row{"gemma-4-e4b.text.json", small, audio, 2560, 7996157418LL, 55055616},
                       Row{"gemma-4-26b-a4b.text.json", large, nullptr, 2816, 25805936206LL, 0}}) {
    CAPTURE(r.file);
    const ModelSpec m = parse_model_config(with(data_config(r.file), r.vision, r.audio), "/model");
    const auto c = count_params(m);
    const ParamCounts text = count_params(parse_model_config(data_config(r.file), "/model"));
    const bool is_small = r.text_hidden < 2816;
    CHECK(c.vision == (is_small ? small_tower : large_tower) + (is_small ? 768 : 1152) * r.text_hidden);
    CHECK(c.audio == (r.audio.is_null() ? 0 : audio_tower + 1536 * r.text_hidden));
    CHECK(c.total == text.total + c.vision + c.audio);
    CHECK(c.total == r.published - r.unloaded);
    CHECK(c.active == text.active);
  }
}

TEST_CASE("Gemma 3n E2B and E4B with MobileNetV5 and the audio Conformer: the checkpoints' totals", "[vision][gemma]") {
  // google/gemma-3n-E2B-it and -E4B-it hold 5,439,438,272 and 7,849,978,192 parameters (the Hub's safetensors
  // totals). Their towers are identical: timm's mobilenetv5_300m_enc and Gemma3nAudioEncoder at Gemma3nAudioConfig's
  // defaults, each with a Gemma3nMultimodalEmbedder (a table of 128 soft tokens, hard and soft norms with weights, a
  // projection to the text width of 2048, a norm without weight).
  const ll text = 2048;
  // MobileNetV5 by hand, block by block (timm's strings; M = make_divisible(in x e, 8)):
  const auto er = [](ll in, ll out, ll k, ll e) { const ll M = in * e; return k * k * in * M + M + M * out + out; };
  const auto uir = [](ll in, ll out, ll a, ll k, ll e) {
    const ll M = in * e;
    return (a ? a * a * in + in : 0) + in * M + M + (k ? k * k * M + M : 0) + M * out + out + out;
  };
  const auto mqa = [](ll c, ll heads, ll d, ll kv_stride) {
    const ll kv = c * d + (kv_stride > 1 ? 9 * c + c : 0);
    return c + c * heads * d + 2 * kv + heads * d * c + c;
  };
  CHECK(uir(128, 256, 3, 5, 6) == 317440);   // blocks.1.0: uir_a3_k5_s2_e6_c256
  CHECK(mqa(640, 12, 64, 2) == 1079040);     // blocks.2.9: mqa_k3_h12_v2_d64_c640
  CHECK(mqa(1280, 16, 96, 1) == 4180480);    // blocks.3.1: mqa_k3_h16_d96_c1280
  const ll stem = 27 * 64 + 64 + 64;
  const ll s0 = er(64, 128, 3, 4) + 2 * er(128, 128, 3, 4);
  const ll s1 = uir(128, 256, 3, 5, 6) + 2 * uir(256, 256, 5, 0, 4) + 2 * uir(256, 256, 3, 0, 4);
  const ll s2 = uir(256, 640, 5, 5, 6) + 7 * uir(640, 640, 5, 0, 4) + uir(640, 640, 0, 0, 1) +
                14 * (mqa(640, 12, 64, 2) + uir(640, 640, 0, 0, 2));
  const ll s3 = uir(640, 1280, 5, 5, 6) + 19 * (mqa(1280, 16, 96, 1) + uir(1280, 1280, 0, 0, 2));
  const ll msfa = 1920 * 3840 + 3840 + 3840 * 2048 + 2048 + 2048;  // 640 + 1280 channels -> 3840 -> 2048, a norm
  const ll tower = stem + s0 + s1 + s2 + s3 + msfa;
  CHECK(tower == 294126912);
  CHECK(mobilenetv5_params("mobilenetv5_300m_enc") == tower);
  const ll embed_vision = 128 * 2048 + 2 * 2048 + 2048 * text;
  // The audio Conformer: the subsampler (two 3 x 3 convolutions, 1 -> 128 -> 32, their norms, 32 mel bins x 32
  // channels -> 1536), 12 layers of 24 H^2 + 9 H + 5 H + H / 8, no output projection.
  const ll H = 1536;
  const ll audio_tower = 9 * 128 + 128 + 9 * 128 * 32 + 32 + 32 * 32 * H + 12 * (24 * H * H + 9 * H + 5 * H + H / 8);
  CHECK(audio_tower == 681348640);
  const ll embed_audio = 128 * H + 2 * H + H * text;
  for (const auto& [file, text_total, published] : {std::tuple{"gemma-3n-e4b.text.json", 6866696688LL, 7849978192LL},
                                                    std::tuple{"gemma-3n-e2b.text.json", 4456156768LL, 5439438272LL}}) {
    json cfg = data_config(file);
    cfg["vision_config"] = {{"model_type", "gemma3n_vision"}, {"architecture", "mobilenetv5_300m_enc"}, {"hidden_size", 2048},
                            {"vocab_size", 128}, {"vocab_offset", 262144}, {"do_pooling", false}, {"model_args", nullptr}};
    cfg["audio_config"] = {{"model_type", "gemma3n_audio"}, {"hidden_size", 1536}, {"conf_num_hidden_layers", 12},
                           {"sscp_conv_kernel_size", {{3, 3}, {3, 3}}}, {"sscp_conv_stride_size", {{2, 2}, {2, 2}}}};
    const ModelSpec m = parse_model_config(cfg, "/model");
    const auto c = count_params(m);
    INFO(file);
    CHECK(c.vision == tower + embed_vision);
    CHECK(c.audio == audio_tower + embed_audio);
    CHECK(c.total == published);
    CHECK(c.active == text_total);  // per text token: the language model only
    CHECK(m.vision.kind == VisionKind::MobileNetV5);
  }
  // Forecast: every image resized to 768 x 768, 256 cells from the fusion adapter, 260 tokens in the prompt ("\n\n",
  // boi, eoi, "\n\n" around them). The convolutions (depthwise ones too), projections and attention of one image: timm's own profile of
  // mobilenetv5_300m_enc at 768 (results/benchmark-infer-*.csv) is 435.74 GMACs; by block, 435,741,474,816 MACs
  // with the stem's bias adds (9,437,184) apart.
  json cfg = data_config("gemma-3n-e4b.text.json");
  cfg["vision_config"] = {{"model_type", "gemma3n_vision"}};
  const ModelSpec m = parse_model_config(cfg, "/model");
  const ImagePlan p = plan_image(m.vision, ImageSize{1024, 300});
  CHECK(p.merged == 256);
  CHECK(p.tokens == 260);
  const auto ops = step_ops(m, group_layers(m), {{0, 300 + 260, 1}}, [&] {
    StepSettings s = settings();
    s.images = {ImageSize{1024, 300}};
    return s;
  }());
  double matmul = 0, attention_scores = 0;
  for (const auto& o : ops) {
    if (o.group != "vision" || o.name.rfind("vision_merger", 0) == 0) continue;
    const bool depthwise = o.name.find("_dw_") != std::string::npos || o.name.find("kv_down") != std::string::npos;
    if (o.cls == OpClass::GEMM || depthwise) matmul += o.flops;  // depthwise: 2 k^2 per output element
    if (o.cls == OpClass::Attention) attention_scores += o.flops;
  }
  // Attention: stage 2's 14 blocks (48 x 48 queries, 24 x 24 keys, 12 heads of 64) and stage 3's 19 (24 x 24 both,
  // 16 heads of 96), QK^T and AV at 2 d each, softmax apart.
  const double a2 = 2304.0 * 576 * 12, a3 = 576.0 * 576 * 16;
  const double softmax = settings().convention.softmax_flops_per_score + settings().convention.score_scale_flops;
  CHECK(attention_scores == Approx(14 * a2 * (4 * 64 + softmax) + 19 * a3 * (4 * 96 + softmax)).epsilon(1e-12));
  const double qk_av = 14 * a2 * 4 * 64 + 19 * a3 * 4 * 96;
  CHECK(matmul - 9437184 + qk_av == Approx(871482949632.0).epsilon(1e-12));
  CHECK(find_op(ops, "vision_merger_1").flops == 2.0 * 256 * 2048 * text);
  CHECK(find_op(ops, "vision_stem").gemm_m == 384.0 * 384);
  // Another timm architecture, or arguments to its builder, are refused naming the field.
  cfg["vision_config"]["architecture"] = "mobilenetv5_base";
  json err = json::parse(call("model", json{{"model", cfg}}.dump()));
  CHECK(err["error"]["path"] == "/model/vision_config/architecture");
  CHECK(err["error"]["message"] ==
        "/model/vision_config/architecture holds \"mobilenetv5_base\"; expected a MobileNetV5 Infercast counts (mobilenetv5_300m_enc)");
  cfg["vision_config"] = {{"model_type", "gemma3n_vision"}, {"model_args", {{"drop_rate", 0.1}}}};
  err = json::parse(call("model", json{{"model", cfg}}.dump()));
  CHECK(err["error"]["path"] == "/model/vision_config/model_args");
  // The tower's width and tokens come from its table; a config that says otherwise is refused by name.
  cfg["vision_config"] = {{"model_type", "gemma3n_vision"}, {"hidden_size", 1024}};
  err = json::parse(call("model", json{{"model", cfg}}.dump()));
  CHECK(err["error"]["message"] == "/model/vision_config/hidden_size holds 1024; expected 2048, the channels "
                                   "mobilenetv5_300m_enc puts out");
  cfg["vision_config"] = {{"model_type", "gemma3n_vision"}};
  cfg["vision_soft_tokens_per_image"] = 280;
  err = json::parse(call("model", json{{"model", cfg}}.dump()));
  CHECK(err["error"]["message"] == "/model/vision_soft_tokens_per_image holds 280; expected 256, the 16 x 16 cells "
                                   "mobilenetv5_300m_enc puts out for a 768 x 768 image");
}
