// llama.cpp's file types as llama-quantize writes them: each tensor's type by llama-quant.cpp's rules, summed to the
// bytes of the file's tensor data and checked against published files and llama-bench's "size" column (which is the
// sum of the tensors' bytes, in GiB with two decimals).
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "quant/llama_mix.hpp"

using namespace test;
using nlohmann::json;

namespace {
MixPlan plan(const std::string& model, const std::string& mix) { return plan_llama_mix(preset_model(model), *find_llama_mix(mix)); }
double gib(double bytes) { return std::round(bytes / (1024.0 * 1024 * 1024) * 100) / 100; }
}  // namespace

TEST_CASE("Llama-3.2-3B Q4_K_M: every tensor as llama-quantize types it, to the byte", "[llama_mix]") {
  const MixPlan p = plan("llama-3.2-3b", "q4_k_m");
  // 28 layers; use_more_bits(i, 28) holds for i < 3, i >= 24 and (i - 3) % 3 == 2: 14 layers get attn_v and ffn_down
  // in Q6_K. The tied token embedding is quantized like the output (Q6_K); norms and rope_freqs stay f32.
  const double v = 1024.0 * 3072, down = 8192.0 * 3072;
  const double q4k = 28 * (3072.0 * 3072 * 2 + v + 2 * down) + 14 * (v + down);  // q, o, k, gate, up; half of v and down
  const double q6k = 128256.0 * 3072 + 14 * (v + down);
  const double f32 = (2 * 28 + 1) * 3072.0 + 64;
  CHECK(p.elements_by_type.at("q4_k") == q4k);
  CHECK(p.elements_by_type.at("q6_k") == q6k);
  CHECK(p.elements_by_type.at("fp32") == f32);
  const double bytes = q4k * 144 / 256 + q6k * 210 / 256 + f32 * 4;
  CHECK(p.tensor_bytes == bytes);
  CHECK(p.tensor_bytes == 2011539712.0);
  // Published: Llama-3.2-3B-Instruct-Q4_K_M.gguf downloads as 2019377696 bytes and llama-bench reports it as
  // "llama 3B Q4_K - Medium | 1.87 GiB | 3.21 B" (geerlingguy/ai-benchmarks#53). The file is the tensor data plus its
  // header (the Llama-3 tokenizer's 128256 tokens and 280147 merges, a few MB).
  CHECK(gib(p.tensor_bytes) == 1.87);
  CHECK(2019377696.0 - p.tensor_bytes > 0);
  CHECK(2019377696.0 - p.tensor_bytes < 8.0 * 1024 * 1024);
}

// A tied head has no output.weight: llama.cpp's output matmul reads token_embd, which llama-quantize typed like the
// output (Q6_K in Q4_K_M). The LM head class streams that format (6.5625 bits), not the mix's base Q4_K (4.5 bits),
// as the GGUF and safetensors readers already give a tied head its embedding's format (io/weight_formats.cpp).
TEST_CASE("a tied LM head under a llama.cpp mix reads the embedding's format", "[llama_mix]") {
  const auto bits = [](const MixPlan& p, WeightClass c) { return p.class_dtype[static_cast<std::size_t>(c)].bits_per_element; };
  for (const char* id : {"llama-3.2-1b", "llama-3.2-3b"}) {
    const MixPlan p = plan(id, "q4_k_m");
    INFO(id);
    CHECK(bits(p, WeightClass::Embedding) == 6.5625);
    CHECK(bits(p, WeightClass::LmHead) == 6.5625);
  }
  // Llama-3.1-8B has its own output.weight: Q6_K as well, by the output rule, and its embedding stays Q4_K.
  const MixPlan untied = plan("llama-3.1-8b", "q4_k_m");
  CHECK(bits(untied, WeightClass::LmHead) == 6.5625);
  CHECK(bits(untied, WeightClass::Embedding) == 4.5);
  // Q8_0: the output rule keeps q8_0, tied or not.
  CHECK(bits(plan("llama-3.2-1b", "q8_0"), WeightClass::LmHead) == 8.5);
}

TEST_CASE("Llama-2-7B Q4_0 and Q8_0, Qwen2.5-7B Q8_0, Llama-3.1-8B Q4_K_M against llama-bench's size column", "[llama_mix]") {
  // llama.cpp discussion #4167's table heads (Llama-2-7B: Q4_0 3.56 GiB, Q8_0 6.67 GiB); ggml-org/llama.cpp#16894's
  // llama-bench output ("qwen2 7B Q8_0 | 7.54 GiB | 7.62 B"); Llama-3.1-8B Q4_K_M is 4.58 GiB in llama-bench tables.
  CHECK(gib(plan("llama-2-7b", "q4_0").tensor_bytes) == 3.56);
  CHECK(plan("llama-2-7b", "q4_0").tensor_bytes == 3825065984.0);  // every matrix Q4_0 but the output (Q6_K)
  CHECK(gib(plan("llama-2-7b", "q8_0").tensor_bytes) == 6.67);
  CHECK(gib(plan("qwen2.5-7b", "q8_0").tensor_bytes) == 7.54);
  CHECK(gib(plan("llama-3.1-8b", "q4_k_m").tensor_bytes) == 4.58);
  CHECK(plan("llama-3.1-8b", "q4_k_m").tensor_bytes == 4912898304.0);
}

