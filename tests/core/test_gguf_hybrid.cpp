// GGUF headers of hybrid families, written here in llama.cpp's layout (its tensor names and the metadata
// convert_hf_to_gguf.py writes: {arch}.ssm.conv_kernel, inner_size, state_size, time_step_rank, group_count;
// per-layer head_count_kv and feed_forward_length arrays; no weights), read back to a config whose parameter count
// equals the count of the tensors, and to the same model as the published config.json.
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>

#include "api/api.hpp"
#include "helpers.hpp"

using namespace infercast;

namespace {

using u64 = std::uint64_t;
constexpr std::uint32_t F32 = 0, Q4_K = 12;

struct Header {
  std::string meta, tensors;
  u64 n_meta = 0, n_tensors = 0;
  template <typename T>
  static void put(std::string& b, T v) {
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    b.append(buf, sizeof(T));
  }
  static void str(std::string& b, const std::string& s) {
    put<u64>(b, s.size());
    b += s;
  }
  void u32(const std::string& k, std::uint32_t v) {
    str(meta, k), put<std::uint32_t>(meta, 4), put(meta, v), ++n_meta;
  }
  void text(const std::string& k, const std::string& v) { str(meta, k), put<std::uint32_t>(meta, 8), str(meta, v), ++n_meta; }
  void u32s(const std::string& k, const std::vector<std::uint32_t>& v) {
    str(meta, k), put<std::uint32_t>(meta, 9), put<std::uint32_t>(meta, 4), put<u64>(meta, v.size());
    for (auto x : v) put(meta, x);
    ++n_meta;
  }
  void t(const std::string& name, std::vector<u64> dims, std::uint32_t type = Q4_K) {
    str(tensors, name);
    put<std::uint32_t>(tensors, static_cast<std::uint32_t>(dims.size()));
    for (auto d : dims) put(tensors, d);
    put(tensors, type);
    put<u64>(tensors, 0);
    ++n_tensors;
  }
  std::string bytes() const {
    std::string b = "GGUF";
    put<std::uint32_t>(b, 3);
    put<u64>(b, n_tensors);
    put<u64>(b, n_meta);
    return b + meta + tensors;
  }
};

nlohmann::json read(const Header& h) {
  const auto env = nlohmann::json::parse(call_bytes("gguf", h.bytes()));
  INFO(env.dump());
  REQUIRE(env["ok"].get<bool>());
  return env["value"];
}

// Qwen3-Next-80B-A3B as llama.cpp writes it (qwen3next): 36 gated DeltaNet and 12 gated-attention layers.
Header qwen3_next() {
  const u64 h = 2048, L = 48;
  Header w;
  w.text("general.architecture", "qwen3next");
  w.u32("qwen3next.block_count", L);
  w.u32("qwen3next.embedding_length", h);
  w.u32("qwen3next.attention.head_count", 16);
  w.u32("qwen3next.attention.head_count_kv", 2);
  w.u32("qwen3next.attention.key_length", 256);
  w.u32("qwen3next.rope.dimension_count", 64);
  w.u32("qwen3next.expert_count", 512);
  w.u32("qwen3next.expert_used_count", 10);
  w.u32("qwen3next.expert_feed_forward_length", 512);
  w.u32("qwen3next.expert_shared_feed_forward_length", 512);
  w.u32("qwen3next.ssm.conv_kernel", 4);
  w.u32("qwen3next.ssm.state_size", 128);
  w.u32("qwen3next.ssm.group_count", 16);
  w.u32("qwen3next.ssm.time_step_rank", 32);
  w.u32("qwen3next.ssm.inner_size", 4096);
  w.u32("qwen3next.full_attention_interval", 4);
  w.t("token_embd.weight", {h, 151936});
  for (u64 i = 0; i < L; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    w.t(p + "attn_norm.weight", {h}, F32);
    if ((i + 1) % 4 != 0) {
      w.t(p + "ssm_in.weight", {h, 12288});
      w.t(p + "ssm_ba.weight", {h, 64});
      w.t(p + "ssm_conv1d.weight", {4, 8192}, F32);
      w.t(p + "ssm_dt.bias", {32}, F32);
      w.t(p + "ssm_a", {32}, F32);
      w.t(p + "ssm_norm.weight", {128}, F32);
      w.t(p + "ssm_out.weight", {4096, h});
    } else {
      w.t(p + "attn_q.weight", {h, 8192});
      w.t(p + "attn_k.weight", {h, 512});
      w.t(p + "attn_v.weight", {h, 512});
      w.t(p + "attn_output.weight", {4096, h});
      w.t(p + "attn_q_norm.weight", {256}, F32);
      w.t(p + "attn_k_norm.weight", {256}, F32);
    }
    w.t(p + "post_attention_norm.weight", {h}, F32);
    w.t(p + "ffn_gate_inp.weight", {h, 512}, F32);
    w.t(p + "ffn_gate_exps.weight", {h, 512, 512});
    w.t(p + "ffn_up_exps.weight", {h, 512, 512});
    w.t(p + "ffn_down_exps.weight", {512, h, 512});
    w.t(p + "ffn_gate_inp_shexp.weight", {h}, F32);
    w.t(p + "ffn_gate_shexp.weight", {h, 512});
    w.t(p + "ffn_up_shexp.weight", {h, 512});
    w.t(p + "ffn_down_shexp.weight", {512, h});
  }
  w.t("output_norm.weight", {h}, F32);
  w.t("output.weight", {h, 151936});
  return w;
}

// Nemotron 3 Nano 30B-A3B as llama.cpp writes it (nemotron_h_moe): Mamba2, attention and MoE blocks.
Header nemotron_nano() {
  const u64 h = 2688;
  const std::string pattern = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
  Header w;
  w.text("general.architecture", "nemotron_h_moe");
  w.u32("nemotron_h_moe.block_count", static_cast<std::uint32_t>(pattern.size()));
  w.u32("nemotron_h_moe.embedding_length", h);
  w.u32("nemotron_h_moe.attention.head_count", 32);
  std::vector<std::uint32_t> kv, ff;
  for (char c : pattern) kv.push_back(c == '*' ? 2 : 0), ff.push_back(c == 'E' ? 1856 : 0);
  w.u32s("nemotron_h_moe.attention.head_count_kv", kv);
  w.u32s("nemotron_h_moe.feed_forward_length", ff);
  w.u32("nemotron_h_moe.attention.key_length", 128);
  w.u32("nemotron_h_moe.expert_count", 128);
  w.u32("nemotron_h_moe.expert_used_count", 6);
  w.u32("nemotron_h_moe.expert_feed_forward_length", 1856);
  w.u32("nemotron_h_moe.expert_shared_feed_forward_length", 3712);
  w.u32("nemotron_h_moe.ssm.conv_kernel", 4);
  w.u32("nemotron_h_moe.ssm.state_size", 128);
  w.u32("nemotron_h_moe.ssm.group_count", 8);
  w.u32("nemotron_h_moe.ssm.time_step_rank", 64);
  w.u32("nemotron_h_moe.ssm.inner_size", 4096);
  w.t("token_embd.weight", {h, 131072});
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    w.t(p + "attn_norm.weight", {h}, F32);
    if (pattern[i] == 'M') {
      w.t(p + "ssm_in.weight", {h, 10304});
      w.t(p + "ssm_conv1d.weight", {4, 6144}, F32);
      w.t(p + "ssm_conv1d.bias", {6144}, F32);
      w.t(p + "ssm_dt.bias", {64}, F32);
      w.t(p + "ssm_a", {1, 64}, F32);
      w.t(p + "ssm_d", {1, 64}, F32);
      w.t(p + "ssm_norm.weight", {512, 8}, F32);
      w.t(p + "ssm_out.weight", {4096, h});
    } else if (pattern[i] == '*') {
      w.t(p + "attn_q.weight", {h, 4096});
      w.t(p + "attn_k.weight", {h, 256});
      w.t(p + "attn_v.weight", {h, 256});
      w.t(p + "attn_output.weight", {4096, h});
    } else {
      w.t(p + "ffn_gate_inp.weight", {h, 128}, F32);
      w.t(p + "exp_probs_b.bias", {128}, F32);
      w.t(p + "ffn_up_exps.weight", {h, 1856, 128});
      w.t(p + "ffn_down_exps.weight", {1856, h, 128});
      w.t(p + "ffn_up_shexp.weight", {h, 3712});
      w.t(p + "ffn_down_shexp.weight", {3712, h});
    }
  }
  w.t("output_norm.weight", {h}, F32);
  w.t("output.weight", {h, 131072});
  return w;
}

}  // namespace

