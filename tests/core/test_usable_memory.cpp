// What a device can hold: the driver and OS reserve per device class (CUDA context, macOS's GPU wired limit), the
// request's own reserve, and layers offloaded to host memory as llama.cpp's -ngl runs them, checked by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/offload.hpp"
#include "api/api.hpp"
#include "helpers.hpp"

using namespace test;
using nlohmann::json;

namespace {
json analyze_json(const json& req) { return api_value("analyze", req); }
std::string error_of(const json& req) {
  const json env = json::parse(infercast::call("analyze", req.dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  return env["error"]["path"].get<std::string>() + " | " + env["error"]["message"].get<std::string>();
}
}  // namespace

TEST_CASE("usable memory: the class's driver and OS reserve comes off the first tier", "[memory]") {
  // Datacenter GPUs keep 0.5 GB (a CUDA context), consumer GPUs 1 GB (context and desktop). An "80 GB" H100 holds
  // 80 GiB (nvidia-smi: 81,559 MiB of it visible). Under llama.cpp, which holds no pool of its own, the rest is usable.
  const double GiB = 1073741824.0;
  json v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "llama.cpp-cuda"}});
  CHECK(v["memory"]["physical_capacity_bytes"].get<double>() == 80 * GiB);
  // CUDA reports 79.22 GiB of it (vLLM's memory profile, vllm#10511): the 0.975% it never shows is kept too.
  CHECK(v["memory"]["reserve_bytes"].get<double>() == Approx(0.5e9 + 0.00975 * 80 * GiB));
  CHECK(v["memory"]["capacity_bytes"].get<double>() == Approx(80 * GiB - 0.5e9 - 0.00975 * 80 * GiB));
  CHECK(v["memory"]["reserve_basis"].get<std::string>().find("CUDA context") != std::string::npos);
  CHECK(v["hardware"]["memory_reserve_GB"].get<double>() == 0.5);
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == 24 * GiB - 1e9);
  // macOS lets the GPU wire 2/3 of the memory up to 36 GB, 3/4 above (Metal: 10.67 GiB of 16 GiB).
  CHECK(v["hardware"]["memory_tiers"][0]["capacity_GiB"].get<double>() == 24);
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "apple-m1"}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == Approx(16 * GiB * 2 / 3).epsilon(1e-9));
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "apple-m2-ultra"}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == Approx(192 * GiB * 3 / 4));
  // Classes with no published reserve keep the whole tier, and say so.
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "google-tpu-v5e"}});
  CHECK(v["memory"]["reserve_bytes"].get<double>() == 0);
  CHECK(v["memory"]["reserve_basis"] == "none: no published driver or OS reserve for the tpu class");
}

// Memory review (stop 37): GDDR6 datacenter cards ship with ECC on, which keeps 1/16 of the memory for check bits
// (nvidia-smi: 23,028 MiB of an A10G's 24,576, 23,034 of an L4's, 46,068 of an L40S's 49,152). The tool gave vLLM
// 0.9 of the whole 24 GiB: a 6.48 GiB pool for Llama-3.1-8B on an A10G, where an A10 logs 4.60 GiB.
TEST_CASE("what the driver never shows (a GDDR6 datacenter card's inline ECC) is kept from fits and from vLLM's total", "[memory][regression]") {
  const double GiB = 1073741824.0;
  json v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-a10g"}, {"runtime", "llama.cpp-cuda"}});
  CHECK(v["hardware"]["memory_hidden_fraction"].get<double>() == 0.0625);
  CHECK(v["hardware"]["memory_reserve_GB"].get<double>() == 0.5);  // the class's CUDA context, written apart
  CHECK(v["memory"]["reserve_bytes"].get<double>() == Approx(0.5e9 + 1.5 * GiB));
  CHECK(v["memory"]["capacity_bytes"].get<double>() == Approx(22.5 * GiB - 0.5e9));
  CHECK(v["memory"]["reserve_basis"].get<std::string>().find("plus 6.25% of the memory the driver never shows") != std::string::npos);
  // The device written back and read again keeps the same reserve (no double count).
  json dev = api_value("device", {{"hardware", "nvidia-a10g"}});
  json again = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", dev}, {"runtime", "llama.cpp-cuda"}});
  CHECK(again["memory"]["capacity_bytes"].get<double>() == Approx(v["memory"]["capacity_bytes"].get<double>()).epsilon(1e-12));
  // A request's reserve replaces the driver's share; ECC's stays.
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-l4"}, {"memory_reserve_GB", 2}, {"runtime", "llama.cpp-cuda"}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == Approx(22.5 * GiB - 2e9));
  // Under vLLM (the L4's default) the budget is 0.9 of the 22.5 GiB the driver reports, below what the reserve leaves.
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-l4"}, {"memory_reserve_GB", 2}});
  CHECK(v["memory"]["runtime_usable_bytes"].get<double>() == Approx(0.9 * 22.5 * GiB));
  // vLLM takes 0.9 of the 22.5 GiB the driver reports.
  const json s = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-a10g"}, {"runtime", "vllm"},
                                       {"serving", {{"concurrency", 8}}}});
  CHECK(s["memory"]["usable_bytes"].get<double>() == Approx(0.9 * 22.5 * GiB));
  // HBM's ECC is in side-band bits: an H100 hides only what its driver keeps (79.22 of 80 GiB reported), an H200
  // states nothing.
  CHECK(analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}})["hardware"]["memory_hidden_fraction"].get<double>() == 0.00975);
  CHECK_FALSE(analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h200-sxm"}})["hardware"].contains("memory_hidden_fraction"));
}

