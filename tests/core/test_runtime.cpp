// Runtimes: launches, fusion, compute paths, GEMM waves and collectives checked by hand for several runtimes, the
// class fits that presets/defaults/runtime_fits.json holds, and validation's re-timing of a row against the exact
// analysis (docs/forecast.md, "Runtimes").
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "analysis/gemm_shape.hpp"
#include "analysis/steps.hpp"
#include "api/api.hpp"
#include "api/envelope.hpp"
#include "helpers.hpp"
#include "io/defaults.hpp"
#include "io/hardware_json.hpp"
#include "parallel/collective.hpp"
#include "parallel/parallel.hpp"
#include "runtime/params.hpp"
#include "validation/validation.hpp"
#include "validation_report.hpp"

using namespace infercast;
using test::find_op;
using test::preset_model;

namespace {
const RuntimeSpec& rt(const char* id) {
  const RuntimeSpec* r = find_runtime_preset(id);
  REQUIRE(r);
  return *r;
}
std::vector<Op> ops_under(const char* runtime, const std::vector<Request>& step) {
  const ModelSpec m = preset_model("llama-3.1-8b");
  StepSettings s = test::settings();
  s.fusion = rt(runtime).fusion;
  s.fused_mlp = rt(runtime).act_in_gemm;
  s.attention = rt(runtime).flash_attention ? AttnImpl::Fused : AttnImpl::Unfused;
  return step_ops(m, group_layers(m), step, s);
}
double kernels(const std::vector<Op>& ops) {
  double k = 0;
  for (const auto& o : ops) k += o.dispatches;
  return k;
}
}  // namespace

TEST_CASE("fusion by hand: kernels per Llama layer under three runtimes", "[runtime]") {
  const std::vector<Request> decode = {Request{100, 1, 1}};
  // Reference: norms 2, q k v 3, rope 1, cache write 1, attention 1, o 1, adds 2, gate up 2, act 1, down 1 = 15 a layer;
  // plus embedding, final norm and LM head.
  CHECK(kernels(ops_under("reference", decode)) == 32 * 15 + 3);
  // vLLM: q/k/v one GEMM, gate/up one GEMM, each residual add inside the next norm: 15 - 2 - 1 - 2 = 10 a layer.
  CHECK(kernels(ops_under("vllm", decode)) == 32 * 10 + 3);
  // TensorRT-LLM: also RoPE and the cache write inside attention: 8 a layer.
  CHECK(kernels(ops_under("tensorrt-llm", decode)) == 32 * 8 + 3);
  // llama.cpp 2024-25: RMS_NORM + MUL per norm (4), a q8_1 quantize before each of 7 GEMMs (14), RoPE q and k (2),
  // K and V cache copies (2), attention as one flash-attention kernel (its default since 2025-08; KQ, softmax and
  // KQV, 3, before), adds 2, SiLU and MUL (2) = 27; head GEMM 2 + norm 2.
  CHECK(kernels(ops_under("llama.cpp-cuda", decode)) == 32 * 27 + 1 + 2 + 2);
  // Fused operators lose the activation traffic the kernel keeps on chip: k_proj's input is the q GEMM's.
  const auto v = ops_under("vllm", decode);
  CHECK(find_op(v, "k_proj").act_read_bytes == 0);
  CHECK(find_op(v, "up_proj").act_read_bytes == 0);
  CHECK(find_op(v, "k_proj").flops == find_op(ops_under("reference", decode), "k_proj").flops);
}

TEST_CASE("launches: a replayed graph pays a gap per kernel, eager kernels are bounded by the host", "[runtime]") {
  const ModelSpec m = preset_model("llama-3.1-8b");
  const HardwareSpec& hw = *find_hardware_preset("nvidia-h100-sxm");
  // One decode step of batch 1 under PyTorch eager: the host's 22 us per kernel exceeds the device's time.
  RuntimeSpec eager = rt("pytorch-eager");
  const Execution x = resolve_execution(hw, &eager);
  CHECK_FALSE(x.graphs);
  StepSettings s = test::settings();
  s.fusion = eager.fusion;
  const auto ops = step_ops(m, group_layers(m), {Request{100, 1, 1}}, s);
  const Timer timer(hw, x, TierCost{1 / hw.tiers[0].bandwidth_bytes_per_s, 1 / hw.tiers[0].bandwidth_bytes_per_s,
                                   1 / hw.tiers[0].bandwidth_bytes_per_s}, nullptr);
  StepBlock b = block_of(ops, timer, 1);
  const BlockTime t = time_block(b, x, Timing::PerOp);
  CHECK(t.first == Approx(kernels(ops) * x.launch_s + x.step_overhead_s));
  // vLLM replays the same step as a graph: operators + kernels x the graph gap + the step's cost.
  RuntimeSpec v = rt("vllm");
  const Execution xv = resolve_execution(hw, &v);
  REQUIRE(replayed(xv, 1));
  CHECK_FALSE(replayed(xv, 513));  // above vLLM's capture size: kernel by kernel
  double roof = 0, k = 0;
  for (const auto& o : b.ops) {
    const double ec = o.low ? xv.eff.gemm_low : o.cls == OpClass::GEMM ? xv.eff.gemm : o.cls == OpClass::Attention ? xv.eff.attention : xv.eff.elementwise;
    roof += std::max(o.c0 / ec, o.m0 / xv.eff.memory + o.k0 / xv.kv_memory);
    k += o.kernels;
  }
  CHECK(time_block(b, xv, Timing::PerOp).first == Approx(roof + k * xv.graph_gap_s + xv.step_overhead_s));
  // The host bound over n steps: sum of max(S(i), H), with S linear between the block's ends.
  b.n = 10;
  const BlockTime ten = time_block(b, x, Timing::PerOp);
  CHECK(ten.total == Approx(10 * t.first));
}

