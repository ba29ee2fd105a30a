// GGUF headers: a header written here in llama.cpp's layout for Llama-3.2-1B (its real tensor names, shapes and a
// Q4_K_M-style mix of types; no weights) reads back to the preset's exact parameter count and shapes, and broken
// files get exact errors.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>

#include "api/api.hpp"
#include "helpers.hpp"
#include "gguf_writer.hpp"
#include "io/gguf.hpp"
#include "quant/dtype.hpp"

using namespace infercast;
using test::Writer;

namespace {

constexpr std::uint32_t F32 = 0, Q4_K = 12, Q6_K = 14, IQ2_XXS = 16;

// Llama-3.2-1B as llama.cpp writes it (tied embeddings: no output.weight; rope_freqs.weight for Llama 3 RoPE scaling).
// `file_type` > 0 adds general.file_type (llama.h's llama_ftype: 15 for Q4_K_M); `base` is the bulk tensors' type.
std::string llama_1b_header(std::uint32_t file_type = 0, std::uint32_t base = Q4_K) {
  const int L = 16;
  Writer w;
  w.b = "GGUF";
  w.put<std::uint32_t>(3);
  w.put<std::uint64_t>(2 + 9 * L + 2);        // tensors
  w.put<std::uint64_t>(file_type ? 12 : 11);  // metadata entries
  w.kv_str("general.architecture", "llama");
  if (file_type) w.kv_u32("general.file_type", file_type);
  w.kv_str("general.name", "Llama 3.2 1B Instruct");
  w.kv_u32("llama.block_count", L);
  w.kv_u32("llama.context_length", 131072);
  w.kv_u32("llama.embedding_length", 2048);
  w.kv_u32("llama.feed_forward_length", 8192);
  w.kv_u32("llama.attention.head_count", 32);
  w.kv_u32("llama.attention.head_count_kv", 8);
  w.kv_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
  w.kv_u32("llama.vocab_size", 128256);
  w.kv_strings("tokenizer.ggml.tokens", 1000);  // skipped by the reader
  w.tensor("token_embd.weight", {2048, 128256}, Q6_K);
  w.tensor("rope_freqs.weight", {32}, F32);
  for (int i = 0; i < L; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    w.tensor(p + "attn_norm.weight", {2048}, F32);
    w.tensor(p + "attn_q.weight", {2048, 2048}, base);
    w.tensor(p + "attn_k.weight", {2048, 512}, base);
    w.tensor(p + "attn_v.weight", {2048, 512}, Q6_K);
    w.tensor(p + "attn_output.weight", {2048, 2048}, base);
    w.tensor(p + "ffn_norm.weight", {2048}, F32);
    w.tensor(p + "ffn_gate.weight", {2048, 8192}, base);
    w.tensor(p + "ffn_up.weight", {2048, 8192}, base);
    w.tensor(p + "ffn_down.weight", {8192, 2048}, Q6_K);
  }
  w.tensor("output_norm.weight", {2048}, F32);
  w.tensor("blk.0.extra.weight", {1}, F32);  // one more tensor to make the declared count exact
  return w.b;
}

std::string gguf_error(const std::string& bytes) {
  const auto env = nlohmann::json::parse(call_bytes("gguf", bytes));
  REQUIRE_FALSE(env["ok"].get<bool>());
  return env["error"]["code"].get<std::string>() + " | " + env["error"]["message"].get<std::string>();
}

}  // namespace

TEST_CASE("a GGUF header reads back to the model's exact shapes and parameters", "[gguf]") {
  const std::string bytes = llama_1b_header();
  const auto env = nlohmann::json::parse(call_bytes("gguf", bytes));
  INFO(env.dump());
  REQUIRE(env["ok"].get<bool>());
  const auto& v = env["value"];
  CHECK(v["architecture"] == "llama");
  CHECK(v["name"] == "Llama 3.2 1B Instruct");
  CHECK(v["header_bytes"] == bytes.size());
  const ModelSpec preset = test::preset_model("llama-3.2-1b");
  const i64 hf = count_params(preset).total;  // 1,235,814,400
  CHECK(hf == 1235814400LL);
  // Every tensor's elements: the Hugging Face count + rope_freqs (32) + the extra test tensor (1).
  CHECK(v["params_total"].get<i64>() == hf + 33);
  CHECK(v["params_from_config"].get<i64>() == hf);
  const ModelSpec m = parse_model_config(v["config"], "/config");
  CHECK(m.hidden == preset.hidden);
  CHECK(m.vocab == preset.vocab);
  CHECK(m.tied_embeddings);
  CHECK(m.layers.size() == preset.layers.size());
  CHECK(m.layers[0].attn.n_kv_heads == 8);
  CHECK(m.layers[0].ffn.intermediate == 8192);
  // Storage: each class in its majority format; exact bytes from the block sizes (Q4_K 144 B / 256, Q6_K 210 B / 256).
  CHECK(v["precision"]["weights"] == "q4_k");
  CHECK(v["precision"]["by_class"]["attention"] == "q4_k");
  CHECK(v["precision"]["by_class"]["ffn"] == "q4_k");
  CHECK(v["precision"]["by_class"]["embedding"] == "q6_k");
  const double q4 = 16.0 * (2048 * 2048 * 2 + 2048 * 512 + 2 * 2048 * 8192);
  const double q6 = 2048.0 * 128256 + 16.0 * (2048 * 512 + 8192 * 2048);
  const double f32 = 32 + 16 * 2 * 2048 + 2048 + 1;
  CHECK(v["tensor_bytes"].get<double>() == q4 / 256 * 144 + q6 / 256 * 210 + f32 * 4);
}

