// Deployment search (docs/serving.md, "Deployment search"): on N devices (or a system), every aggregated deployment
// (tensor, pipeline and expert parallelism, data-parallel replicas, the sequence cap and the chunk budget) and every
// disaggregated one (a prefill pool of x instances and a decode pool of y, each with its own tensor and expert
// parallelism, the KV cache sent over the link between them, the decode batch), each timed by the analytical steady
// state of its step model. The step model is built once per parallel layout, so one configuration costs a few step
// evaluations. Out: the Pareto front of output tokens/s per user against output tokens/s per device among the
// configurations that meet the SLA, the best one (most tokens/s per device under the SLA), and how to launch it.
#pragma once

#include <string>
#include <vector>

#include "serving/serving.hpp"

namespace infercast {

enum class DisaggMode { Auto, On, Off };
const NameTable<DisaggMode>& disagg_mode_names();

struct DeploySpec {
  ServingLoad load;          // lengths and prefix hits; the concurrency is what the search chooses
  double max_ttft_s = 0;     // SLA (0: none), on the steady state's mean
  double max_tpot_s = 0;
  DisaggMode disaggregated = DisaggMode::Auto;
  int max_tp = 64;
};

struct DeployConfig {
  bool disaggregated = false;
  ParallelPlan plan;             // aggregated: one replica's plan, dp the replicas; disaggregated: the decode instances'
  ParallelPlan prefill;          // disaggregated: one prefill instance's plan, dp the prefill instances
  long long batch = 0;           // requests in flight per replica (aggregated) or per decode instance: the sequence cap
  long long token_budget = 0;    // new tokens per step (the chunk size)
  int devices = 0;
  double ttft_s = 0, tpot_s = 0, e2e_s = 0;
  double tokens_per_s_per_user = 0, tokens_per_s_per_device = 0, output_tokens_per_s = 0, requests_per_s = 0;
  double kv_transfer_s = 0;         // disaggregated: one prompt's cache from a prefill to a decode instance
  double prefill_utilization = 0;   // disaggregated: busy share of the prefill pool
  double balanced_ratio = 0;        // disaggregated: prefill instances per decode instance that would balance them
  bool meets_sla = true;
};

struct DeployResult {
  std::vector<DeployConfig> front;  // meets the SLA, Pareto-optimal, by tokens/s per user
  DeployConfig best;
  bool has_best = false;
  long long evaluated = 0;          // configurations timed
  long long feasible = 0;           // of them meeting the SLA
  int layouts = 0;                  // parallel layouts whose step model was built
  double pool_size_ratio = 1;       // disaggregated pool sizes searched: every count (1), or a geometric grid
  std::vector<Warning> warnings;
};

// Throws InputError when no layout fits the devices.
DeployResult deploy_search(const ModelSpec& m, const Workload& w, const System& sys, int devices, const DeploySpec& spec);

// How to launch a configuration in vLLM, SGLang and TensorRT-LLM (`repo`: the model's Hugging Face id).
struct LaunchCommands {
  std::string vllm, sglang, trtllm;
};
LaunchCommands launch_commands(const DeployConfig& c, const std::string& repo, const Workload& w);

}  // namespace infercast