TEST_CASE("compute paths: FP16 accumulate, int8 dot products, no FP8 kernels", "[runtime]") {
  const HardwareSpec& g = *find_hardware_preset("nvidia-rtx-4090");
  Op op;
  op.cls = OpClass::GEMM;
  op.compute = ComputeType::FP16;
  op.flops = 1e12;
  op.count = 1;
  // llama.cpp's cuBLAS FP16 GEMMs accumulate in FP16: the 4090's 330.3 TFLOPS, not 165.2 (GEMM waves off: M = 0).
  const Execution lc = resolve_execution(g, &rt("llama.cpp-cuda"));
  CHECK(op_compute_seconds(g, lc, op) == Approx(1e12 / (330.3e12 * lc.eff.gemm)).epsilon(1e-3));
  const Execution ex = resolve_execution(g, &rt("vllm"));
  CHECK(op_compute_seconds(g, ex, op) == Approx(1e12 / (165.2e12 * ex.eff.gemm)).epsilon(1e-3));
  // Quantized weights under llama.cpp run at the int8 peak without the dequantization work.
  op.dequant_flops = 1e11;
  op.flops = 1.1e12;
  CHECK(op_compute_seconds(g, lc, op) == Approx(1e12 / (660.6e12 * lc.eff.gemm_low)).epsilon(1e-3));
  // llama.cpp has no FP8 kernels: FP8 activations run as 16-bit.
  Op f8;
  f8.cls = OpClass::GEMM;
  f8.compute = ComputeType::FP8;
  f8.flops = 1e12;
  f8.count = 1;
  CHECK(op_compute_seconds(g, lc, f8) == Approx(1e12 / (330.3e12 * lc.eff.gemm)).epsilon(1e-3));
}

TEST_CASE("collectives' waits: every collective of a step but point-to-point, each the runtime's wait", "[runtime][parallel]") {
  // Two plans: Llama-3.1-70B at tp 2 x pp 2 (all-reduces, and a send between the stages) and Mixtral-8x7B at tp 4,
  // ep 4 (reduce-scatter, two all-to-alls and an all-gather per MoE layer) on a DGX H100, batch 8 after 512 tokens.
  const System& dgx = *find_system_preset("dgx-h100");
  struct Plan {
    const char* model;
    int tp, pp, ep;
  };
  for (const Plan& k : {Plan{"llama-3.1-70b", 2, 2, 1}, Plan{"mixtral-8x7b", 4, 1, 4}}) {
    INFO(k.model);
    const ModelSpec m = preset_model(k.model);
    ParallelPlan p;
    p.tp = k.tp, p.pp = k.pp, p.ep = k.ep;
    RuntimeSpec with = *find_runtime_preset("vllm"), without = with;
    with.collective_wait_s = 25e-6;
    without.collective_wait_s = 0;
    Workload w;
    w.settings = test::settings();
    w.requests = {Request{0, 512, 8}};
    w.gen_tokens = 2;
    w.runtime = &with;
    const PlanForecast a = forecast_plan(m, w, dgx, p, Speculative{});
    w.runtime = &without;
    const PlanForecast b = forecast_plan(m, w, dgx, p, Speculative{});
    for (const auto* c : {&a.prefill_comm, &a.decode_comm}) {
      double waits = 0, wait_s = 0;
      bool p2p = false, all_to_all = false;
      for (const auto& l : c->lines) {
        if (l.kind == Collective::PointToPoint) {
          p2p = true;
          CHECK(l.wait_s == 0);
        } else {
          CHECK(l.wait_s == Approx(l.calls * 25e-6));
          waits += l.calls;
        }
        all_to_all = all_to_all || l.kind == Collective::AllToAll;
        wait_s += l.wait_s;
      }
      CHECK(c->waits == waits);
      CHECK(wait_s == Approx(c->waits * 25e-6));
      CHECK(p2p == (k.pp > 1));
      CHECK_FALSE(all_to_all);  // expert parallelism inside tensor parallelism all-reduces (docs/formulas.md)
    }
    CHECK(a.prefill_comm.seconds - b.prefill_comm.seconds == Approx(a.prefill_comm.waits * 25e-6));
    CHECK(a.decode_comm.seconds - b.decode_comm.seconds == Approx(a.decode_comm.waits * 25e-6));
    CHECK(a.tpot_mean_s - b.tpot_mean_s == Approx(a.decode_comm.waits * 25e-6));
  }
}