TEST_CASE("a Qwen3-Next GGUF reads back to the published model: the tensors' count, layer by layer", "[gguf][hybrid]") {
  const auto v = read(qwen3_next());
  const ModelSpec m = parse_model_config(v["config"], "/config");
  const ModelSpec preset = test::preset_model("qwen3-next-80b-a3b");
  CHECK(v["params_total"].get<i64>() == 79674391296LL);
  CHECK(v["params_from_config"].get<i64>() == 79674391296LL);
  CHECK(count_params(m).total == count_params(preset).total);
  CHECK(count_params(m).active == count_params(preset).active);
  REQUIRE(m.layers.size() == 48);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::GatedDeltaNet);
  CHECK(m.layers[3].has_attention);
  CHECK(m.layers[3].attn.rope_dim == 64);
  CHECK(m.layers[0].recurrent.state_bits == 32);  // llama.cpp keeps recurrent states in f32
  CHECK(v["precision"]["by_class"]["attention"] == "q4_k");
}

TEST_CASE("a Nemotron-H MoE GGUF reads back to the published model's blocks", "[gguf][hybrid]") {
  const auto v = read(nemotron_nano());
  const ModelSpec m = parse_model_config(v["config"], "/config");
  CHECK(v["config"]["hybrid_override_pattern"] == "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME");
  CHECK(v["params_from_config"].get<i64>() == v["params_total"].get<i64>());
  CHECK(count_params(m).total == count_params(test::preset_model("nemotron-3-nano-30b-a3b")).total);
  CHECK(count_params(m).active == count_params(test::preset_model("nemotron-3-nano-30b-a3b")).active);
}