TEST_CASE("usable memory decides what fits and the largest batch", "[memory]") {
  // Llama-3.1-8B in bf16 (16.06 GB of weights, 16.2 GB with its cache and activations) on an RTX 4090: fits in 24.8
  // GB usable (24 GiB less 1 GB); with a 10 GB reserve (a desktop session and a browser) it no longer does.
  const double GiB = 1073741824.0;
  json v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}});
  CHECK(v["memory"]["fits"].get<bool>());
  // Its default runtime, llama.cpp, holds its compute buffer as the activations (limits: the next test case).
  CHECK(v["memory"]["compute_buffer_bytes"].get<double>() == v["memory"]["activation_peak_bytes"].get<double>());
  // Under a runtime that allocates each step's activations, they grow with the batch too.
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", "pytorch-eager"}});
  const double per_request = (v["memory"]["kv_cache_bytes"].get<double>() + v["memory"]["activation_peak_bytes"].get<double>());
  CHECK(v["memory"]["max_batch"].get<double>() == std::floor((24 * GiB - 1e9 - v["memory"]["weights_bytes"].get<double>()) / per_request));
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"memory_reserve_GB", 10}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == 24 * GiB - 10e9);
  CHECK_FALSE(v["memory"]["fits"].get<bool>());
  CHECK(v["memory"]["reserve_basis"] == "set in the request");
  // A device document carries its own; the request's wins.
  json dev = api_value("device", {{"hardware", "nvidia-rtx-4090"}});
  dev["memory_reserve_GB"] = 2;
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", dev}});
  CHECK(v["memory"]["capacity_bytes"].get<double>() == 24 * GiB - 2e9);
  CHECK(error_of({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"memory_reserve_GB", 30}}) ==
        "/memory_reserve_GB | /memory_reserve_GB holds 30 (GB); expected at most NVIDIA GeForce RTX 4090's first memory tier, 24 GiB (25.769803776 GB)");
  dev["memory_reserve_GB"] = 26;
  CHECK(error_of({{"model", "llama-3.1-8b"}, {"hardware", dev}}) ==
        "/hardware/memory_reserve_GB | /hardware/memory_reserve_GB holds 26; expected at most the first memory tier's 24 GiB (25.769803776 GB)");
  // A plan's devices keep the reserve too: DeepSeek-V3 in fp8 on 8x H200 holds 79.4 GiB per device of 141 GiB less
  // 0.5 GB; under vLLM (the default) of 0.9 x 141 GiB.
  v = analyze_json({{"model", "deepseek-v3"}, {"system", "hgx-h200"}, {"parallel", {{"tp", 8}, {"ep", 8}}}, {"runtime", "llama.cpp-cuda"}});
  CHECK(v["parallel"]["device_capacity_bytes"].get<double>() == 141 * GiB - 0.5e9);
  CHECK(v["parallel"]["fits"].get<bool>());
  v = analyze_json({{"model", "deepseek-v3"}, {"system", "hgx-h200"}, {"parallel", {{"tp", 8}, {"ep", 8}}}});
  // (less what vLLM's memory profile keeps for activations beyond this workload's own)
  CHECK(v["parallel"]["device_capacity_bytes"].get<double>() < 0.9 * 141 * GiB);
  CHECK(v["parallel"]["device_capacity_bytes"].get<double>() > 0.9 * 141 * GiB - 2 * GiB);
  CHECK(v["parallel"]["fits"].get<bool>());
}

// Audit G, finding 5: llama.cpp keeps a sliding layer's cache apart (llama-kv-cache-iswa.cpp), sized
// GGML_PAD(n_swa x n_seq + n_ubatch, n_pad) cells, the cells its compute buffer's masks are sized for: Gemma-3-27B
// (52 sliding layers of window 1,024, 10 full; 16 KV heads x 128 x 2 x 2 B = 8,192 B per layer and token) at a
// 32,768-token prompt holds 1,024 + 512 = 1,536 cells per sliding layer, not 1,024.
TEST_CASE("llama.cpp's sliding layers hold window x sequences + ubatch cells", "[memory][runtime]") {
  const auto mem = [](const char* runtime, int batch, int prompt) {
    // -fa 0: cells pad to 32 (256 with flash attention, llama.cpp's default since 2025-08).
    return analyze_json({{"model", "gemma-3-27b-it"}, {"hardware", "nvidia-h200-sxm"}, {"runtime", runtime}, {"attention", "unfused"},
                         {"workload", {{"batch", batch}, {"prompt", prompt}, {"gen", 2}}}})["memory"];
  };
  CHECK(mem("llama.cpp-cuda", 1, 32768)["kv_cache_bytes"].get<double>() == 10.0 * 8192 * 32769 + 52.0 * 8192 * 1536);
  // vLLM's paged cache holds the window's tokens per request.
  CHECK(mem("vllm", 1, 32768)["kv_cache_bytes"].get<double>() == 10.0 * 8192 * 32769 + 52.0 * 8192 * 1024);
  // Four sequences share one window cache: 4 x 1,024 + 512 cells; a short prompt no more than the whole cache
  // (1,001 x 4 cells padded to 32: 4,032).
  CHECK(mem("llama.cpp-cuda", 4, 4096)["kv_cache_bytes"].get<double>() == 4 * 10.0 * 8192 * 4097 + 52.0 * 8192 * 4608);
  CHECK(mem("llama.cpp-cuda", 4, 1000)["kv_cache_bytes"].get<double>() == 4 * 10.0 * 8192 * 1001 + 52.0 * 8192 * 4032);
  // The largest batch and context are sized with the same cache: the batch max_batch fits, one more does not.
  const json m = mem("llama.cpp-cuda", 1, 32768);
  const int mb = static_cast<int>(m["max_batch"].get<double>());
  REQUIRE(mb > 1);
  CHECK(mem("llama.cpp-cuda", mb, 32768)["fits"].get<bool>());
  CHECK_FALSE(mem("llama.cpp-cuda", mb + 1, 32768)["fits"].get<bool>());
}