TEST_CASE("a GGUF's file type names its llama.cpp mix, and IQ types have their exact bits", "[gguf]") {
  // general.file_type 15 (LLAMA_FTYPE_MOSTLY_Q4_K_M): the mix's rules give each tensor its type (docs/formulas.md,
  // "llama.cpp quantization mixes"); one format per class would count Q4_K_M's Q6_K ffn_down layers as Q4_K.
  const auto read = [](const std::string& bytes) {
    const auto env = nlohmann::json::parse(call_bytes("gguf", bytes));
    REQUIRE(env["ok"].get<bool>());
    return env["value"];
  };
  const auto mixed = read(llama_1b_header(15));
  CHECK(mixed["precision"]["weights"] == "q4_k_m");
  CHECK(mixed["precision"]["file_type"] == "q4_k_m");
  CHECK(mixed["precision"]["by_class"].empty());
  // A file type whose base is not the bulk tensors' type (retyped by hand) keeps the per-class formats.
  const auto retyped = read(llama_1b_header(17));  // Q5_K_M, but the tensors are Q4_K
  CHECK(retyped["precision"]["weights"] == "q4_k");
  CHECK_FALSE(retyped["precision"].contains("file_type"));
  // IQ2_XXS: 66 bytes per 256 weights (ggml-common.h block_iq2_xxs), 2.0625 bits, never bf16.
  const auto iq = read(llama_1b_header(0, IQ2_XXS));
  CHECK(iq["precision"]["weights"] == "iq2_xxs");
  CHECK(find_dtype("iq2_xxs")->bits_per_element == 66.0 * 8 / 256);
  CHECK(find_dtype("iq1_s")->bits_per_element == 50.0 * 8 / 256);
  CHECK(find_dtype("iq3_s")->bits_per_element == 110.0 * 8 / 256);
}

TEST_CASE("broken GGUF files get exact errors", "[gguf]") {
  const std::string bytes = llama_1b_header();
  CHECK(gguf_error("PK\x03\x04 not a gguf") == "gguf.bad_magic | the file does not start with \"GGUF\"; expected a GGUF model file (llama.cpp)");
  std::string v9 = bytes;
  v9[4] = 9;
  CHECK(gguf_error(v9) == "gguf.unsupported_version | GGUF version 9; expected 2 or 3");
  CHECK(gguf_error(bytes.substr(0, 1000)) ==
        "gguf.truncated | the GGUF header continues past the 1000 bytes read (at byte 998); expected more of the file");
  // Every cut inside the header is refused, never read past.
  for (std::size_t cut = 0; cut < bytes.size(); cut += 997) CHECK_FALSE(nlohmann::json::parse(call_bytes("gguf", bytes.substr(0, cut)))["ok"].get<bool>());
  std::string arch = bytes;
  const auto at = arch.find("llama");
  arch.replace(at, 5, "rwkv6");
  CHECK(gguf_error(arch) ==
        "gguf.unsupported_architecture | general.architecture holds \"rwkv6\"; expected one of bitnet, bloom, cohere2, cohere2moe, command-r, dbrx, "
        "deepseek2, ernie4_5, ernie4_5-moe, exaone, exaone4, falcon-h1, gemma, gemma2, gemma3, gemma3n, glm4, glm4moe, gpt-oss, "
        "gpt2, gptneox, granite, granite_swa, granitehybrid, granitemoe, hunyuan-dense, hunyuan-moe, internlm2, jamba, llama, llama4, mamba, mamba2, minicpm, minicpm3, "
        "mistral, mpt, nemotron, nemotron_h, nemotron_h_moe, olmo, olmo2, olmoe, phi2, phi3, "
        "phimoe, qwen2, qwen2moe, qwen3, qwen35, qwen35moe, qwen3moe, qwen3next, smollm3, stablelm, starcoder, starcoder2 "
        "(drop the model's config.json instead)");
  CHECK(gguf_error("") == "gguf.bad_magic | the file does not start with \"GGUF\"; expected a GGUF model file (llama.cpp)");
  // Metadata the tensor table does not bear out: 160 blocks over 16 layers of tensors is refused, never analyzed as
  // a 10B model (160 layers of 60,821,504 parameters each) from a 1B file.
  std::string deep = bytes;
  const auto bc = deep.find("llama.block_count") + std::strlen("llama.block_count") + 4;  // past the key and its type
  const std::uint32_t blocks = 160;
  std::memcpy(&deep[bc], &blocks, 4);
  CHECK(gguf_error(deep) ==
        "gguf.inconsistent | the GGUF metadata describes a model of 9994110976 parameters and the file's tensor table "
        "holds 1235814433; expected metadata (block_count, embedding_length, head counts, key_length, "
        "feed_forward_length) that matches the tensors");
  // A key written twice is refused (which one a reader keeps is not defined).
  Writer twice;
  twice.b = "GGUF";
  twice.put<std::uint32_t>(3);
  twice.put<std::uint64_t>(0);
  twice.put<std::uint64_t>(3);
  twice.kv_str("general.architecture", "llama");
  twice.kv_u32("llama.block_count", 2);
  twice.kv_u32("llama.block_count", 80);
  CHECK(gguf_error(twice.b) == "gguf.bad_value | metadata key llama.block_count appears twice; expected each key once");
}