TEST_CASE("a hybrid GGUF whose layers do not follow the family's pattern is refused", "[gguf][hybrid]") {
  Header w;
  w.text("general.architecture", "jamba");
  w.u32("jamba.block_count", 4);
  w.u32("jamba.embedding_length", 64);
  w.u32("jamba.attention.head_count", 4);
  w.u32("jamba.ssm.conv_kernel", 4);
  w.u32("jamba.ssm.state_size", 16);
  w.u32("jamba.ssm.inner_size", 128);
  w.u32("jamba.ssm.time_step_rank", 4);
  w.u32("jamba.feed_forward_length", 128);
  w.t("token_embd.weight", {64, 100});
  for (int i : {0, 1, 3}) w.t("blk." + std::to_string(i) + ".attn_q.weight", {64, 64});
  const auto env = nlohmann::json::parse(call_bytes("gguf", w.bytes()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["message"] ==
        "jamba GGUF: attention layers do not repeat with one period; Infercast reads this family's layers as "
        "transformers does (drop the model's config.json instead)");
}

// Mamba (llama.cpp's mamba) as convert_hf_to_gguf.py writes mamba-130m-hf: per block attn_norm, ssm_in (x and z),
// ssm_conv1d with its bias, ssm_x (dt, B, C), ssm_dt with its bias, ssm_a (-exp(A_log)), ssm_d, ssm_out; no output
// tensor (tied); head_count 0 and context_length 2^20 written but meaningless. 129,135,360 parameters, as the -hf
// checkpoint (test_hybrid.cpp).
Header mamba_130m(bool falcon_norms) {
  const u64 h = 768, D = 1536, L = 24;
  Header w;
  w.text("general.architecture", "mamba");
  w.u32("mamba.block_count", L);
  w.u32("mamba.embedding_length", h);
  w.u32("mamba.context_length", 1u << 20);
  w.u32("mamba.attention.head_count", 0);
  w.u32("mamba.feed_forward_length", 0);
  w.u32("mamba.ssm.conv_kernel", 4);
  w.u32("mamba.ssm.inner_size", D);
  w.u32("mamba.ssm.state_size", 16);
  w.u32("mamba.ssm.time_step_rank", 48);
  if (falcon_norms) {
    Header::str(w.meta, "mamba.ssm.dt_b_c_rms"), Header::put<std::uint32_t>(w.meta, 7), Header::put<std::uint8_t>(w.meta, 1);
    ++w.n_meta;
  }
  w.t("token_embd.weight", {h, 50280});
  w.t("output_norm.weight", {h}, F32);
  for (u64 i = 0; i < L; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.t(b + "attn_norm.weight", {h}, F32);
    w.t(b + "ssm_in.weight", {h, 2 * D});
    w.t(b + "ssm_conv1d.weight", {4, D}, F32);
    w.t(b + "ssm_conv1d.bias", {D}, F32);
    w.t(b + "ssm_x.weight", {D, 48 + 32});
    w.t(b + "ssm_dt.weight", {48, D});
    w.t(b + "ssm_dt.bias", {D}, F32);
    w.t(b + "ssm_a", {16, D}, F32);
    w.t(b + "ssm_d", {D}, F32);
    w.t(b + "ssm_out.weight", {D, h});
  }
  return w;
}

TEST_CASE("a Mamba GGUF reads back to mamba-130m-hf, and with dt_b_c_rms to Falcon Mamba's layers", "[gguf][hybrid]") {
  const auto v = read(mamba_130m(false));
  CHECK(v["config"]["model_type"] == "mamba");
  CHECK(v["params_total"].get<i64>() == 129135360LL);
  CHECK(v["params_from_config"].get<i64>() == 129135360LL);
  const ModelSpec m = parse_model_config(v["config"], "/config");
  std::string notes;
  for (const auto& x : m.warnings) notes += x.message + "\n";
  INFO(notes);
  CHECK(m.warnings.empty());
  REQUIRE(m.layers.size() == 24);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba);
  CHECK(m.layers[0].recurrent.state_bits == 32);  // llama.cpp keeps recurrent states in f32
  CHECK(m.max_position == 0);
  const auto f = read(mamba_130m(true));
  CHECK(f["config"]["model_type"] == "falcon_mamba");
  CHECK(f["params_total"].get<i64>() == 129135360LL);  // the norms have no weights
}

