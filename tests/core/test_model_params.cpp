// Parameter counts, exact to the integer. Expected totals are the parameter counts of the published
// safetensors checkpoints (Hugging Face "Model size" metadata) where the model's card or hub page states
// them; the others are checked against an independent hand computation below.
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace test;

TEST_CASE("Qwen2-57B-A14B by hand: qkv biases, 64 routed experts, a shared expert and its sigmoid gate", "[params]") {
  const long long h = 3584, v = 151936, L = 28;
  const long long attn = (h * h + h) + 2 * (h * 512 + 512) + h * h;  // 28 q heads, 4 kv heads of 128
  const long long routed = 3 * h * 2560, shared = 3 * h * 20480;
  const long long layer = attn + h * 64 /*router*/ + 64 * routed + shared + h /*shared gate*/ + 2 * h /*norms*/;
  const auto c = count_params(preset_model("qwen2-57b-a14b"));
  CHECK(c.total == L * layer + 2 * v * h + h);
  CHECK(c.active == L * (layer - 56 * routed) + 2 * v * h + h);
}

TEST_CASE("every model preset loads and has exact parameter counts", "[params]") {
  struct Row {
    const char* id;
    long long total;
    long long active;
  };
  const Row rows[] = {
      {"llama-2-7b", 6738415616LL, 6738415616LL},
      {"llama-2-70b", 68976648192LL, 68976648192LL},
      {"llama-3-8b", 8030261248LL, 8030261248LL},
      {"llama-3.1-8b", 8030261248LL, 8030261248LL},
      {"llama-3.1-70b", 70553706496LL, 70553706496LL},
      {"llama-3.1-405b", 405853388800LL, 405853388800LL},
      // Falcon-180B: 80 x (fused qkv 14848 x 15872 + dense 14848^2 + MLP 2 x 14848 x 59392 + 2 LayerNorms with bias)
      // + untied 65024 x 14848 embedding and head + final LayerNorm = 179,522,565,120 (by hand; model card: "180B").
      {"falcon-180b", 179522565120LL, 179522565120LL},
      {"mistral-7b-v0.1", 7241732096LL, 7241732096LL},
      {"mixtral-8x7b", 46702792704LL, 12879925248LL},
      {"qwen2-7b", 7615616512LL, 7615616512LL},
      {"qwen2.5-7b", 7615616512LL, 7615616512LL},
      {"qwen2.5-72b", 72706203648LL, 72706203648LL},
      {"qwen3-30b-a3b", 30532122624LL, 3353032704LL},
      // Qwen3-235B-A22B: 94 x (attention 64 x 128 q/o + 4 x 128 k/v over 4096, q/k norms, router 128 x 4096,
      // 128 experts of 3 x 4096 x 1536, two norms) + untied 151936 x 4096 embedding and head + final norm: the same
      // 235,093,634,560 counted apart by a review (model card: 235B total, 22B active).
      {"qwen3-235b-a22b", 235093634560LL, 22190763520LL},
      {"gemma-2-9b", 9241705984LL, 9241705984LL},
      {"phi-3-mini-4k", 3821079552LL, 3821079552LL},
      {"falcon-7b", 6921720704LL, 6921720704LL},
      {"falcon-7b-instruct", 6921720704LL, 6921720704LL},
      {"gpt-oss-20b", 20914757184LL, 4187440704LL},
      {"gpt-oss-120b", 116829156672LL, 5711982912LL},
      {"deepseek-v3", 671026419200LL, 37552297472LL},
      {"deepseek-v3-native", 671026419200LL, 37552297472LL},
      {"deepseek-v2-lite", 15706484224LL, 2661150208LL},
      {"deepseek-v2-lite-native", 15706484224LL, 2661150208LL},
      {"llama-4-scout", 107769861120LL, 17172894720LL},
      // Llama-4-Maverick: the text model 400,711,848,960 (24 MoE layers of 128 experts and a shared one at 8192,
      // 24 dense layers at 16384; counted apart by a review) plus the vision encoder and projector, 871,932,416.
      {"llama-4-maverick", 401583781376LL, 17184691200LL},
      // The transformer-roofline-analyzer fixture keeps transformers' default Llama4VisionConfig (hidden 768,
      // vision_output_dim 7680): its vision encoder, 455,178,240, is counted beside the text model.
      {"llama-4-scout-tra", 108225039360LL, 17172894720LL},
      {"gemma-3-4b-text", 3880263168LL, 3880263168LL},
      {"gemma-3-12b-text", 11766034176LL, 11766034176LL},
      // Seed models added for issue 3 (LLM-Para's list, LIFE's models); totals as on the hub pages.
      {"llama-2-13b", 13015864320LL, 13015864320LL},
      {"llama-3-70b", 70553706496LL, 70553706496LL},
      {"llama-3.2-1b", 1235814400LL, 1235814400LL},  // tied embeddings, counted once
      {"llama-3.2-3b", 3212749824LL, 3212749824LL},
      {"mistral-7b-v0.3", 7248023552LL, 7248023552LL},
      {"mixtral-8x22b", 140620634112LL, 39152031744LL},
      {"qwen2-72b", 72706203648LL, 72706203648LL},
      {"qwen2.5-1.5b", 1543714304LL, 1543714304LL},
      {"deepseek-r1-distill-qwen-1.5b", 1777088000LL, 1777088000LL},
      {"qwen2-57b-a14b", 57408658944LL, 14249270784LL},  // hand computation in the next test case
      {"qwen3-8b", 8190735360LL, 8190735360LL},
      {"qwen3-14b", 14768307200LL, 14768307200LL},
      {"qwen3-32b", 32762123264LL, 32762123264LL},
      {"gemma-7b", 8537680896LL, 8537680896LL},
      {"gemma-2-2b", 2614341888LL, 2614341888LL},
      {"gemma-2-27b", 27227128320LL, 27227128320LL},
      {"phi-3-medium-4k", 13960238080LL, 13960238080LL},
      {"phi-4-mini", 3836021760LL, 3836021760LL},
      {"deepseek-v2", 235741434880LL, 21375800320LL},
      {"deepseek-r1", 671026419200LL, 37552297472LL},
      // Issue 20's families; every count is computed by hand in tests/core/test_families.cpp (module by module) and
      // agrees with the stated sizes: Gemma 3 27B, Falcon-40B (tied head, FalconConfig's default), Kimi K2 1T / 32B,
      // OLMo 2 32B and 7B, GLM-4.5's 355B / 32B layout without its MTP layer, Granite 3.1 8B (8.17B as listed),
      // Granite 3B-A800M, Command R7B, DBRX 132B / 36B, StarCoder2 15B, StableLM 2 1.6B.
      {"gemma-3-27b-it", 27432406640LL, 27009346304LL},  // + 423,060,336 of its SigLIP encoder and projector (hub total)
      {"falcon-40b", 41303293952LL, 41303293952LL},
      {"kimi-k2-instruct", 1026408232448LL, 32861500928LL},
      {"olmo-2-0325-32b", 32234279936LL, 32234279936LL},
      {"olmo-2-1124-7b-instruct", 7298617344LL, 7298617344LL},
      {"glm-4.7", 352797829024LL, 33632266144LL},
      {"glm-4.7-flash", 29943393920LL, 3896766080LL},  // by hand in test_families.cpp (31,221,488,576 with MTP)
      {"k-exaone-236b-a23b", 236571156352LL, 23668285312LL},  // by hand in test_families.cpp (237,099,669,632 with MTP)
      {"qwen3-omni-30b-a3b-instruct", 31719205488LL, 3353556992LL},  // the thinker, by hand in test_families.cpp
      {"ling-flash-2.0", 102889705216LL, 6152277760LL},   // the Hub's count of the checkpoint (test_families.cpp)
      {"hy3-preview-base", 295033543488LL, 20675730240LL},  // by hand in test_families.cpp (298,786,155,776 with MTP)
      {"granite-3.1-8b-instruct", 8170848256LL, 8170848256LL},
      {"granite-3.1-3b-a800m-instruct", 3298793472LL, 882874368LL},
      {"command-r7b-12-2024", 8028033024LL, 8028033024LL},
      {"dbrx-instruct", 131596523520LL, 36469708800LL},
      {"starcoder2-15b", 15957889024LL, 15957889024LL},
      {"stablelm-2-1.6b-chat", 1644515328LL, 1644515328LL},
      // Hybrid families (issue 20); hand computations in test_hybrid.cpp.
      {"qwen3-next-80b-a3b", 79674391296LL, 3874929408LL},
      {"qwen3.5-27b", 27356728560LL, 26895998464LL},      // with the 460,730,096 of its vision encoder
      {"qwen3.5-35b-a3b", 35107181936LL, 3454988928LL},
      {"nemotron-3-nano-30b-a3b", 31577940288LL, 3580076352LL},
      {"minimax-m1", 456089655296LL, 48403306496LL},
      {"deepseek-v3.2", 671877944064LL, 38403822336LL},
      {"qwen3-vl-8b", 8767123696LL, 8190735360LL},  // text 8,190,735,360 + vision 576,388,336 (test_vision.cpp)
      // Gemma 3n and Gemma 4 (issue 20); hand computations in test_gemma.cpp. Text models only: the 25.2B / 3.8B
      // stated for 26B-A4B; E4B's 6.87B is its 8B raw less the vision and audio encoders.
      {"gemma-4-26b-a4b-text", 25233141790LL, 3822530590LL},
      {"gemma-3n-e4b-text", 6866696688LL, 6866696688LL},
      // With the vision tower (test_vision.cpp): the checkpoints' 25,805,936,206 and 31,273,088,876 parameters.
      {"gemma-4-26b-a4b", 25805936206LL, 3822530590LL},
      {"gemma-4-31b", 31273088876LL, 30697345340LL},
      // Gemma 3n E4B with MobileNetV5 and the audio Conformer (test_vision.cpp): the checkpoint's 7,849,978,192.
      {"gemma-3n-e4b", 7849978192LL, 6866696688LL},
      // Llama 3.2 Vision: text 9,775,192,080 + vision 863,567,379 + projector 31,461,376, the Hub's count
      // (test_cross_attention.cpp); LongCat-Flash without its MTP block, 8 of 12 picks computed (test_families.cpp).
      {"llama-3.2-11b-vision", 10670220835LL, 9775192080LL},
      {"longcat-flash-chat", 560664980480LL, 27954818048LL},
      // State-space models (test_hybrid.cpp): Codestral Mamba is Mistral's published 7,285,403,648.
      {"falcon-mamba-7b", 7272665088LL, 7272665088LL},
      {"codestral-mamba-7b", 7285403648LL, 7285403648LL},
      // Granite SWASH (test_families.cpp): the 2.144B and 3.02B / A0.598B a public table of Hub totals gives.
      {"granite-swash-2b", 2144463840LL, 2144463840LL},
      {"granite-swash-3b-a600m", 3020382000LL, 598171440LL},
      // Gemma 4 12B (test_families.cpp): the Hub's BF16 total; active is the text model, as for every multimodal preset.
      {"gemma-4-12b-it", 11959730224LL, 11907350320LL},
      // Laguna-XS.2 (test_families.cpp): the Hub's 33.44B and the card's 3B activated.
      {"laguna-xs.2", 33442617088LL, 3017135872LL},
      // MiMo-V2.5 and Ring-mini-linear-2.0 (test_families.cpp): by hand; the cards' 310B with the encoders and 16.4B.
      {"mimo-v2.5", 308778780864LL, 15445936320LL},
      {"ring-mini-linear-2.0", 16423448320LL, 1600777984LL},
      // Small models the public measurements ran (stop 58). GPT-J-6B by hand: embedding 50400 x 4096, 28 x (2 x 4096
      // LayerNorm + 4 x 4096^2 attention + 4096 x 16384 fc_in with bias + 16384 x 4096 fc_out with bias), final
      // LayerNorm, head 50400 x 4096 with bias = 6,050,882,784 (the Hub's 6.05B). Qwen2-0.5B by hand: tied 151936 x
      // 896 + 24 x (q 896^2 + 896, k and v 896 x 128 + 128, o 896^2, MLP 3 x 896 x 4864, 2 norms) + norm = 494,032,768
      // (the Qwen2 blog's 0.49B). Qwen2-1.5B has Qwen2.5-1.5B's shape; TinyLlama 1.1B, Gemma 2B and Qwen3-4B are the
      // Hub's 1,100,048,384, 2,506,172,416 and 4,022,468,096.
      {"gpt-j-6b", 6050882784LL, 6050882784LL},
      {"qwen2-0.5b", 494032768LL, 494032768LL},
      {"qwen2-1.5b", 1543714304LL, 1543714304LL},
      {"tinyllama-1.1b-chat", 1100048384LL, 1100048384LL},
      // LLaMA v1 (paper's Table 2: 6.7B, 13.0B, 32.5B), CodeLlama-34B and OpenLLaMA-3B, each counted by hand too:
      // CodeLlama-34B = 48 x (2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 22016 + 2 x 8192) + 2 x 32000 x 8192 + 8192.
      {"llama-7b", 6738415616LL, 6738415616LL},
      {"llama-13b", 13015864320LL, 13015864320LL},
      {"llama-30b", 32528943616LL, 32528943616LL},
      {"codellama-34b", 33743970304LL, 33743970304LL},
      {"open-llama-3b", 3426473600LL, 3426473600LL},
      {"gemma-2b-it", 2506172416LL, 2506172416LL},
      {"qwen3-4b-instruct-2507", 4022468096LL, 4022468096LL},
  };
  REQUIRE(model_presets().size() == std::size(rows));
  for (const auto& r : rows) {
    INFO(r.id);
    const auto c = count_params(preset_model(r.id));
    CHECK(c.total == r.total);
    CHECK(c.active == r.active);
  }
}