TEST_CASE("the mix's rules by model: 70B attn_v, Mixtral's eight experts, rows the blocks do not divide", "[llama_mix]") {
  // Llama-2-70B is LLM_TYPE_70B: attn_v Q4_K becomes Q5_K where use_more_bits does not already give Q6_K.
  const MixPlan p70 = plan("llama-2-70b", "q4_k_m");
  CHECK(p70.elements_by_type.count("q5_k") == 1);
  CHECK(p70.elements_by_type.at("q5_k") == 40 * 1024.0 * 8192);  // 80 layers, 40 without more bits: attn_v only
  // Mixtral (8 experts): attn_v and attn_k go to Q8_0, attn_output to Q5_K.
  const MixPlan mx = plan("mixtral-8x7b", "q4_k_m");
  CHECK(mx.elements_by_type.at("q8_0") == 32 * 2 * 1024.0 * 4096);
  CHECK(mx.elements_by_type.at("q5_k") == 32 * 4096.0 * 4096);
  // Every element of the model is in exactly one tensor: the mix accounts for count_params' total (+ rope_freqs).
  for (const char* id : {"llama-3.1-8b", "qwen3-30b-a3b", "deepseek-v2-lite", "phi-3-mini-4k", "gemma-2-2b", "falcon-7b"}) {
    INFO(id);
    const ModelSpec m = preset_model(id);
    const MixPlan p = plan_llama_mix(m, *find_llama_mix("q4_k_m"));
    double all = 0;
    for (const auto& [t, n] : p.elements_by_type) all += n;
    CHECK(all == static_cast<double>(count_params(m).total + m.rope_freqs));
  }
  // DeepSeek-V2-Lite's attn_k_b rows are 128 wide: Q4_K blocks of 256 do not divide them, llama.cpp falls back to Q5_0.
  CHECK(plan("deepseek-v2-lite", "q4_k_m").elements_by_type.count("q5_0") == 1);
}

TEST_CASE("a file type as the weights: each class at its exact bits, the file's bytes in the result", "[llama_mix]") {
  const json v = api_value("analyze", {{"model", "llama-3.2-3b"}, {"hardware", "nvidia-rtx-4090"}, {"precision", {{"weights", "Q4_K_M"}}}});
  const json& p = v["workload"]["precision"];
  CHECK(p["gguf"]["file_type"] == "q4_k_m");
  CHECK(p["gguf"]["tensor_bytes"].get<double>() == 2011539712.0);
  CHECK(p["by_class"]["attention"]["dtype"] == "q4_k_m");
  // Attention: q, k, o in Q4_K, v in Q6_K in 14 of 28 layers.
  const double att_e = 28 * (3072.0 * 3072 * 2 + 2 * 1024.0 * 3072);
  const double att_b = 28 * (3072.0 * 3072 * 2 + 1024.0 * 3072) * 144 / 256 + 14 * 1024.0 * 3072 * (144 + 210) / 256;
  CHECK(p["by_class"]["attention"]["bits_per_element"].get<double>() == Approx(8 * att_b / att_e));
  // Memory holds the tensors' bytes, the norms in the activations' type instead of f32.
  CHECK(v["memory"]["weights_bytes"].get<double>() == Approx(2011539712.0 - 64 * 4 - 57 * 3072 * 2).epsilon(1e-12));
  // The per-class formats stay plain dtypes: q4_0 for the attention alone is every attention tensor in Q4_0.
  const json c = api_value("analyze", {{"model", "llama-3.2-3b"}, {"precision", {{"attention", "q4_0"}}}});
  CHECK(c["workload"]["precision"]["by_class"]["attention"]["bits_per_element"].get<double>() == 4.5);
  CHECK_FALSE(c["workload"]["precision"].contains("gguf"));
  // A quant sweep takes the file types too.
  const json s = api_value("quant_sweep", {{"model", "llama-3.2-3b"}, {"sweep", {{"weights", {"q4_k_m", "q8_0"}}, {"kv", {"bf16"}}}}});
  CHECK(s["rows"][0]["weights"] == "q4_k_m");
  CHECK(s["rows"][0]["weight_bits"].get<double>() == Approx(p["weights_bits_per_element"].get<double>()));
}

TEST_CASE("an unknown weight format names the file types too", "[llama_mix]") {
  const json env = json::parse(infercast::call("analyze", json{{"model", "llama-3.2-3b"}, {"precision", {{"weights", "q4_k_x"}}}}.dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["path"] == "/precision/weights");
  const std::string msg = env["error"]["message"];
  CHECK(msg.find("/precision/weights holds \"q4_k_x\"; expected one of fp32") == 0);
  CHECK(msg.find("or a llama.cpp file type (q2_k, q3_k_s, q3_k_m, q3_k_l, q4_0, q4_1, q4_k_s, q4_k_m, q5_0, q5_1, q5_k_s, "
                 "q5_k_m, q6_k, q8_0, iq4_nl, iq4_xs)") != std::string::npos);
}