TEST_CASE("GEMM waves by hand", "[runtime]") {
  // 4096 x 4096 output on 132 units: 128 x 128 tiles, 1024 tiles in 8 waves: all busy.
  CHECK(gemm_shape_efficiency(4096, 4096, 132) == Approx(1024.0 / (8 * 132)));
  // A 128-token prompt through a 4096-wide projection on 132 SMs: 128x128 tiles give 32 tiles (24% busy), 64x64
  // tiles 128 (97% busy, half the reuse): 0.485.
  CHECK(gemm_shape_efficiency(128, 4096, 132) == Approx(128.0 / 132 * 0.5));
  // Below 16 rows: a matrix-vector product, no tiles.
  CHECK(gemm_shape_efficiency(1, 4096, 132) == 1);
  CHECK(gemm_shape_efficiency(128, 4096, 0) == 1);  // units unknown
}

namespace {
// E[ceil(X / t)], X ~ Binomial(n, p), by the whole pmf in long double (the reference the fast sums must meet).
double brute_expected_ceil(int n, double p, int t) {
  long double s = 0;
  const long double lp = std::log(static_cast<long double>(p)), lq = std::log1p(-static_cast<long double>(p));
  for (int x = 0; x <= n; ++x) {
    const long double lw = std::lgamma(static_cast<long double>(n) + 1) - std::lgamma(static_cast<long double>(x) + 1) -
                           std::lgamma(static_cast<long double>(n - x) + 1) + x * lp + (n - x) * lq;
    s += std::exp(lw) * ((x + t - 1) / t);
  }
  return static_cast<double>(s);
}
}  // namespace

TEST_CASE("routed experts: expected row tiles under binomial routing, exact and smooth", "[runtime]") {
  // Both branches (sigma < 32: the pmf summed; sigma >= 32: the Fourier sum) against the whole pmf, to 1e-9 tiles.
  struct Case {
    int n;
    double p;
  };
  for (const Case c : {Case{1, 0.25}, Case{7, 0.25}, Case{64, 0.25}, Case{512, 0.25}, Case{513, 0.25}, Case{4096, 0.25},
                       Case{4097, 8.0 / 256}, Case{4096, 8.0 / 256}, Case{20000, 8.0 / 256}, Case{20000, 0.25},
                       Case{12000, 0.5}, Case{300, 0.97}, Case{5000, 1.0 / 128}})
    for (int t : {16, 32, 64, 128}) {
      INFO("n " << c.n << " p " << c.p << " t " << t);
      CHECK(expected_ceil_binomial(c.n, c.p, t) == Approx(brute_expected_ceil(c.n, c.p, t)).margin(1e-9).epsilon(0));
    }
  // Mixtral at 512 tokens (X ~ Binomial(512, 1/4), mean 128 rows): ceil(mean / 128) = 1 tile assumes no padding,
  // but P(X > 128) = 0.476 of the experts spill into a second tile.
  CHECK(expected_ceil_binomial(512, 0.25, 128) == Approx(1.4763).margin(1e-4));
  // Past sigma = t the residue is uniform: mean / t + (t - 1) / (2t).
  CHECK(expected_ceil_binomial(200000, 0.25, 16) == Approx(200000 * 0.25 / 16 + 15.0 / 32).epsilon(1e-12));
  // Degenerate routings, and a fractional token count between its neighbours.
  CHECK(expected_ceil_binomial(0, 0.25, 16) == 0);
  CHECK(expected_ceil_binomial(100, 1.0, 16) == 7);
  const double a = expected_ceil_binomial(600, 0.25, 64), b = expected_ceil_binomial(601, 0.25, 64);
  CHECK(expected_ceil_binomial(600.25, 0.25, 64) == Approx(a + 0.25 * (b - a)));
  // The shape factor of a routed GEMM is smooth in the tokens: Mixtral's experts_gate_up (N 28672) on 132 SMs
  // moved from 0.97 to 0.49 between 512 and 513 tokens when the mean rows were tiled.
  const auto routed = [](double T) {
    GemmRows g;
    g.tokens = T, g.experts = 8, g.p = 0.25;
    g.matrices = 8 * (1 - std::pow(0.75, T));
    g.M = T * 2 / g.matrices;
    return gemm_shape_efficiency(g, 28672, 132);
  };
  CHECK(routed(513) == Approx(routed(512)).epsilon(0.01));
  CHECK(routed(1025) == Approx(routed(1024)).epsilon(0.01));
  CHECK(routed(512) < 0.8);  // the padding is paid at 512 too
  // The mean-rows path it replaces, for the record: a whole tile at 512, two half-empty ones at 513.
  CHECK(gemm_shape_efficiency(128, 28672, 132, 8) > 0.95);
  CHECK(gemm_shape_efficiency(128.25, 28672, 132, 8) < 0.5);
}