namespace {

// A two-layer model of a family added for issue 20, in llama.cpp's tensor names: the metadata and tensors given.
struct Tiny {
  std::string arch;
  std::vector<std::pair<std::string, std::uint32_t>> u32;
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> tensors;
  std::string bytes() const {
    Writer w;
    w.b = "GGUF";
    w.put<std::uint32_t>(3);
    w.put<std::uint64_t>(tensors.size());
    w.put<std::uint64_t>(2 + u32.size());
    w.kv_str("general.architecture", arch);
    w.kv_str("general.name", "tiny " + arch);
    for (const auto& [k, v] : u32) w.kv_u32(arch + "." + k, v);
    for (const auto& [name, dims] : tensors) w.tensor(name, dims, F32);
    return w.b;
  }
};

using Tensors = std::vector<std::pair<std::string, std::vector<std::uint64_t>>>;

// The same tensors in each of L blocks (blk.<i>.<name>).
void blocks(Tiny& t, int L, const Tensors& per_layer) {
  for (int i = 0; i < L; ++i)
    for (const auto& [n, d] : per_layer) t.tensors.push_back({"blk." + std::to_string(i) + "." + n, d});
}

}  // namespace

TEST_CASE("GGUF headers of the new families read into their configs, to the tensors' exact count", "[gguf][families]") {
  // OLMo 2: post-norms, q/k norms over the whole width (attn_q_norm of n_heads x head_dim).
  const std::uint64_t h = 64, I = 128, V = 1000;
  Tiny olmo{"olmo2",
            {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 128}, {"attention.head_count", 4},
             {"attention.head_count_kv", 2}, {"context_length", 4096}},
            {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"output.weight", {h, V}}}};
  for (int i = 0; i < 2; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    for (const auto& [n, d] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"attn_q.weight", {h, 64}}, {"attn_k.weight", {h, 32}}, {"attn_v.weight", {h, 32}},
             {"attn_output.weight", {64, h}}, {"attn_q_norm.weight", {64}}, {"attn_k_norm.weight", {32}},
             {"post_attention_norm.weight", {h}}, {"ffn_gate.weight", {h, I}}, {"ffn_up.weight", {h, I}},
             {"ffn_down.weight", {I, h}}, {"post_ffw_norm.weight", {h}}})
      olmo.tensors.push_back({b + n, d});
  }
  json v = nlohmann::json::parse(call_bytes("gguf", olmo.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "olmo2");
  CHECK(v["config"]["attention_bias"] == false);
  CHECK(v["config"]["tie_word_embeddings"] == false);
  CHECK(count_params(parse_model_config(v["config"])).total == v["params_total"].get<long long>());
  // GLM-4.5: leading dense blocks, routed and shared experts, RoPE on half of each head, q/k biases.
  Tiny glm{"glm4moe",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 128}, {"attention.head_count", 4},
            {"attention.head_count_kv", 2}, {"expert_count", 4}, {"expert_used_count", 2},
            {"expert_feed_forward_length", 32}, {"expert_shared_count", 1}, {"leading_dense_block_count", 1},
            {"rope.dimension_count", 8}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"output.weight", {h, V}}}};
  for (int i = 0; i < 2; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    for (const auto& [n, d] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
             {"attn_norm.weight", {h}}, {"attn_q.weight", {h, 64}}, {"attn_q.bias", {64}}, {"attn_k.weight", {h, 32}},
             {"attn_k.bias", {32}}, {"attn_v.weight", {h, 32}}, {"attn_v.bias", {32}}, {"attn_output.weight", {64, h}},
             {"ffn_norm.weight", {h}}})
      glm.tensors.push_back({b + n, d});
  }
  for (const auto& [n, d] : std::vector<std::pair<std::string, std::vector<std::uint64_t>>>{
           {"blk.0.ffn_gate.weight", {h, I}}, {"blk.0.ffn_up.weight", {h, I}}, {"blk.0.ffn_down.weight", {I, h}},
           {"blk.1.ffn_gate_inp.weight", {h, 4}}, {"blk.1.exp_probs_b.bias", {4}},
           {"blk.1.ffn_gate_exps.weight", {h, 32, 4}}, {"blk.1.ffn_up_exps.weight", {h, 32, 4}},
           {"blk.1.ffn_down_exps.weight", {32, h, 4}}, {"blk.1.ffn_gate_shexp.weight", {h, 32}},
           {"blk.1.ffn_up_shexp.weight", {h, 32}}, {"blk.1.ffn_down_shexp.weight", {32, h}}})
    glm.tensors.push_back({n, d});
  v = nlohmann::json::parse(call_bytes("gguf", glm.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "glm4_moe");
  CHECK(v["config"]["partial_rotary_factor"] == 0.5);
  CHECK(v["config"]["attention_bias"] == true);
  const ModelSpec m = parse_model_config(v["config"]);
  CHECK(m.layers[0].attn.rope_dim == 8);
  CHECK_FALSE(m.layers[0].ffn.moe);
  CHECK(m.layers[1].ffn.moe);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
}

