// One layer of each new block checked operator by operator against hand-written formulas (docs/formulas.md,
// "Linear attention and state-space layers", "DeepSeek sparse attention"): the gated DeltaNet of Qwen3-Next, the
// Mamba2 of Nemotron-H, the lightning attention of MiniMax-M1 and DeepSeek-V3.2's indexer; decode in closed form
// against the step-by-step sum where costs bend (DSA's top-k).
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace test;

namespace {
std::vector<Op> ops_for(const ModelSpec& m, std::vector<Request> step, const StepSettings& s) {
  return step_ops(m, group_layers(m), step, s);
}
const std::string kDeltaNet = "dense, gated DeltaNet";
}  // namespace

TEST_CASE("Qwen3-Next gated DeltaNet, one layer: the recurrent kernel in decode, fla's chunks in prefill", "[ops][hybrid]") {
  auto m = preset_model("qwen3-next-80b-a3b");
  for (auto& l : m.layers) l.ffn = FfnSpec{false, true, false, false, 5120};  // dense MLPs: one group per mixer kind
  const auto s = settings();
  const double h = 2048, nv = 32, nk = 16, dk = 128, dv = 128, L = 36;
  {
    // Decode, batch 3 at context 1000: one token per sequence through the fused recurrent kernel.
    const auto ops = ops_for(m, {{1000, 1, 3}}, s);
    const double T = 3;
    const auto& scan = find_op(ops, "gated_delta_rule", kDeltaNet);
    CHECK(scan.count == 36);
    // Per value head: decay, S^T k, delta, the rank-1 update and S^T q (7 dk dv + 3 dv); q and k L2-normalized.
    CHECK(scan.flops / L == T * nv * (7 * dk * dv + 3 * dv) + 3 * T * 2 * nk * dk);
    // The state (32 x 128 x 128 bf16) read and written once per sequence.
    CHECK(scan.kv_read_bytes / L == 3 * nv * dk * dv * 2);
    CHECK(scan.kv_write_bytes / L == 3 * nv * dk * dv * 2);
    CHECK(scan.act_read_bytes / L == T * (2 * nk * dk + nv * dv + 2 * nv) * 2);
    CHECK(scan.act_write_bytes / L == T * nv * dv * 2);
    CHECK(find_op(ops, "in_proj_qkvz", kDeltaNet).flops / L == 2 * T * h * (2 * nk * dk + 2 * nv * dv));
    CHECK(find_op(ops, "in_proj_ba", kDeltaNet).flops / L == 2 * T * h * 2 * nv);
    CHECK(find_op(ops, "out_proj", kDeltaNet).flops / L == 2 * T * nv * dv * h);
    // The short convolution: 2 x 4 FLOPs per channel and token plus SiLU; its 3-input window is state.
    const auto& conv = find_op(ops, "conv1d", kDeltaNet);
    CHECK(conv.flops / L == T * 8192 * (2 * 4 + 4));
    CHECK(conv.kv_read_bytes / L == 3 * 8192 * 3 * 2);
    CHECK(conv.kv_write_bytes / L == 3 * 8192 * 3 * 2);
    CHECK(find_op(ops, "gated_norm", kDeltaNet).flops / L == T * nv * dv * (4 + 4 + 1));
    // No KV cache grows in these layers.
    for (const auto& o : ops)
      if (o.group == kDeltaNet) CHECK(o.name != "kv_cache_write");
  }
  {
    // Prefill of 100 tokens: ceil(100 / 64) = 2 chunks of fla's chunked kernel, no state to read.
    const auto ops = ops_for(m, {{0, 100, 1}}, s);
    const double C = 64, T = 100;
    const double per_chunk = C * C * (5.25 * dk + 4 * dv) + 2.0 / 3.0 * C * C * C + 6 * C * dk * dv;
    const auto& scan = find_op(ops, "gated_delta_rule", kDeltaNet);
    CHECK(scan.flops / L == Approx(nv * 2 * per_chunk + 3 * T * 2 * nk * dk).epsilon(1e-12));
    CHECK(scan.kv_read_bytes == 0);
    CHECK(scan.kv_write_bytes / L == nv * dk * dv * 2);
    // A, w, u and v_new per token and head, and each chunk's state, written and read through memory.
    const double inter = T * nv * (C + dk + 2 * dv) + 2 * nv * dk * dv;
    CHECK(scan.act_write_bytes / L == (T * nv * dv + inter) * 2);
  }
}