TEST_CASE("routed experts: one more prompt token is no cliff", "[runtime]") {
  // docs/forecast.md, "shape": the audit's examples on an H200 under each model's default runtime. Tiling the mean
  // rows put Mixtral's TTFT up 36% from 512 to 513 tokens and DeepSeek-V3's up 24% from 4096 to 4097. The routed
  // experts' seconds now move by less than 1%; what Mixtral's TTFT still gains at 513 (7%) is its dense projections
  // crossing a row tile (513 rows: five tiles of 128), which every dense GEMM has.
  const auto run = [](const char* model, int prompt) {
    const auto v = api_value("analyze", {{"model", model}, {"hardware", "nvidia-h200-sxm"},
                                         {"workload", {{"batch", 1}, {"prompt", prompt}, {"gen", 2}}}});
    double experts = 0;
    for (const auto& o : v["ops"])
      if (o["phase"] == "prefill" && o["name"].get<std::string>().rfind("experts_", 0) == 0) experts += o["time_s"].get<double>();
    return std::pair<double, double>{v["ttft_s"].get<double>(), experts};
  };
  for (const auto& [model, at] : {std::pair<const char*, int>{"mixtral-8x7b", 512}, {"mixtral-8x7b", 1024}, {"deepseek-v3", 4096},
                                  {"deepseek-v3", 8192}}) {
    INFO(model << " at " << at);
    const auto a = run(model, at), b = run(model, at + 1);
    CHECK(b.second > 0);
    CHECK(b.second == Approx(a.second).epsilon(0.01));
    if (std::string(model) == "deepseek-v3") CHECK(b.first == Approx(a.first).epsilon(0.01));
  }
}

TEST_CASE("unfused attention moves its scores in the runtime's score type: F32 under llama.cpp", "[runtime]") {
  // ggml: kq = ggml_mul_mat(k, q) is F32 (ggml_mul_mat always makes an F32 result), ggml_soft_max_ext keeps F32, and
  // ggml_mul_mat(v, kq) reads it back. Llama-3.1-8B Q4_K_M on an RTX 4090 (llama.cpp-cuda with -fa 0: flash attention
  // is its default since 2025-08) at an 8,192-token prompt in 16 micro-batches of 512: 512 x 512 x (1 + ... + 16) =
  // 35,651,584 (query, key) pairs per head, 32 heads, 32 layers, 4 bytes a score.
  const auto ops = [](const char* runtime) {
    nlohmann::json req = {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-rtx-4090"}, {"precision", {{"weights", "q4_k_m"}}},
                          {"workload", {{"prompt", 8192}, {"gen", 2}}}, {"attention", "unfused"}};
    if (runtime) req["runtime"] = runtime;
    return api_value("analyze", req);
  };
  const nlohmann::json v = ops(nullptr);
  REQUIRE(v["execution"]["runtime"] == "llama.cpp-cuda");
  const double scores = 35651584.0 * 32 * 32 * 4;
  int seen = 0;
  for (const auto& o : v["ops"]) {
    if (o["phase"] != "prefill") continue;
    if (o["name"] == "attn_scores") {
      CHECK(o["act_write_bytes"].get<double>() == scores);
      ++seen;
    }
    if (o["name"] == "softmax") {
      CHECK(o["act_read_bytes"].get<double>() == scores);
      CHECK(o["act_write_bytes"].get<double>() == scores);
      ++seen;
    }
    if (o["name"] == "attn_av") {
      CHECK(o["act_read_bytes"].get<double>() == scores);
      ++seen;
    }
  }
  CHECK(seen == 3);
  // The compute buffer holds the same F32 score matrix (runtime/memory_budget.cpp): one type for memory and traffic.
  const RuntimeSpec& cpp = rt("llama.cpp-cuda");
  CHECK(cpp.unfused_score_bytes == 4);
  // Elsewhere unfused scores stay in the activations' type (the reference stack, HF eager's bf16 matmul).
  CHECK(rt("reference").unfused_score_bytes == 0);
  StepSettings s = test::settings();
  s.attention = AttnImpl::Unfused;
  const ModelSpec m = preset_model("llama-3.1-8b");
  const auto groups = group_layers(m);
  const double bf16 = find_op(step_ops(m, groups, {Request{0, 512, 1}}, s), "softmax").act_read_bytes;
  s.score_bytes = 4;
  CHECK(find_op(step_ops(m, groups, {Request{0, 512, 1}}, s), "softmax").act_read_bytes == 2 * bf16);
}