TEST_CASE("GGUF headers of the GPT lineage read into their configs, to the tensors' exact count", "[gguf][families]") {
  const std::uint64_t h = 64, V = 1000, P = 256;
  // GPT-2: learned positions (position_embd), a fused qkv with biases, LayerNorms with biases, the converter's copy
  // of the embedding as output.weight (the file holds both).
  Tiny gpt2{"gpt2",
            {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 256}, {"attention.head_count", 4},
             {"context_length", 256}},
            {{"token_embd.weight", {h, V}}, {"position_embd.weight", {h, P}}, {"output_norm.weight", {h}},
             {"output_norm.bias", {h}}, {"output.weight", {h, V}}}};
  blocks(gpt2, 2, {{"attn_norm.weight", {h}}, {"attn_norm.bias", {h}}, {"attn_qkv.weight", {h, 3 * h}}, {"attn_qkv.bias", {3 * h}},
                   {"attn_output.weight", {h, h}}, {"attn_output.bias", {h}}, {"ffn_norm.weight", {h}}, {"ffn_norm.bias", {h}},
                   {"ffn_up.weight", {h, 4 * h}}, {"ffn_up.bias", {4 * h}}, {"ffn_down.weight", {4 * h, h}}, {"ffn_down.bias", {h}}});
  json v = nlohmann::json::parse(call_bytes("gguf", gpt2.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "gpt2");
  CHECK(v["config"]["n_embd"] == 64);
  CHECK(v["config"]["n_positions"] == 256);
  ModelSpec m = parse_model_config(v["config"]);
  CHECK(m.position_rows == 256);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  // StarCoder: one key-value head (head_count_kv 1: multi_query), c_attn h x (h + 2 x 16).
  Tiny sc{"starcoder",
          {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 256}, {"attention.head_count", 4},
           {"attention.head_count_kv", 1}, {"context_length", 256}},
          {{"token_embd.weight", {h, V}}, {"position_embd.weight", {h, P}}, {"output_norm.weight", {h}},
           {"output_norm.bias", {h}}, {"output.weight", {h, V}}}};
  blocks(sc, 2, {{"attn_norm.weight", {h}}, {"attn_norm.bias", {h}}, {"attn_qkv.weight", {h, h + 32}}, {"attn_qkv.bias", {h + 32}},
                 {"attn_output.weight", {h, h}}, {"attn_output.bias", {h}}, {"ffn_norm.weight", {h}}, {"ffn_norm.bias", {h}},
                 {"ffn_up.weight", {h, 4 * h}}, {"ffn_up.bias", {4 * h}}, {"ffn_down.weight", {4 * h, h}}, {"ffn_down.bias", {h}}});
  v = nlohmann::json::parse(call_bytes("gguf", sc.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "gpt_bigcode");
  CHECK(v["config"]["multi_query"] == true);
  m = parse_model_config(v["config"]);
  CHECK(m.layers[0].attn.n_kv_heads == 1);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  // phi-2: RoPE on rope.dimension_count (8 of 16), one LayerNorm a layer, an output with a bias.
  Tiny phi{"phi2",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 256}, {"attention.head_count", 4},
            {"attention.head_count_kv", 4}, {"rope.dimension_count", 8}, {"context_length", 2048}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"output_norm.bias", {h}}, {"output.weight", {h, V}},
            {"output.bias", {V}}}};
  blocks(phi, 2, {{"attn_norm.weight", {h}}, {"attn_norm.bias", {h}}, {"attn_qkv.weight", {h, 3 * h}}, {"attn_qkv.bias", {3 * h}},
                  {"attn_output.weight", {h, h}}, {"attn_output.bias", {h}}, {"ffn_up.weight", {h, 4 * h}}, {"ffn_up.bias", {4 * h}},
                  {"ffn_down.weight", {4 * h, h}}, {"ffn_down.bias", {h}}});
  v = nlohmann::json::parse(call_bytes("gguf", phi.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "phi");
  CHECK(v["config"]["partial_rotary_factor"] == 0.5);
  m = parse_model_config(v["config"]);
  CHECK(m.layers[0].attn.rope_dim == 8);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  // MPT: ALiBi, no biases, LayerNorm weights only, the MLP's width as expansion_ratio.
  Tiny mpt{"mpt",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 256}, {"attention.head_count", 4},
            {"context_length", 2048}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"output.weight", {h, V}}}};
  blocks(mpt, 2, {{"attn_norm.weight", {h}}, {"attn_qkv.weight", {h, 3 * h}}, {"attn_output.weight", {h, h}},
                  {"ffn_norm.weight", {h}}, {"ffn_up.weight", {h, 4 * h}}, {"ffn_down.weight", {4 * h, h}}});
  v = nlohmann::json::parse(call_bytes("gguf", mpt.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "mpt");
  CHECK(v["config"]["expansion_ratio"] == 4.0);
  CHECK(count_params(parse_model_config(v["config"])).total == v["params_total"].get<long long>());
}

