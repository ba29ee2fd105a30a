// Peaks from the architecture (core/hardware/derive.cpp, presets/defaults/architectures.json): every family's
// derivation reproduces a published peak, every estimated preset peak equals its derivation as stored, every
// preset computes, and the schema's new fields are strict and round-trip.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "api/api.hpp"
#include "hardware/derive.hpp"
#include "helpers.hpp"
#include "io/defaults.hpp"
#include "io/hardware_json.hpp"

using namespace test;

namespace {

constexpr std::size_t idx(ComputeType t) { return static_cast<std::size_t>(t); }

ComputeType type_of(const std::string& name) { return *compute_type_names().find(name); }

// The derived peak of `t` for a preset, TFLOPS.
double derived_tflops(const std::string& id, const std::string& t, bool fp16_acc = false) {
  const HardwareSpec& hw = *find_hardware_preset(id);
  const auto d = derive_peaks(hw, *find_generation(hw.architecture.generation));
  REQUIRE(d);
  return (fp16_acc ? d->flops_fp16_accumulate : d->flops)[idx(type_of(t))] / 1e12;
}

double published_tflops(const std::string& id, const std::string& t, bool fp16_acc = false) {
  const HardwareSpec& hw = *find_hardware_preset(id);
  REQUIRE_FALSE(hw.peak_is_estimated(type_of(t)));
  return (fp16_acc ? hw.peak_flops_fp16_accumulate : hw.peak_flops)[idx(type_of(t))] / 1e12;
}

// A device that is not a preset: its architecture as a vendor states it, derived.
double derived_from(const std::string& gen, int units, double ghz, const std::string& t, bool fp16_acc = false) {
  Architecture a;
  a.generation = gen;
  a.compute_units = units;
  a.clock_ghz = ghz;
  const auto d = derive_from_architecture(a, *find_generation(gen));
  REQUIRE(d);
  return (fp16_acc ? d->flops_fp16_accumulate : d->flops)[idx(type_of(t))] / 1e12;
}

json hw_doc(const std::string& extra) {
  return json::parse(R"({"schema_version": 1, "id": "x", "name": "X", "class": "custom", "source": "t",
      "peak_dense_TFLOPS": {"bf16": 100}, "memory_tiers": [{"name": "a", "capacity_GB": 10, "bandwidth_GBps": 100}])" + extra + "}");
}