TEST_CASE("collectives: custom all-reduce for small messages, NCCL's base latency above", "[runtime][parallel]") {
  const System& dgx = *find_system_preset("dgx-h100");
  const ModelSpec m = preset_model("llama-3.1-70b");
  ParallelPlan p;
  p.tp = 8;
  Workload w;
  w.settings = test::settings();
  w.requests = {Request{0, 1, 1}};
  w.gen_tokens = 2;
  const auto comm = [&](const char* id) {
    w.runtime = find_runtime_preset(id);
    return forecast_plan(m, w, dgx, p, Speculative{}).decode_comm;
  };
  // Decode, batch 1: each all-reduce moves 8192 x 2 bytes, one-shot in vLLM: a + 7 S / B, plus the kernel's gap.
  const StepComm v = comm("vllm");
  const Execution xv = resolve_execution(dgx.device, find_runtime_preset("vllm"));
  const double S = 8192 * 2.0;
  const auto one_shot = custom_allreduce_cost(S, 8, dgx.intra, true);
  CHECK(one_shot.seconds == Approx(dgx.intra.latency_s + 7 * S / dgx.intra.achievable()));
  // 80 layers x 2 all-reduces + the embedding's; the logits all-gather through NCCL with its base latency.
  double allreduce_s = 0;
  for (const auto& l : v.lines)
    if (l.kind == Collective::AllReduce) {
      CHECK(l.algorithm == "one-shot");
      allreduce_s += l.seconds;
    }
  // Each waits for the slowest device too: vLLM's own class fit over its tensor-parallel measurements
  // (runtime_fits.json, `collective_wait_us` among its values); a runtime measured without them (SGLang) keeps the
  // pooled wait, the median of those runtimes' own.
  const double wait = find_runtime_preset("vllm")->collective_wait_s;
  const auto fitted_wait = [](const char* id) {
    for (const auto& f : runtime_fits())
      if (f.runtime == id)
        for (const auto& [name, value] : f.values)
          if (name == "collective_wait_us") return value * 1e-6;
    return -1.0;
  };
  CHECK(wait == Approx(fitted_wait("vllm")));
  CHECK(wait > 5e-6);
  CHECK(find_runtime_preset("sglang")->collective_wait_s == Approx(collective_wait_fit().wait_us * 1e-6));
  CHECK(fitted_wait("sglang") < 0);
  CHECK(v.waits == 162);  // 161 all-reduces and the logits' all-gather
  CHECK(allreduce_s == Approx(161 * (one_shot.seconds + xv.eff.dispatch_s + wait)));
  // LMDeploy reduces through NCCL: each call pays the 6.6 us base latency on top of the ring or tree.
  const StepComm l = comm("lmdeploy");
  const Execution xl = resolve_execution(dgx.device, find_runtime_preset("lmdeploy"));
  const CollectiveCost nccl = collective_cost(Collective::AllReduce, S, Group{8, 1}, dgx.intra, dgx.inter, CollectiveAlgo::Auto);
  double nccl_s = 0;
  for (const auto& line : l.lines)
    if (line.kind == Collective::AllReduce) nccl_s += line.seconds;
  CHECK(nccl_s == Approx(161 * (nccl.seconds + 6.6e-6 + xl.eff.dispatch_s + fitted_wait("lmdeploy"))));
  // The reference stack keeps NCCL's hop latencies alone: an ideal machine in lockstep, no wait.
  const StepComm r = comm("reference");
  double ref_s = 0;
  for (const auto& line : r.lines)
    if (line.kind == Collective::AllReduce) ref_s += line.seconds;
  CHECK(ref_s == Approx(161 * (nccl.seconds + dgx.device.eff.dispatch_s)));
}

