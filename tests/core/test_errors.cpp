// Bad input gets an error that names the field, what it holds and what was expected; exact messages.
#include <catch2/catch.hpp>

#include "api/api.hpp"
#include "helpers.hpp"

using namespace test;

namespace {
json err(const std::string& fn, const std::string& request) {
  const json env = json::parse(call(fn, request));
  REQUIRE_FALSE(env["ok"].get<bool>());
  return env["error"];
}
}  // namespace

TEST_CASE("config errors name the field", "[errors]") {
  auto e = err("model", R"({"model": {"model_type": "llama", "hidden_size": 0}})");
  CHECK(e["code"] == "model.out_of_range");
  CHECK(e["path"] == "/model/hidden_size");
  CHECK(e["message"] == "/model/hidden_size holds 0; expected a positive integer");

  e = err("model", R"({"model": {"model_type": "llama", "hidden_size": "4096"}})");
  CHECK(e["message"] == "/model/hidden_size holds \"4096\" (a string); expected a positive integer");

  // A family without transformers defaults (DeepSeek-V2's are not filled) still needs every field.
  e = err("model", R"({"model": {"model_type": "deepseek_v2", "hidden_size": 4096}})");
  CHECK(e["code"] == "model.missing_field");
  CHECK(e["message"] == "/model/num_hidden_layers is missing; expected a positive integer");

  e = err("model", R"({"model": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2, "vocab_size": 10,
      "num_attention_heads": 32, "num_key_value_heads": 5, "intermediate_size": 10}})");
  CHECK(e["code"] == "model.invalid");
  CHECK(e["message"] == "/model/num_key_value_heads holds 5, which does not divide /model/num_attention_heads (32)");

  e = err("model", R"({"model": {"model_type": "llama", "hidden_size": 100, "num_hidden_layers": 2, "vocab_size": 10,
      "num_attention_heads": 3, "intermediate_size": 10}})");
  CHECK(e["message"] == "/model/hidden_size holds 100, which is not a multiple of /model/num_attention_heads (3); give head_dim explicitly");

  e = err("model", R"({"model": {"model_type": "bert"}})");
  CHECK(e["code"] == "model.unsupported");
  CHECK(e["message"] ==
        "/model/model_type holds \"bert\" (no architectures), which is not a supported model type; it resembles none "
        "of the supported families (the families call lists every supported model type)");

  e = err("model", R"({"model": {"hidden_size": 1}})");
  CHECK(e["message"] == "/model/model_type is missing; expected a string");
}

TEST_CASE("request and workload errors name the field", "[errors]") {
  auto e = err("analyze", "{oops");
  CHECK(e["code"] == "request.malformed_json");
  CHECK(e["message"].get<std::string>().rfind("the request is not valid JSON (parse error at line 1, column 2", 0) == 0);

  e = err("analyze", R"({"model": "llama-3.1-8b", "workload": {"prompt": 1e15}})");
  CHECK(e["code"] == "request.out_of_range");
  CHECK(e["message"] == "/workload/prompt holds 1000000000000000; expected an integer from 1 to 1000000000");

  e = err("analyze", R"({"model": "llama-3.1-8b", "workload": {"batch": -1}})");
  CHECK(e["message"] == "/workload/batch holds -1; expected an integer from 1 to 1000000");

  e = err("analyze", R"({"model": "llama-3.1-8b", "precision": {"weights": "int5"}})");
  CHECK(e["code"] == "request.unknown_dtype");
  CHECK(e["message"].get<std::string>().rfind("/precision/weights holds \"int5\"; expected one of fp32, tf32, bf16", 0) == 0);

  e = err("analyze", R"({"model": "llama-3.1-8b", "convention": "roofline"})");
  CHECK(e["message"] == "/convention holds \"roofline\"; expected one of infercast, life, no-causal");

  e = err("analyze", R"({"model": "llama-3.1-8b", "workload": {"batch": 2, "requests": [{"input": 3}]}})");
  CHECK(e["code"] == "request.conflict");

  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": "tpu-v9"})");
  CHECK(e["message"] == "/hardware holds \"tpu-v9\", which is not a hardware preset; run `infercast hardware` for the list");

  e = err("analyze", R"({"model": "llama-3.1-8b", "speed": "fast"})");
  CHECK(e["code"] == "request.unknown_field");
  CHECK(e["message"] == "/speed is not a known field here");

  e = err("nope", "{}");
  CHECK(e["code"] == "api.unknown_function");
}