TEST_CASE("GGUF headers of Nemotron and MiniCPM read into their configs, to the tensors' exact count", "[gguf][families]") {
  const std::uint64_t h = 64, V = 1000, I = 256;
  // Nemotron (llama.cpp's LLM_ARCH_NEMOTRON): LayerNorms with biases, an ungated MLP, RoPE on rope.dimension_count
  // (8 of 16) of each head.
  Tiny nem{"nemotron",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 256}, {"attention.head_count", 4},
            {"attention.head_count_kv", 2}, {"rope.dimension_count", 8}, {"context_length", 4096}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"output_norm.bias", {h}}, {"output.weight", {h, V}}}};
  blocks(nem, 2, {{"attn_norm.weight", {h}}, {"attn_norm.bias", {h}}, {"attn_q.weight", {h, h}}, {"attn_k.weight", {h, 32}},
                  {"attn_v.weight", {h, 32}}, {"attn_output.weight", {h, h}}, {"ffn_norm.weight", {h}}, {"ffn_norm.bias", {h}},
                  {"ffn_up.weight", {h, I}}, {"ffn_down.weight", {I, h}}});
  json v = nlohmann::json::parse(call_bytes("gguf", nem.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "nemotron");
  CHECK(v["config"]["partial_rotary_factor"] == 0.5);
  CHECK(v["config"]["mlp_bias"] == false);
  ModelSpec m = parse_model_config(v["config"]);
  CHECK(m.layers[0].attn.rope_dim == 8);
  CHECK_FALSE(m.layers[0].ffn.gated);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  // MiniCPM-MoE: a tied head (no output.weight), 4 experts (top 2) behind a router without bias.
  Tiny cpm{"minicpm",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 32}, {"attention.head_count", 4},
            {"attention.head_count_kv", 4}, {"expert_count", 4}, {"expert_used_count", 2}, {"context_length", 4096}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}}};
  blocks(cpm, 2, {{"attn_norm.weight", {h}}, {"attn_q.weight", {h, h}}, {"attn_k.weight", {h, h}}, {"attn_v.weight", {h, h}},
                  {"attn_output.weight", {h, h}}, {"ffn_norm.weight", {h}}, {"ffn_gate_inp.weight", {h, 4}},
                  {"ffn_gate_exps.weight", {h, 32, 4}}, {"ffn_up_exps.weight", {h, 32, 4}}, {"ffn_down_exps.weight", {32, h, 4}}});
  v = nlohmann::json::parse(call_bytes("gguf", cpm.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "minicpm");
  CHECK(v["config"]["tie_word_embeddings"] == true);
  m = parse_model_config(v["config"]);
  CHECK(m.layers[0].ffn.n_experts == 4);
  CHECK(m.layers[0].ffn.top_k == 2);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
}

