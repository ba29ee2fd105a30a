// Built-in scenarios (LIFE Table 3), the MLA conversion, QuaRot's online Hadamard cost and the weight/KV format
// sweep. LIFE's Table 5 and 7 golden values run through these scenarios in test_life.cpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api/api.hpp"
#include "helpers.hpp"
#include "scenario/scenario.hpp"

using namespace test;
using nlohmann::json;


TEST_CASE("LIFE's eight Table 3 variants are built in with the table's settings", "[scenario][life]") {
  const auto& all = all_scenarios();
  REQUIRE(all.size() == 8);
  struct Row {
    const char* name;
    const char* weights;
    const char* activations;
    const char* kv;
    bool fused;
  };
  // Table 3: Weights/Activations (listed activation first), KV, Fusion.
  const Row rows[] = {{"life/bf16-bf16", "bf16", "bf16", "bf16", false},
                      {"life/bf16-int4", "int4-g128", "bf16", "bf16", false},
                      {"life/bf16-int4-fused", "int4-g128", "bf16", "bf16", true},
                      {"life/bf16-int4-kv4", "int4-g128", "bf16", "int4", true},
                      {"life/bf16-int4-mla", "int4-g128", "bf16", "bf16", true},
                      {"life/bf16-int4-lora", "int4-g128", "bf16", "bf16", true},
                      {"life/quarot-w4a4kv4", "int4", "int8", "int4", true},
                      {"life/fp16-fp16", "fp16", "fp16", "fp16", false}};
  for (const auto& r : rows) {
    INFO(r.name);
    const Scenario* sc = find_scenario(r.name);
    REQUIRE(sc != nullptr);
    CHECK(sc->weights == r.weights);
    CHECK(sc->activations == r.activations);
    CHECK(sc->kv == r.kv);
    CHECK((sc->attention == AttnImpl::Fused) == r.fused);
    CHECK(sc->fused_mlp == r.fused);
    CHECK(sc->convert_mla == (std::string(r.name) == "life/bf16-int4-mla"));
    CHECK((sc->lora.rank > 0) == (std::string(r.name) == "life/bf16-int4-lora"));
    CHECK(sc->online_hadamard == (std::string(r.name) == "life/quarot-w4a4kv4"));
    REQUIRE(find_dtype(sc->weights).has_value());
  }
  CHECK(find_scenario("life/bf16-int8") == nullptr);
}

TEST_CASE("converting Llama-2-7B to MLA with LIFE's sizes: parameters by hand", "[scenario][mla]") {
  const auto m = preset_model("llama-2-7b");
  const auto c = convert_to_mla(m, MlaConversion{});
  // Per layer: q_a 4096x128 + its norm 128 + q_b 128x(32x192) + kv_a 4096x(128+64) + its norm 128
  // + kv_b 128x(32x(128+128)) + o 4096x4096, against 4 x 4096^2 before.
  const i64 mla_layer = 4096 * 128 + 128 + 128 * 32 * 192 + 4096 * 192 + 128 + 128 * 32 * 256 + 4096 * 4096;
  CHECK(mla_layer == 19923200);
  CHECK(count_params(c).total == 6738415616 - 32 * (4 * 4096LL * 4096 - mla_layer));
  CHECK(count_params(c).total == 5228474368);
  // The cache per token per layer is the latent plus the shared rotary key: (128 + 64) x 2 bytes.
  Workload w;
  w.settings = settings();
  w.requests = {{0, 1000, 1}};
  w.gen_tokens = 1;
  CHECK(analyze(c, w, nullptr).kv_bytes_per_token == Approx(32 * 192 * 2));
  CHECK(analyze(m, w, nullptr).kv_bytes_per_token == Approx(32 * 2 * 4096 * 2));
  // A model that already uses MLA is left alone.
  const auto ds = preset_model("deepseek-v3");
  CHECK(count_params(convert_to_mla(ds, MlaConversion{})).total == count_params(ds).total);
}