TEST_CASE("Nemotron-H Mamba2, one layer: SSD chunks in prefill, the state update in decode, fp32 state", "[ops][hybrid]") {
  const auto m = preset_model("nemotron-3-nano-30b-a3b");
  const auto s = settings();
  const double h = 2688, H = 64, P = 64, N = 128, G = 8, Q = 128, L = 23;
  {
    const auto ops = ops_for(m, {{500, 1, 2}}, s);
    const auto& scan = find_op(ops, "ssd_scan", "Mamba2");
    CHECK(scan.count == 23);
    CHECK(scan.flops / L == 2 * H * (6 * N * P + 2 * P));
    CHECK(scan.kv_read_bytes / L == 2 * H * P * N * 4);  // mamba_ssm_cache_dtype float32
    CHECK(scan.kv_write_bytes / L == 2 * H * P * N * 4);
    CHECK(find_op(ops, "in_proj", "Mamba2").flops / L == 2 * 2 * h * (2 * H * P + 2 * G * N + H));
    CHECK(find_op(ops, "conv1d", "Mamba2").kv_read_bytes / L == 2 * (H * P + 2 * G * N) * 3 * 2);
  }
  {
    const auto ops = ops_for(m, {{0, 300, 1}}, s);
    const double chunks = 3;  // ceil(300 / 128)
    const double per_chunk = 2 * G * Q * Q * N + H * (2 * Q * Q + 2 * Q * Q * P + 4 * Q * N * P + 2 * N * P + 2 * Q * P);
    CHECK(find_op(ops, "ssd_scan", "Mamba2").flops / L == chunks * per_chunk);
  }
  // The attention blocks have no RoPE; MLP-less blocks add one residual.
  const auto ops = ops_for(m, {{0, 16, 1}}, s);
  for (const auto& o : ops) CHECK_FALSE((o.group == "full NoPE" && o.name == "rope"));
  CHECK(find_op(ops, "residual_add", "Mamba2").flops / L == 16 * h);
}

TEST_CASE("MiniMax-M1 lightning attention, one layer: blocks of 256 in prefill, a d x d state per head", "[ops][hybrid]") {
  const auto m = preset_model("minimax-m1");
  const auto s = settings();
  const double H = 64, d = 128, B = 256, L = 70;
  const std::string G = "MoE, lightning";
  {
    const auto ops = ops_for(m, {{0, 1000, 1}}, s);
    const double blocks = 4;  // ceil(1000 / 256)
    const double per_block = 4 * B * B * d + B * B + 4 * B * d * d + B * d + d * d;
    CHECK(find_op(ops, "lightning_attention", G).flops / L == H * blocks * per_block);
  }
  {
    const auto ops = ops_for(m, {{1000, 1, 1}}, s);
    const auto& scan = find_op(ops, "lightning_attention", G);
    CHECK(scan.flops / L == H * 5 * d * d);
    CHECK(scan.kv_read_bytes / L == H * d * d * 2);
    CHECK(find_op(ops, "output_gate", G).flops / L == 2 * 6144 * H * d);
  }
}

TEST_CASE("DeepSeek-V3.2 sparse attention: the indexer scores every key, attention reads the top 2048", "[ops][hybrid]") {
  const auto m = preset_model("deepseek-v3.2");
  const auto s = settings();
  const std::string G = "MoE, MLA top-2048";
  const double L = 58, nh = 128, kvl = 512, rope = 64, ih = 64, id = 128;
  // Decode at context 10000: the indexer reads all 10001 keys; attention attends 2048 of them.
  const auto ops = ops_for(m, {{10000, 1, 1}}, s);
  const auto& scores = find_op(ops, "indexer_scores", G);
  CHECK(scores.flops / L == 10001 * ih * (2 * id + 3));
  CHECK(scores.kv_read_bytes / L == 10001 * 132);
  CHECK(scores.compute == ComputeType::FP8);
  const auto& attn = find_op(ops, "attention (latent)", G);
  CHECK(attn.kv_read_bytes / L == 2048 * (kvl + rope) * 2);
  CHECK(attn.flops / L == 2048 * nh * (2 * (kvl + rope) + 2 * kvl + 5));
  CHECK(find_op(ops, "indexer_cache_write", G).kv_write_bytes / L == 132);
  // Below top-k a query attends every key: context 1000.
  const auto short_ops = ops_for(m, {{1000, 1, 1}}, s);
  CHECK(find_op(short_ops, "attention (latent)", G).kv_read_bytes / L == 1001 * (kvl + rope) * 2);
  // Prefill of 4096: query p attends min(p + 1, 2048) keys, absorbed (sparse kernels attend the latent).
  const auto pre = ops_for(m, {{0, 4096, 1}}, s);
  const double pairs = 2048.0 * 2049 / 2 + 2048.0 * 2048;
  CHECK(find_op(pre, "attention (latent)", G).flops / L == pairs * nh * (2 * (kvl + rope) + 2 * kvl + 5));
  CHECK(find_op(pre, "indexer_scores", G).flops / L == 4096.0 * 4097 / 2 * ih * (2 * id + 3));
}