// Audit G, finding 6: vLLM's budget keeps the larger of its profile's activations and the step's own, so the room
// for the cache depends on the batch; max_batch once took the room at the batch asked about (124 at --batch 1, 126 at
// --batch 64, where 126 fits and 127 does not). Now every batch asked about gives the same answer, the one `fits`
// and the batching curve agree with.
TEST_CASE("max_batch does not depend on the batch asked about", "[memory][regression]") {
  const auto at = [](int batch) {
    return analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "vllm"},
                         {"workload", {{"batch", batch}, {"prompt", 2048}, {"gen", 256}}}})["memory"];
  };
  const double mb = at(1)["max_batch"].get<double>();
  // Audit H: the engine runs no step past its 8,192-token budget, so the batch's 2,048-token prompts hold a budget
  // step's activations at most (they were all 126 prompts at once, 2.7 GiB beside the cache; vLLM's own pool, which
  // the serving forecast sizes, held 196 such requests). By hand: the capacity left beside the weights and a budget
  // step's activations, over 2,303 cached tokens of 131,072 bytes a request.
  const json m = at(196);
  const double by_hand = std::floor((m["capacity_bytes"].get<double>() - m["weights_bytes"].get<double>() -
                                     m["activation_peak_bytes"].get<double>()) / (131072.0 * 2303));
  CHECK(mb == by_hand);
  CHECK(mb == 196);
  CHECK(m["activation_peak_bytes"].get<double>() == at(64)["activation_peak_bytes"].get<double>());  // a budget step's
  for (int b : {2, 64, 124, 126, 127, 196, 197, 300}) {
    INFO("batch " << b);
    CHECK(at(b)["max_batch"].get<double>() == mb);
  }
  CHECK(at(196)["fits"].get<bool>());
  CHECK_FALSE(at(197)["fits"].get<bool>());
  const json c = api_value("batching", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "vllm"},
                                        {"workload", {{"prompt", 2048}, {"gen", 256}}}});
  CHECK(c["kv_fit_batch"].get<double>() == mb);
}

// Review of stop 57: the cap at a budget step held for TensorRT-LLM too, whose preset runs chunked prefill off
// (enable_chunked_prefill False): a 16,384-token prompt runs whole in one step, past its 8,192-token budget, so four
// of them hold the activations of one 16,384-token step (twice a budget step's: activations grow with the tokens),
// not a budget step's. Under vLLM (chunked) the same batch holds a budget step's.
TEST_CASE("prompts that run whole hold the longest prompt's step", "[memory][regression]") {
  const auto act = [](const char* rt, int batch, int prompt) {
    return analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", rt},
                         {"workload", {{"batch", batch}, {"prompt", prompt}, {"gen", 8}}}})["memory"]["activation_peak_bytes"]
        .get<double>();
  };
  const double budget_step = act("tensorrt-llm", 16, 4096);  // 65,536 prompt tokens in 8,192-token steps
  CHECK(budget_step == act("vllm", 16, 4096));
  CHECK(act("tensorrt-llm", 4, 16384) == act("tensorrt-llm", 1, 16384));
  CHECK(act("tensorrt-llm", 4, 16384) == 2 * budget_step);
  CHECK(act("vllm", 4, 16384) == budget_step);
}

// The longest context that fits stops at the window the model was trained for: the page said "528,677 tokens of
// context" for Llama-3.1-8B (a 131,072-token window) on an H100 (page review). What memory alone holds stays in the
// result, and which of the two binds. By hand: bf16 KV of 131,072 bytes per token.
TEST_CASE("the longest context that fits stops at the model's window", "[memory]") {
  json v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}});
  const json& m = v["memory"];
  CHECK(m["max_context"].get<double>() == 131072);
  CHECK(m["max_context_limit"] == "window");
  const double room = m["capacity_bytes"].get<double>() - m["weights_bytes"].get<double>() - m["activation_peak_bytes"].get<double>();
  CHECK(m["max_context_memory"].get<double>() == std::floor(room / 131072));
  // On a 24 GB RTX 4090 with a batch of 8, memory binds first.
  v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"workload", {{"batch", 8}}}});
  CHECK(v["memory"]["max_context_limit"] == "memory");
  CHECK(v["memory"]["max_context"] == v["memory"]["max_context_memory"]);
  CHECK(v["memory"]["max_context"].get<double>() < 131072);
}

TEST_CASE("offload: llama.cpp's -ngl split, the most layers that fit, times that add", "[offload]") {
  // Llama-3.1-70B in Q4_K_M (about 42.5 GB) on an RTX 4090 with a DDR5 desktop host (89.6 GB/s).
  const json base = {{"model", "llama-3.1-70b"}, {"hardware", "nvidia-rtx-4090"}, {"precision", {{"weights", "q4_k_m"}}},
                     {"workload", {{"prompt", 512}, {"gen", 128}}}};
  json req = base;
  req["offload"] = json::object();
  const json v = analyze_json(req);
  const json& o = v["offload"];
  const int ngl = o["gpu_layers"].get<int>();
  CHECK(o["chosen"].get<bool>());
  CHECK(o["layers"] == 80);
  CHECK(ngl > 30);
  CHECK(ngl < 60);
  CHECK(o["device"]["fits"].get<bool>());
  CHECK(o["device"]["first_layer"] == 80 - ngl);
  CHECK(o["host_part"]["layers"] == 80 - ngl);
  CHECK(o["host_part"]["embedding"].get<bool>());
  CHECK(o["host_part"]["output"].get<bool>());
  // One more layer would not fit.
  req["offload"]["gpu_layers"] = ngl + 1;
  CHECK_FALSE(analyze_json(req)["offload"]["device"]["fits"].get<bool>());
  // TPOT is the device's part plus the host's; the host's is its weights read at 89.6 GB/s times the bandwidth
  // efficiency of llama.cpp's CPU backend (the llama.cpp-cpu runtime's, on DDR) plus its KV cache and barriers.
  CHECK(v["decode"]["tpot_s"].get<double>() == Approx(o["device"]["tpot_s"].get<double>() + o["host_part"]["tpot_s"].get<double>()));
  CHECK(o["host_part"]["runtime"] == "llama.cpp-cpu");
  const double e = o["host_part"]["memory_efficiency"].get<double>();
  CHECK(e > 0.3);
  const double host_weights = o["host_part"]["weights_bytes"].get<double>();
  CHECK(o["host_part"]["tpot_s"].get<double>() == Approx(host_weights / (89.6e9 * e)).epsilon(0.05));
  // The 512-token prompt runs the host layers on the GPU: their weights (not the embedding table) cross PCIe 4.0 x16
  // once per 512-token micro-batch.
  CHECK(o["host_part"]["prefill_streamed"].get<bool>());
  const double table = 128256.0 * 8192 * (144.0 / 256 * 8);  // the Q4_K token embedding, bits
  CHECK(o["host_part"]["stream_s"].get<double>() == Approx((host_weights - table / 8) / 31.5e9));
  CHECK(v["ttft_s"].get<double>() == Approx(o["device"]["prefill_s"].get<double>() + o["host_part"]["prefill_s"].get<double>()));
  // Operators of both parts, the host's marked.
  int host_ops = 0;
  for (const auto& op : v["ops"]) host_ops += op["device"] == "host";
  CHECK(host_ops > 0);
  CHECK_FALSE(v.contains("cost"));
  // Audit H: the split ran under the device's runtime while its result named the reference stack ("the compute
  // buffer reference reserves" in the table), and the host's warnings came twice (its part is timed twice).
  CHECK(v["execution"]["runtime"] == "llama.cpp-cuda");
  for (std::size_t i = 0; i < v["warnings"].size(); ++i)
    for (std::size_t j = i + 1; j < v["warnings"].size(); ++j) CHECK(v["warnings"][i] != v["warnings"][j]);
}