TEST_CASE("online Hadamard transforms cost log2 for powers of two and a dense block for the rest", "[scenario][quarot]") {
  CHECK(hadamard_flops_per_element(1) == 0);
  CHECK(hadamard_flops_per_element(128) == Approx(7));
  CHECK(hadamard_flops_per_element(4096) == Approx(12));
  // 11008 = 256 x 43: QuaRot's had_K with K = 172 = 4 x 43 and a 64-point butterfly: 6 + 2 x 172.
  CHECK(hadamard_flops_per_element(11008) == Approx(350));
  // 14336 = 2048 x 7: K = 28, 512-point butterfly: 9 + 56.
  CHECK(hadamard_flops_per_element(14336) == Approx(65));
  // No Hadamard of order 2 x odd: a dense rotation of the whole vector.
  CHECK(hadamard_flops_per_element(10) == Approx(20));

  // In the step: q/k rotated per head, the o_proj input across heads, the down_proj input at full width.
  const auto m = preset_model("llama-2-7b");
  StepSettings s = settings();
  s.online_hadamard = true;
  const auto groups = group_layers(m);
  const double T = 100;
  const auto ops = step_ops(m, groups, {{0, 100, 1}}, s);
  CHECK(find_op(ops, "hadamard_qk").flops == Approx(32 * T * 64 * 128 * 7));
  CHECK(find_op(ops, "hadamard_o_in").flops == Approx(32 * T * 4096 * 5));
  CHECK(find_op(ops, "hadamard_down_in").flops == Approx(32 * T * 11008 * 350));
  CHECK(find_op(ops, "hadamard_down_in").act_read_bytes == Approx(32 * T * 11008 * 2));
  s.online_hadamard = false;
  for (const auto& o : step_ops(m, groups, {{0, 100, 1}}, s)) CHECK(o.name.find("hadamard") == std::string::npos);
}

TEST_CASE("a scenario sets defaults that the request's own fields override", "[scenario][api]") {
  const json base = {{"model", "llama-2-7b"}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"prompt", 1024}, {"gen", 64}}}};
  json with = base;
  with["scenario"] = "life/bf16-int4-kv4";
  json explicit_ = base;
  // LIFE's convention quantizes every weight; a request's own int4-g128 leaves the embedding, the LM head and the
  // router in bf16 (as AWQ and GPTQ checkpoints do), so the same tensors name their format here.
  explicit_["precision"] = {{"weights", "int4-g128"}, {"kv", "int4"}, {"embedding", "int4-g128"}, {"lm_head", "int4-g128"}, {"router", "int4-g128"}};
  explicit_["attention"] = "fused";
  explicit_["mlp"] = "fused";
  explicit_["runtime"] = "reference";  // a scenario runs under the reference stack, as LIFE's tables assume
  const json a = api_value("analyze", with), b = api_value("analyze", explicit_);
  CHECK(a["workload"]["scenario"] == "life/bf16-int4-kv4");
  CHECK(b["workload"]["scenario"].is_null());
  CHECK(a["prefill"]["flops"].get<double>() == b["prefill"]["flops"].get<double>());
  CHECK(a["ttft_s"].get<double>() == b["ttft_s"].get<double>());
  CHECK(a["decode"]["tpot_s"].get<double>() == b["decode"]["tpot_s"].get<double>());
  CHECK(a["memory"]["required_bytes"].get<double>() == b["memory"]["required_bytes"].get<double>());

  // An explicit KV format wins over the scenario's.
  with["precision"] = {{"kv", "bf16"}};
  const json c = api_value("analyze", with);
  CHECK(c["workload"]["precision"]["kv"] == "bf16");
  CHECK(c["workload"]["precision"]["weights"] == "int4-g128");
  CHECK(c["memory"]["kv_cache_bytes"].get<double>() == Approx(4 * a["memory"]["kv_cache_bytes"].get<double>()));

  // The MLA scenario converts the model; QuaRot adds its rotations; the LoRA scenario merges rank 64 per call.
  json mla = base;
  mla["scenario"] = "life/bf16-int4-mla";
  CHECK(api_value("analyze", mla)["model"]["params_total"] == 5228474368);
  CHECK(api_value("analyze", mla)["workload"]["mla"] == "expanded");
  json quarot = base;
  quarot["scenario"] = "life/quarot-w4a4kv4";
  const json q = api_value("analyze", quarot);
  CHECK(q["workload"]["online_hadamard"] == true);
  bool rotations = false;
  for (const auto& o : q["ops"]) rotations = rotations || o["name"] == "hadamard_down_in";
  CHECK(rotations);
  json lora = base;
  lora["scenario"] = "life/bf16-int4-lora";
  lora["lora"] = {{"mode", "merged"}};  // the scenario's rank stays
  const json l = api_value("analyze", lora);
  CHECK(l["workload"]["lora"]["rank"] == 64);
  CHECK(l["workload"]["lora"]["mode"] == "merged");
}

