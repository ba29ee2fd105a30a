// A CPU with a matrix engine (Intel AMX) states its vector units' rates apart (peak_dense_TFLOPS_vector), and a
// runtime says which types it runs on the matrix engine (compute.matrix_engine): llama.cpp's CPU backend takes only
// int8 dot products to AMX, its float GEMMs run on AVX-512 (docs/forecast.md, "Matrix engines and vector units").
#include <catch2/catch.hpp>

#include <functional>
#include <regex>
#include <string>

#include "api/api.hpp"
#include "helpers.hpp"
#include "io/hardware_json.hpp"
#include "io/presets.hpp"
#include "io/runtime_json.hpp"

using namespace infercast;

namespace {

constexpr std::size_t idx(ComputeType t) { return static_cast<std::size_t>(t); }

// A runtime preset's document as it is embedded (presets/runtimes/<id>.json).
json runtime_doc(const std::string& id) {
  for (const auto& f : embedded_files())
    if (std::string(f.kind) == "runtimes" && std::string(f.name) == id + ".json") return json::parse(f.text);
  FAIL("no runtime preset file " << id);
  return {};
}

json analyze_json(const json& runtime, const std::string& weights) {
  json req = {{"model", "llama-3.2-3b"}, {"hardware", "intel-xeon-6980p"}, {"runtime", runtime},
              {"workload", {{"batch", 1}, {"prompt", 1024}, {"gen", 16}}}, {"precision", {{"weights", weights}}}};
  const json env = json::parse(call("analyze", req.dump()));
  REQUIRE(env["ok"] == true);
  return env["value"];
}

// The prefill's gate_proj: its compute seconds and the type it ran at.
std::pair<double, std::string> gate_proj(const json& r) {
  for (const auto& o : r["ops"])
    if (o["phase"] == "prefill" && o["name"].get<std::string>().find("gate_proj") != std::string::npos)
      return {o["compute_s"].get<double>(), o["compute_type_used"].get<std::string>()};
  FAIL("no prefill gate_proj");
  return {0, ""};
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("llama.cpp's float GEMMs run on a Xeon's AVX-512, its quantized ones on AMX", "[hardware][runtime]") {
  const HardwareSpec& xeon = *find_hardware_preset("intel-xeon-6980p");
  // 128 cores x 2 GHz: AVX-512 BF16 128 FLOP a clock, VNNI 256 op; AMX 1024 and 2048.
  CHECK(xeon.peak_flops_vector[idx(ComputeType::BF16)] == Approx(32.77e12));
  CHECK(xeon.peak_flops_vector[idx(ComputeType::INT8)] == Approx(65.54e12));
  CHECK(xeon.peak_flops[idx(ComputeType::BF16)] == Approx(262.1e12));

  const json llama = runtime_doc("llama.cpp-cpu");
  CHECK(llama["compute"]["matrix_engine"] == json::array({"int8"}));
  json on_amx = llama;  // the same runtime, every type on the matrix engine (the default of a runtime document)
  on_amx["compute"].erase("matrix_engine");
  on_amx["id"] = "llama.cpp-cpu-amx";

  // BF16 weights: the same GEMM 8 times slower on the vector units (262.1 / 32.77), the same efficiencies.
  const json vec = analyze_json(llama, "bf16"), amx = analyze_json(on_amx, "bf16");
  const auto [vec_s, vec_type] = gate_proj(vec);
  const auto [amx_s, amx_type] = gate_proj(amx);
  CHECK(vec_type == "bf16");
  CHECK(amx_type == "bf16");
  CHECK(vec_s / amx_s == Approx(262.1 / 32.77).epsilon(1e-9));
  CHECK(vec["peak"]["TFLOPS"] == Approx(32.77));
  CHECK(vec["peak"]["units"] == "vector");
  CHECK(vec["peak"]["estimated"] == true);
  CHECK_FALSE(amx["peak"].contains("units"));
  CHECK(amx["peak"]["TFLOPS"] == Approx(262.1));
  CHECK(vec["execution"]["compute_paths"]["matrix_engine"] == json::array({"int8"}));
  CHECK(vec["ttft_s"].get<double>() > 2 * amx["ttft_s"].get<double>());

  // Q8_0 weights: int8 dot products, which llama.cpp takes to AMX; the runtime's choice changes nothing.
  const json q8 = analyze_json(llama, "q8_0"), q8_amx = analyze_json(on_amx, "q8_0");
  CHECK(gate_proj(q8).second == "int8");
  CHECK(gate_proj(q8).first == gate_proj(q8_amx).first);
  CHECK(q8["peak"]["TFLOPS"] == Approx(524.3));
  CHECK_FALSE(q8["peak"].contains("units"));

  // A CPU that states no vector rates (its peaks are its vector units'): every runtime times it at its peaks.
  json epyc = {{"model", "llama-3.2-3b"}, {"hardware", "amd-ryzen-ai-max-395-cpu"}, {"runtime", llama}};
  const json e1 = json::parse(call("analyze", epyc.dump()));
  epyc["runtime"] = on_amx;
  const json e2 = json::parse(call("analyze", epyc.dump()));
  REQUIRE(e1["ok"] == true);
  CHECK(e1["value"]["ttft_s"] == e2["value"]["ttft_s"]);
}

TEST_CASE("vector units' rates are strict, at most the matrix engine's, and traceable", "[hardware][errors]") {
  // Each preset's vector rates are the arithmetic its derivation writes out ("vector bf16: ... = 32.77 TFLOPS").
  int presets = 0;
  for (const auto& hw : hardware_presets()) {
    if (!hw.has_vector_peaks()) continue;
    ++presets;
    for (std::size_t i = 0; i < 8; ++i) {
      if (hw.peak_flops_vector[i] <= 0) continue;
      const std::string t = compute_type_name(static_cast<ComputeType>(i));
      std::smatch m;
      const std::regex line("vector " + t + ": [^;]* = ([0-9.]+) T(FL)?OPS");
      INFO(hw.id << " " << t);
      REQUIRE(std::regex_search(hw.estimate.derivation, m, line));
      CHECK(hw.peak_flops_vector[i] == Approx(std::stod(m[1]) * 1e12));
      if (hw.peak_flops[i] > 0) CHECK(hw.peak_flops_vector[i] <= hw.peak_flops[i]);
    }
  }
  CHECK(presets == 2);  // the two AMX Xeons

  json doc = hardware_to_json(*find_hardware_preset("intel-xeon-8480"));
  CHECK(doc["peak_dense_TFLOPS_vector"]["bf16"] == Approx(14.34));
  doc["peak_dense_TFLOPS_vector"]["bf16"] = 200;  // past AMX's 114.7
  CHECK(error_of([&] { parse_hardware(doc, "/hardware"); }) ==
        "/hardware/peak_dense_TFLOPS_vector/bf16 holds 200, above peak_dense_TFLOPS/bf16 (114.7); expected the vector "
        "units' rate, at most the matrix engine's");
  doc["peak_dense_TFLOPS_vector"]["bf16"] = 14.34;
  doc["peak_dense_TFLOPS_vector"]["avx"] = 1;
  CHECK(error_of([&] { parse_hardware(doc, "/hardware"); }).rfind("/hardware/peak_dense_TFLOPS_vector/avx is not a known field", 0) == 0);

  json rt = runtime_doc("llama.cpp-cpu");
  rt["compute"]["matrix_engine"] = json::array({"int8", "amx"});
  CHECK(error_of([&] { parse_runtime(rt, "/runtime"); }) ==
        "/runtime/compute/matrix_engine/1 holds \"amx\"; expected fp32, tf32, bf16, fp16, fp8, int8, fp4 or int4");
  rt["compute"]["matrix_engine"] = json::array();  // nothing on the matrix engine: every type on the vector units
  const RuntimeSpec none = parse_runtime(rt, "/runtime");
  for (bool on : none.matrix_engine) CHECK_FALSE(on);
  CHECK(runtime_to_json(none)["compute"]["matrix_engine"] == json::array());
}