// Codestral Mamba (llama.cpp's mamba2): time_step_rank holds the 128 heads, group_count the 8 groups; ssm_dt is a
// bias only (dt_bias), ssm_norm the gated norm in 8 groups. 7,285,403,648 parameters, Mistral's published count.
TEST_CASE("a Mamba2 GGUF reads back to Codestral Mamba's 7,285,403,648 parameters", "[gguf][hybrid]") {
  const u64 h = 4096, D = 8192, conv = D + 2 * 8 * 128, L = 64;
  Header w;
  w.text("general.architecture", "mamba2");
  w.u32("mamba2.block_count", L);
  w.u32("mamba2.embedding_length", h);
  w.u32("mamba2.context_length", 1u << 20);
  w.u32("mamba2.attention.head_count", 0);
  w.u32("mamba2.ssm.conv_kernel", 4);
  w.u32("mamba2.ssm.inner_size", D);
  w.u32("mamba2.ssm.state_size", 128);
  w.u32("mamba2.ssm.time_step_rank", 128);
  w.u32("mamba2.ssm.group_count", 8);
  w.t("token_embd.weight", {h, 32768});
  w.t("output.weight", {h, 32768});
  w.t("output_norm.weight", {h}, F32);
  for (u64 i = 0; i < L; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.t(b + "attn_norm.weight", {h}, F32);
    w.t(b + "ssm_in.weight", {h, D + conv + 128});
    w.t(b + "ssm_conv1d.weight", {4, conv}, F32);
    w.t(b + "ssm_conv1d.bias", {conv}, F32);
    w.t(b + "ssm_dt.bias", {128}, F32);
    w.t(b + "ssm_a", {1, 128}, F32);
    w.t(b + "ssm_d", {1, 128}, F32);
    w.t(b + "ssm_norm.weight", {D / 8, 8}, F32);
    w.t(b + "ssm_out.weight", {D, h});
  }
  const auto v = read(w);
  CHECK(v["config"]["model_type"] == "mamba2");
  CHECK(v["config"]["num_heads"] == 128);
  CHECK(v["config"]["head_dim"] == 64);
  CHECK(v["params_total"].get<i64>() == 7285403648LL);
  CHECK(v["params_from_config"].get<i64>() == 7285403648LL);
}

TEST_CASE("a hybrid GGUF whose embedding_length is 0 or negative is refused before any division", "[gguf][hybrid]") {
  // Found by reading (stop 51): jamba and granitehybrid divided ssm.inner_size by it (SIGFPE).
  for (const char* arch : {"jamba", "granitehybrid", "mamba"}) {
    for (const std::uint32_t width : {0u, 0xFFFFFFFFu}) {
      Header w;
      const std::string a = arch;
      w.text("general.architecture", a);
      w.u32(a + ".block_count", 2);
      Header::str(w.meta, a + ".embedding_length"), Header::put<std::uint32_t>(w.meta, width ? 5 : 4);  // i32 -1 or u32 0
      Header::put<std::uint32_t>(w.meta, width), ++w.n_meta;
      w.u32(a + ".ssm.conv_kernel", 4);
      w.u32(a + ".ssm.state_size", 16);
      w.u32(a + ".ssm.inner_size", 128);
      w.u32(a + ".ssm.time_step_rank", 4);
      w.u32(a + ".ssm.group_count", 1);
      const auto env = nlohmann::json::parse(call_bytes("gguf", w.bytes()));
      REQUIRE_FALSE(env["ok"].get<bool>());
      CHECK(env["error"]["code"] == "gguf.bad_value");
      CHECK(env["error"]["message"] == a + ".embedding_length holds " + (width ? "-1" : "0") + "; expected a positive width");
    }
  }
}