TEST_CASE("offload at the ends: everything on the device, or nothing", "[offload]") {
  // Llama-3.2-1B fits whole: -ngl 17 (16 layers and the output) matches the plain forecast but for the token
  // embedding, which llama.cpp keeps in host memory.
  const json base = {{"model", "llama-3.2-1b"}, {"hardware", "nvidia-rtx-4090"}, {"workload", {{"prompt", 16}, {"gen", 64}}}};
  const json plain = analyze_json(base);
  json req = base;
  req["offload"] = json::object();
  const json all = analyze_json(req);
  CHECK(all["offload"]["gpu_layers"] == 17);
  CHECK(all["offload"]["device"]["output"].get<bool>());
  CHECK(all["offload"]["host_part"]["layers"] == 0);
  const double table = 128256.0 * 2048 * 2;
  CHECK(all["memory"]["weights_bytes"].get<double>() == Approx(plain["memory"]["weights_bytes"].get<double>()));  // tied: the head's copy stays
  CHECK(all["offload"]["host_part"]["weights_bytes"].get<double>() == table);
  CHECK(all["decode"]["tpot_s"].get<double>() == Approx(plain["decode"]["tpot_s"].get<double>()).epsilon(0.05));
  // -ngl 0: the device holds nothing; a 16-token prompt is under llama.cpp's 32-token op offload, so it runs on the host.
  req["offload"]["gpu_layers"] = 0;
  const json none = analyze_json(req);
  CHECK(none["offload"]["device"]["layers"] == 0);
  CHECK(none["offload"]["device"]["required_bytes"].get<double>() == Approx(none["memory"]["activation_peak_bytes"].get<double>()));
  CHECK_FALSE(none["offload"]["host_part"]["prefill_streamed"].get<bool>());
  // The device holds nothing: the step is the host's, plus the device runtime's per-step overhead (counted once).
  CHECK(none["decode"]["tpot_s"].get<double>() == Approx(none["offload"]["host_part"]["tpot_s"].get<double>()).epsilon(0.01));
}

TEST_CASE("offload: its host and its errors", "[offload]") {
  json req = {{"model", "llama-3.1-8b"}, {"offload", {{"gpu_layers", 10}}}};
  CHECK(error_of(req) == "/offload | /offload keeps layers in host memory next to a device; give /hardware too");
  req["hardware"] = "nvidia-rtx-4090";
  req["offload"]["host"] = "intel-xeon-8480";
  const json v = analyze_json(req);
  CHECK(v["offload"]["host"]["name"] == "Intel Xeon Platinum 8480+ (Sapphire Rapids)");
  CHECK(v["offload"]["host_part"]["runtime"] == "llama.cpp-cpu");
  req["offload"]["host_memory_efficiency"] = 0.8;  // stated: it wins over the runtime's
  CHECK(analyze_json(req)["offload"]["host_part"]["memory_efficiency"].get<double>() == 0.8);
  req["offload"].erase("host_memory_efficiency");
  req["offload"]["host"] = "no-such-cpu";
  CHECK(error_of(req) == "/offload/host | /offload/host holds \"no-such-cpu\", which is not a hardware preset; expected a CPU such "
                         "as intel-xeon-8480, or give host_bandwidth_GBps");
  req["offload"].erase("host");
  req["system"] = "2x-rtx-4090-pcie";
  req.erase("hardware");
  CHECK(error_of(req) == "/offload | /offload keeps layers in host memory next to one device; it cannot be combined with "
                         "/system, /parallel or /speculative");
}

// Memory review (stop 37, finding 5): `analyze` under vLLM counted the device's 79.5 GiB, so Llama-3.1-70B in FP8 on
// one H100 "fit" 6 requests of 4,096 tokens where vLLM's pool (0.9 of the total) holds 2, as `serving` said. The
// engine's budget is now one formula (runtime/memory_budget.cpp) for both, by hand per basis below.
// Past the device itself: a smaller format, layers in system RAM under llama.cpp only, fewer requests only where the
// weights and activations alone fit, more devices; none under a plan (its fit is the plan's).
TEST_CASE("what would make a workload fit is one list for every front end", "[memory]") {
  const auto remedies = [](const json& req) { return analyze_json(req)["memory"]["remedies"]; };
  CHECK(remedies({{"model", "llama-3.1-70b"}, {"hardware", "nvidia-h100-sxm"}}) == json::array({"smaller_format", "more_devices"}));
  CHECK(remedies({{"model", "llama-3.1-70b"}, {"hardware", "nvidia-rtx-4090"}, {"precision", {{"weights", "q4_k_m"}}}}) ==
        json::array({"smaller_format", "offload_layers", "more_devices"}));
  CHECK(remedies({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"batch", 1000}, {"prompt", 8192}, {"gen", 2}}}}) ==
        json::array({"smaller_format", "fewer_requests", "more_devices"}));
  CHECK(remedies({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}}) == json::array());
  CHECK(remedies({{"model", "llama-3.1-70b"}, {"system", "dgx-h100"}, {"parallel", {{"tp", 1}}}}) == json::array());
}