TEST_CASE("hardware errors name the field", "[errors]") {
  const std::string base = R"({"model": "llama-3.1-8b", "hardware": {"schema_version": 1, "id": "x", "name": "X", "class": "custom",
      "source": "test", "peak_dense_TFLOPS": {"bf16": 100}, "memory_tiers": [{"name": "HBM", "capacity_GB": 80, "bandwidth_GBps": BW}]}})";
  auto with_bw = [&](const std::string& bw) {
    std::string s = base;
    s.replace(s.find("BW"), 2, bw);
    return s;
  };
  auto e = err("analyze", with_bw("0"));
  CHECK(e["path"] == "/hardware/memory_tiers/0/bandwidth_GBps");
  CHECK(e["message"] == "/hardware/memory_tiers/0/bandwidth_GBps holds 0; expected a number from 1e-06 to 1000000000");
  e = err("analyze", with_bw("-5"));
  CHECK(e["message"] == "/hardware/memory_tiers/0/bandwidth_GBps holds -5; expected a number from 1e-06 to 1000000000");
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": {"schema_version": 1, "id": "x", "name": "X", "class": "custom",
      "source": "t", "peak_dense_TFLOPS": {"bf16": 100}, "memory_tiers": []}})");
  CHECK(e["message"] == "/hardware/memory_tiers holds an array of 0; expected a non-empty array of objects");
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": {"schema_version": 1, "id": "x", "name": "X", "class": "custom",
      "source": "t", "peak_dense_TFLOPS": {"fp16": 0}, "memory_tiers": [{"name": "a", "capacity_GB": 1, "bandwidth_GBps": 1}]}})");
  CHECK(e["path"] == "/hardware/peak_dense_TFLOPS/fp16");
  CHECK(e["message"] == "/hardware/peak_dense_TFLOPS/fp16 holds 0; expected a number from 1e-06 to 10000000");
  e = err("analyze", with_bw("1, \"capacity_GB\": \"NaN\""));
  CHECK(e["message"] == "/hardware/memory_tiers/0/capacity_GB holds \"NaN\" (a string); expected a number from 1e-06 to 1000000000");
  // NaN as Python's json writes it parses, and is refused by name where a finite number is expected.
  e = err("analyze", with_bw("NaN"));
  CHECK(e["code"] == "hardware.out_of_range");
  CHECK(e["message"] == "/hardware/memory_tiers/0/bandwidth_GBps holds NaN; expected a number from 1e-06 to 1000000000");
  // After errors the API keeps working.
  const json ok = json::parse(call("analyze", with_bw("1000")));
  CHECK(ok["ok"].get<bool>());
}

TEST_CASE("a custom device without a peak is timed on memory alone, and says so", "[errors]") {
  const json r = json::parse(call("analyze", R"({"model": "llama-3.1-8b", "hardware": {"schema_version": 1, "id": "x",
      "name": "X", "class": "custom", "source": "t", "peak_dense_TFLOPS": {},
      "memory_tiers": [{"name": "a", "capacity_GB": 100, "bandwidth_GBps": 100}]}})"));
  REQUIRE(r["ok"].get<bool>());
  const auto& ws = r["value"]["warnings"];
  REQUIRE(ws.size() == 1);
  CHECK(ws[0]["code"] == "hardware.no_compute_peak");
  // The message goes on with a suggested peak (tests/core/test_derive.cpp checks it).
  CHECK(ws[0]["message"].get<std::string>().rfind(
            "X has no compute peak; times count memory traffic and dispatch only (a lower bound, not a forecast). ", 0) == 0);
  for (const auto& op : r["value"]["ops"]) CHECK(op["compute_s"].get<double>() == 0);
  // A device with only an int8 peak (an NPU quoted in TOPS, its 16-bit rate left out) times bf16 operators at it,
  // and says so. Every preset has a 16-bit peak now, so this is a custom device.
  json npu = json::parse(call("device", R"({"hardware": "amd-ryzen-ai-max-395-npu"})"))["value"];
  npu["peak_dense_TFLOPS"] = {{"int8", 50}};
  npu.erase("peak_estimated");
  const json n = json::parse(call("analyze", json({{"model", "llama-2-7b"}, {"hardware", npu}}).dump()));
  REQUIRE(n["ok"].get<bool>());
  REQUIRE(n["value"]["warnings"].size() == 1);
  CHECK(n["value"]["warnings"][0]["message"] ==
        "AMD Ryzen AI Max+ 395 - XDNA 2 NPU has no peak for bf16 or a wider type; bf16 operators are timed at its int8 peak");
}

