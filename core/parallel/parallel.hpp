// Inference over several devices: tensor, pipeline and expert parallelism and data-parallel replicas on a system
// of nodes, with the collectives each needs; speculative decoding; batching curves (docs/formulas.md,
// "Parallelism", "Speculative decoding", "Batching curves").
//
// Each pipeline stage is its own model (a slice of the layers, the first with the embedding, the last with the
// LM head) sharded over the stage's tensor-parallel devices: attention heads, MLP widths and the vocabulary are
// divided, norms, MLA down-projections and the MLA latent cache are replicated, KV heads are replicated when there
// are fewer than devices. Every device of a stage runs that model through the single-device analysis, so
// operators, memory, placement and timing are computed in one place; communication is added per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "parallel/collective.hpp"

namespace infercast {

// Devices of one kind in nodes: a link inside a node and one between nodes.
struct System {
  std::string id, name, source, notes;
  HardwareSpec device;
  int devices_per_node = 1;
  int nodes = 1;
  Link intra, inter;
  int devices() const { return devices_per_node * nodes; }
};

struct ParallelPlan {
  int tp = 1;  // tensor parallel: devices per stage
  int pp = 1;  // pipeline stages
  int ep = 1;  // expert parallel: the routed experts are divided among this many of a stage's tp devices
  int dp = 1;  // data-parallel replicas (independent copies, each serving the workload)
  CollectiveAlgo algorithm = CollectiveAlgo::Auto;
  // tp x pp x dp, at most limit::kPlanDevices (2^28): read_multi refuses a larger plan before anything asks, and the
  // product is formed in 64 bits.
  int devices() const { return static_cast<int>(static_cast<std::int64_t>(tp) * pp * dp); }
};

// Speculative decoding: a draft proposes `draft_tokens` tokens, the target verifies them in one step.
struct Speculative {
  int draft_tokens = 0;      // gamma; 0: off
  double acceptance = 0.8;   // alpha: chance each drafted token is accepted once those before it were, independently
  // Mean tokens a verification step yields, the bonus token included: what vLLM logs as "Mean acceptance length" and
  // SGLang as spec_accept_length (1 + accepted / verification steps). 0: from `acceptance`; else it is the tokens per
  // step and alpha is the one that gives it.
  double acceptance_length = 0;
  bool mtp = false;          // the target's own multi-token-prediction module drafts
  const ModelSpec* draft = nullptr;  // a separate draft model (when !mtp)
  bool enabled() const { return draft_tokens > 0; }
};

// Expected tokens a verification step yields: (1 - alpha^(gamma+1)) / (1 - alpha), gamma + 1 when alpha = 1.
double speculative_tokens_per_step(double acceptance, int draft_tokens);
// The alpha whose tokens per step are `length` (1 to gamma + 1): the inverse of the above, by bisection.
double speculative_acceptance_for_length(double length, int draft_tokens);

struct CommLine {
  std::string what;  // e.g. "attention output"
  Collective kind = Collective::AllReduce;
  std::string algorithm;
  int participants = 1;
  bool inter_node = false;
  double bytes = 0;  // per call
  double calls = 0;  // per step, over all stages
  double seconds = 0;  // per step, all calls (dispatch and waits included)
  double wait_s = 0;   // of which waiting for the group's slowest device (the runtime's collective_wait_s per call)
};

struct StepComm {
  std::vector<CommLine> lines;
  double seconds = 0;
  double waits = 0;   // calls that wait for their group (every collective but point-to-point), each the runtime's collective_wait_s
  double wait_s = 0;  // of `seconds`, those calls' waits
  // The step's communication without the waits, to re-time it under another wait: plain_s() + waits x wait.
  double plain_s() const { return seconds - wait_s; }
};

struct Stage {
  int first_layer = 0, layers = 0;
  ModelSpec model;  // what one device of the stage holds
  Analysis a;       // that device's analysis
  double required_bytes = 0;  // per device (a speculative draft's weights and cache included on stage 0)
  double capacity_bytes = 0;
  bool fits = true;
};

struct SpeculativeResult {
  bool enabled = false;
  int draft_tokens = 0;
  double acceptance = 0;
  double tokens_per_step = 1;
  double draft_acceptance_rate = 0;  // drafted tokens accepted: (tokens per step - 1) / gamma (vLLM's "Draft acceptance rate")
  double draft_prefill_s = 0;        // the drafter over the prompt, in the step that yields the first token (in TTFT)
  double draft_step_s = 0;   // one draft token, the whole batch
  double verify_step_s = 0;  // the target over gamma + 1 tokens per request
  double tpot_s = 0;         // (gamma draft steps + one verification) / tokens per step
  double speedup = 1;        // plain TPOT / speculative TPOT
  // Without speculation, for comparison (the plan's own figures are the speculative ones when it is on).
  double plain_tpot_s = 0, plain_e2e_s = 0, plain_total_tokens_per_s = 0;
  double draft_weights_bytes = 0, draft_kv_bytes = 0;  // per device
  double draft_state_bytes = 0;  // the target's recurrent state for the drafted positions, per device of the first stage
  std::string draft;         // "mtp" or the draft model's id
  int draft_tp = 1;
  // The work of one verification step on one device of each stage, and of one draft step on one of the draft's
  // devices: what the decode's energy is counted from (cost/cost.cpp, plan_cost_report).
  std::vector<WorkSums> verify_work;
  WorkSums draft_work;
};

struct PlanForecast {
  ParallelPlan plan;
  int devices = 1;
  std::vector<Stage> stages;
  StepComm prefill_comm;  // the whole first step (all chunks), all stages and stage boundaries
  StepComm decode_comm;   // one decode step
  double ttft_s = 0;
  double tpot_first_s = 0, tpot_mean_s = 0, tpot_last_s = 0;
  double decode_time_s = 0, e2e_s = 0;
  double tokens_per_s = 0;          // per sequence
  double replica_tokens_per_s = 0;  // one replica's batch
  double total_tokens_per_s = 0;    // all replicas
  double tokens_per_s_per_device = 0;
  double device_required_bytes = 0;  // the fullest device
  double device_capacity_bytes = 0;
  bool fits = true;
  double max_batch = 0;  // largest batch per replica, shaped like the workload's mean request, that fits every device
  // Longest context per request at this batch that every device holds (each stage's own, within the model's window);
  // -1 with a draft, whose weights and cache share the first stage's devices (not computed).
  double max_context = 0;
  std::vector<TimelinePoint> timeline;
  SpeculativeResult spec;
  std::vector<Warning> warnings;
};

// The model one device of each stage holds. Throws InputError (code parallel.invalid_split, path naming the
// plan field) when the split is not valid: heads, KV heads, MLP and expert widths or experts not divisible, more
// stages than layers, a tensor-parallel group that straddles nodes, more devices than the system has.
std::vector<Stage> plan_stages(const ModelSpec& m, const ParallelPlan& p, const System& sys);

// The plan of a request that names a system and no /parallel: tensor parallelism over the largest group of one
// node's devices, at most 8, that the model splits over (heads, KV heads, MLP and expert widths), one stage, one
// replica: what vLLM's, SGLang's and TensorRT-LLM's recipes run on a node (--tensor-parallel-size 8 on 8 GPUs), and
// what the page picks when a system is chosen. Never an invalid split: 1 when nothing larger divides.
inline constexpr int kDefaultTpMax = 8;
ParallelPlan default_plan(const ModelSpec& m, const System& sys);

// The default plan once the workload is known (docs/formulas.md, "The default plan"): on a system of several nodes
// whose first node cannot hold the model and its cache at `node_plan`, a pipeline stage per node on the fewest nodes
// that hold it (at most one stage per layer), tensor parallelism within each: how vLLM's and SGLang's multi-node
// recipes run a model one node cannot hold (--tensor-parallel-size 8 --pipeline-parallel-size 2 on two nodes).
// `note` says why when the plan changed, or that devices were left idle; empty otherwise. `analyses` counts the
// analyses run so far in the call: each forecast the search makes is checked against the work limits with them
// (check_work, "the default plan's search over the nodes") before it runs, and added. `holds` (where given) is set
// false when no plan over the nodes holds the model.
ParallelPlan default_plan_for(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& node_plan,
                              const Speculative& spec, Warning& note, double& analyses, bool* holds = nullptr);
// Serving's default plan over a system (docs/formulas.md, "The default plan"): the plan above (one node's, or the
// fewest stages that hold the model and one request of the load) repeated over the devices it leaves idle, as a
// router spreads requests over vLLM or SGLang instances: dp = the whole replicas the system holds, each one's stages
// then spread over its share of the devices (more stages leave each device more room for the cache). Unchanged
// (and `note` with it) where nothing is idle, where the plan already has replicas or where tp does not divide a
// node; otherwise `note` becomes parallel.default_serving, saying what ran and why.
ParallelPlan serving_plan_filling(const ModelSpec& m, const System& sys, const ParallelPlan& p, Warning& note);
// The default plan under a runtime that splits a model by layers (RuntimeSpec::device_split, llama.cpp's --split-mode
// layer): tp 1, a pipeline stage per device (at most one per layer), one replica. `note` (parallel.default_layers)
// says so.
ParallelPlan layer_split_plan(const ModelSpec& m, const System& sys, const RuntimeSpec& rt, Warning& note);
// Analyses one forecast_plan runs, for the work limits: one per stage; with a draft, one more per stage (the verify
// step) and two for the draft.
double plan_forecast_analyses(const ParallelPlan& p, const Speculative& spec);

// Communication of one step of `tokens` new tokens and `logit_rows` LM-head rows over the plan's stages and stage
// boundaries: what forecast_plan adds to every step (the serving model's steps too).
StepComm step_communication(const std::vector<Stage>& stages, const System& sys, const ParallelPlan& p, const Workload& w,
                            double tokens, double logit_rows);

PlanForecast forecast_plan(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& p,
                           const Speculative& spec);

// A system of one node holding the plan's devices, linked by the device's own interconnect.
System single_node_system(const HardwareSpec& hw, int devices);

struct BatchPoint {
  double batch = 0;  // requests per replica
  double ttft_s = 0, tpot_s = 0, e2e_s = 0;
  double tokens_per_s_per_user = 0, total_tokens_per_s = 0, tokens_per_s_per_device = 0;
  double device_required_bytes = 0;
  bool fits = true;
};

struct BatchingCurve {
  std::vector<BatchPoint> points;
  double kv_fit_batch = 0;  // the largest batch per replica whose weights, KV cache and activations fit every device
};

// Throughput against latency as the batch grows: the workload's first request shape repeated `batch` times for
// batch = 1, 2, 4 ... past the point the cache stops fitting (at most `max_batch`), and that point itself.
BatchingCurve batching_curve(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& p,
                             const Speculative& spec, double max_batch);

}  // namespace infercast