TEST_CASE("A GGUF of MiniCPM3 reads its MLA sizes: values hidden / heads, RoPE factors apart", "[gguf][families]") {
  // llama.cpp's LLM_ARCH_MINICPM3 (convert_hf_to_gguf.py, MiniCPM3Model): DeepSeek-V2's MLA tensors with a dense
  // MLP; key_length is nope + rope (8 + 8), no value_length (values are 64 / 4 = 16 wide), the head tied, and the
  // long and short RoPE factors stored as two f32 tensors of rope / 2 values, which are not parameters.
  const std::uint64_t h = 64, V = 1000, I = 128;
  Tiny cpm{"minicpm3",
           {{"embedding_length", 64}, {"block_count", 2}, {"feed_forward_length", 128}, {"attention.head_count", 4},
            {"attention.head_count_kv", 4}, {"attention.q_lora_rank", 16}, {"attention.kv_lora_rank", 16},
            {"attention.key_length", 16}, {"rope.dimension_count", 8}, {"context_length", 4096}},
           {{"token_embd.weight", {h, V}}, {"output_norm.weight", {h}}, {"rope_factors_long.weight", {4}},
            {"rope_factors_short.weight", {4}}}};
  blocks(cpm, 2, {{"attn_norm.weight", {h}}, {"attn_q_a.weight", {h, 16}}, {"attn_q_a_norm.weight", {16}},
                  {"attn_q_b.weight", {16, 4 * 16}}, {"attn_kv_a_mqa.weight", {h, 16 + 8}}, {"attn_kv_a_norm.weight", {16}},
                  {"attn_kv_b.weight", {16, 4 * (8 + 16)}}, {"attn_output.weight", {4 * 16, h}}, {"ffn_norm.weight", {h}},
                  {"ffn_gate.weight", {h, I}}, {"ffn_up.weight", {h, I}}, {"ffn_down.weight", {I, h}}});
  const json v = nlohmann::json::parse(call_bytes("gguf", cpm.bytes()))["value"];
  CHECK(v["config"]["model_type"] == "minicpm3");
  CHECK(v["config"]["qk_nope_head_dim"] == 8);
  const ModelSpec m = parse_model_config(v["config"]);
  CHECK(m.layers[0].attn.kind == AttnKind::MLA);
  CHECK(m.layers[0].attn.v_head_dim == 16);
  CHECK(m.tied_embeddings);
  CHECK(count_params(m).total == v["params_total"].get<long long>() - 8);
  // A file without key_length is refused, naming the key.
  Tiny no_key = cpm;
  no_key.u32.erase(std::remove_if(no_key.u32.begin(), no_key.u32.end(), [](const auto& kv) { return kv.first == "attention.key_length"; }),
                   no_key.u32.end());
  CHECK(nlohmann::json::parse(call_bytes("gguf", no_key.bytes()))["error"]["message"] ==
        "minicpm3.attention.key_length is missing from the GGUF metadata; expected the query and key head size "
        "(qk_nope_head_dim + qk_rope_head_dim)");
}

TEST_CASE("A GGUF of BitNet in TQ2_0 reads its sub-norms and its ternary bytes", "[gguf][families]") {
  // llama.cpp's LLM_ARCH_BITNET: attn_sub_norm and ffn_sub_norm beside Llama's tensors, the linears in TQ2_0
  // (ggml type 35: 66 bytes per 256 weights), norms and the tied embedding in F32 / F16.
  const std::uint64_t h = 256, V = 1000, I = 512;
  constexpr std::uint32_t kF32 = 0, kF16 = 1, kTQ2 = 35;
  Writer w;
  w.b = "GGUF";
  w.put<std::uint32_t>(3);
  const int L = 2;
  w.put<std::uint64_t>(2 + 11 * L);  // tensors
  w.put<std::uint64_t>(6);           // metadata
  w.kv_str("general.architecture", "bitnet");
  w.kv_u32("bitnet.block_count", L);
  w.kv_u32("bitnet.embedding_length", static_cast<std::uint32_t>(h));
  w.kv_u32("bitnet.feed_forward_length", static_cast<std::uint32_t>(I));
  w.kv_u32("bitnet.attention.head_count", 4);
  w.kv_u32("bitnet.attention.head_count_kv", 2);
  w.tensor("token_embd.weight", {h, V}, kF16);
  w.tensor("output_norm.weight", {h}, kF32);
  for (int i = 0; i < L; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    w.tensor(p + "attn_norm.weight", {h}, kF32);
    w.tensor(p + "attn_q.weight", {h, h}, kTQ2);
    w.tensor(p + "attn_k.weight", {h, h / 2}, kTQ2);
    w.tensor(p + "attn_v.weight", {h, h / 2}, kTQ2);
    w.tensor(p + "attn_sub_norm.weight", {h}, kF32);
    w.tensor(p + "attn_output.weight", {h, h}, kTQ2);
    w.tensor(p + "ffn_norm.weight", {h}, kF32);
    w.tensor(p + "ffn_gate.weight", {h, I}, kTQ2);
    w.tensor(p + "ffn_up.weight", {h, I}, kTQ2);
    w.tensor(p + "ffn_sub_norm.weight", {I}, kF32);
    w.tensor(p + "ffn_down.weight", {I, h}, kTQ2);
  }
  const nlohmann::json v = nlohmann::json::parse(call_bytes("gguf", w.b))["value"];
  CHECK(v["config"]["model_type"] == "bitnet");
  CHECK(v["config"]["tie_word_embeddings"] == true);
  const ModelSpec m = parse_model_config(v["config"]);
  CHECK(m.layers[0].sub_norms);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  // Every linear is TQ2_0: the file's format for the attention and MLP weights.
  CHECK(v["precision"]["weights"] == "tq2_0");
  CHECK(v["precision"]["by_class"]["ffn"] == "tq2_0");
  CHECK(v["precision"]["by_class"]["embedding"] == "fp16");
}