TEST_CASE("decode in closed form equals the step-by-step sum across DSA's top-k bend and recurrent layers", "[hybrid][forecast]") {
  const auto& hw = *find_hardware_preset("nvidia-h200-sxm");
  for (const char* id : {"deepseek-v3.2", "qwen3-next-80b-a3b", "nemotron-3-nano-30b-a3b"}) {
    INFO(id);
    const ModelSpec m = preset_model(id);
    Workload w;
    w.settings = settings();
    w.requests = {Request{0, 1950, 2}};
    w.gen_tokens = 200;  // the context passes 2048 during the generation
    const Analysis a = analyze(m, w, &hw);
    double brute = 0;
    for (i64 j = 0; j < 199; ++j) {
      Workload one = w;
      one.requests = {Request{1950 + j, 1, 2}};
      one.gen_tokens = 1;
      brute += analyze(m, one, &hw).ttft_s;
    }
    CHECK(a.decode_time_s == Approx(brute).epsilon(1e-9));
  }
}

TEST_CASE("tensor parallelism splits recurrent heads and refuses splits that do not divide them", "[hybrid][parallel]") {
  const json ok = json::parse(call("analyze", R"({"model": "qwen3-next-80b-a3b", "system": "hgx-h200", "parallel": {"tp": 4}})"));
  CHECK(ok["ok"] == true);
  const json bad = json::parse(call("analyze", R"({"model": "nemotron-3-nano-30b-a3b", "system": "hgx-h200", "parallel": {"tp": 3}})"));
  REQUIRE(bad["ok"] == false);
  CHECK(bad["error"]["path"] == "/parallel/tp");
}

// RecurrentGemma-2B's recurrent block in decode (batch 2): linear_y and linear_x, the conv (no activation), the two
// block-diagonal gates (10 blocks of 256 x 256) as one matmul, the RG-LRU scan with its fp32 state of one value a
// channel, GeLU(y) times the recurrence, linear_out.
TEST_CASE("RecurrentGemma's RG-LRU block, one layer: gates, scan and state in decode", "[ops][hybrid]") {
  const auto m = parse_model_config(json::parse(R"({"model_type": "recurrent_gemma", "hidden_size": 2560,
      "lru_width": 2560, "num_attention_heads": 10, "num_key_value_heads": 1, "head_dim": 256, "intermediate_size": 15360,
      "num_hidden_layers": 3, "vocab_size": 256000, "conv1d_width": 4, "attention_window_size": 2048})"), "/model");
  const auto ops = ops_for(m, {{1000, 1, 2}}, settings());
  const double T = 2, h = 2560, W = 2560, bw = 256;
  const std::string G = find_op(ops, "rg_lru").group;
  CHECK(find_op(ops, "linear_y", G).flops == 2 * 2 * T * h * W + 2 * T * W);  // two layers, with biases
  CHECK(find_op(ops, "linear_x", G).flops == 2 * 2 * T * h * W + 2 * T * W);
  CHECK(find_op(ops, "rg_lru_gates", G).flops == 2 * (2 * T * bw * 2 * W + T * 2 * W));
  const auto& scan = find_op(ops, "rg_lru", G);
  CHECK(scan.flops == 2 * T * W * 19);  // two sigmoids (8), the decay (3 + exp 1), sqrt(1 - a^2) (3), input (2), update (2)
  CHECK(scan.kv_read_bytes == 2 * 2 * W * 4);   // the state, fp32, read and written once per sequence
  CHECK(scan.kv_write_bytes == 2 * 2 * W * 4);
  const auto& conv = find_op(ops, "conv1d", G);
  CHECK(conv.flops == 2 * T * W * (2 * 4 + 1));  // 4 taps with a bias, no activation
  CHECK(conv.kv_read_bytes == 2 * 2 * W * 3 * 2);
  CHECK(find_op(ops, "linear_out", G).flops == 2 * (2 * T * W * h + T * h));
  for (const auto& o : ops)
    if (o.group == G) CHECK(o.name != "kv_cache_write");
}