// The registry and the option tables: every function is listed once and the unknown-function message is made from
// the same list; every enum option lists its table's names, so a new value shows up in the CLI and the page.
TEST_CASE("functions and options are generated from their tables", "[api][options]") {
  const json fns = json::parse(call("functions", "{}"))["value"];
  std::vector<std::string> names;
  for (const auto& f : fns) names.push_back(f["name"]);
  for (const char* n : {"analyze", "checkpoint", "options", "functions", "gguf", "safetensors"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  const json bad = json::parse(call("nope", "{}"));
  const std::string msg = bad["error"]["message"];
  for (const auto& f : fns)
    if (f["input"] == "json") CHECK(msg.find(f["name"].get<std::string>()) != std::string::npos);
  const json opts = json::parse(call("options", "{}"))["value"];
  const auto find = [&](const std::string& path) {
    for (const auto& o : opts)
      if (o["path"] == path) return o;
    FAIL("no option " << path);
    return json();
  };
  CHECK(find("/workload/batch")["default"] == 1);
  CHECK(find("/workload/batch")["max"] == 1000000);
  CHECK(find("/workload/prompt")["default"] == 512);
  CHECK(find("/costs/pue")["default"] == 1.3);
  const json moe = find("/moe_traffic");
  CHECK(moe["values"].size() == moe_traffic_names().entries().size());
  CHECK(moe["values"][3]["name"] == "upper-bound");
  CHECK(find("/lora/mode")["default"] == "unmerged");
  CHECK(find("/precision/weights")["default"].is_null());  // as published
  // A value outside the range the table states is refused with that range.
  const json big = json::parse(call("analyze", R"({"model": "llama-3.1-8b", "workload": {"batch": 1000001}})"));
  CHECK(big["error"]["message"] == "/workload/batch holds 1000001; expected an integer from 1 to 1000000");
  CHECK(json::parse(call("models", R"({"x": 1})"))["error"]["code"] == "request.unknown_field");
}

TEST_CASE("where 0 means none, a near-zero value is refused: no infinite joules or seconds", "[errors][regression]") {
  // Each range started at 0 (none), so 1e-300 passed and the result came out infinite (result.not_finite).
  json dev = json::parse(call("device", R"({"hardware": "nvidia-h100-sxm"})"))["value"];
  const auto analyze_with = [&](const char* key, double v) {
    json d = dev;
    d[key] = v;
    return err("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", d}, {"parallel", {{"tp", 2}}}}).dump());
  };
  auto e = analyze_with("interconnect_GBps", 1e-300);
  CHECK(e["code"] == "hardware.out_of_range");
  CHECK(e["path"] == "/hardware/interconnect_GBps");
  CHECK(e["message"] == "/hardware/interconnect_GBps holds 1e-300; expected 0 (none) or a number from 1e-06 to 1000000000");
  e = analyze_with("tdp_W", 1e-300);
  CHECK(e["path"] == "/hardware/tdp_W");
  CHECK(e["message"] == "/hardware/tdp_W holds 1e-300; expected 0 (unknown) or a number from 0.001 to 10000000");
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "costs": {"power_W": 1e-300}})");
  CHECK(e["code"] == "request.out_of_range");
  CHECK(e["message"] == "/costs/power_W holds 1e-300; expected 0 (the device's own) or a number from 0.001 to 10000000");
  e = err("sweep", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "axes": [{"param": "sram_MB", "values": [0, 1, 100000]}],
      "sram_bandwidth_GBps": 1e-300, "objectives": ["tpot_s", "ttft_s"]})");
  CHECK(e["message"] == "/sram_bandwidth_GBps holds 1e-300; expected 0 (none) or a number from 1e-06 to 1000000000");
  e = err("dse_device", R"({"hardware": "nvidia-h100-sxm", "params": {"sram_MB": 10}, "sram_bandwidth_GBps": 1e-300})");
  CHECK(e["path"] == "/sram_bandwidth_GBps");
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "costs": {"power_W": -1}})");
  CHECK(e["message"] == "/costs/power_W holds -1; expected 0 (the device's own) or a number from 0.001 to 10000000");
  // A wrong type is named with the same range (review of stop 58: it was told to expect -1.8e308 to 1.8e308).
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "costs": {"power_W": "300"}})");
  CHECK(e["code"] == "request.wrong_type");
  CHECK(e["message"] == "/costs/power_W holds \"300\" (a string); expected 0 (the device's own) or a number from 0.001 to 10000000");
  // 0 stays "none", and the floor itself is taken.
  for (double v : {0.0, 1e-6}) {
    json d = dev;
    d["interconnect_GBps"] = v;
    CHECK(json::parse(call("analyze", json({{"model", "llama-3.2-1b"}, {"hardware", d}}).dump()))["ok"].get<bool>());
  }
  CHECK(json::parse(call("analyze", R"({"model": "llama-3.2-1b", "hardware": "nvidia-h100-sxm", "costs": {"power_W": 0.001}})"))["ok"].get<bool>());
  // The options list the floor.
  const json options = json::parse(call("options", "{}"))["value"];
  bool listed = false;
  for (const auto& o : options)
    if (o["path"] == "/hardware/interconnect_GBps") listed = o["least_nonzero"] == 1e-6 && o["min"] == 0;
  CHECK(listed);
}