// Granite SWASH as llama.cpp's granite-swa.cpp loads it: one architecture, experts where expert_count is written; the
// sliding layers as a per-layer array (true: sliding), RoPE per layer as rope_pattern (0: none), attn_sinks per head.
TEST_CASE("GGUF headers of Granite SWASH read into granite_swa and granitemoe_swa, to the tensors' exact count", "[gguf][families]") {
  const std::uint64_t h = 64, I = 128, V = 1000;
  const Tensors attention = {{"attn_norm.weight", {h}},     {"attn_q.weight", {h, 64}},      {"attn_k.weight", {h, 32}},
                             {"attn_v.weight", {h, 32}},    {"attn_output.weight", {64, h}}, {"attn_sinks.weight", {4}},
                             {"ffn_norm.weight", {h}}};
  const auto file = [&](bool moe, bool rope_pattern) {
    test::GgufFile f;
    f.text("general.architecture", "granite_swa");
    f.u32s("granite_swa", {{"embedding_length", h}, {"block_count", 4}, {"feed_forward_length", I}, {"attention.head_count", 4},
                           {"attention.head_count_kv", 2}, {"context_length", 8192}, {"attention.sliding_window", 128}});
    f.bools("granite_swa.attention.sliding_window_pattern", {false, true, true, false});
    if (rope_pattern) f.i32s("granite_swa.attention.rope_pattern", {1, 1, 1, 0});
    f.f32("granite_swa.logit_scale", 10.0f);
    if (moe) f.u32s("granite_swa", {{"expert_count", 4}, {"expert_used_count", 2}, {"expert_feed_forward_length", 32},
                                    {"expert_shared_feed_forward_length", 48}});
    f.tensor("token_embd.weight", {h, V});
    f.tensor("output_norm.weight", {h});
    for (int i = 0; i < 4; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      for (const auto& [n, d] : attention) f.tensor(b + n, d);
      const Tensors mlp = moe ? Tensors{{"ffn_gate_inp.weight", {h, 4}}, {"ffn_gate_exps.weight", {h, 32, 4}},
                                        {"ffn_up_exps.weight", {h, 32, 4}}, {"ffn_down_exps.weight", {32, h, 4}},
                                        {"ffn_up_shexp.weight", {h, 96}}, {"ffn_down_shexp.weight", {48, h}}}
                              : Tensors{{"ffn_gate.weight", {h, I}}, {"ffn_up.weight", {h, I}}, {"ffn_down.weight", {I, h}}};
      for (const auto& [n, d] : mlp) f.tensor(b + n, d);
    }
    return f.bytes();
  };
  json v = nlohmann::json::parse(call_bytes("gguf", file(false, true)))["value"];
  CHECK(v["config"]["model_type"] == "granite_swa");
  CHECK(v["config"]["tie_word_embeddings"] == true);
  ModelSpec m = parse_model_config(v["config"]);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  CHECK(m.layers[0].attn.sinks);
  CHECK(m.layers[0].attn.window == 0);
  CHECK(m.layers[1].attn.window == 128);
  CHECK(m.layers[3].attn.window == 0);
  CHECK(m.layers[3].attn.rope_dim == 0);
  CHECK(m.layers[2].attn.rope_dim == 16);
  v = nlohmann::json::parse(call_bytes("gguf", file(true, false)))["value"];
  CHECK(v["config"]["model_type"] == "granitemoe_swa");
  m = parse_model_config(v["config"]);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  CHECK(m.layers[0].ffn.n_shared == 1);
  CHECK(m.layers[0].ffn.shared_intermediate == 48);
  CHECK(m.layers[3].attn.rope_dim == 16);
  // A rope_pattern of the wrong length names the key.
  test::GgufFile bad;
  bad.text("general.architecture", "granite_swa");
  bad.u32s("granite_swa", {{"embedding_length", h}, {"block_count", 4}, {"attention.head_count", 4}});
  bad.i32s("granite_swa.attention.rope_pattern", {1, 0});
  bad.tensor("token_embd.weight", {h, V});
  CHECK(gguf_error(bad.bytes()) ==
        "gguf.bad_value | granite_swa.attention.rope_pattern has 2 entries; expected one per block (granite_swa.block_count)");
}