TEST_CASE("DeepSeek-V3 total by hand (MLA, 3 dense + 58 MoE layers, MTP not counted)", "[params]") {
  const long long h = 7168, V = 129280, nh = 128, ql = 1536, kvl = 512, nope = 128, rope = 64, vd = 128;
  const long long attn = h * ql + ql + ql * nh * (nope + rope) + h * (kvl + rope) + kvl + kvl * nh * (nope + vd) + nh * vd * h;
  const long long dense = 3 * h * 18432;
  const long long moe = h * 256 + 256 /*e_score_correction_bias*/ + 256 * 3 * h * 2048 + 3 * h * 2048 /*shared*/;
  const long long total = 2 * V * h + h + 61 * (attn + 2 * h) + 3 * dense + 58 * moe;
  CHECK(count_params(preset_model("deepseek-v3")).total == total);
  // Active per token: 8 routed experts of 256 plus the shared one.
  const long long active = 2 * V * h + h + 61 * (attn + 2 * h) + 3 * dense + 58 * (h * 256 + 256 + 9 * 3 * h * 2048);
  CHECK(count_params(preset_model("deepseek-v3")).active == active);
  CHECK(preset_model("deepseek-v3").mtp_layers == 1);
}

TEST_CASE("tied embeddings are counted once and active excludes the input embedding when asked", "[params]") {
  const auto g = count_params(preset_model("gemma-2-9b"));
  CHECK(g.lm_head == 0);
  CHECK(g.embedding == 256000LL * 3584);
  CHECK(g.active_no_embed == g.active);  // tied: the table is the LM head, which is always active
  const auto o = count_params(preset_model("gpt-oss-20b"));
  CHECK(o.active - o.active_no_embed == 201088LL * 2880);
  // OpenAI states 3.6B active for gpt-oss-20b, which excludes the input embedding.
  CHECK(o.active_no_embed == Approx(3.6e9).epsilon(0.01));
}

