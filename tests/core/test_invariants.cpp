// Invariants over the grid of every model preset x every hardware preset x data types, and numbers at the
// extremes (10M-token contexts, batch 4096, a 2T-parameter model): nothing slower with more hardware, nothing
// smaller with more bits or tokens, nothing NaN or infinite.
#include <catch2/catch.hpp>

#include <cmath>

#include "api/api.hpp"
#include "helpers.hpp"

using namespace test;

namespace {
Workload wl(i64 batch, i64 prompt, i64 gen, const char* w, const char* kv) {
  Workload x;
  x.requests = {Request{0, prompt, batch}};
  x.gen_tokens = gen;
  // fp8 runs as W8A8 (fp8 activations), so nothing is dequantized; other formats compute in bf16.
  x.settings.precision.weights = *find_dtype(w);
  x.settings.precision.activations = *find_dtype(w == std::string("fp8") ? "fp8" : "bf16");
  x.settings.precision.kv = *find_dtype(kv);
  x.settings.convention = convention_by_name("infercast");
  return x;
}

bool all_finite(const Analysis& a) {
  const double v[] = {a.weights_bytes, a.kv_cache_bytes, a.kv_bytes_per_token, a.activation_peak_bytes, a.ttft_s,
                      a.tpot_first_s, a.tpot_last_s, a.tpot_mean_s, a.decode_time_s, a.e2e_s, a.tokens_per_s,
                      a.batch_tokens_per_s, a.max_batch, a.max_context, a.prefill.totals.flops, a.decode.totals.flops,
                      a.prefill.totals.bytes(), a.decode.totals.bytes()};
  for (double x : v)
    if (!std::isfinite(x) || x < 0) return false;
  for (const auto* p : {&a.prefill, &a.decode})
    for (const auto& t : p->times)
      if (!std::isfinite(t.time_s) || t.time_s < 0) return false;
  for (const auto& t : a.timeline)
    if (!std::isfinite(t.tpot_s)) return false;
  return true;
}
}  // namespace

TEST_CASE("grid: every model on every device, three data types: finite, monotone in bits, hardware and tokens", "[invariants][grid]") {
  const char* formats[] = {"bf16", "fp8", "q4_0"};  // 16, 8 and 4.5 bits per weight
  int checked = 0;
  for (const auto& preset : model_presets()) {
    const ModelSpec m = parse_model_config(preset.config, "/config");
    for (const auto& hw : hardware_presets()) {
      double prev_weight_bytes = 1e300, prev_decode_bytes = 1e300, prev_tpot = 1e300;
      for (const char* f : formats) {
        const Analysis a = analyze(m, wl(2, 300, 40, f, f == std::string("q4_0") ? "fp8" : f), &hw);
        INFO(preset.id << " on " << hw.id << " with " << f);
        REQUIRE(all_finite(a));
        // Fewer bits: fewer bytes stored and read, and (bf16 to fp8 W8A8: same dispatches, nothing to dequantize) never a
        // slower decode. q4_0 is dequantized (2 operations per weight per call), which can make a compute-poor device
        // slower than fp8: the overhead is real, so only bytes are checked for it.
        CHECK(a.weights_bytes < prev_weight_bytes);
        CHECK(a.decode.totals.bytes() < prev_decode_bytes);
        if (f != std::string("q4_0")) CHECK(a.tpot_mean_s <= prev_tpot * (1 + 1e-12));
        prev_weight_bytes = a.weights_bytes;
        prev_decode_bytes = a.decode.totals.bytes();
        prev_tpot = a.tpot_mean_s;
        ++checked;
      }
    }
  }
  CHECK(checked == static_cast<int>(model_presets().size() * hardware_presets().size() * 3));
}

TEST_CASE("grid: twice the bandwidth or twice the compute is never slower, on every device", "[invariants][grid]") {
  for (const char* id : {"llama-3.1-8b", "mixtral-8x7b", "gemma-2-9b", "deepseek-v2-lite", "gpt-oss-20b", "llama-4-scout"}) {
    const ModelSpec m = preset_model(id);
    for (const auto& hw : hardware_presets()) {
      const Workload w = wl(3, 700, 50, "bf16", "bf16");
      const Analysis base = analyze(m, w, &hw);
      HardwareSpec bw = hw, fl = hw;
      for (auto& t : bw.tiers) t.bandwidth_bytes_per_s *= 2;
      for (auto& p : fl.peak_flops) p *= 2;
      INFO(id << " on " << hw.id);
      for (const Analysis& b : {analyze(m, w, &bw), analyze(m, w, &fl)}) {
        CHECK(b.ttft_s <= base.ttft_s * (1 + 1e-12));
        CHECK(b.decode_time_s <= base.decode_time_s * (1 + 1e-12));
      }
    }
  }
}