std::string parse_error(const json& doc) {
  try {
    parse_hardware(doc, "/hardware");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every hardware preset computes: a 16-bit peak, an architecture, a memory technology per tier", "[derive]") {
  std::set<std::string> generations_used;
  for (const auto& h : hardware_presets()) {
    INFO(h.id);
    CHECK((h.peak_flops[idx(ComputeType::BF16)] > 0 || h.peak_flops[idx(ComputeType::FP16)] > 0));
    REQUIRE_FALSE(h.architecture.generation.empty());
    CHECK(find_generation(h.architecture.generation) != nullptr);
    generations_used.insert(h.architecture.generation);
    for (const auto& t : h.tiers) CHECK(t.technology != MemoryTech::Unknown);
    CHECK(h.notes.find("Class " + h.device_class + ":") != std::string::npos);  // the class's reason, by physics
  }
  CHECK(hardware_presets().size() >= 95);
  CHECK(generations_used.size() >= 40);
  // The devices users asked for are presets.
  for (const char* id : {"nvidia-rtx-5060-ti", "nvidia-rtx-5070-ti", "nvidia-rtx-4080-super", "nvidia-rtx-pro-6000-blackwell",
                         "amd-rx-9070", "amd-radeon-ai-pro-r9700", "intel-arc-b580", "amd-ryzen-ai-max-395-cpu", "apple-m3-max-30c",
                         "apple-m4-max-32c", "nvidia-b300", "nvidia-jetson-agx-thor", "qualcomm-snapdragon-x-elite"})
    CHECK(find_hardware_preset(id) != nullptr);
  // Binned Apple parts: the M3 Max 30-core at 300 GB/s, the M4 Max 32-core at 410 GB/s.
  CHECK(find_hardware_preset("apple-m3-max-30c")->tiers[0].bandwidth_bytes_per_s == 300e9);
  CHECK(find_hardware_preset("apple-m4-max-32c")->tiers[0].bandwidth_bytes_per_s == 410e9);
}

TEST_CASE("every estimated peak equals its derivation exactly as stored, and says how", "[derive]") {
  int estimated = 0;
  for (const auto& h : hardware_presets()) {
    if (h.estimate.dtypes.empty()) continue;
    INFO(h.id);
    ++estimated;
    const Generation* g = find_generation(h.architecture.generation);
    REQUIRE(g);
    const auto d = derive_peaks(h, *g);
    REQUIRE(d);
    CHECK_FALSE(h.estimate.sources.empty());
    CHECK(h.estimate.sources.find(g->key) != std::string::npos);
    for (ComputeType t : h.estimate.dtypes) {
      INFO(compute_type_name(t));
      const auto i = idx(t);
      CHECK(h.peak_flops[i] / 1e12 == Approx(round_estimate_tflops(d->flops[i])).epsilon(1e-12));
      CHECK(h.estimate.derivation.find(d->arithmetic[i]) != std::string::npos);
      if (h.peak_flops_fp16_accumulate[i] > 0)
        CHECK(h.peak_flops_fp16_accumulate[i] / 1e12 == Approx(round_estimate_tflops(d->flops_fp16_accumulate[i])).epsilon(1e-12));
    }
  }
  CHECK(estimated >= 60);
  // The issue's devices: every Apple M3/M4 GPU and the phones now compute; DGX Spark has its 16-bit peaks.
  CHECK(find_hardware_preset("apple-m3-max")->peak_flops[idx(ComputeType::FP16)] == Approx(14.32e12));  // 40 x 256 x 1.398 GHz
  CHECK(find_hardware_preset("apple-m4-max")->peak_flops[idx(ComputeType::FP16)] == Approx(16.16e12));  // 40 x 256 x 1.578 GHz
  const auto& spark = *find_hardware_preset("nvidia-dgx-spark");
  CHECK(spark.device_class == "embedded-gpu");
  CHECK(spark.peak_is_estimated(ComputeType::BF16));
  CHECK(spark.peak_flops[idx(ComputeType::BF16)] == Approx(61.93e12));                  // 48 x 512 x 2.52 GHz
  CHECK(spark.peak_flops_fp16_accumulate[idx(ComputeType::FP16)] == Approx(123.9e12));  // 48 x 1024 x 2.52 GHz
  CHECK_FALSE(spark.peak_is_estimated(ComputeType::FP4));                               // NVIDIA's 1 PF sparse, halved
}

// One device whose peak the vendor publishes per family: the derivation lands on it, within the rounding of the
// published figure or of the clock it is quoted at (sources in presets/defaults/architectures.json).
TEST_CASE("each family's derivation reproduces a published peak", "[derive]") {
  struct Row {
    const char* id;
    const char* type;
    double tolerance;  // relative
  };
  const Row rows[] = {
      {"nvidia-v100-sxm2-32gb", "fp16", 0.003},  // 80 x 1024 x 1.53 = 125.3 vs 125
      {"nvidia-a100-sxm-80gb", "fp16", 0.001},   {"nvidia-a100-sxm-80gb", "tf32", 0.001},
      {"nvidia-a100-sxm-80gb", "int8", 0.001},   {"nvidia-a100-sxm-80gb", "fp32", 0.001},
      {"nvidia-rtx-3090", "fp16", 0.003},        {"nvidia-rtx-3090", "fp32", 0.001},
      {"nvidia-jetson-agx-orin-64gb", "int8", 0.001}, {"nvidia-jetson-agx-orin-64gb", "fp32", 0.005},
      {"nvidia-l4", "fp16", 0.002},              {"nvidia-l4", "fp8", 0.001},   {"nvidia-l4", "fp32", 0.001},
      {"nvidia-rtx-4090", "fp16", 0.001},        {"nvidia-rtx-4090", "fp8", 0.001}, {"nvidia-rtx-4090", "int8", 0.001},
      {"nvidia-rtx-4090", "fp32", 0.001},
      {"nvidia-h100-sxm", "bf16", 0.001},        {"nvidia-h100-sxm", "fp8", 0.001}, {"nvidia-h100-sxm", "tf32", 0.001},
      {"nvidia-h100-sxm", "fp32", 0.001},
      {"nvidia-b200", "bf16", 0.001},            {"nvidia-b200", "fp4", 0.001},  // at the clock 2.25 PF implies
      {"nvidia-b300", "fp8", 0.001},             // ratio to bf16 (no clock published)
      {"nvidia-rtx-5090", "fp16", 0.001},        {"nvidia-rtx-5090", "fp4", 0.001}, {"nvidia-rtx-5090", "fp32", 0.001},
      {"nvidia-rtx-pro-6000-blackwell", "fp32", 0.01}, {"nvidia-rtx-pro-6000-blackwell", "fp4", 0.01},
      {"nvidia-dgx-spark", "fp32", 0.002},       {"nvidia-dgx-spark", "fp4", 0.01},
      {"amd-mi250x", "fp16", 0.001},             {"amd-mi250x", "fp32", 0.001},
      {"amd-mi250-gcd", "fp16", 0.001},          {"amd-mi250-gcd", "fp32", 0.002},  // AMD's 362.1 and 45.3, halved
      {"nvidia-gh200-96gb", "bf16", 0.001},      {"nvidia-gh200-96gb", "fp8", 0.001},  // datasheet 990 and 1,979 dense
      {"nvidia-jetson-orin-nano-8gb", "int8", 0.025},  // 20 dense TOPS at 625 MHz (NVIDIA rounds 20.48)
      {"intel-arc-pro-b60", "int8", 0.003},      // 197 TOPS at 2.4 GHz
      {"amd-mi300x", "fp16", 0.001},             {"amd-mi300x", "fp8", 0.001}, {"amd-mi300x", "tf32", 0.001},
      {"amd-mi300x", "fp32", 0.001},
      {"amd-mi355x", "fp8", 0.007},              {"amd-mi355x", "fp4", 0.007},  // AMD rounds to 5 and 10 PF
      {"amd-rx-7900-xtx", "fp16", 0.001},        {"amd-rx-7900-xtx", "fp32", 0.001},
      {"amd-rx-9070-xt", "fp16", 0.001},         {"amd-rx-9070-xt", "fp32", 0.001}, {"amd-radeon-ai-pro-r9700", "fp16", 0.003},
      {"intel-arc-a770", "fp32", 0.001},         {"intel-arc-b580", "int8", 0.003}, {"intel-lunar-lake-npu", "int8", 0.002},
      {"intel-gaudi-2", "bf16", 0.002},          {"intel-gaudi-3", "bf16", 0.001},
      {"google-tpu-v4", "bf16", 0.002},          {"google-tpu-v5e", "bf16", 0.002}, {"google-tpu-v5p", "bf16", 0.001},
      {"google-tpu-v6e", "bf16", 0.001},
      {"apple-m1", "fp32", 0.007},               {"apple-m2", "fp32", 0.006},  {"apple-m2-max", "fp32", 0.001},  // Apple's 2.6, 3.6, 13.6
      {"qualcomm-snapdragon-x-elite", "fp32", 0.002},
      {"groq-lpu", "int8", 0.02},                {"groq-lpu", "fp16", 0.02},   // 750 and 188 at 916 MHz; 900 MHz nominal
      {"dmatrix-corsair", "int4", 0.001},        // MXINT4 = 4 x MXINT8
      {"samsung-hbm-pim", "fp16", 0.025},        {"skhynix-gddr6-aim", "bf16", 0.025},  // "1.2" and "1" TFLOPS
  };
  for (const auto& r : rows) {
    INFO(r.id << " " << r.type);
    const double pub = published_tflops(r.id, r.type);
    REQUIRE(pub > 0);
    CHECK(std::fabs(derived_tflops(r.id, r.type) / pub - 1) <= r.tolerance);
  }
  // FP16-accumulate rates of GeForce parts (whitepapers' appendices).
  CHECK(derived_tflops("nvidia-rtx-4090", "fp16", true) == Approx(published_tflops("nvidia-rtx-4090", "fp16", true)).epsilon(0.001));
  CHECK(derived_tflops("nvidia-rtx-4090", "fp8", true) == Approx(published_tflops("nvidia-rtx-4090", "fp8", true)).epsilon(0.001));
  CHECK(derived_tflops("nvidia-rtx-5090", "fp8", true) == Approx(published_tflops("nvidia-rtx-5090", "fp8", true)).epsilon(0.001));
  CHECK(derived_tflops("nvidia-rtx-3090", "fp16", true) == Approx(published_tflops("nvidia-rtx-3090", "fp16", true)).epsilon(0.003));
  // Devices that are not presets. NVIDIA T4 datasheet: 65 TFLOPS FP16, 130 INT8, 260 INT4 (40 SMs, 1590 MHz).
  CHECK(derived_from("nvidia-turing", 40, 1.59, "fp16") == Approx(65).epsilon(0.002));
  CHECK(derived_from("nvidia-turing", 40, 1.59, "int8") == Approx(130).epsilon(0.002));
  CHECK(derived_from("nvidia-turing", 40, 1.59, "int4") == Approx(260).epsilon(0.002));
  // Turing whitepaper, RTX 2080 Ti Founders Edition (68 SMs, 1635 MHz): 56.9 FP32-accumulate, 113.8 FP16-accumulate.
  CHECK(derived_from("nvidia-turing-geforce", 68, 1.635, "fp16") == Approx(56.9).epsilon(0.001));
  CHECK(derived_from("nvidia-turing-geforce", 68, 1.635, "fp16", true) == Approx(113.8).epsilon(0.001));
  // NVIDIA A10 datasheet (72 SMs, 1695 MHz): 125 FP16, 62.5 TF32, 250 INT8, 31.2 FP32.
  CHECK(derived_from("nvidia-ampere-ga10x", 72, 1.695, "fp16") == Approx(125).epsilon(0.001));
  CHECK(derived_from("nvidia-ampere-ga10x", 72, 1.695, "tf32") == Approx(62.5).epsilon(0.001));
  CHECK(derived_from("nvidia-ampere-ga10x", 72, 1.695, "int8") == Approx(250).epsilon(0.001));
  // Ada whitepaper, RTX 6000 Ada (142 SMs, 2505 MHz): 364.2 FP16 with FP32 accumulate (a professional part).
  CHECK(derived_from("nvidia-ada", 142, 2.505, "fp16") == Approx(364.2).epsilon(0.001));
  // NVIDIA's Orin Nano Super blog: 10 FP16 TFLOPS before the update (8 SMs at 625 MHz), 17 after (1.02 GHz).
  CHECK(derived_from("nvidia-ampere-orin", 8, 0.625, "fp16") == Approx(10).epsilon(0.025));
  CHECK(derived_from("nvidia-ampere-orin", 8, 1.02, "fp16") == Approx(17).epsilon(0.02));
  // NVIDIA Grace CPU Superchip: 144 Neoverse V2 cores, 7.1 TFLOPS FP64 = half the FP32 rate at 3.1 GHz.
  CHECK(derived_from("arm-neoverse-v2", 144, 3.1, "fp32") == Approx(2 * 7.1).epsilon(0.01));
}

// Families whose vendors publish no peak: the derivation is the arithmetic written out here, from the per-unit
// figures the architecture documents give (the test fails if a rate in architectures.json drifts).
TEST_CASE("families without a published peak derive from their documented per-unit arithmetic", "[derive]") {
  // RDNA 3.5 (Radeon 8060S: 40 CUs, 2.9 GHz): 64 lanes x 2 (dual issue) x 2 (FMA) FP32; WMMA 512 FP16 per clock.
  CHECK(derived_tflops("amd-radeon-8060s", "fp32") == Approx(40 * 64 * 2 * 2 * 2.9e9 / 1e12));
  CHECK(derived_tflops("amd-radeon-8060s", "fp16") == Approx(40 * 512 * 2.9e9 / 1e12));
  // Apple GPU families 9 (M3, M4): 128 FP32 ALUs per core x 2 (FMA); FP16 at the same rate.
  CHECK(derived_tflops("apple-m3-max", "fp32") == Approx(40 * 128 * 2 * 1.398e9 / 1e12));
  CHECK(derived_tflops("apple-m4-max-32c", "fp16") == Approx(32 * 128 * 2 * 1.578e9 / 1e12));
  CHECK(derived_tflops("apple-a17-pro", "fp16") == Approx(6 * 128 * 2 * 1.398e9 / 1e12));
  // Zen 5 with the 512-bit datapath (Ryzen AI Max+ 395: 16 cores, 5.1 GHz): 2 FMA pipes x 16 lanes x 2; BF16 2x.
  CHECK(derived_tflops("amd-ryzen-ai-max-395-cpu", "fp32") == Approx(16 * 2 * 16 * 2 * 5.1e9 / 1e12));
  CHECK(derived_tflops("amd-ryzen-ai-max-395-cpu", "bf16") == Approx(2 * 16 * 2 * 16 * 2 * 5.1e9 / 1e12));
  // Sapphire Rapids AMX: 1024 BF16 operations per cycle per core (Intel), 56 cores at 2.0 GHz.
  CHECK(derived_tflops("intel-xeon-8480", "bf16") == Approx(56 * 1024 * 2.0e9 / 1e12));
  // XDNA 2: block-FP16 at the INT8 rate (512 MACs per tile per clock): 16-bit GEMMs at the published 50 TOPS.
  CHECK(derived_tflops("amd-ryzen-ai-max-395-npu", "bf16") == Approx(50));
  // Intel NPU 4: FP16 at half the INT8 rate.
  CHECK(derived_tflops("intel-lunar-lake-npu", "fp16") == Approx(derived_tflops("intel-lunar-lake-npu", "int8") / 2));
  // Adreno: FP16 at twice FP32 (Snapdragon 8 Gen 3's Adreno 750: 1536 ALUs at 903 MHz).
  CHECK(derived_tflops("qualcomm-snapdragon-8-gen-3", "fp16") == Approx(1536 * 4 * 0.903e9 / 1e12));
  // Mali-G720 (Dimensity 9300, 12 cores at 1.3 GHz): 128 FMA lanes per core, FP16 twice.
  CHECK(derived_tflops("mediatek-dimensity-9300", "fp16") == Approx(12 * 128 * 2 * 2 * 1.3e9 / 1e12));
  // Cerebras WSE-3: 900,000 cores x 8-wide FP16 FMA x 2 at an assumed 1.1 GHz.
  CHECK(derived_tflops("cerebras-wse-3", "fp16") == Approx(900000.0 * 8 * 2 * 1.1e9 / 1e12));
  // Jetson AGX Thor: 20 datacenter-Blackwell SMs; FP4 32768 per SM per clock reproduces NVIDIA's 2070 sparse TFLOPS.
  CHECK(derived_tflops("nvidia-jetson-agx-thor", "fp4") * 2 == Approx(2070).epsilon(0.003));
}

TEST_CASE("the new hardware fields are strict, listed and round-trip", "[derive][errors]") {
  const json doc = hw_doc(R"(, "peak_dense_TFLOPS_fp16_accumulate": {"fp16": 200},
      "peak_estimated": {"dtypes": ["bf16"], "derivation": "d", "sources": "s"},
      "architecture": {"generation": "nvidia-ada-geforce", "compute_units": 10, "clock_GHz": 2, "l2_MB": 4})");
  json fixed = doc;
  fixed["peak_dense_TFLOPS"]["fp16"] = 100;
  fixed["memory_tiers"][0]["technology"] = "GDDR6X";
  const HardwareSpec hw = parse_hardware(fixed, "/hardware");
  CHECK(hw.peak_flops_fp16_accumulate[idx(ComputeType::FP16)] == 200e12);
  CHECK(hw.peak_is_estimated(ComputeType::BF16));
  CHECK_FALSE(hw.peak_is_estimated(ComputeType::FP16));
  CHECK(hw.architecture.compute_units == 10);
  CHECK(hw.tiers[0].technology == MemoryTech::GDDR6X);
  const json back = hardware_to_json(hw);
  CHECK(back["memory_tiers"][0]["technology"] == "GDDR6X");
  CHECK(back["peak_estimated"]["dtypes"] == json::array({"bf16"}));
  CHECK(hardware_to_json(parse_hardware(back, "/hardware")) == back);
  // Every preset survives its own listing (efficiencies to floating-point rounding: dispatch is stored in seconds).
  for (const auto& p : hardware_presets()) {
    json a = hardware_to_json(p), b = hardware_to_json(parse_hardware(a, ""));
    // Presets state no efficiencies: the runtime's (or the class's) apply at analysis time.
    CHECK_FALSE(a.contains("efficiency"));
    a.erase("efficiency");
    b.erase("efficiency");
    CHECK(a == b);
  }

  json bad = fixed;
  bad["memory_tiers"][0]["technology"] = "HBM4";
  CHECK(parse_error(bad) ==
        "/hardware/memory_tiers/0/technology holds \"HBM4\"; expected one of HBM2, HBM2e, HBM3, HBM3e, GDDR6, GDDR6X, GDDR7, LPDDR4X, "
        "LPDDR5, LPDDR5X, DDR4, DDR5, SRAM, UFS, NVMe, other");
  bad = fixed;
  bad["architecture"]["generation"] = "nvidia-rubin";
  CHECK(parse_error(bad).rfind("/hardware/architecture/generation holds \"nvidia-rubin\"; expected one of nvidia-volta, ", 0) == 0);
  bad = fixed;
  bad["architecture"]["clock"] = 2;
  CHECK(parse_error(bad) == "/hardware/architecture/clock is not a known field here");
  bad = fixed;
  bad["architecture"]["compute_units"] = 0;
  CHECK(parse_error(bad) == "/hardware/architecture/compute_units holds 0; expected an integer from 1 to 10000000");
  bad = fixed;
  bad["peak_estimated"]["dtypes"] = {"fp8"};
  CHECK(parse_error(bad) == "/hardware/peak_estimated/dtypes/0 holds \"fp8\", which has no peak in peak_dense_TFLOPS; expected a type whose peak is given");
  bad = fixed;
  bad["peak_dense_TFLOPS_fp16_accumulate"]["fp16"] = 50;
  CHECK(parse_error(bad) == "/hardware/peak_dense_TFLOPS_fp16_accumulate/fp16 holds 50, below peak_dense_TFLOPS/fp16 (100); expected the "
                            "FP16-accumulate rate, at least the FP32-accumulate one");
  bad = fixed;
  bad["peak_dense_TFLOPS_fp16_accumulate"]["bf16"] = 300;  // BF16 always accumulates in FP32
  CHECK(parse_error(bad).rfind("/hardware/peak_dense_TFLOPS_fp16_accumulate/bf16 is not a known field", 0) == 0);

  // The options call lists the technologies and generations; the architectures call, the rates.
  const json opts = json::parse(call("options", "{}"))["value"];
  bool tech = false, gen = false;
  for (const auto& o : opts) {
    tech = tech || o["path"] == "/hardware/memory_tiers/*/technology";
    gen = gen || (o["path"] == "/hardware/architecture/generation" && o["values"].size() == generation_table().size());
  }
  CHECK(tech);
  CHECK(gen);
  const json archs = json::parse(call("architectures", "{}"))["value"];
  CHECK(archs["generations"].size() == generation_table().size());
  CHECK(archs["generations"][0]["flop_per_clock"]["fp16"] == 1024);
}

TEST_CASE("analyze says which peak it ran at and whether it is estimated", "[derive][forecast]") {
  const auto peak = [](const char* hw) {
    const json r = json::parse(call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", hw}}).dump()));
    REQUIRE(r["ok"].get<bool>());
    CHECK(r["value"]["warnings"].empty());  // no preset runs on memory alone or falls back anymore
    return r["value"]["peak"];
  };
  const json spark = peak("nvidia-dgx-spark");
  CHECK(spark["dtype"] == "bf16");
  CHECK(spark["TFLOPS"].get<double>() == Approx(61.93));
  CHECK(spark["estimated"].get<bool>());
  CHECK(spark["derivation"].get<std::string>().find("bf16: 48 SMs x 512 FLOP/clock x 2.52 GHz = 61.93 TFLOPS") != std::string::npos);
  const json h100 = peak("nvidia-h100-sxm");
  CHECK(h100["TFLOPS"].get<double>() == Approx(989.4));
  CHECK_FALSE(h100["estimated"].get<bool>());
  CHECK_FALSE(h100.contains("derivation"));
  const json rtx = peak("nvidia-rtx-4090");
  CHECK(rtx["TFLOPS"].get<double>() == Approx(165.2));  // FP32 accumulate
  CHECK_FALSE(rtx.contains("fp16_accumulate_TFLOPS"));   // bf16 has no FP16-accumulate rate
  for (const char* id : {"apple-m3-max", "apple-m4", "qualcomm-snapdragon-8-elite", "cerebras-wse-3", "amd-ryzen-ai-max-395-npu"})
    CHECK_FALSE(peak(id)["memory_only"].get<bool>());
  // The NPU no longer times bf16 at its int8 peak: block FP16 is its 16-bit rate.
  CHECK(peak("amd-ryzen-ai-max-395-npu")["dtype"] == "bf16");
  // A design point from a device with derived peaks is a design, not a derivation: it reads back as a device.
  const json pt = json::parse(call("dse_device", R"({"hardware": "nvidia-dgx-spark",
      "params": {"compute_TFLOPS": 200, "bandwidth_GBps": 500, "capacity_GB": 128}})"));
  REQUIRE(pt["ok"].get<bool>());
  CHECK_FALSE(pt["value"].contains("peak_estimated"));
  // Its compute units stay (its GEMMs run in waves over them, as the sweep timed them); its clocks go.
  CHECK(pt["value"]["architecture"]["compute_units"].get<int>() > 0);
  CHECK_FALSE(pt["value"]["architecture"].contains("clock_GHz"));
  const double f = 200 / 61.93;  // the base's bf16 peak scaled to the design's compute
  CHECK(pt["value"]["peak_dense_TFLOPS_fp16_accumulate"]["fp16"].get<double>() == Approx(123.9 * f));
  CHECK(json::parse(call("device", json({{"hardware", pt["value"]}}).dump()))["ok"].get<bool>());
}

TEST_CASE("a custom device without a peak is a lower bound, with a suggested estimate", "[derive][errors]") {
  const auto warning = [](json hw) {
    hw["memory_tiers"][0]["capacity_GB"] = 64;  // room for the model: the one warning is the peak's
    const json r = json::parse(call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", hw}}).dump()));
    REQUIRE(r["ok"].get<bool>());
    CHECK(r["value"]["peak"]["memory_only"].get<bool>());
    REQUIRE(r["value"]["warnings"].size() == 1);
    CHECK(r["value"]["warnings"][0]["code"] == "hardware.no_compute_peak");
    return r["value"]["warnings"][0]["message"].get<std::string>();
  };
  json with_arch = hw_doc(R"(, "architecture": {"generation": "apple-gpu-m4", "compute_units": 10, "clock_GHz": 1.578})");
  with_arch["peak_dense_TFLOPS"] = json::object();
  CHECK(warning(with_arch) ==
        "X has no compute peak; times count memory traffic and dispatch only (a lower bound, not a forecast). Its architecture suggests "
        "4.04 TFLOPS fp16 (10 GPU cores x 256 FLOP/clock x 1.578 GHz = 4.04 TFLOPS); add it to peak_dense_TFLOPS, with peak_estimated saying so.");
  json plain = hw_doc("");
  plain["peak_dense_TFLOPS"] = json::object();
  plain["class"] = "apple-soc";
  const std::string m = warning(plain);
  CHECK(m.rfind("X has no compute peak; times count memory traffic and dispatch only (a lower bound, not a forecast). Add "
                "peak_dense_TFLOPS (bf16), or architecture {generation, compute_units, clock_GHz} to derive one; as a first guess, the "
                "apple-soc presets have a median of ", 0) == 0);
  CHECK(m.find("at this device's 100 GB/s.") != std::string::npos);
  // derive_peaks: the same arithmetic for a preset, every type of its generation.
  const json d = json::parse(call("derive_peaks", R"({"hardware": "nvidia-rtx-4090"})"))["value"];
  CHECK(d["method"] == "architecture");
  CHECK(d["peak_dense_TFLOPS"]["fp16"] == 165.2);
  CHECK(d["peak_dense_TFLOPS_fp16_accumulate"]["fp16"] == 330.3);
  const json none = json::parse(call("derive_peaks", json({{"hardware", hw_doc("")}}).dump()));
  CHECK(none["error"]["message"] == "/hardware/architecture is missing; expected {generation, compute_units, clock_GHz} to derive peaks from");
}

TEST_CASE("derived peaks past a device document's range are refused, and not suggested", "[derive][regression]") {
  // 1e7 Gaudi 2 units at 20 GHz: 2.6e10 TFLOPS bf16, which a device document (1e-6 to 1e7) would refuse.
  json doc = hw_doc("");
  doc["architecture"] = {{"generation", "intel-gaudi2"}, {"compute_units", 10000000}, {"clock_GHz", 20}};
  const json env = json::parse(call("derive_peaks", json({{"hardware", doc}}).dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["code"] == "request.out_of_range");
  CHECK(env["error"]["path"] == "/hardware/architecture");
  CHECK(env["error"]["message"] ==
        "/hardware/architecture gives 26210000000 TFLOPS bf16, past the largest peak a device document takes (10000000 TFLOPS); "
        "expected fewer compute_units or a lower clock_GHz");
  // The missing-peak warning says so instead of suggesting it.
  doc["peak_dense_TFLOPS"] = json::object();
  doc.erase("peak_estimated");
  const json a = api_value("analyze", {{"model", "llama-3.2-1b"}, {"hardware", doc}});
  bool said = false;
  for (const auto& w : a["warnings"])
    if (w["code"] == "hardware.no_compute_peak")
      said = w["message"].get<std::string>().find("Its architecture gives 26210000000 TFLOPS bf16, past the largest peak a device takes "
                                                  "(10000000 TFLOPS): check architecture/compute_units and clock_GHz.") != std::string::npos;
  CHECK(said);
}