TEST_CASE("custom all-reduce: vLLM's one-shot limits by group size, and none without peer-to-peer", "[runtime][parallel]") {
  // vLLM custom_all_reduce.cuh: one-shot below 512 KiB for up to 4 GPUs, below 256 KiB for up to 8, always for 2.
  const ModelSpec m = preset_model("llama-3.1-70b");
  Workload w;
  w.settings = test::settings();
  w.gen_tokens = 2;
  w.runtime = find_runtime_preset("vllm");
  const auto algorithms = [&](const System& sys, int tp, i64 batch) {
    ParallelPlan p;
    p.tp = tp;
    w.requests = {Request{0, 1, batch}};
    std::set<std::string> out;
    for (const auto& l : forecast_plan(m, w, sys, p, Speculative{}).decode_comm.lines)
      if (l.kind == Collective::AllReduce) out.insert(l.algorithm);
    return out;
  };
  const System& dgx = *find_system_preset("dgx-h100");
  // Batch 16 x 8192 x 2 bytes = 262,144 bytes: exactly the 8-GPU limit, so two-shot; one row less, one-shot.
  CHECK(algorithms(dgx, 8, 16) == std::set<std::string>{"two-shot"});
  CHECK(algorithms(dgx, 8, 15) == std::set<std::string>{"one-shot"});
  // Four GPUs: one-shot up to 512 KiB (batch 31: 507,904 bytes), two-shot from it (batch 32: 524,288).
  CHECK(algorithms(dgx, 4, 16) == std::set<std::string>{"one-shot"});
  CHECK(algorithms(dgx, 4, 31) == std::set<std::string>{"one-shot"});
  CHECK(algorithms(dgx, 4, 32) == std::set<std::string>{"two-shot"});
  // GeForce cards over PCIe cannot read each other's memory: NCCL's ring for every all-reduce.
  const System& geforce = *find_system_preset("2x-rtx-4090-pcie");
  CHECK_FALSE(geforce.intra.peer_to_peer);
  CHECK(algorithms(geforce, 2, 1) == std::set<std::string>{"ring"});
  const System& pro = *find_system_preset("2x-rtx-pro-6000-pcie");
  CHECK(pro.intra.peer_to_peer);
  CHECK(algorithms(pro, 2, 1) == std::set<std::string>{"one-shot"});
}

TEST_CASE("every device has a default runtime that exists, a calibrated device's own efficiencies win", "[runtime]") {
  for (const auto& h : hardware_presets()) {
    INFO(h.id);
    CHECK(find_runtime_preset(default_runtime_id(h)));
  }
  CHECK(default_runtime_id(*find_hardware_preset("nvidia-rtx-4090")) == "llama.cpp-cuda");
  CHECK(default_runtime_id(*find_hardware_preset("nvidia-h100-sxm")) == "vllm");
  CHECK(default_runtime_id(*find_hardware_preset("apple-m2-ultra")) == "llama.cpp-metal");
  HardwareSpec h = *find_hardware_preset("nvidia-h100-sxm");
  const RuntimeSpec& vllm = *find_runtime_preset("vllm");
  const double rt_memory = *vllm.eff.memory[static_cast<int>(MemoryFamily::HBM)];
  h.eff.memory = 0.42;
  h.eff_given = kEffMemory;
  const Execution x = resolve_execution(h, &vllm);
  CHECK(x.eff.memory == 0.42);
  // The runtime's KV-cache reads keep their ratio to its streaming rate (paged blocks read below it).
  REQUIRE(vllm.eff.kv_memory);
  CHECK(x.kv_memory == Approx(0.42 * *vllm.eff.kv_memory / rt_memory).epsilon(1e-12));
  CHECK(x.eff.gemm == *vllm.eff.gemm);
}

// A device stating an efficiency moves the runtime's related terms by the same factor: before, a calibrated
// gemm replaced llama.cpp's int8 MMQ efficiency (0.22) outright with the FP16 one, and a stated dispatch replaced
// the gap inside a CUDA graph (1 us) with the one-by-one gap (2 us).
TEST_CASE("a device's stated efficiencies scale the runtime's int8 GEMMs, KV reads and graph gaps", "[runtime][calibrate]") {
  const RuntimeSpec& rt = *find_runtime_preset("llama.cpp-cuda");
  HardwareSpec h = *find_hardware_preset("nvidia-rtx-4090");
  const Execution plain = resolve_execution(h, &rt);
  CHECK(plain.eff.gemm_low == *rt.eff.gemm_low);  // nothing stated: the runtime's own, exactly
  CHECK(plain.kv_memory == *rt.eff.kv_memory);
  CHECK(plain.graph_gap_s == *rt.graph_kernel_gap_s);
  h.eff.gemm = 0.5;
  h.eff.dispatch_s = 4e-6;
  h.eff_given = kEffGemm | kEffDispatch;
  const Execution x = resolve_execution(h, &rt);
  CHECK(x.eff.gemm == 0.5);
  CHECK(x.eff.gemm_low == Approx(0.5 * *rt.eff.gemm_low / *rt.eff.gemm).epsilon(1e-12));
  CHECK(x.eff.dispatch_s == 4e-6);
  CHECK(x.graph_gap_s == Approx(4e-6 * *rt.graph_kernel_gap_s / *rt.kernel_gap_s).epsilon(1e-12));
  // A stated gemm_low is taken as it is; through the API too, and the result shows what ran.
  h.eff.gemm_low = 0.41;
  h.eff_given |= kEffGemmLow;
  CHECK(resolve_execution(h, &rt).eff.gemm_low == 0.41);
  json dev = hardware_to_json(*find_hardware_preset("nvidia-rtx-4090"));
  dev["id"] = "my-4090";
  dev["efficiency"] = {{"gemm_low", 0.41}};
  const json r = json::parse(call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", dev}, {"runtime", "llama.cpp-cuda"},
                                                    {"precision", {{"weights", "q4_k_m"}}}}).dump()));
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["value"]["execution"]["efficiency"]["gemm_low"].get<double>() == 0.41);
  CHECK(r["value"]["hardware"]["efficiency"]["gemm_low"].get<double>() == 0.41);
  CHECK(r["value"]["execution"]["efficiency"]["graph_dispatch_us"].get<double>() == Approx(*rt.graph_kernel_gap_s * 1e6));
}