TEST_CASE("grid: more tokens never fewer KV bytes, more bits never fewer KV bytes", "[invariants][grid]") {
  for (const auto& preset : model_presets()) {
    const ModelSpec m = parse_model_config(preset.config, "/config");
    INFO(preset.id);
    double prev = -1;
    for (i64 ctx : {1LL, 100LL, 4096LL, 4097LL, 65536LL, 1000000LL, 10000000LL}) {
      const Analysis a = analyze(m, wl(1, ctx, 1, "bf16", "bf16"), nullptr);
      CHECK(a.kv_cache_bytes >= prev);
      prev = a.kv_cache_bytes;
    }
    const double kv8 = analyze(m, wl(1, 5000, 1, "bf16", "fp8"), nullptr).kv_cache_bytes;
    const double kv16 = analyze(m, wl(1, 5000, 1, "bf16", "bf16"), nullptr).kv_cache_bytes;
    const double kv32 = analyze(m, wl(1, 5000, 1, "bf16", "fp32"), nullptr).kv_cache_bytes;
    // A model without attention keeps no keys or values: its recurrent state has its own type (the config's
    // mamba_ssm_cache_dtype, else the activations'), which the KV type leaves alone, as vLLM's --kv-cache-dtype does.
    const bool attends = std::any_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& l) { return l.has_attention; });
    if (attends) {
      CHECK(kv8 < kv16);
      CHECK(kv16 < kv32);
    } else {
      CHECK(kv8 == kv16);
      CHECK(kv16 == kv32);
    }
  }
}

TEST_CASE("extremes: 10M-token contexts, batch 4096, a 2T-parameter model", "[invariants][extremes]") {
  const auto& h200 = *find_hardware_preset("nvidia-h200-sxm");
  for (const char* id : {"llama-3.1-8b", "llama-4-scout", "deepseek-v3", "gemma-3-12b-text", "gpt-oss-120b"}) {
    const ModelSpec m = preset_model(id);
    INFO(id);
    const Analysis ctx = analyze(m, wl(1, 10000000, 64, "bf16", "bf16"), &h200);
    CHECK(all_finite(ctx));
    CHECK_FALSE(ctx.fits);
    const Analysis batch = analyze(m, wl(4096, 2048, 256, "bf16", "bf16"), &h200);
    CHECK(all_finite(batch));
  }
  // A DeepSeek-V3-shaped model with 800 routed experts: 2T parameters, counted exactly in 64-bit integers.
  json cfg = find_model_preset("deepseek-v3")->config;
  cfg["n_routed_experts"] = 800;
  const ModelSpec big = parse_model_config(cfg, "/config");
  const ParamCounts c = count_params(big);
  const ParamCounts v3 = count_params(preset_model("deepseek-v3"));
  // 544 more experts per MoE layer (58 of them), each 3 x 7168 x 2048, plus a router row and a score-correction
  // bias each; the router runs for every token, so it is active, the experts are not (still 8 per token).
  CHECK(c.total == v3.total + 58LL * 544 * (3LL * 7168 * 2048 + 7168 + 1));
  CHECK(c.total > 2000000000000LL);
  CHECK(c.active == v3.active + 58LL * 544 * (7168 + 1));
  const Analysis a = analyze(big, wl(4096, 8192, 1024, "fp8", "fp8"), &h200);
  CHECK(all_finite(a));
  // Through the API, the same extremes produce finite JSON and no NaN.
  const json r = json::parse(call("analyze", R"({"model": "llama-4-scout", "hardware": "nvidia-h200-sxm",
      "workload": {"batch": 4096, "prompt": 10000000, "gen": 1000}})"));
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["value"]["decode"]["tpot_s"].get<double>() > 0);
}

// Presets are read one at a time, found by their file's name (io/presets.cpp): every file is named after its id,
// and a lookup gives the very entry the listing holds, so an analysis that read two presets and a catalog that read
// them all see the same objects.
TEST_CASE("presets: each file named after its id, found by it as the listing holds it", "[invariants][presets]") {
  int files = 0;
  for (const auto& f : embedded_files()) {
    const std::string kind = f.kind, name = f.name;
    if (kind != "models" && kind != "hardware" && kind != "systems" && kind != "runtimes") continue;
    ++files;
    INFO(kind << "/" << name);
    CHECK(json::parse(f.text).at("id").get<std::string>() + ".json" == name);
  }
  CHECK(files == static_cast<int>(model_presets().size() + hardware_presets().size() + system_presets().size() +
                                  runtime_presets().size()));
  for (const auto& p : model_presets()) {
    CHECK(find_model_preset(p.id) == &p);
    CHECK(&model_preset_spec(*find_model_preset(p.id)) == &model_preset_spec(p));
  }
  for (const auto& h : hardware_presets()) {
    CHECK(find_hardware_preset(h.id) == &h);
    REQUIRE(hardware_preset_text(&h) != nullptr);
    CHECK(json::parse(*hardware_preset_text(&h)).at("id") == h.id);
  }
  for (const auto& s : system_presets()) CHECK(find_system_preset(s.id) == &s);
  for (const auto& r : runtime_presets()) CHECK(find_runtime_preset(r.id) == &r);
  const HardwareSpec copy = hardware_presets().front();
  CHECK(hardware_preset_text(&copy) == nullptr);
  CHECK(find_model_preset("llama-3.1-8b.json") == nullptr);
  CHECK(find_model_preset("no-such-model") == nullptr);
  CHECK(find_hardware_preset("") == nullptr);
}
