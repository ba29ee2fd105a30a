// What the forecast cannot know is said so, never shown as a number: a cost without a price or a power is null with
// its reason, times on a device without a compute peak are lower bounds, a context past the model's trained window is
// warned about; and the quantization sweep runs on plans over several devices instead of failing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "helpers.hpp"

using namespace test;
using nlohmann::json;

TEST_CASE("costs without a price or a power are unknown, with a reason", "[unknowns]") {
  // Apple M3: no published power or price.
  json v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "apple-m3"}});
  CHECK(v["cost"]["usd_per_million_tokens"].is_null());
  CHECK(v["cost"]["usd_basis"] == "unknown");
  CHECK(v["cost"]["usd_unknown_reason"] == "no published price or power for this device; give them under the costs (price_USD, power_W)");
  CHECK(v["cost"]["gCO2e_per_million_tokens"].is_null());
  // A power given: electricity only, labelled.
  v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "apple-m3"}, {"costs", {{"power_W", 30}}}});
  CHECK(v["cost"]["usd_per_million_tokens"].get<double>() > 0);
  CHECK(v["cost"]["usd_basis"] == "electricity only: no published price");
  CHECK(v["cost"]["gCO2e_per_million_tokens"].get<double>() > 0);
  // The RTX 4090 has both.
  v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}});
  CHECK(v["cost"]["usd_basis"] == "hardware and electricity");
  // A quant sweep row says null too.
  v = api_value("quant_sweep", {{"model", "llama-3.1-8b"}, {"hardware", "apple-m3"}, {"sweep", {{"weights", {"q4_k_m"}}, {"kv", {"bf16"}}}}});
  CHECK(v["rows"][0]["usd_per_million_tokens"].is_null());
}

TEST_CASE("without a compute peak the times are lower bounds, and marked", "[unknowns]") {
  json v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}});
  CHECK_FALSE(v["lower_bound"].get<bool>());
  json dev = api_value("device", {{"hardware", "nvidia-h100-sxm"}});
  dev["peak_dense_TFLOPS"] = json::object();
  dev.erase("peak_estimated");
  dev.erase("architecture");
  v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", dev}});
  CHECK(v["lower_bound"].get<bool>());
  CHECK(v["peak"]["memory_only"].get<bool>());
  v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", dev}, {"parallel", {{"tp", 1}}}});
  CHECK(v["parallel"]["lower_bound"].get<bool>());
}

TEST_CASE("a context past the trained window is warned about", "[unknowns]") {
  // Llama-3.1-8B: max_position_embeddings 131072.
  json v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"workload", {{"prompt", 1000000}, {"gen", 16}}}});
  bool warned = false;
  for (const auto& w : v["warnings"])
    if (w["code"] == "workload.beyond_context") {
      warned = true;
      CHECK(w["path"] == "/workload/prompt");
      CHECK(w["message"] == "a request reaches 1,000,015 tokens of context (cached + prompt + generated), beyond Llama-3.1-8B's "
                            "trained window of 131,072 tokens (max_position_embeddings); the forecast counts the work, but the "
                            "model was not trained for it");
    }
  CHECK(warned);
  // At the window exactly: no warning.
  v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"workload", {{"prompt", 131072 - 15}, {"gen", 16}}}});
  for (const auto& w : v["warnings"]) CHECK(w["code"] != "workload.beyond_context");
}

// An MLA form asked of a model without MLA layers changes nothing and says so (FIELD.md: inputs accepted and unused).
TEST_CASE("an MLA form on a model without MLA warns that it changes nothing", "[unknowns][warnings]") {
  const json plain = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}});
  json v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"mla", "absorbed"}});
  REQUIRE(v["warnings"].size() == 1);
  CHECK(v["warnings"][0]["code"] == "workload.mla_unused");
  CHECK(v["warnings"][0]["path"] == "/mla");
  CHECK(v["warnings"][0]["message"] == "/mla holds \"absorbed\", but Llama-3.1-8B has no MLA layers (DeepSeek-V2/V3's latent attention), "
                                      "so it changes nothing; /convert_mla turns a model's attention into MLA");
  REQUIRE(plain["ttft_s"].is_number());
  CHECK(v["ttft_s"] == plain["ttft_s"]);  // nothing changed indeed
  // A model with MLA, or one converted to it (LIFE's MLA scenario): the form applies, no warning.
  for (const json& req : {json{{"model", "deepseek-v2-lite"}, {"mla", "expanded"}}, json{{"model", "llama-3.1-8b"}, {"scenario", "life/bf16-int4-mla"}, {"mla", "absorbed"}}}) {
    v = api_value("analyze", req);
    for (const auto& w : v["warnings"]) CHECK(w["code"] != "workload.mla_unused");
  }
}

TEST_CASE("the quant sweep on a plan: memory per device, the plan's throughput", "[unknowns]") {
  const json req = {{"model", "llama-3.1-70b"}, {"system", "hgx-h200"}, {"parallel", {{"tp", 4}}},
                    {"sweep", {{"weights", {"bf16", "fp8"}}, {"kv", {"bf16"}}}}};
  const json v = api_value("quant_sweep", req);
  CHECK(v["plan"]["tp"] == 4);
  json an = {{"model", "llama-3.1-70b"}, {"system", "hgx-h200"}, {"parallel", {{"tp", 4}}}, {"precision", {{"weights", "fp8"}}}};
  const json a = api_value("analyze", an);
  const json& row = v["rows"][1];
  CHECK(row["weights"] == "fp8");
  CHECK(row["tpot_s"].get<double>() == Approx(a["parallel"]["tpot_s"].get<double>()));
  CHECK(row["batch_tokens_per_s"].get<double>() == Approx(a["parallel"]["total_tokens_per_s"].get<double>()));
  CHECK(row["required_bytes"].get<double>() == Approx(a["parallel"]["device_required_bytes"].get<double>()));
  // Speculative decoding: the throughput follows the speculative TPOT.
  json sp = an;
  sp["speculative"] = {{"model", "llama-3.2-1b"}, {"draft_tokens", 3}, {"acceptance", 0.8}};
  const json s = api_value("analyze", sp);
  CHECK(s["parallel"]["total_tokens_per_s"].get<double>() == Approx(s["workload"]["batch_requests"].get<double>() / s["speculative"]["tpot_s"].get<double>()));
}