TEST_CASE("a serving engine's memory fraction bounds what fits under it", "[memory][regression]") {
  const double GiB = 1073741824.0, MiB = 1048576.0;
  // CUDA reports 79.22 GiB of an H100's 80 GiB (hidden 0.975%); the driver's reserve D holds that and the context.
  const double C = 80 * GiB, H = 0.00975 * C, R = C - H, D = 0.5e9 + H;
  const json base = {{"model", "llama-3.1-70b"}, {"hardware", "nvidia-h100-sxm"}, {"precision", {{"weights", "fp8"}}},
                     {"workload", {{"prompt", 4096}, {"gen", 1}}}};
  // vLLM: gpu_memory_utilization 0.9 of the total the driver reports, R.
  json req = base;
  req["runtime"] = "vllm";
  json v = analyze_json(req);
  const json& m = v["memory"];
  const double W = m["weights_bytes"].get<double>();
  CHECK(m["runtime_usable_bytes"].get<double>() == Approx(0.9 * R));
  CHECK(m["runtime_reserve_bytes"].get<double>() == 0);
  // What this workload may use: the budget less what vLLM's profile (a forward over 8,192 tokens, its sampler over
  // 1,024 sequences) keeps beyond this workload's own activations.
  const double A = m["activation_peak_bytes"].get<double>(), P = m["runtime_activation_bytes"].get<double>();
  CHECK(P > A);
  CHECK(m["capacity_bytes"].get<double>() == Approx(0.9 * R - (P - A)));
  // The largest batch b with W + b x KV + max(b x A, P) within the budget (each batch against its own budget).
  const double KV = m["kv_cache_bytes"].get<double>();
  CHECK(m["max_batch"].get<double>() == std::floor((0.9 * R - P - W) / KV));
  CHECK(m["max_batch"].get<double>() == 1);
  // The same budget as the serving setup's, and the same count of such requests in its pool.
  const json s = api_value("serving", {{"model", "llama-3.1-70b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "vllm"},
                                       {"precision", {{"weights", "fp8"}}}, {"serving", {{"concurrency", 4}, {"isl", 4096}, {"osl", 1}}}});
  CHECK(s["memory"]["usable_bytes"].get<double>() == Approx(m["runtime_usable_bytes"].get<double>()));
  CHECK(s["memory"]["max_concurrency"].get<double>() == 1);
  // Four such requests need 74.0 GiB (their 16,384 prompt tokens run as two of the engine's 8,192-token steps, whose
  // activations the profile already holds; 75.3 GiB when all four were one step): the device has it (78.8 GiB),
  // vLLM's budget (71.3 GiB) does not.
  req["workload"]["batch"] = 4;
  v = analyze_json(req);
  CHECK_FALSE(v["memory"]["fits_first_tier"].get<bool>());
  REQUIRE(v["warnings"].size() >= 1);
  const json* w = nullptr;
  for (const auto& x : v["warnings"]) if (x["code"] == "memory.runtime_budget") w = &x;
  REQUIRE(w != nullptr);
  CHECK((*w)["path"] == "/memory_fraction");
  CHECK((*w)["message"] ==
        "vLLM (V1 engine) holds the weights, activations and KV cache within 71.3 GiB of NVIDIA H100 SXM5 80GB's 80.0 GiB "
        "(its memory fraction); this workload needs 74.0 GiB, which the device has: raise the fraction (/memory_fraction, "
        "vLLM (V1 engine)'s --gpu-memory-utilization) or run fewer or shorter requests");
  // The same advice as a list every front end words its own way (analysis/remedies.hpp).
  CHECK(v["memory"]["remedies"] == json::array({"raise_memory_fraction", "fewer_requests"}));
  // Review of stop 57: where the weights alone pass the budget, fewer requests cannot help, and the hint says so.
  json lean = req;
  lean["memory_fraction"] = 0.85;
  lean["workload"]["batch"] = 1;
  const json lv = analyze_json(lean);
  bool said = false;
  for (const auto& x : lv["warnings"])
    if (x["code"] == "memory.runtime_budget") {
      said = true;
      CHECK(x["message"].get<std::string>().find("--gpu-memory-utilization) or store the weights in fewer bits or split them over more devices") !=
            std::string::npos);
    }
  CHECK(said);
  CHECK(lv["memory"]["remedies"] == json::array({"raise_memory_fraction", "smaller_format", "more_devices"}));
  // --gpu-memory-utilization 0.97 holds them.
  req["memory_fraction"] = 0.97;
  v = analyze_json(req);
  CHECK(v["memory"]["remedies"] == json::array());
  CHECK(v["memory"]["runtime_usable_bytes"].get<double>() == Approx(0.97 * R));
  CHECK(v["memory"]["fits_first_tier"].get<bool>());
  for (const auto& x : v["warnings"]) CHECK(x["code"] != "memory.runtime_budget");
  // The longest context analyze lets one request have is the pool serving sizes (vLLM: 7,599 tokens; the review
  // found analyze allowing 7,909 while serving refused a 7,728-token request).
  req = base;
  req["runtime"] = "vllm";
  const double ctx = analyze_json(req)["memory"]["max_context"].get<double>();
  const json pool = api_value("serving", {{"model", "llama-3.1-70b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "vllm"},
                                          {"precision", {{"weights", "fp8"}}}, {"serving", {{"concurrency", 1}, {"isl", 4096}, {"osl", 1}}}});
  CHECK(ctx == std::floor(pool["memory"]["kv_tokens"].get<double>()));
  // TensorRT-LLM: free_gpu_memory_fraction 0.9 of what the weights and activations leave.
  req = base;
  req["runtime"] = "tensorrt-llm";
  v = analyze_json(req);
  const double At = v["memory"]["runtime_activation_bytes"].get<double>();
  CHECK(v["memory"]["runtime_usable_bytes"].get<double>() == Approx(W + At + 0.9 * (C - D - W - At)));
  // SGLang: the total less its reserve, 512 + 1.5 x 8,192 (its chunk on an 80 GB device) + 2 x 256 graph batches +
  // 128 per device MB = 13,440 MB (above the 10,240 MB floor); --mem-fraction-static 0.85 makes it 0.15 of the total.
  req["runtime"] = "sglang";
  v = analyze_json(req);
  CHECK(v["memory"]["runtime_reserve_bytes"].get<double>() == Approx(13440 * MiB));
  CHECK(v["memory"]["runtime_usable_bytes"].get<double>() == Approx(C - D - 13440 * MiB));
  req["memory_fraction"] = 0.85;
  v = analyze_json(req);
  CHECK(v["memory"]["runtime_reserve_bytes"].get<double>() == Approx(0.15 * C));
  CHECK(v["memory"]["runtime_usable_bytes"].get<double>() == Approx(C - D - 0.15 * C));
  // llama.cpp allocates the cache for the context asked for: no budget, the device's memory less its reserve.
  req = base;
  req["runtime"] = "llama.cpp-cuda";
  v = analyze_json(req);
  CHECK(v["memory"]["runtime_usable_bytes"].is_null());
  CHECK(v["memory"]["runtime_reserve_bytes"].is_null());
  CHECK(v["memory"]["capacity_bytes"].get<double>() == C - D);
  // A fraction outside (0, 1] is refused by name.
  req["memory_fraction"] = 1.5;
  CHECK(error_of(req) == "/memory_fraction | /memory_fraction holds 1.5; expected a number from 0 to 1");
}

// llama.cpp reserves its compute buffer when the context is made (ggml's graph allocator over the worst micro-batch:
// 512 tokens over the whole cache, F32; runtime/memory_budget.hpp). Published startup logs ("Metal compute buffer
// size", "CUDA0 compute buffer size", flash attention off, -fa 0, the default of those builds: since 2025-08 it is on,
// as in the presets, so the requests state it):
//   Llama-3.1-8B f16, llama-server of 2024-07-25 on an Apple M1 Pro (a "meta-llama-study" README): n_ctx 131,072 ->
//     8,480.00 MiB (KV 16,384 MiB); -c 31072 -> 2,034.69 MiB (KV 3,884 MiB);
//   Llama-3.1-8B Q6_K, llama-cpp-python on an M3, n_ctx 2,048 -> 258.50 MiB (the logits: 512 x 128,256 x 4 bytes);
//   Llama-2-7B Q4_0, ollama 0.7.0's runner on an M2 Pro, n_ctx 8,192 -> 560.00 MiB;
//   Qwen3-30B-A3B Q4_K_M, llama-cli build 5622 on two GeForce GPUs (ikawrakow/ik_llama.cpp#514, a mainline run),
//     n_ctx 16,384 -> 1,080.00 MiB on each.
TEST_CASE("llama.cpp's compute buffer matches its startup logs", "[memory][golden]") {
  const double MiB = 1048576.0;
  struct Log { const char* model; const char* weights; long long ctx; double compute_MiB, tolerance; };
  for (const Log& l : {Log{"llama-3.1-8b", "fp16", 131072, 8480.00, 0.0001}, Log{"llama-3.1-8b", "fp16", 31072, 2034.69, 0.0001},
                       Log{"llama-3.1-8b", "q6_k", 2048, 258.50, 0.0001}, Log{"llama-2-7b", "q4_0", 8192, 560.00, 0.0001},
                       Log{"qwen3-30b-a3b", "q4_k_m", 16384, 1080.00, 0.0001}}) {
    const json v = analyze_json({{"model", l.model}, {"hardware", "apple-m2-max"}, {"runtime", "llama.cpp-metal"}, {"attention", "unfused"},
                                 {"precision", {{"weights", l.weights}}}, {"workload", {{"prompt", l.ctx - 64}, {"gen", 64}}}});
    const json& m = v["memory"];
    INFO(l.model << " n_ctx " << l.ctx);
    CHECK(m["compute_buffer_bytes"].get<double>() / MiB == Approx(l.compute_MiB).epsilon(l.tolerance));
    // The buffer is the activations: in what is required and what fits.
    CHECK(m["activation_peak_bytes"].get<double>() == m["compute_buffer_bytes"].get<double>());
    CHECK(m["required_bytes"].get<double>() ==
          Approx(m["weights_bytes"].get<double>() + m["kv_cache_bytes"].get<double>() + m["compute_buffer_bytes"].get<double>()));
  }
  // Qwen3-14B Q8_0 on ROCm at -ngl 0 (a published log of build 5898, n_ctx 4,096): the device runs the host's output
  // layer for a prompt's micro-batch, its weights copied into the buffer beside the logits: 1,094.99 MiB
  // (788.24 + 296.75 + 10).
  const json off = analyze_json({{"model", "qwen3-14b"}, {"hardware", "amd-rx-7900-xtx"}, {"runtime", "llama.cpp-rocm"}, {"attention", "unfused"},
                                 {"precision", {{"weights", "q8_0"}}}, {"workload", {{"prompt", 4000}, {"gen", 96}}},
                                 {"offload", {{"gpu_layers", 0}}}});
  CHECK(off["offload"]["device"]["required_bytes"].get<double>() / MiB == Approx(1094.99).epsilon(0.0001));
  // The cache of the first log: the context less the one token never cached (16,384 MiB logged).
  const json v = analyze_json({{"model", "llama-3.1-8b"}, {"hardware", "apple-m2-max"}, {"runtime", "llama.cpp-metal"},
                               {"precision", {{"weights", "fp16"}}}, {"workload", {{"prompt", 131008}, {"gen", 64}}}});
  CHECK(v["memory"]["kv_cache_bytes"].get<double>() == 16384 * MiB - v["memory"]["kv_bytes_per_token"].get<double>());
}

TEST_CASE("llama.cpp's compute buffer under micro-batches and flash attention and batches and other engines", "[memory]") {
  const double MiB = 1048576.0;
  const auto buffer = [](const json& extra) {
    json req = {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", "llama.cpp-cuda"}, {"attention", "unfused"}};
    req.update(extra);  // -fa 0 unless the case states "fused" (llama.cpp's default since 2025-08: the runtime's own)
    return analyze_json(req)["memory"];
  };
  // A context shorter than the micro-batch reserves for the context, padded to 32 cells without flash attention:
  // 100 cells -> 128 tokens of logits (128 x (128,256 + 4,096) x 4 bytes).
  CHECK(buffer({{"workload", {{"prompt", 72}, {"gen", 28}}}})["compute_buffer_bytes"].get<double>() == 128.0 * 132352 * 4);
  // With flash attention (a request's "attention": "fused") no score matrix is held, and cells pad to 256: at 32,768
  // cells the logits are the peak, where the unfused attention's scores (512 x 32,768 x 32 heads x 4 bytes = 2 GiB)
  // beside their mask (64 MiB) and four hidden-width tensors (32 MiB) are.
  CHECK(buffer({{"workload", {{"prompt", 32704}, {"gen", 64}}}})["compute_buffer_bytes"].get<double>() == (2048 + 64 + 32) * MiB);
  CHECK(buffer({{"attention", "fused"}, {"workload", {{"prompt", 32704}, {"gen", 64}}}})["compute_buffer_bytes"].get<double>() ==
        512.0 * 132352 * 4);
  CHECK(buffer({{"attention", "fused"}, {"workload", {{"prompt", 72}, {"gen", 28}}}})["compute_buffer_bytes"].get<double>() ==
        256.0 * 132352 * 4);
  // llama-server's slots share one cache: four requests of 2,048 cells reserve as one context of 8,192.
  const json four = buffer({{"workload", {{"batch", 4}, {"prompt", 2000}, {"gen", 48}}}});
  CHECK(four["compute_buffer_bytes"].get<double>() == (512.0 * 8192 * 32 * 4 + (8192.0 + 4 * 4096) * 512 * 4));
  // Review (stop 39): the largest batch and context counted the buffer as fixed, but without flash attention its score
  // matrix spans the whole cache: 15 requests of 4,096 tokens were said to fit an RTX 4090 and needed 26.4 GiB of
  // 23.1. The limits hold exactly where analyze says they fit, with or without flash attention.
  for (const char* attention : {"unfused", "fused"}) {
    INFO(attention);
    const json one = buffer({{"attention", attention}, {"workload", {{"prompt", 4000}, {"gen", 96}}}});
    const double b = one["max_batch"].get<double>(), c = one["max_context"].get<double>();
    REQUIRE(b >= 1);
    CHECK(buffer({{"attention", attention}, {"workload", {{"batch", b}, {"prompt", 4000}, {"gen", 96}}}})["fits"].get<bool>());
    CHECK_FALSE(buffer({{"attention", attention}, {"workload", {{"batch", b + 1}, {"prompt", 4000}, {"gen", 96}}}})["fits"].get<bool>());
    // A context of c tokens caches c - 1 of them (the last generated token is never cached), so c + 2 holds c + 1.
    CHECK(buffer({{"attention", attention}, {"workload", {{"prompt", c - 96}, {"gen", 96}}}})["fits"].get<bool>());
    CHECK_FALSE(buffer({{"attention", attention}, {"workload", {{"prompt", c - 94}, {"gen", 96}}}})["fits"].get<bool>());
  }
  // MLA materializes its scores without flash attention too (DeepSeek-V2-Lite: 16 heads over 32,768 cells, 1 GiB, with
  // the mask, the residual and norm output 2,048 wide and queries and output 16 x 192 wide).
  const json mla = buffer({{"model", "deepseek-v2-lite"}, {"precision", {{"weights", "q4_k_m"}}}, {"workload", {{"prompt", 32704}, {"gen", 64}}}});
  CHECK(mla["compute_buffer_bytes"].get<double>() == 512.0 * 32768 * 16 * 4 + 512.0 * 32768 * 4 + (2 * 2048.0 + 2 * 16 * 192) * 512 * 4);
  // The same request through serving: llama-server's buffer is sized for its cache, the pool's cells.
  const json s = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", "llama.cpp-cuda"},
                                       {"attention", "unfused"}, {"serving", {{"concurrency", 1}, {"isl", 4000}, {"osl", 64}}}});
  const double pool = s["memory"]["kv_tokens"].get<double>();
  const json same = buffer({{"workload", {{"prompt", static_cast<long long>(pool) - 64}, {"gen", 64}}}});
  CHECK(s["memory"]["activation_bytes"].get<double>() == Approx(same["compute_buffer_bytes"].get<double>()).epsilon(0.001));
  CHECK(s["memory"]["activation_bytes"].get<double>() > 2e9);  // 8 GB of cache: a score matrix of about 4 GB
  // Engines that allocate each step's activations as it runs hold no such buffer.
  for (const char* rt : {"mlx", "vllm", "pytorch-eager"}) {
    json req = {{"model", "llama-3.1-8b"}, {"hardware", "apple-m2-max"}, {"runtime", rt}};
    CHECK(analyze_json(req)["memory"]["compute_buffer_bytes"].is_null());
  }
}

TEST_CASE("a runtime that reserves a compute buffer states its micro-batch", "[memory][errors]") {
  json rt;
  const json all = json::parse(infercast::call("runtimes", "{}"))["value"];
  for (const auto& r : all)
    if (r["id"] == "llama.cpp-cuda") rt = r;
  REQUIRE(rt.is_object());
  CHECK(rt["compute_buffer"] == "reserved");
  rt["prompt_micro_batch"] = 0;
  std::string message = json::parse(infercast::call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", rt}}).dump()))["error"]["message"];
  CHECK(message == "/runtime/prompt_micro_batch holds 0; expected at least 1 where compute_buffer is \"reserved\" (the micro-batch the "
                   "buffer is reserved for: llama.cpp's n_ubatch, 512)");
  rt["compute_buffer"] = "graph";
  message = json::parse(infercast::call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", rt}}).dump()))["error"]["message"];
  CHECK(message == "/runtime/compute_buffer holds \"graph\"; expected step or reserved");
}

// Review (stop 39): llama.cpp runs Mistral 7B v0.1 as its llama architecture, which has no sliding window
// (ggml-org/llama.cpp#3377 closed without one): it caches the whole context, where vLLM keeps the 4,096-token window.
TEST_CASE("llama.cpp caches Mistral 7B v0.1 for the whole context", "[memory][runtime]") {
  const auto run = [](const char* rt) {
    return analyze_json({{"model", "mistral-7b-v0.1"}, {"hardware", "nvidia-rtx-4090"}, {"runtime", rt}, {"attention", "unfused"},
                         {"workload", {{"prompt", 32704}, {"gen", 64}}}});
  };
  const json ll = run("llama.cpp-cuda"), vl = run("vllm");
  CHECK(ll["memory"]["kv_cache_bytes"].get<double>() == 32767 * ll["memory"]["kv_bytes_per_token"].get<double>());
  CHECK(vl["memory"]["kv_cache_bytes"].get<double>() < ll["memory"]["kv_cache_bytes"].get<double>() / 7);
  std::string message;
  for (const auto& w : ll["warnings"])
    if (w["code"] == "memory.window_kv_full") message = w["message"].get<std::string>();
  CHECK(message ==
        "llama.cpp (CUDA) caches mistral's sliding-window layers for the whole context (its llama architecture, which Mistral's "
        "GGUF files use, has no sliding window: ggml-org/llama.cpp#3377 was closed without one): the cache grows with the context in every layer");
  // Its compute buffer's scores span the whole cache too: 32 heads over 32,768 cells.
  CHECK(ll["memory"]["compute_buffer_bytes"].get<double>() == 512.0 * 32768 * 32 * 4 + 512.0 * 32768 * 4 + 4 * 4096.0 * 512 * 4);
}

// Audit H: a chip sold with several memory sizes has one preset, the largest (Apple M4: 32 GiB), so the owner of a
// 16 GB machine was told of the model's whole 131,072-token window where it holds 47,834 (32,750 and 90,400 with -fa 0). `memory_capacity_GiB` (`--memory`) sets
// the first tier; a reserve from the class's rule follows it (macOS lets the GPU wire 2/3 of a machine up to 36 GB),
// a device's own reserve stays, and the hidden share scales.
TEST_CASE("a device's memory size, as the user's machine has it", "[memory]") {
  const double GiB = 1073741824.0;
  json req = {{"model", "llama-3.1-8b"}, {"hardware", "apple-m4"}, {"precision", {{"weights", "q4_k_m"}}}};
  const json big = analyze_json(req)["memory"];
  CHECK(big["physical_capacity_bytes"].get<double>() == 32 * GiB);
  req["memory_capacity_GiB"] = 16;
  const json m = analyze_json(req)["memory"];
  CHECK(m["physical_capacity_bytes"].get<double>() == 16 * GiB);
  CHECK(m["reserve_bytes"].get<double>() == Approx(16 * GiB / 3));
  CHECK(m["max_context"].get<double>() < 0.4 * big["max_context"].get<double>());
  // A reserve given with it is checked against the new size.
  req["memory_reserve_GB"] = 20;
  CHECK(error_of(req) == "/memory_reserve_GB | /memory_reserve_GB holds 20 (GB); expected at most Apple M4's first memory tier, 16 GiB (17.179869184 GB)");
  req.erase("memory_reserve_GB");
  // The H100's reserve is its own (the CUDA context), kept; the share the driver never shows (0.975%) scales.
  json h = {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}};
  const json h80 = analyze_json(h)["memory"];
  h["memory_capacity_GiB"] = 40;
  const json h40 = analyze_json(h)["memory"];
  CHECK(h40["reserve_bytes"].get<double>() == Approx(h80["reserve_bytes"].get<double>() - 0.00975 * 40 * GiB));
  req["memory_capacity_GiB"] = -1;
  CHECK(error_of(req) == "/memory_capacity_GiB | /memory_capacity_GiB holds -1; expected 0 (the device's own) or a number from 1e-06 to 1000000000");
  // Review of stop 57: without a device it was silently ignored; on d-Matrix Corsair it resized the on-chip SRAM in
  // front of the LPDDR5 it is sold by.
  CHECK(error_of({{"model", "llama-3.1-8b"}, {"memory_capacity_GiB", 16}}) ==
        "/memory_capacity_GiB | /memory_capacity_GiB sets a device's memory, and the request names no /hardware or /system; "
        "expected a device (a preset id or a hardware object)");
  json d = {{"model", "llama-3.1-8b"}, {"hardware", "dmatrix-corsair"}};
  const json d256 = analyze_json(d)["memory"];
  d["memory_capacity_GiB"] = 64;
  const json d64 = analyze_json(d)["memory"];
  CHECK(d256["physical_capacity_bytes"].get<double>() - d64["physical_capacity_bytes"].get<double>() == Approx(192 * GiB));
  CHECK(d64["placement"][0]["bytes_per_tier"][0] == d256["placement"][0]["bytes_per_tier"][0]);  // the SRAM as it was
}

// FIELD.md (aiconfigurator, until its PR #509): times printed for a model that cannot load. The times are still
// computed (a device with room enough at these bandwidths), and the result's warnings say this device does not run it.
TEST_CASE("a model a device cannot hold says so among the result's warnings, a plan that holds it does not", "[memory][warnings]") {
  const json r = json::parse(infercast::call("analyze", R"({"model": "llama-3.1-405b", "hardware": "nvidia-h100-sxm"})"));
  REQUIRE(r["ok"] == true);
  const json& v = r["value"];
  CHECK(v["memory"]["fits"] == false);
  REQUIRE(v["warnings"].size() == 1);
  CHECK(v["warnings"][0]["code"] == "memory.does_not_fit");
  CHECK(v["warnings"][0]["path"] == "/hardware/memory_tiers");
  CHECK(v["warnings"][0]["message"].get<std::string>().rfind("NVIDIA H100 SXM5 80GB cannot hold this: it needs 756.", 0) == 0);
  // A model that fits: no such warning.
  const json small = json::parse(infercast::call("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm"})"));
  CHECK(small["value"]["warnings"].empty());
  // DeepSeek-V3 as published (FP8) on 8 H200s: the plan holds it, though one H200 would not; nothing says otherwise.
  const json plan = json::parse(infercast::call("analyze", R"({"model": "deepseek-v3", "system": "hgx-h200"})"));
  REQUIRE(plan["ok"] == true);
  for (const auto& w : plan["value"]["warnings"]) CHECK(w["code"] != "memory.does_not_fit");
  for (const auto& w : plan["value"]["parallel"]["warnings"]) CHECK(w["code"] != "memory.does_not_fit");
  // In BF16 it does not fit on 8 H100s: the plan's stages say so.
  const json bf16 = json::parse(infercast::call("analyze", R"({"model": "deepseek-v3", "system": "dgx-h100", "precision": {"weights": "bf16"}})"));
  bool stage = false;
  for (const auto& w : bf16["value"]["parallel"]["warnings"]) stage = stage || w["code"] == "memory.does_not_fit";
  CHECK(stage);
}