// Cohere2 MoE as llama.cpp's cohere2moe.cpp loads it: feed_forward_length the dense prefix's width,
// expert_feed_forward_length the experts', RMSNorm where its epsilon is written, a sliding period (layer i full when
// i % n == 0) or a per-layer array, the fused-or-not expert tensors, shared experts of the experts' width x count.
TEST_CASE("GGUF headers of Cohere2 MoE read into cohere2_moe, to the tensors' exact count", "[gguf][families]") {
  const std::uint64_t h = 64, V = 1000;
  const auto file = [&](bool rms, bool shared, std::uint32_t shexp) {
    test::GgufFile f;
    f.text("general.architecture", "cohere2moe");
    f.u32s("cohere2moe", {{"embedding_length", h}, {"block_count", 5}, {"feed_forward_length", 96}, {"attention.head_count", 4},
                          {"attention.head_count_kv", 2}, {"attention.key_length", 16}, {"attention.value_length", 16},
                          {"context_length", 8192}, {"attention.sliding_window", 4096}, {"expert_count", 4},
                          {"expert_used_count", 2}, {"expert_feed_forward_length", 32}, {"leading_dense_block_count", 1}});
    if (shared) f.u32s("cohere2moe", {{"expert_shared_count", 2}, {"expert_shared_feed_forward_length", shexp}});
    f.f32(rms ? "cohere2moe.attention.layer_norm_rms_epsilon" : "cohere2moe.attention.layer_norm_epsilon", 1e-5f);
    f.f32("cohere2moe.logit_scale", 1.0f);
    f.tensor("token_embd.weight", {h, V});
    f.tensor("output_norm.weight", {h});
    for (int i = 0; i < 5; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      for (const auto& [n, d] : Tensors{{"attn_norm.weight", {h}}, {"attn_q.weight", {h, 64}}, {"attn_k.weight", {h, 32}},
                                        {"attn_v.weight", {h, 32}}, {"attn_output.weight", {64, h}}})
        f.tensor(b + n, d);
      const Tensors mlp = i == 0 ? Tensors{{"ffn_gate.weight", {h, 96}}, {"ffn_up.weight", {h, 96}}, {"ffn_down.weight", {96, h}}}
                                 : Tensors{{"ffn_gate_inp.weight", {h, 4}}, {"ffn_gate_exps.weight", {h, 32, 4}},
                                           {"ffn_up_exps.weight", {h, 32, 4}}, {"ffn_down_exps.weight", {32, h, 4}}};
      for (const auto& [n, d] : mlp) f.tensor(b + n, d);
      if (i > 0 && shared)
        for (const auto& [n, d] : Tensors{{"ffn_gate_shexp.weight", {h, 64}}, {"ffn_up_shexp.weight", {h, 64}},
                                          {"ffn_down_shexp.weight", {64, h}}})
          f.tensor(b + n, d);
    }
    return f.bytes();
  };
  json v = nlohmann::json::parse(call_bytes("gguf", file(true, false, 0)))["value"];
  CHECK(v["config"]["model_type"] == "cohere2_moe");
  CHECK(v["config"]["prefix_dense_intermediate_size"] == 96);
  CHECK(v["config"]["intermediate_size"] == 32);
  ModelSpec m = parse_model_config(v["config"]);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  CHECK(m.norm == NormKind::RMS);
  CHECK_FALSE(m.layers[0].ffn.moe);
  CHECK(m.layers[1].ffn.moe);
  CHECK(m.layers[0].attn.window == 0);     // i % 4 == 0: full; the dense prefix rotates
  CHECK(m.layers[0].attn.rope_dim == 16);
  CHECK(m.layers[1].attn.window == 4096);
  CHECK(m.layers[4].attn.window == 0);     // full and NoPE
  CHECK(m.layers[4].attn.rope_dim == 0);
  v = nlohmann::json::parse(call_bytes("gguf", file(false, true, 64)))["value"];
  m = parse_model_config(v["config"]);
  CHECK(count_params(m).total == v["params_total"].get<long long>());
  CHECK(m.norm == NormKind::Layer);
  CHECK(m.layers[1].ffn.shared_intermediate == 64);
  CHECK(gguf_error(file(true, true, 48)) ==
        "gguf.unsupported | cohere2moe.expert_shared_feed_forward_length holds 48; only the experts' width times "
        "expert_shared_count is modelled (Cohere2MoeConfig's shared MLP)");
}
