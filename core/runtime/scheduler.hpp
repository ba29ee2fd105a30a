// How a serving runtime turns requests into engine steps: the scheduler block of a runtime preset (presets/runtimes/,
// "scheduler"), with the defaults each engine ships (docs/serving.md, "Schedulers"). A block states the policy that
// mixes prefill and decode work in a step, the per-step token budget and sequence cap (with rules by device memory
// where the engine picks them from the GPU), what fraction of memory the KV cache gets and of what, the KV block size,
// what happens when the cache runs out, and prefix caching. resolve_scheduler() turns it into the numbers one
// deployment runs with.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hardware/hardware.hpp"
#include "util/names.hpp"

namespace infercast {

// How one engine step mixes the running requests' decode tokens with prefill work.
//  DecodeFirst: every running request decodes one token, then waiting prompts fill what is left of the token budget,
//    in chunks when chunked prefill is on (vLLM V1, LMDeploy, TGI).
//  PrefillFirst: a step is either a prefill of waiting prompts (up to the budget, chunked) or a decode of every
//    running request, and a prefill runs whenever one can be admitted (SGLang with mixed chunks off).
//  MixedWhole: decodes and whole prompts in the same step, a prompt admitted only when all of it fits the budget
//    (TensorRT-LLM's in-flight batching with chunked prefill off).
enum class StepPolicy { DecodeFirst, PrefillFirst, MixedWhole };
const NameTable<StepPolicy>& step_policy_names();

// What the runtime's memory fraction is a fraction of.
//  Total: of the device's memory; the KV cache gets it less the weights and activations (vLLM's
//    gpu_memory_utilization).
//  Free: of what is left after the weights and activations (TensorRT-LLM's free_gpu_memory_fraction, LMDeploy's
//    cache_max_entry_count).
//  Reserve: weights and KV cache get the device's memory less a reserve computed from the chunk size (SGLang's
//    mem_fraction_static).
enum class MemoryBasis { Total, Free, Reserve };
const NameTable<MemoryBasis>& memory_basis_names();

// How the engine holds its KV cache.
//  Fraction: a pool sized at start from its memory fraction (vLLM, SGLang, TensorRT-LLM, LMDeploy, TGI): a batch
//    fits only inside that budget, whatever the device has left.
//  Requested: the cache is allocated for the contexts asked for (llama.cpp's n_ctx, mlx-lm's growing cache); nothing
//    is held back beyond what the driver keeps.
enum class KvPool { Fraction, Requested };
const NameTable<KvPool>& kv_pool_names();

// When the KV cache runs out while requests decode.
//  Recompute: the newest running request is evicted and recomputed later (vLLM V1, SGLang's retraction).
//  None: admission reserves the cache to each request's last token, so nothing is ever evicted (TensorRT-LLM's
//    GUARANTEED_NO_EVICT).
enum class Preemption { Recompute, None };
const NameTable<Preemption>& preemption_names();

// A default that depends on the device: applies when the device's first-tier memory lies in [min, max) GB, its name
// contains one of `names` (when any are given) and none of `exclude` (vLLM keeps A100s on the smaller defaults).
struct SchedulerRule {
  double min_memory_gb = 0, max_memory_gb = 0;  // max 0: no upper bound
  std::vector<std::string> names, exclude;
  std::optional<long long> max_num_seqs, max_num_batched_tokens;
  // The largest decode batch replayed as a graph on such a device (SGLang's cuda_graph_max_bs by memory), below
  // tensor parallelism 4 and from 4 on; unset: the runtime's launch.graph_max_tokens. Sizes the engine's reserve.
  std::optional<long long> graph_max_tokens, graph_max_tokens_tp4;
};

// An engine's own reserve (SGLang's; not the driver's reserve of hardware/hardware.hpp): base + per_chunk_token x
// max(chunk, 2048) + per_graph_batch x graph batch + per_device x devices (MB), at least min_large_mb above 60 GB.
struct EngineReserve {
  double base_mb = 0, per_chunk_token_mb = 0, per_graph_batch_mb = 0, per_device_mb = 0, min_large_mb = 0;
};

struct SchedulerSpec {
  bool stated = false;  // the preset has a scheduler block (else the defaults below, reported as assumed)
  StepPolicy policy = StepPolicy::DecodeFirst;
  bool chunked_prefill = true;
  long long max_num_seqs = 256;            // running requests at most (0: as many as the KV cache holds)
  long long max_num_batched_tokens = 2048; // new tokens per step at most (the chunk budget)
  long long max_prefill_tokens = 0;        // prompt tokens one prefill step admits at most (0: the budget)
  std::vector<SchedulerRule> rules;        // the first that applies overrides the two defaults above
  double memory_fraction = 0.9;
  MemoryBasis memory_basis = MemoryBasis::Total;
  KvPool kv_pool = KvPool::Fraction;
  std::string memory_fraction_flag;  // the engine's own flag for it (vLLM's --gpu-memory-utilization), for messages
  EngineReserve reserve;
  long long kv_block_tokens = 16;
  Preemption preemption = Preemption::Recompute;
  bool prefix_caching = true;  // as vLLM V1 (the assumed defaults)
  // Running requests derived from the KV pool where max_num_seqs is 0 (SGLang's max_running_requests): the pool's
  // tokens over the model's context length times `per_context`, within [min, max], and at most the pool's tokens
  // over `tokens_per_seq`. per_context 0: none (the pool alone limits).
  struct PoolSeqs {
    double per_context = 0, min = 0, max = 0, tokens_per_seq = 1;
  } pool_seqs;
  // Steps a request loses to a scheduler that runs ahead: 1 where the host schedules step n + 1 while the device runs
  // step n (vLLM's async scheduling, SGLang's overlap scheduler, TensorRT-LLM's overlap scheduler), so a request that
  // arrives during step n is first admitted by step n + 2: one step more before its first token and its last (the
  // simulation holds each step's tokens a step, which the client sees the same way); 0 where each step is scheduled
  // after the last one ends.
  int output_delay_steps = 0;
  // Multi-step scheduling (vLLM 0.5.5-0.6's --num-scheduler-steps N): a batch of decodes is scheduled once and runs N
  // steps back to back, no prompt admitted inside the window, its tokens reaching the client together at the window's
  // end (one streamed chunk of N tokens per request). 1: every step is scheduled (and streamed) on its own.
  int scheduler_steps = 1;
  // Pipeline parallelism: the engine keeps one micro-batch per stage in flight (vLLM V1's batch queue of
  // max_concurrent_batches = pp, V0's virtual engines, SGLang's and TensorRT-LLM's PP micro-batches), so the stages
  // work on different requests at once; false where a step's batch passes the stages one after another.
  bool pp_micro_batches = true;
  // Model types whose sliding-window layers the engine caches for the whole context, not just the window (SGLang's
  // disable_hybrid_swa_memory for Gemma 2, 3 and 3n and EXAONE 4: its hybrid SWA pool does not support them yet).
  std::vector<std::string> window_kv_full_for;
  std::string window_kv_full_reason;  // why, in words (empty: SGLang's, its hybrid SWA memory)
  // Tokens the windowed layers' pool holds per token of the full layers' pool where the engine splits its pool in
  // two (SGLang's swa_full_tokens_ratio, 0.8): each token of the pool then costs the growing layers' bytes plus this
  // share of the windowed layers'. 0: windowed layers hold only their window of each request (vLLM's hybrid KV cache
  // manager frees the blocks that leave a window).
  double window_pool_ratio = 0;
  // Bytes per vocabulary entry per request the engine's memory profile holds when it samples a full batch (vLLM's
  // profile_run ends with a sampler run over max_num_seqs requests: bf16 logits, an fp32 copy and fp32 probabilities,
  // 10 bytes): its activation peak is the larger of that and the forward's. 0: no such term.
  double sampler_bytes_per_logit = 0;
  std::string source;
};

// The numbers one deployment of the runtime runs with on a device.
struct SchedulerLimits {
  StepPolicy policy = StepPolicy::DecodeFirst;
  bool chunked_prefill = true;
  long long max_num_seqs = 256;  // 0: the KV cache's limit only
  long long token_budget = 2048;
  long long max_prefill_tokens = 2048;
  double memory_fraction = 0.9;
  MemoryBasis memory_basis = MemoryBasis::Total;
  KvPool kv_pool = KvPool::Fraction;
  double reserve_bytes = 0;  // Reserve basis: memory kept out of the weights and the cache, per device
  long long graph_batch = 0;  // the largest decode batch the engine captures as a graph (its reserve counts it)
  long long kv_block_tokens = 16;
  Preemption preemption = Preemption::Recompute;
  bool prefix_caching = false;
  int output_delay_steps = 0;
  int scheduler_steps = 1;
  bool pp_micro_batches = true;
  double sampler_bytes_per_logit = 0;
  bool stated = false;
  SchedulerSpec::PoolSeqs pool_seqs;  // applied by serving_setup once the pool is known (max_num_seqs 0 only)
};

// The scheduler's limits on `hw` for a deployment over `devices` devices (`tp` of them tensor-parallel) replaying
// graphs of up to `graph_batch` sequences unless a rule sets it; `max_num_seqs` / `token_budget` > 0 override the
// runtime's (a deployment search).
SchedulerLimits resolve_scheduler(const SchedulerSpec& s, const HardwareSpec& hw, int devices, int tp, long long graph_batch,
                                  long long max_num_seqs = 0, long long token_budget = 0);
// The same for a device named `device_name` whose first memory tier holds `capacity_bytes` (design points).
SchedulerLimits resolve_scheduler(const SchedulerSpec& s, double capacity_bytes, const std::string& device_name, int devices, int tp,
                                  long long graph_batch, long long max_num_seqs = 0, long long token_budget = 0);

}  // namespace infercast