TEST_CASE("runtime fits: presets/defaults/runtime_fits.json holds what validate fits, from the priors", "[runtime][validation][full-validation]") {
  const ValidationReport& rep = test::embedded_validation();
  REQUIRE(!rep.fits.empty());
  for (const auto& f : rep.fits) {
    const RuntimeSpec* r = find_runtime_preset(f.runtime);
    REQUIRE(r);
    INFO(f.runtime);
    // The shipped presets carry these values; a change of the priors, the data or the model regenerates them
    // (`infercast validate --write-fits presets/defaults/runtime_fits.json`).
    for (const auto& [p, v] : f.values) {
      INFO(rt_param_names().name(p));
      // Optimization to a tolerance: native, sanitized and wasm builds agree to 0.1%.
      CHECK(*get_param(*r, p) == Approx(v).epsilon(1e-3));
    }
  }
  // The collectives' wait, fitted jointly with those runtimes over every tensor-parallel static row, to 0.05 us.
  CHECK(rep.collective_wait_rows > 100);
  CHECK(collective_wait_fit().wait_us == Approx(rep.collective_wait_us).epsilon(5e-3));
  CHECK(find_runtime_preset("sglang")->collective_wait_s == Approx(rep.collective_wait_us * 1e-6).epsilon(5e-3));
  CHECK(find_runtime_preset("reference")->collective_wait_s == 0);
}