TEST_CASE("layer kinds are read from the configs", "[config]") {
  const auto gemma2 = preset_model("gemma-2-9b");
  CHECK(gemma2.layers[0].attn.window == 4096);
  CHECK(gemma2.layers[1].attn.window == 0);
  CHECK(gemma2.layers[0].attn.head_dim == 256);  // not hidden/heads = 224
  CHECK(gemma2.layers[0].norms == 4);
  const auto gemma3 = preset_model("gemma-3-12b-text");
  int global = 0;
  for (const auto& l : gemma3.layers) global += l.attn.window == 0;
  CHECK(global == 8);  // every 6th of 48
  const auto scout = preset_model("llama-4-scout");
  int chunked = 0, nope = 0;
  for (const auto& l : scout.layers) {
    chunked += l.attn.chunk == 8192;
    nope += l.attn.rope_dim == 0;
  }
  CHECK(chunked == 36);
  CHECK(nope == 12);
  const auto oss = preset_model("gpt-oss-20b");
  CHECK(oss.layers[0].attn.window == 128);
  CHECK(oss.layers[1].attn.window == 0);
  CHECK(oss.layers[0].attn.sinks);
  const auto ds = preset_model("deepseek-v3");
  CHECK_FALSE(ds.layers[2].ffn.moe);
  CHECK(ds.layers[3].ffn.moe);
  const auto lite = preset_model("deepseek-v2-lite");
  CHECK(lite.layers[0].attn.q_lora_rank == 0);
  bool warned = false;
  for (const auto& w : lite.warnings) warned = warned || w.path == "/config/q_lora_rank";
  CHECK(warned);
  const auto falcon = preset_model("falcon-7b");
  CHECK(falcon.layers[0].attn.n_kv_heads == 1);
  CHECK(falcon.layers[0].parallel);
  const auto mistral = preset_model("mistral-7b-v0.1");
  CHECK(mistral.layers[0].attn.window == 4096);
  const auto qwen2 = preset_model("qwen2-7b");
  CHECK(qwen2.layers[0].attn.window == 0);  // use_sliding_window false
}