TEST_CASE("a peak with FP16 accumulate takes the peaks' range", "[errors][regression]") {
  json dev = json::parse(call("device", R"({"hardware": "nvidia-h100-sxm"})"))["value"];
  for (double v : {1e300, 1e20}) {
    dev["peak_dense_TFLOPS_fp16_accumulate"] = {{"fp16", v}};
    const json e = err("device", json({{"hardware", dev}}).dump());
    CHECK(e["code"] == "hardware.out_of_range");
    CHECK(e["path"] == "/hardware/peak_dense_TFLOPS_fp16_accumulate/fp16");
    CHECK(e["message"] == "/hardware/peak_dense_TFLOPS_fp16_accumulate/fp16 holds " + std::string(v == 1e300 ? "1e+300" : "1e+20") +
                              "; expected a number from 1e-06 to 10000000");
  }
}

TEST_CASE("a model preset document's errors name the request's pointer", "[errors][regression]") {
  // The preset reader named its fields from the document's root (/stated_params/total) with its own prefix.
  auto e = err("analyze", R"({"model": {"schema_version": 1, "config": {}, "id": "a", "name": "b", "source": "c",
      "stated_params": {"total": 5}}, "hardware": "nvidia-h100-sxm"})");
  CHECK(e["code"] == "request.wrong_type");
  CHECK(e["path"] == "/model/stated_params/total");
  CHECK(e["message"] == "/model/stated_params/total holds 5; expected a string");
  e = err("analyze", R"({"model": {"schema_version": 2, "config": {}}})");
  CHECK(e["code"] == "request.unsupported");
  CHECK(e["path"] == "/model/schema_version");
  CHECK(e["message"] == "/model/schema_version holds 2; expected 1");
  e = err("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "speculative": {"model": {"schema_version": 1,
      "config": {}, "name": "b", "source": "c", "stated_params": {"total": "1B"}}}})");
  CHECK(e["path"] == "/speculative/model/id");
  CHECK(e["message"] == "/speculative/model/id is missing; expected a string");
  e = err("checkpoint", R"({"tensors": [["model.norm.weight", "BF16", [64]]], "model": {"schema_version": 1, "config": 5}})");
  CHECK(e["code"] == "request.wrong_type");
  CHECK(e["path"] == "/model/config");
  CHECK(e["message"] == "/model/config holds 5; expected a config.json object");
  e = err("checkpoint", R"({"tensors": [["model.norm.weight", "BF16", [64]]], "model": {"model_type": "llama", "hidden_size": 0}})");
  CHECK(e["path"] == "/model/hidden_size");
  CHECK(e["message"] == "/model/hidden_size holds 0; expected a positive integer");
}
