// Serving rows (metric serving_*) as serving runs (docs/serving.md, "Validation"): the load each source ran, read
// from the row's columns and notes (concurrency=N or request_rate=R first, the number of prompts, fixed lengths or the
// token totals a source printed, the length distribution its tool draws), the runtime's shipped scheduler with the
// sequence cap, chunk budget and multi-step window of the launch flags the source printed, and the
// simulation (the steady state for offline runs of more than 2e6 request-steps). A run is built once and shared by the
// metrics measured on it; re-timed under a refitted runtime it is simulated again.
#include <algorithm>
#include <cmath>
#include <regex>

#include "io/fields.hpp"
#include "io/model_config.hpp"
#include "io/presets.hpp"
#include "quant/weight_format.hpp"
#include "serving/serving.hpp"
#include "validation/cases.hpp"
#include "util/limits.hpp"

namespace infercast {

enum class ServingStat { Mean, P50, P90, P99 };
enum class ServingWhat { Ttft, Tpot, Itl, E2e, OutputRate, RequestRate };

struct ServingCase {
  std::string key;
  ModelSpec model;
  Workload w;
  System sys;
  ParallelPlan plan;
  ServingLoad load;
  ServingSetup setup;
  std::unique_ptr<StepModel> steps;
  bool steady = false;
  // The last forecast and the runtime parameters it was made with (a run's metrics share it).
  std::vector<std::optional<double>> last_params;
  ServingResult last;
  bool has_last = false;
};

namespace {

struct ServingMetric {
  const char* name;
  ServingWhat what;
  ServingStat stat;
  const char* group;
};
// serving_ttft, serving_tpot and serving_itl without a statistic: the sources' tools report means (S64, S68).
const ServingMetric kServingMetrics[] = {
    {"serving_ttft_p50", ServingWhat::Ttft, ServingStat::P50, "serving-ttft"},
    {"serving_ttft_mean", ServingWhat::Ttft, ServingStat::Mean, "serving-ttft"},
    {"serving_ttft", ServingWhat::Ttft, ServingStat::Mean, "serving-ttft"},
    {"serving_tpot_p50", ServingWhat::Tpot, ServingStat::P50, "serving-tpot"},
    {"serving_tpot", ServingWhat::Tpot, ServingStat::Mean, "serving-tpot"},
    {"serving_itl_p50", ServingWhat::Itl, ServingStat::P50, "serving-tpot"},
    {"serving_itl", ServingWhat::Itl, ServingStat::Mean, "serving-tpot"},
    {"serving_itl_p99", ServingWhat::Itl, ServingStat::P99, "serving-itl-p99"},
    {"serving_e2e_p50", ServingWhat::E2e, ServingStat::P50, "serving-e2e"},
    {"serving_output_throughput", ServingWhat::OutputRate, ServingStat::Mean, "serving-throughput"},
    {"serving_request_throughput", ServingWhat::RequestRate, ServingStat::Mean, "serving-throughput"},
};

// The notes' fields as the sources printed them, each pattern compiled once (compiling them for every row took 5% of
// `validate`).
struct NotePatterns {
  const std::regex concurrency{R"(concurrency=(\d+))"};
  const std::regex request_rate{R"(request_rate=([0-9.]+))"};
  const std::regex num_prompts{R"(num_prompts=(\d+))"};
  const std::regex num_prompt{R"(num-prompt=(\d+))"};
  const std::regex requests{R"((\d+) requests)"};
  const std::regex total_input{R"(total_input_tokens=(\d+))"};
  const std::regex total_input_printed{R"(Total input tokens: (\d+))"};
  const std::regex total_output{R"(total_output_tokens=(\d+))"};
  const std::regex total_output_printed{R"(Total generated tokens: (\d+))"};
  const std::regex range_ratio{R"(random_range_ratio ([0-9.]+))"};
  const std::regex variance{R"(\+-(\d+)% variance)"};
  const std::regex max_num_seqs{R"(--max[-_]num[-_]seqs[ =](\d+))"};
  const std::regex max_running_requests{R"(--max-running-requests[ =](\d+))"};
  const std::regex max_concurrent_requests{R"(--max-concurrent-requests[ =](\d+))"};
  const std::regex max_batched_tokens{R"(--max[-_]num[-_]batched[-_]tokens[ =](\d+))"};
  const std::regex chunked_prefill_size{R"(--chunked-prefill-size[ =](\d+))"};
  const std::regex max_batch_prefill_tokens{R"(--max-batch-prefill-tokens[ =](\d+))"};
  const std::regex scheduler_steps{R"(--num-scheduler-steps[ =](\d+))"};
};

const NotePatterns& note_patterns() {
  static const NotePatterns p;
  return p;
}

bool find_number(const std::string& text, const std::regex& pattern, double& out) {
  std::smatch m;
  if (!std::regex_search(text, m, pattern)) return false;
  try {
    out = std::stod(m[1].str());
  } catch (const std::exception&) {  // past a double's range: read as not stated
    return false;
  }
  return std::isfinite(out);
}

double pick_stat(const Percentiles& p, ServingStat s) {
  switch (s) {
    case ServingStat::Mean: return p.mean;
    case ServingStat::P50: return p.p50;
    case ServingStat::P90: return p.p90;
    case ServingStat::P99: return p.p99;
  }
  return 0;
}

}  // namespace

void build_serving_case(const CsvRecord& r, std::size_t index, ValidationRow& v, std::vector<Case>& cases, std::size_t row,
                        std::vector<std::shared_ptr<ServingCase>>& runs, bool check_only) {
  const ServingMetric* metric = nullptr;
  for (const auto& m : kServingMetrics)
    if (v.metric == m.name) metric = &m;
  v.group = metric ? metric->group : "serving";
  const std::string notes = csv_cell(r, "notes");
  const HardwareSpec* hw = v.hardware_id.empty() ? nullptr : find_hardware_preset(v.hardware_id);
  const RuntimeSpec* rt = find_runtime_preset(v.runtime);
  const double devices = std::max(1.0, csv_number(r, "num_devices", index, 4096));
  int tp = 1, pp = 1;
  ServingLoad load;
  const NotePatterns& P = note_patterns();
  double rate = 0, conc = 0, prompts = 0;
  const bool has_conc = find_number(notes, P.concurrency, conc);
  const bool has_rate = !has_conc && find_number(notes, P.request_rate, rate);
  const bool inf = !has_conc && notes.find("request_rate=inf") != std::string::npos;
  if (!find_number(notes, P.num_prompts, prompts) && !find_number(notes, P.num_prompt, prompts))
    find_number(notes, P.requests, prompts);
  // Lengths: the columns, else the token totals the source printed, else a dataset's published sample means.
  double isl = csv_number(r, "prompt_len", index, static_cast<double>(kMaxTokens)),
         osl = csv_number(r, "gen_len", index, static_cast<double>(kMaxTokens)), total = 0;
  const double n_for_totals = prompts > 0 ? prompts : (has_conc ? conc : 0);
  if (isl <= 0 && n_for_totals > 0 &&
      (find_number(notes, P.total_input, total) || find_number(notes, P.total_input_printed, total)))
    isl = total / n_for_totals;
  if (osl <= 0 && n_for_totals > 0 &&
      (find_number(notes, P.total_output, total) || find_number(notes, P.total_output_printed, total)))
    osl = total / n_for_totals;
  if (isl <= 0 || osl <= 0)
    for (const auto& d : validation_names().serving_lengths)
      if (notes.find(d.notes_contain) != std::string::npos && d.num_prompts == prompts) {
        isl = d.isl;
        osl = d.osl;
      }
  load.isl.mean = isl;
  load.osl.mean = osl;
  double spread = 0;
  if (find_number(notes, P.range_ratio, spread)) {  // sglang random: uniform over [r L, L]
    load.isl.kind = load.osl.kind = LengthKind::Uniform;
    load.isl.spread = load.osl.spread = (1 - spread) / (1 + spread);
  } else if (find_number(notes, P.variance, spread)) {
    load.isl.kind = load.osl.kind = LengthKind::Uniform;
    load.isl.spread = load.osl.spread = spread / 100;
  }
  // The engine's launch flags the source printed: the sequence cap and the chunk budget it ran with override the
  // runtime's shipped defaults (vLLM --max-num-seqs / --max-num-batched-tokens, SGLang --max-running-requests /
  // --chunked-prefill-size, TGI --max-concurrent-requests / --max-batch-prefill-tokens). A flag past the range a
  // serving request takes for it (io/fields.cpp) is not stated: the runtime's default stands.
  double flag = 0;
  long long max_seqs = 0, budget = 0;
  const auto in_range = [&](const IntField& f) { return flag >= 1 && flag <= static_cast<double>(f.hi); };
  for (const std::regex* f : {&P.max_num_seqs, &P.max_running_requests, &P.max_concurrent_requests})
    if (find_number(notes, *f, flag) && in_range(field::serving_max_num_seqs)) max_seqs = static_cast<long long>(flag);
  for (const std::regex* f : {&P.max_batched_tokens, &P.chunked_prefill_size, &P.max_batch_prefill_tokens})
    if (find_number(notes, *f, flag) && in_range(field::serving_max_batched_tokens)) budget = static_cast<long long>(flag);
  // vLLM 0.5.5-0.6's multi-step scheduling: N decode steps per schedule, streamed together.
  const int scheduler_steps = find_number(notes, P.scheduler_steps, flag) ? static_cast<int>(std::clamp(flag, 1.0, 64.0)) : 0;
  if (inf) conc = prompts;
  load.concurrency = has_conc || inf ? conc : 0;
  load.request_rate = has_rate ? rate : 0;
  load.requests = prompts > 0 ? prompts : 0;

  v.reason = metric ? unmapped_reason(r, v, hw, rt, devices, tp, pp) : "serving metric " + v.metric + " not mapped";
  if (!v.reason.empty()) return;
  if (load.concurrency <= 0 && load.request_rate <= 0) v.reason = "the notes state no concurrency or request rate";
  else if (isl <= 0 || osl <= 0) v.reason = "the source states no prompt and output lengths (nor their totals)";
  // The load within serving's own ranges and work limit (docs/schema.md, "Limits").
  else if (conc > 1e6 || prompts > 1e6 || rate > 1e6 || isl > 1e7 || osl > 1e7)
    v.reason = "the notes' load is past the ranges of a serving request (1e6 clients, requests and requests/s; 1e7 tokens)";
  else if (!(conc >= prompts && prompts * osl > 2e6) &&
           (prompts > 0 ? prompts : 4000.0) * (osl + isl / 2048) > limit::kServingRequestSteps)
    v.reason = "the serving run would simulate more than " + std::to_string(static_cast<long long>(limit::kServingRequestSteps)) + " request-steps";
  if (!v.reason.empty() || check_only) return;

  v.batch = load.concurrency;
  v.prompt = isl;
  v.gen = osl;
  v.devices = devices;
  if (devices > 1) v.system_id = system_id(v.hardware_id);
  const std::string key = v.model_id + "|" + v.hardware_id + "|" + v.runtime + "|" + v.weights + "|" + v.kv + "|" +
                          std::to_string(tp) + "x" + std::to_string(pp) + "|" + std::to_string(load.concurrency) + "|" +
                          std::to_string(load.request_rate) + "|" + std::to_string(load.requests) + "|" + std::to_string(isl) +
                          "|" + std::to_string(osl) + "|" + std::to_string(load.isl.spread) + "|" + std::to_string(max_seqs) + "|" +
                          std::to_string(budget) + "|" + std::to_string(scheduler_steps) + "|" +
                          attn_impl_names().name(row_attention(notes, *rt));
  std::shared_ptr<ServingCase> sc;
  for (const auto& s : runs)
    if (s->key == key) sc = s;
  if (!sc) {
    sc = std::make_shared<ServingCase>();
    sc->key = key;
    sc->model = parse_model_config(find_model_preset(v.model_id)->config, "/config");
    Workload& w = sc->w;
    w.runtime = rt;
    apply_weight_format(w.settings.precision, sc->model, v.weights);
    w.settings.precision.activations = *find_dtype(v.activations);
    // A 4-bit activation recipe keeps an 8-bit cache (ModelOpt's NVFP4 checkpoints quantize the KV cache to FP8).
    w.settings.precision.kv = *find_dtype(v.kv == "fp4" ? "fp8" : v.kv);
    if (w.settings.precision.activations.weight_only) w.settings.precision.activations = *find_dtype("fp16");
    w.settings.convention = convention_by_name("infercast");
    w.settings.fusion = rt->fusion;
    w.settings.fused_mlp = rt->act_in_gemm;
    w.settings.attention = row_attention(notes, *rt);
    w.settings.score_bytes = rt->unfused_score_bytes;
    sc->sys = devices > 1 ? *find_system_preset(v.system_id) : single_node_system(*hw, 1);
    sc->plan.tp = tp;
    sc->plan.pp = pp;
    sc->load = load;
    try {
      sc->setup = serving_setup(sc->model, w, sc->sys, sc->plan, max_seqs, budget);
      sc->setup.model = &sc->model;
      if (scheduler_steps > 0) sc->setup.limits.scheduler_steps = scheduler_steps;
      sc->steps = std::make_unique<StepModel>(sc->model, w, sc->sys, sc->plan, max_step_tokens(sc->setup, load),
                                              max_decode_batch(sc->setup, load));
    } catch (const InputError& e) {
      v.reason = std::string("the serving run does not set up: ") + e.what();
      return;
    }
    // Offline runs (every prompt queued at once) of more than 2e6 request-steps: the steady state at the full batch
    // (a simulation would take seconds, and the ramp at both ends is a small share of such a run).
    sc->steady = load.concurrency >= load.requests && load.requests * osl > 2e6;
    runs.push_back(sc);
  }
  Case c;
  c.row = row;
  c.hw = &sc->sys.device;
  c.rt = rt;
  c.measured = v.measured;
  c.devices = devices;
  c.serving = sc;
  c.serving_metric = static_cast<int>(metric->what);
  c.serving_stat = static_cast<int>(metric->stat);
  c.to_unit = v.unit == "ms" ? 1e3 : 1;  // seconds to the row's unit (time metrics)
  cases.push_back(std::move(c));
  try {
    v.forecast = serving_case_value(cases.back(), *rt);
  } catch (const InputError& e) {  // a load past the simulation's limits: the row is not covered, and says why
    cases.pop_back();
    v.reason = std::string("the serving run is past the simulation's limits: ") + e.what();
    return;
  }
  v.error = v.forecast / v.measured - 1;
  v.covered = true;
}

double serving_case_value(const Case& c, const RuntimeSpec& rt) {
  ServingCase& sc = *c.serving;
  std::vector<std::optional<double>> params;
  for (RtParam p : all_rt_params()) params.push_back(get_param(rt, p));
  params.push_back(rt.collective_wait_s);  // the step tables keep the collectives' waits apart: a refitted wait re-times
  if (!sc.has_last || params != sc.last_params) {
    const Execution x = resolve_execution(sc.sys.device, &rt);
    sc.last = sc.steady ? steady_state(sc.setup, *sc.steps, sc.load, x) : simulate_serving(sc.setup, *sc.steps, sc.load, x);
    sc.last_params = params;
    sc.has_last = true;
  }
  const ServingResult& r = sc.last;
  const auto what = static_cast<ServingWhat>(c.serving_metric);
  const auto stat = static_cast<ServingStat>(c.serving_stat);
  switch (what) {
    case ServingWhat::Ttft: return pick_stat(r.ttft_s, stat) * c.to_unit;
    case ServingWhat::Tpot: return pick_stat(r.tpot_s, stat) * c.to_unit;
    case ServingWhat::Itl: return pick_stat(r.itl_s, stat) * c.to_unit;
    case ServingWhat::E2e: return pick_stat(r.e2e_s, stat) * c.to_unit;
    case ServingWhat::OutputRate: return r.output_tokens_per_s;
    case ServingWhat::RequestRate: return r.requests_per_s;
  }
  return 0;
}

}  // namespace infercast