TEST_CASE("quant_sweep: one analysis per weight x KV format, memory and speed monotone in the bits", "[scenario][sweep]") {
  const json req = {{"model", "llama-3.1-8b"},
                    {"hardware", "nvidia-rtx-4090"},
                    {"workload", {{"prompt", 1024}, {"gen", 256}}},
                    {"sweep", {{"weights", {"bf16", "int8", "q6_k", "int4-g128", "int3", "int2"}}, {"kv", {"bf16", "int8", "int4"}}}}};
  const json v = api_value("quant_sweep", req);
  REQUIRE(v["rows"].size() == 18);
  // Each row is the analysis of the same request with those formats.
  for (const auto& r : v["rows"]) {
    json one = req;
    one.erase("sweep");
    one["precision"] = {{"weights", r["weights"]}, {"kv", r["kv"]}};
    const json a = api_value("analyze", one);
    INFO(r.dump());
    CHECK(r["required_bytes"].get<double>() == a["memory"]["required_bytes"].get<double>());
    CHECK(r["tpot_s"].get<double>() == a["decode"]["tpot_s"].get<double>());
    CHECK(r["ttft_s"].get<double>() == a["ttft_s"].get<double>());
    CHECK(r["max_batch"].get<double>() == a["memory"]["max_batch"].get<double>());
  }
  // Batch-1 decode on a 4090 is memory-bound: fewer bits, fewer bytes and more tokens per second, along each axis.
  const auto at = [&](std::size_t wi, std::size_t ki) { return v["rows"][wi * 3 + ki]; };
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 1; i < 6; ++i) {
      CHECK(at(i, k)["weights_bytes"].get<double>() < at(i - 1, k)["weights_bytes"].get<double>());
      CHECK(at(i, k)["tokens_per_s"].get<double>() > at(i - 1, k)["tokens_per_s"].get<double>());
      CHECK(at(i, k)["max_batch"].get<double>() >= at(i - 1, k)["max_batch"].get<double>());
    }
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t k = 1; k < 3; ++k) {
      CHECK(at(i, k)["kv_cache_bytes"].get<double>() == Approx(at(i, k - 1)["kv_cache_bytes"].get<double>() / 2));
      CHECK(at(i, k)["max_batch"].get<double>() > at(i, k - 1)["max_batch"].get<double>());
    }
  // Weight bytes follow the bits: bf16 weights of the 8,030,261,248 parameters (norms stay at activation width).
  CHECK(at(0, 0)["weights_bytes"].get<double>() == Approx(8030261248.0 * 2));
  CHECK(at(0, 0)["weight_bits"] == 16);
  CHECK(at(3, 0)["weight_bits"].get<double>() == Approx(4 + 20.0 / 128));
  // Without a device: memory only.
  json no_hw = req;
  no_hw.erase("hardware");
  const json m = api_value("quant_sweep", no_hw);
  CHECK_FALSE(m["rows"][0].contains("tpot_s"));
  CHECK(m["rows"][0]["weights_bytes"] == v["rows"][0]["weights_bytes"]);
  // Defaults: 10 weight formats from 32 to 2 bits (llama.cpp's Q8_0, Q6_K, Q5_K_M, Q4_K_M and Q3_K_M among them), 3 KV
  // formats.
  json defaults = req;
  defaults.erase("sweep");
  const json d = api_value("quant_sweep", defaults);
  REQUIRE(d["rows"].size() == 30);
  CHECK(d["rows"][0]["weights"] == "fp32");
  CHECK(d["rows"][18]["weights"] == "q4_k_m");
  CHECK(d["rows"][29]["weights"] == "int2");
}