TEST_CASE("validation re-times a row exactly as the analysis times it", "[runtime][validation][full-validation]") {
  const ValidationReport& rep = test::embedded_validation();
  int checked = 0;
  for (const auto& v : rep.rows) {
    if (!v.covered || v.devices > 1 || checked >= 40 || v.metric != "TTFT") continue;
    // TTFT in the row's unit straight from an analysis request.
    const json req = {{"model", v.model_id}, {"hardware", v.hardware_id}, {"runtime", v.runtime},
                      {"precision", {{"weights", v.weights}, {"activations", v.activations}, {"kv", v.kv}}},
                      {"workload", {{"batch", static_cast<long long>(v.batch)}, {"prompt", static_cast<long long>(std::max(1.0, v.prompt))}, {"gen", 1}}}};
    const json env = json::parse(call("analyze", req.dump()));
    REQUIRE(env["ok"].get<bool>());
    const double ttft = env["value"]["ttft_s"].get<double>() * (v.unit == "ms" ? 1e3 : 1);
    INFO(v.row_id);
    CHECK(v.forecast == Approx(ttft).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked >= 20);
  // Rows over several devices (the plan's communication, the collectives' waits included) the same way.
  int plans = 0;
  for (const auto& v : rep.rows) {
    if (!v.covered || v.devices <= 1 || plans >= 20 || v.metric != "TTFT") continue;
    json req = {{"model", v.model_id}, {"system", v.system_id}, {"runtime", v.runtime},
                {"parallel", {{"tp", static_cast<int>(v.devices)}}},
                {"precision", {{"weights", v.weights}, {"activations", v.activations}, {"kv", v.kv}}},
                {"workload", {{"batch", static_cast<long long>(v.batch)}, {"prompt", static_cast<long long>(std::max(1.0, v.prompt))}, {"gen", 1}}}};
    const json env = json::parse(call("analyze", req.dump()));
    REQUIRE(env["ok"].get<bool>());
    const double ttft = env["value"]["parallel"]["ttft_s"].get<double>() * (v.unit == "ms" ? 1e3 : 1);
    INFO(v.row_id);
    CHECK(v.forecast == Approx(ttft).epsilon(1e-9));
    ++plans;
  }
  CHECK(plans >= 10);
}

// llama.cpp runs a prompt as forwards of n_ubatch = 512 tokens (common/common.h), each attending to the cache the
// earlier ones wrote, and sizes its compute buffer for one. Without flash attention (-fa 0, the default before
// 2025-08) a forward holds its scores in fp32: heads x 512 x context x 4 bytes. The whole 16k prompt was once taken as one forward: 32 x 16384^2 x 4 bytes
// = 32 GiB of scores, and Llama-3.1-8B in Q4_K_M "did not fit" a 24 GB RTX 4090 that runs it.
TEST_CASE("llama.cpp prefills in micro-batches of 512 tokens, and holds one micro-batch's activations", "[runtime]") {
  const auto run = [](const std::string& workload) {
    return call_json("analyze", R"({"model":"llama-3.1-8b","hardware":"nvidia-rtx-4090","runtime":"llama.cpp-cuda","attention":"unfused",)"
                                R"("precision":{"weights":"q4_k_m"},"workload":)" + workload + "}");
  };
  const json one = run(R"({"prompt":16384,"gen":2})");
  REQUIRE(one["ok"].get<bool>());
  const json& v = one["value"];
  CHECK(v["workload"]["prefill_chunk"] == 512);
  CHECK(v["workload"]["prefill_chunks"] == 32);
  // Its activations are the compute buffer it reserves for one micro-batch over the whole cache (16,386 cells padded
  // to 16,416): the 512 x 16,416 scores of 32 heads in F32, their mask and four hidden-width tensors.
  const double buffer = 512.0 * 16416 * 32 * 4 + (16416.0 + 4 * 4096) * 512 * 4;
  CHECK(v["memory"]["activation_peak_bytes"].get<double>() == buffer);
  CHECK(v["memory"]["compute_buffer_bytes"].get<double>() == buffer);
  CHECK(v["memory"]["fits"].get<bool>());
  // Four prompts share a micro-batch: 128 tokens of each per forward.
  const json four = run(R"({"batch":4,"prompt":4096,"gen":2})");
  CHECK(four["value"]["workload"]["prefill_chunk"] == 128);
  // Their cache is one of 4 x 4,098 cells, padded to the same 16,416: the same buffer.
  CHECK(four["value"]["memory"]["activation_peak_bytes"].get<double>() == buffer);
  // A chunk the request states wins, 0 included (the whole prompt in one forward).
  const json whole = run(R"({"prompt":4096,"gen":2,"prefill_chunk":0})");
  CHECK(whole["value"]["workload"]["prefill_chunk"] == 0);
  CHECK(whole["value"]["workload"]["prefill_chunks"] == 1);
  // vLLM takes a step whole.
  const json vllm = call_json("analyze", R"({"model":"llama-3.1-8b","hardware":"nvidia-rtx-4090","runtime":"vllm","workload":{"prompt":16384,"gen":2}})");
  CHECK(vllm["value"]["workload"]["prefill_chunk"] == 0);
}

// Page review (stop 36): MLX with Q4_K_M weights gave a forecast and no word that mlx-lm has no GGUF K-quant
// kernels. A runtime states the weight formats its kernels run; a forecast in another says so.
TEST_CASE("a runtime's weight formats: a forecast in one it has no kernels for warns", "[runtime][quant]") {
  DType mix;  // llama.cpp's mixes (find_llama_mix) keep their name
  mix.name = "q4_k_m";
  CHECK(weight_format(mix) == WeightFormat::GGUF);
  CHECK(weight_format(*find_dtype("q4_k")) == WeightFormat::GGUF);
  CHECK(weight_format(*find_dtype("iq2_xs")) == WeightFormat::GGUF);
  CHECK(weight_format(*find_dtype("int4-g128")) == WeightFormat::Int);
  CHECK(weight_format(*find_dtype("fp8_block128")) == WeightFormat::FP8);
  CHECK(weight_format(*find_dtype("mxfp4")) == WeightFormat::MX);
  CHECK(weight_format(*find_dtype("nf4-dq")) == WeightFormat::BitsAndBytes);
  CHECK(weight_format(*find_dtype("bf16")) == WeightFormat::Float);
  const auto warned = [](const char* hw, const char* rt, const char* weights) {
    const json v = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", hw}, {"runtime", rt}, {"precision", {{"weights", weights}}}});
    for (const auto& w : v["warnings"])
      if (w["code"] == "runtime.weight_format") return w["message"].get<std::string>();
    return std::string();
  };
  CHECK(warned("apple-m2-ultra", "mlx", "q4_k_m") ==
        "MLX / mlx-lm (Apple) has no kernels for gguf weights (q4_k_m): this forecast assumes it had; it runs float, int, mx "
        "weights (pick one of those, or a runtime that runs gguf)");
  CHECK(warned("apple-m2-ultra", "mlx", "int4-g64").empty());
  CHECK_FALSE(warned("nvidia-h100-sxm", "tensorrt-llm", "q4_k_m").empty());
  CHECK_FALSE(warned("nvidia-rtx-4090", "llama.cpp-cuda", "fp8").empty());
  CHECK(warned("nvidia-rtx-4090", "llama.cpp-cuda", "mxfp4").empty());
  CHECK(warned("nvidia-h100-sxm", "vllm", "q4_k_m").empty());  // vLLM states none: not checked
  json rt = json::parse(call("runtimes", "{}"))["value"][0];
  rt["compute"]["weight_formats"] = {"float", "gguff"};
  const json env = json::parse(call("analyze", json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", rt}}).dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["message"] == "/runtime/compute/weight_formats/1 holds \"gguff\"; expected float, fp8, int, gguf, bnb, mx, nvfp4 or fp4");
}
