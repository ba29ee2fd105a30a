#include "parallel/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/work.hpp"

namespace infercast {

double speculative_tokens_per_step(double alpha, int gamma) {
  if (gamma <= 0) return 1;
  if (alpha >= 1) return gamma + 1.0;
  return (1 - std::pow(alpha, gamma + 1.0)) / (1 - alpha);
}

double speculative_acceptance_for_length(double length, int gamma) {
  if (gamma <= 0 || length <= 1) return 0;
  if (length >= gamma + 1.0) return 1;
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (speculative_tokens_per_step(mid, gamma) < length ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

System single_node_system(const HardwareSpec& hw, int devices) {
  System s;
  s.id = hw.id;
  s.name = std::to_string(devices) + "x " + hw.name;
  s.device = hw;
  s.devices_per_node = std::max(devices, 1);
  // NCCL's per-hop latency (src/graph/tuning.cc hwLat): about 0.5 us over NVLink-class links, 1 us over PCIe. A
  // device link of at most 64 GB/s per direction (PCIe 5.0 x16) is taken to be PCIe.
  const bool pcie = hw.interconnect_bytes_per_s <= 64e9;
  s.intra = Link{pcie ? "device interconnect (PCIe)" : "device interconnect", hw.interconnect_bytes_per_s, pcie ? 1e-6 : 0.5e-6, 0.8};
  s.inter = s.intra;
  return s;
}

namespace {

std::string count_text(i64 v) { return std::to_string(v); }

// Why a layer cannot be split over `tp` devices with experts over `ep` of them ("" when it can).
std::string layer_problem(const LayerSpec& L, int tp, int ep, int index) {
  const std::string at = "layer " + std::to_string(index);
  const auto& a = L.attn;
  if (L.has_attention && a.n_heads % tp != 0)
    return at + " has " + count_text(a.n_heads) + " attention heads, which " + count_text(tp) + " does not divide";
  if (L.has_attention && a.kind == AttnKind::Standard && a.n_kv_heads % tp != 0 && tp % a.n_kv_heads != 0)
    return at + " has " + count_text(a.n_kv_heads) + " KV heads: " + count_text(tp) +
           " neither divides them nor is a multiple of them (KV heads are replicated when there are fewer than devices)";
  if (L.has_attention && a.kind == AttnKind::Compressed && a.o_groups % tp != 0)
    return at + " has " + count_text(a.o_groups) + " output-projection groups, which " + count_text(tp) + " does not divide";
  const auto& r = L.recurrent;
  if (r.kind != RecurrentKind::None && r.heads % tp != 0)
    return at + " has " + count_text(r.heads) + " " + recurrent_kind_names().name(r.kind) + " heads, which " + count_text(tp) +
           " does not divide";
  if (r.kind != RecurrentKind::None && r.groups > 0 && r.groups % tp != 0 && tp % r.groups != 0)
    return at + " has " + count_text(r.groups) + " " + recurrent_kind_names().name(r.kind) + " key heads or groups: " + count_text(tp) +
           " neither divides them nor is a multiple of them (they are replicated when there are fewer than devices)";
  const auto& f = L.ffn;
  if (!L.has_ffn) return "";
  if (!f.moe) {
    if (f.intermediate % tp != 0) return at + "'s MLP width " + count_text(f.intermediate) + " is not a multiple of " + count_text(tp);
    return "";
  }
  if (f.n_experts % ep != 0) return at + " has " + count_text(f.n_experts) + " routed experts, which " + count_text(ep) + " does not divide";
  const int moe_tp = tp / ep;
  if (f.expert_intermediate % moe_tp != 0)
    return at + "'s expert width " + count_text(f.expert_intermediate) + " is not a multiple of " + count_text(moe_tp) +
           " (the devices each expert is split over: tp / ep)";
  if (f.n_shared > 0 && f.shared_intermediate % tp != 0)
    return at + "'s shared-expert width " + count_text(f.shared_intermediate) + " is not a multiple of " + count_text(tp);
  return "";
}

std::string model_problem(const ModelSpec& m, int tp, int ep) {
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    std::string why = layer_problem(m.layers[i], tp, ep, static_cast<int>(i));
    if (!why.empty()) return why;
  }
  return "";
}

bool has_moe(const ModelSpec& m) {
  return std::any_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& L) { return L.ffn.moe; });
}

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

// What one of `tp` devices holds of layers [first, last). Experts: every device computes its 1/tp share of the
// routed work whether experts are divided (ep) or split in width (tp / ep): the mean per device is the same, so
// the shard keeps all experts at 1/tp of their width (ceil when the width does not divide).
// `frame` is the model without its layers (frame_of): each stage copies only its own layers, so a plan of
// thousands of stages over thousands of layers stays linear in the layers.
ModelSpec frame_of(const ModelSpec& m) {
  ModelSpec f = m;
  std::vector<LayerSpec>().swap(f.layers);
  return f;
}

ModelSpec shard(const ModelSpec& frame, const ModelSpec& m, int tp, int first, int last) {
  ModelSpec s = frame;
  s.layers.assign(m.layers.begin() + first, m.layers.begin() + last);
  s.has_embedding = m.has_embedding && first == 0;
  s.has_head = m.has_head && last == static_cast<int>(m.layers.size());
  s.vocab = ceil_div(m.vocab, tp);
  if (m.embedding_rows > 0) s.embedding_rows = ceil_div(m.embedding_rows, tp);
  for (auto& L : s.layers) {
    auto& a = L.attn;
    if (L.has_attention) {
      a.n_heads /= tp;
      if (a.kind == AttnKind::Standard) a.n_kv_heads = a.n_kv_heads >= tp ? a.n_kv_heads / tp : 1;
      if (a.kind == AttnKind::Compressed) a.o_groups /= tp;  // the grouped projection splits by groups (SGLang)
    }
    // Recurrent mixers split by heads; key heads and B/C groups are replicated when fewer than devices.
    auto& r = L.recurrent;
    if (r.kind != RecurrentKind::None) {
      r.heads /= tp;
      if (r.groups > 0) r.groups = r.groups >= tp ? r.groups / tp : r.groups;
    }
    auto& f = L.ffn;
    f.intermediate /= tp;
    if (f.moe) {
      f.expert_intermediate = ceil_div(f.expert_intermediate, tp);
      f.shared_intermediate /= tp;
    }
  }
  return s;
}

[[noreturn]] void invalid(const std::string& path, const std::string& message) {
  throw InputError("parallel.invalid_split", path, message);
}

// Devices of a group of `n` consecutive ranks: within one node, or whole nodes.
Group group_of(int n, const System& sys, const std::string& path, const std::string& field) {
  const int d = sys.devices_per_node;
  if (n <= d) {
    if (d % n != 0)
      invalid(path, path + " holds " + std::to_string(n) + "; a " + field + " group of " + std::to_string(n) +
                        " would straddle nodes of " + std::to_string(d) + " devices; expected a divisor of " +
                        std::to_string(d) + " or a multiple of it");
    return Group{n, 1};
  }
  if (n % d != 0)
    invalid(path, path + " holds " + std::to_string(n) + "; expected a divisor of " + std::to_string(d) +
                      " (devices per node) or a multiple of it");
  return Group{d, n / d};
}

double comm_bytes_per_element(const Workload& w) {
  // GEMM outputs are reduced in 16 bits even when the GEMMs read 8-bit activations (under every convention).
  return std::max(w.settings.activation_bytes(), 2.0);
}

struct CommContext {
  const System& sys;
  const ParallelPlan& plan;
  Group tp_group;
  std::vector<bool> boundary_inter;  // stage s -> s + 1 crosses nodes
  double cb = 2;                     // bytes per communicated element
  const RuntimeSpec* rt = nullptr;   // whose collectives run (custom all-reduce, NCCL's base latency)
  double gap_s = 0;                  // the launch gap each collective kernel pays, as any kernel of the runtime
  double wait_s = 0;                 // what each collective waits for its group's slowest device (the runtime's)
};

void add_line(StepComm& c, const CommContext& ctx, const std::string& what, Collective kind, const Group& g,
              double bytes_per_call, double calls, bool inter_override = false) {
  if (calls <= 0) return;
  const Link& intra = ctx.sys.intra;
  const Link& inter = ctx.sys.inter;
  CollectiveCost cost;
  bool inter_node = g.nodes > 1;
  if (kind == Collective::PointToPoint) {
    cost = collective_cost(kind, bytes_per_call, Group{1, inter_override ? 2 : 1}, intra, inter, ctx.plan.algorithm);
    inter_node = inter_override;
  } else {
    cost = collective_cost(kind, bytes_per_call, g, intra, inter, ctx.plan.algorithm);
  }
  // The runtime's own all-reduce for small messages inside a node: over NVLink-class links, or between two GPUs
  // over PCIe peer-to-peer (vLLM refuses more than two PCIe-only GPUs, and turns it off where the devices cannot
  // read each other's memory: CustomAllreduce's _can_p2p); NCCL's base latency otherwise. One-shot for two
  // devices, and below the runtime's limits for up to 4 and up to 8 (vLLM custom_all_reduce.cuh).
  const RuntimeSpec* rt = ctx.rt;
  const bool nvlink = intra.bandwidth_bytes_per_s > 64e9;
  if (rt && kind == Collective::AllReduce && g.nodes == 1 && (nvlink || g.size() == 2) && intra.peer_to_peer &&
      bytes_per_call <= rt->custom_allreduce_max_bytes && ctx.plan.algorithm == CollectiveAlgo::Auto) {
    const double one_shot_limit = g.size() <= 4 ? rt->one_shot_max_bytes_4 : rt->one_shot_max_bytes;
    cost = custom_allreduce_cost(bytes_per_call, g.size(), intra, g.size() == 2 || bytes_per_call < one_shot_limit);
  } else if (rt && kind != Collective::PointToPoint) {
    cost.latency_s += rt->nccl_base_latency_s;
    cost.seconds += rt->nccl_base_latency_s;
  }
  const bool waits = kind != Collective::PointToPoint && g.size() > 1;
  if (waits) c.waits += calls;
  const double wait_s = waits ? calls * ctx.wait_s : 0;
  const double seconds = calls * (cost.seconds + ctx.gap_s) + wait_s;
  for (auto& l : c.lines) {
    if (l.what == what && l.kind == kind && l.inter_node == inter_node) {
      l.bytes += bytes_per_call * calls;
      l.calls += calls;
      l.seconds += seconds;
      l.wait_s += wait_s;
      c.seconds += seconds;
      c.wait_s += wait_s;
      return;
    }
  }
  c.lines.push_back(CommLine{what, kind, cost.algorithm, kind == Collective::PointToPoint ? 2 : g.size(), inter_node,
                             bytes_per_call * calls, calls, seconds, wait_s});
  c.seconds += seconds;
  c.wait_s += wait_s;
}

// Communication of one step with T tokens and R logit rows, over all stages.
void step_comm(StepComm& c, const CommContext& ctx, const std::vector<Stage>& stages, double T, double R) {
  const ParallelPlan& p = ctx.plan;
  const double cb = ctx.cb;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const ModelSpec& m = stages[s].model;
    const double h = static_cast<double>(m.hidden);
    if (p.tp > 1) {
      if (m.has_embedding) add_line(c, ctx, "embedding (vocabulary split)", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
      // Experts divided among the tp devices (ep) communicate as experts split in width: attention split by heads
      // leaves every device with every token, so each runs its experts on the tokens routed to them and the
      // outputs are all-reduced. No all-to-all: vLLM dispatches with one only under data-parallel attention
      // (FusedMoEParallelConfig.use_all2all_kernels = dp > 1 and ep), SGLang only with a DeepEP backend, TensorRT-LLM
      // only with attention data parallelism; plans here do not model attention data parallelism.
      for (const auto& L : m.layers) {
        if (L.parallel) {
          add_line(c, ctx, "attention + MLP output", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
        } else if (!L.has_ffn || (!L.has_attention && L.recurrent.kind == RecurrentKind::None)) {
          // A single-block layer (Nemotron-H): one reduction of its only block's output.
          add_line(c, ctx, L.has_ffn ? (L.ffn.moe ? "MoE output" : "MLP output") : "mixer output", Collective::AllReduce,
                   ctx.tp_group, T * h * cb, 1);
        } else if (!L.has_attention) {
          add_line(c, ctx, "mixer output", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
          add_line(c, ctx, L.ffn.moe ? "MoE output" : "MLP output", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
        } else {
          add_line(c, ctx, "attention output", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
          add_line(c, ctx, L.ffn.moe ? "MoE output" : "MLP output", Collective::AllReduce, ctx.tp_group, T * h * cb, 1);
        }
      }
      if (m.has_head) add_line(c, ctx, "logits (vocabulary split)", Collective::AllGather, ctx.tp_group, R * static_cast<double>(m.vocab) * p.tp * cb, 1);
    }
    if (s + 1 < stages.size())
      add_line(c, ctx, "pipeline stage boundary", Collective::PointToPoint, ctx.tp_group, T * h * cb, 1, ctx.boundary_inter[s]);
  }
}

double logit_rows(const std::vector<Request>& step, const Convention& conv) {
  double R = 0;
  for (const auto& r : step)
    if (r.input > 0) R += static_cast<double>(conv.lm_head_all_tokens ? r.input * r.count : r.count);
  return R;
}
double tokens_of(const std::vector<Request>& step) {
  double T = 0;
  for (const auto& r : step) T += static_cast<double>(r.input * r.count);
  return T;
}

CommContext context_for(const System& sys, const ParallelPlan& p, const Workload& w) {
  CommContext ctx{sys, p, group_of(p.tp, sys, "/parallel/tp", "tensor-parallel"), {}, comm_bytes_per_element(w)};
  ctx.rt = w.runtime;
  ctx.gap_s = resolve_execution(sys.device, w.runtime).eff.dispatch_s;
  ctx.wait_s = w.runtime ? w.runtime->collective_wait_s : 0;
  const int d = sys.devices_per_node;
  for (int s = 0; s + 1 < p.pp; ++s) ctx.boundary_inter.push_back((s * p.tp) / d != ((s + 1) * p.tp) / d);
  return ctx;
}

// One step of `reqs` (each request's new tokens) on every stage: the stages' times plus communication.
double step_seconds(const std::vector<Stage>& stages, const CommContext& ctx, const std::vector<Request>& reqs,
                    const Workload& base, const Convention& conv, StepComm* comm_out = nullptr,
                    std::vector<WorkSums>* work_out = nullptr) {
  Workload w = base;
  w.requests = reqs;
  w.gen_tokens = 1;
  w.prefill_chunk = 0;
  double t = 0;
  if (work_out) work_out->clear();
  for (const auto& st : stages) {
    const Analysis a = analyze(st.model, w, &ctx.sys.device);
    t += a.ttft_s;
    if (work_out) work_out->push_back(a.prefill_work);  // one device's work for the step (energy)
  }
  StepComm c;
  step_comm(c, ctx, stages, tokens_of(reqs), logit_rows(reqs, conv));
  if (comm_out) *comm_out = c;
  return t + c.seconds;
}

}  // namespace

std::vector<Stage> plan_stages(const ModelSpec& m, const ParallelPlan& p, const System& sys) {
  const int L = static_cast<int>(m.layers.size());
  const std::string total = "tp " + std::to_string(p.tp) + " x pp " + std::to_string(p.pp) + " x dp " +
                            std::to_string(p.dp) + " = " + std::to_string(p.devices()) + " devices";
  if (p.devices() > sys.devices())
    invalid("/parallel", "/parallel holds " + total + "; the system \"" + sys.name + "\" has " +
                             std::to_string(sys.devices()) + "; expected at most that many");
  if (p.pp > L)
    invalid("/parallel/pp", "/parallel/pp holds " + std::to_string(p.pp) + "; " + m.name + " has " + std::to_string(L) +
                                " layers; expected at most one stage per layer");
  const bool moe = has_moe(m);
  if (p.ep > 1 && !moe)
    invalid("/parallel/ep", "/parallel/ep holds " + std::to_string(p.ep) + "; " + m.name +
                                " has no routed experts; expected 1");
  if (p.ep > 1 && p.tp % p.ep != 0)
    invalid("/parallel/ep", "/parallel/ep holds " + std::to_string(p.ep) + " with tp " + std::to_string(p.tp) +
                                "; expected a divisor of tp (experts are divided among a stage's tensor-parallel "
                                "devices; attention split by data parallelism is not modelled)");
  const std::string why = model_problem(m, p.tp, std::max(p.ep, 1));
  if (!why.empty()) {
    std::string valid;
    for (int t = 1; t <= 1024; ++t)
      if (model_problem(m, t, 1).empty()) valid += (valid.empty() ? "" : ", ") + std::to_string(t);
    if (p.ep > 1 && model_problem(m, p.tp, 1).empty())
      invalid("/parallel/ep", "/parallel/ep holds " + std::to_string(p.ep) + "; " + m.name + ": " + why);
    invalid("/parallel/tp", "/parallel/tp holds " + std::to_string(p.tp) + "; " + m.name + ": " + why +
                                "; expected one of " + valid);
  }
  group_of(p.tp, sys, "/parallel/tp", "tensor-parallel");
  std::vector<Stage> stages;
  const ModelSpec frame = frame_of(m);
  // vLLM's get_pp_indices (SGLang uses it too): L / pp layers per stage, and the remainder one each to the stages
  // just before the last, which keeps the LM head lighter.
  const int base = L / p.pp, rem = L % p.pp;
  int next = 0;
  for (int s = 0; s < p.pp; ++s) {
    Stage st;
    st.first_layer = next;
    const bool extra = s < p.pp - 1 && s >= p.pp - 1 - rem;
    const int last = next + base + (extra ? 1 : 0);
    next = last;
    st.layers = last - st.first_layer;
    st.model = shard(frame, m, p.tp, st.first_layer, last);
    stages.push_back(std::move(st));
  }
  return stages;
}

ParallelPlan default_plan(const ModelSpec& m, const System& sys) {
  ParallelPlan p;
  for (int t = std::min(kDefaultTpMax, sys.devices_per_node); t > 1; --t) {
    if (sys.devices_per_node % t == 0 && model_problem(m, t, 1).empty()) {
      p.tp = t;
      break;
    }
  }
  return p;
}

namespace {

std::string gib_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
  return buf;
}

}  // namespace

ParallelPlan layer_split_plan(const ModelSpec& m, const System& sys, const RuntimeSpec& rt, Warning& note) {
  // One machine's devices: such runtimes reach another machine only through an RPC backend (llama.cpp's), not by
  // default.
  ParallelPlan p;
  p.pp = static_cast<int>(std::min<i64>(sys.devices_per_node, static_cast<i64>(m.layers.size())));
  std::string idle;
  if (p.pp < sys.devices())
    idle = " (" + std::to_string(sys.devices() - p.pp) + " of the system's " + std::to_string(sys.devices()) + " devices left idle: " +
           (p.pp < sys.devices_per_node ? "a stage holds at least one layer" : "it splits over one machine's devices") + ")";
  note = {"parallel.default_layers", "/parallel",
          "no /parallel given: " + rt.name + " splits a model's layers over the devices by default (pp " + std::to_string(p.pp) +
              ": each device holds consecutive layers and their cache, and a token passes them in turn" + idle +
              "); /parallel/tp splits every layer over the devices instead (tensor parallelism)"};
  return p;
}

double plan_forecast_analyses(const ParallelPlan& p, const Speculative& spec) {
  // With a draft, each stage is analyzed again for the verify step, and the draft twice (its step and its prefill).
  return spec.enabled() ? 2.0 * p.pp + 2 : p.pp;
}

ParallelPlan default_plan_for(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& node_plan,
                              const Speculative& spec, Warning& note, double& analyses, bool* holds) {
  note = Warning{};
  if (holds) *holds = true;
  // Stages fill a node's devices tp at a time (ranks are tp fastest, then stages), so a node holds devices_per_node /
  // tp of them; at most one stage per layer.
  const i64 per_node = std::max(1, sys.devices_per_node / std::max(1, node_plan.tp));
  const int most = static_cast<int>(std::min<i64>(static_cast<i64>(sys.nodes) * per_node, static_cast<i64>(m.layers.size())));
  if (sys.nodes <= 1 || most <= 1 || node_plan.pp != 1 || node_plan.dp != 1) return node_plan;
  // Each forecast is checked against the work limits, with those before it, before it runs.
  const auto forecast = [&](int pp) {
    ParallelPlan p = node_plan;
    p.pp = pp;
    const double more = plan_forecast_analyses(p, spec);
    check_work(estimate_work(m, w, analyses + more), analyses + more, "the default plan's search over the nodes");
    analyses += more;
    return forecast_plan(m, w, sys, p, spec);
  };
  const PlanForecast one = forecast(1);
  const std::string node = "tp " + std::to_string(node_plan.tp);
  const auto idle = [&](int devices) {
    return std::to_string(sys.devices() - devices) + " of the system's " + std::to_string(sys.devices()) + " devices idle";
  };
  if (one.fits) {
    note = {"parallel.devices_idle", "/parallel",
            "no /parallel given: the default plan (" + node + ") holds the model on one node and leaves " +
                idle(node_plan.devices()) + "; /parallel/dp replicates it, /parallel/pp spreads it over the nodes"};
    return node_plan;
  }
  // The fewest stages that fit. Most of a device's memory divides by the stages (weights, cache), so the first guess
  // is the ratio of need to room; from there the count doubles while the shortfall (need less room) shrinks, until a
  // count fits; then a bisection between the last that did not and the first that did. An engine whose own reserve
  // grows with the devices (SGLang's, per device of the plan) can make the shortfall grow again past some count, so
  // the counts that fit are a window: where a doubling made it worse, the counts between the best so far and that one
  // are tried one by one.
  const auto shortfall = [](const PlanForecast& f) { return f.device_required_bytes - f.device_capacity_bytes; };
  int lo = 1, hi = 0;
  PlanForecast found, closest = one;
  int pp = static_cast<int>(std::clamp(std::ceil(one.device_required_bytes / std::max(one.device_capacity_bytes, 1.0)), 2.0,
                                       static_cast<double>(most)));
  while (true) {
    PlanForecast f = forecast(pp);
    if (f.fits) {
      hi = pp;
      found = std::move(f);
      break;
    }
    if (shortfall(f) < shortfall(closest)) {
      lo = pp;
      closest = std::move(f);
      if (pp == most) break;
      pp = std::min(most, 2 * pp);
      continue;
    }
    for (int q = lo + 1; q < pp && hi == 0; ++q) {
      PlanForecast g = forecast(q);
      if (g.fits) {
        hi = q;
        found = std::move(g);
      } else if (shortfall(g) < shortfall(closest)) {
        lo = q;
        closest = std::move(g);
      } else {
        break;
      }
    }
    break;
  }
  while (hi > 0 && hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    PlanForecast f = forecast(mid);
    if (f.fits) {
      hi = mid;
      found = std::move(f);
    } else {
      lo = mid;
    }
  }
  const std::string head = "no /parallel given: one node (" + node + ") does not hold the model (a device needs " +
                           gib_text(one.device_required_bytes) + " of the " + gib_text(one.device_capacity_bytes) + " it can use)";
  const auto where = [&](const PlanForecast& f) {
    const i64 nodes = (static_cast<i64>(f.plan.pp) * node_plan.tp + sys.devices_per_node - 1) / sys.devices_per_node;
    return node + " x pp " + std::to_string(f.plan.pp) + " on " +
           (nodes == sys.nodes ? std::to_string(nodes) + " nodes" : std::to_string(nodes) + " of the " + std::to_string(sys.nodes) + " nodes") +
           ": " + gib_text(f.device_required_bytes) + " a device";
  };
  if (hi == 0) {
    // Nothing fits: the stages that came closest, if closer than one node.
    if (holds) *holds = false;
    if (closest.plan.pp <= 1) {
      note = {"parallel.no_plan_fits", "/parallel",
              head + ", and no pipeline over the system's nodes does either; the default plan stays on one node. Expected "
                     "smaller weights (/precision/weights), a shorter workload or more devices"};
      return node_plan;
    }
    note = {"parallel.default_pipeline", "/parallel",
            head + ", so the default plan adds pipeline stages over the nodes (" + where(closest) + " of the " +
                gib_text(closest.device_capacity_bytes) + " it can use), the closest to fitting, and still does not hold it; "
                "expected smaller weights (/precision/weights), a shorter workload or more devices"};
    return closest.plan;
  }
  const bool spare = found.plan.devices() < sys.devices();
  note = {"parallel.default_pipeline", "/parallel",
          head + ", so the default plan adds pipeline stages over the nodes, the fewest that hold it (" + where(found) +
              "), as multi-node deployments of vLLM and SGLang run" +
              (spare ? "; it leaves " + idle(found.plan.devices()) + ", /parallel/dp replicates it" : "")};
  return found.plan;
}

ParallelPlan serving_plan_filling(const ModelSpec& m, const System& sys, const ParallelPlan& p, Warning& note) {
  // Slots of tp devices: a node holds devices_per_node / tp of them when tp divides it (else a stage could straddle
  // two nodes: the plan stays).
  if (p.dp != 1 || p.tp < 1 || sys.devices_per_node % p.tp != 0) return p;
  const i64 slots = static_cast<i64>(sys.nodes) * (sys.devices_per_node / p.tp);
  const i64 dp = slots / std::max(1, p.pp);
  const i64 pp = std::min<i64>(slots / std::max<i64>(1, dp), static_cast<i64>(m.layers.size()));
  if (dp <= 1 && pp <= p.pp) return p;
  ParallelPlan q = p;
  q.dp = static_cast<int>(std::max<i64>(1, dp));
  q.pp = static_cast<int>(std::max<i64>(p.pp, pp));
  const auto plan_text = [](const ParallelPlan& x) {
    return "tp " + std::to_string(x.tp) + (x.pp > 1 ? " x pp " + std::to_string(x.pp) : std::string());
  };
  const int idle = sys.devices() - q.devices();
  std::string why = p.pp > 1 ? "the fewest stages that hold the model and one request of the load (" + plan_text(p) + ")"
                             : "one node's plan (" + plan_text(p) + ")";
  if (q.pp > p.pp) why += ", spread to pp " + std::to_string(q.pp) + " so that each device keeps more room for the cache";
  note = {"parallel.default_serving", "/parallel",
          "no /parallel given: serving runs " + std::to_string(q.dp) + (q.dp == 1 ? " replica" : " replicas") + " of " +
              plan_text(q) + " over the system's " + std::to_string(sys.devices()) + " devices: " + why +
              (q.dp > 1 ? ", repeated as a router spreads requests over vLLM or SGLang instances (/parallel/dp)" : std::string()) +
              (idle > 0 ? "; " + std::to_string(idle) + " of them idle" : std::string())};
  return q;
}

StepComm step_communication(const std::vector<Stage>& stages, const System& sys, const ParallelPlan& p, const Workload& w,
                            double tokens, double logit_rows) {
  StepComm c;
  step_comm(c, context_for(sys, p, w), stages, tokens, logit_rows);
  return c;
}

PlanForecast forecast_plan(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& p,
                           const Speculative& spec) {
  PlanForecast f;
  f.plan = p;
  f.devices = p.devices();
  f.stages = plan_stages(m, p, sys);
  const CommContext ctx = context_for(sys, p, w);
  const Convention& conv = w.settings.convention;
  Workload on_plan = w;  // the runtime's memory budget is resolved for this replica (SGLang's reserve)
  on_plan.devices = p.tp * p.pp;
  on_plan.tp = p.tp;
  for (auto& st : f.stages) {
    st.a = analyze(st.model, on_plan, &sys.device);
    st.required_bytes = st.a.memory_required_bytes;
    st.capacity_bytes = st.a.memory_capacity_bytes;
  }
  for (const auto& wr : f.stages.front().a.warnings) f.warnings.push_back(wr);
  for (const auto& e : m.layers)
    if (e.ffn.moe && e.ffn.expert_intermediate % p.tp != 0) {
      f.warnings.push_back({"parallel.uneven_experts", "/parallel/tp",
                            "expert width " + count_text(e.ffn.expert_intermediate) + " does not divide by tp " + count_text(p.tp) +
                                "; each device's expert work is rounded up"});
      break;
    }

  // The first step: every chunk's communication; the decode step: one token per request.
  for (const auto& chunk : prefill_steps(w.requests, w.prefill_chunk))
    step_comm(f.prefill_comm, ctx, f.stages, tokens_of(chunk), logit_rows(chunk, conv));
  const double B = f.stages.front().a.batch_requests;
  const double D = f.stages.front().a.decode_steps;
  if (w.gen_tokens > 1) step_comm(f.decode_comm, ctx, f.stages, B, B);
  const double dc = f.decode_comm.seconds;

  f.ttft_s = f.prefill_comm.seconds;
  for (const auto& st : f.stages) {
    f.ttft_s += st.a.ttft_s;
    f.tpot_first_s += st.a.tpot_first_s;
    f.tpot_mean_s += st.a.tpot_mean_s;
    f.tpot_last_s += st.a.tpot_last_s;
    f.decode_time_s += st.a.decode_time_s;
  }
  f.tpot_first_s += dc;
  f.tpot_mean_s += dc;
  f.tpot_last_s += dc;
  f.decode_time_s += D * dc;
  f.e2e_s = f.ttft_s + f.decode_time_s;
  f.tokens_per_s = f.tpot_mean_s > 0 ? 1 / f.tpot_mean_s : 0;
  f.replica_tokens_per_s = f.tokens_per_s * B;
  f.total_tokens_per_s = f.replica_tokens_per_s * p.dp;
  f.tokens_per_s_per_device = f.total_tokens_per_s / std::max(f.devices, 1);
  f.timeline = f.stages.front().a.timeline;
  for (std::size_t i = 0; i < f.timeline.size(); ++i) {
    f.timeline[i].tpot_s = dc;
    for (const auto& st : f.stages)
      if (i < st.a.timeline.size()) f.timeline[i].tpot_s += st.a.timeline[i].tpot_s;
  }

  // Speculative decoding at the middle of the generation.
  if (spec.enabled()) {
    SpeculativeResult& r = f.spec;
    r.enabled = true;
    r.draft_tokens = spec.draft_tokens;
    if (spec.acceptance_length > 0) {
      r.tokens_per_step = spec.acceptance_length;
      r.acceptance = speculative_acceptance_for_length(spec.acceptance_length, spec.draft_tokens);
    } else {
      r.acceptance = spec.acceptance;
      r.tokens_per_step = speculative_tokens_per_step(spec.acceptance, spec.draft_tokens);
    }
    r.draft_acceptance_rate = (r.tokens_per_step - 1) / spec.draft_tokens;
    const i64 half = static_cast<i64>(std::floor(D / 2));
    std::vector<Request> verify, draft_step;
    for (const auto& q : w.requests) {
      const i64 ctx_tokens = q.cached + q.input + half;
      verify.push_back(Request{ctx_tokens, spec.draft_tokens + 1, q.count});
      draft_step.push_back(Request{ctx_tokens, 1, q.count});
    }
    Convention all_rows = conv;
    all_rows.lm_head_all_tokens = true;  // every drafted position needs its logits
    Workload wv = w;
    wv.settings.convention = all_rows;
    // A verification step is a short query over a long cache: MLA backends run it as a decode, absorbed (vLLM's
    // metadata builders raise their decode threshold to 1 + the speculative tokens; SGLang's target_verify mode),
    // not through kv_b_proj over every cached key.
    if (wv.settings.mla == MlaForm::Auto) wv.settings.mla = MlaForm::Absorbed;
    r.verify_step_s = step_seconds(f.stages, ctx, verify, wv, all_rows, nullptr, &r.verify_work);

    ModelSpec d;
    if (spec.mtp) {
      if (m.mtp_layers <= 0)
        throw InputError("speculative.no_mtp", "/speculative/draft",
                         "/speculative/draft holds \"mtp\"; " + m.name +
                             " has no multi-token-prediction layers (num_nextn_predict_layers); expected a draft model");
      d = m;
      d.id = m.id + "-mtp";
      d.name = m.name + " MTP module";
      d.layers = {m.layers.back()};  // one module (a layer like the last, sharing the embedding and LM head)
      d.mtp_layers = 0;
      r.draft = "mtp";
    } else {
      d = *spec.draft;
      r.draft = d.id;
      if (d.vocab != m.vocab)
        f.warnings.push_back({"speculative.vocab_mismatch", "/speculative/draft",
                              "the draft's vocabulary (" + count_text(d.vocab) + ") differs from the target's (" + count_text(m.vocab) +
                                  "); speculative decoding needs a shared tokenizer"});
    }
    ParallelPlan dp_plan;
    dp_plan.tp = model_problem(d, p.tp, 1).empty() ? p.tp : 1;
    dp_plan.algorithm = p.algorithm;
    r.draft_tp = dp_plan.tp;
    if (dp_plan.tp != p.tp)
      f.warnings.push_back({"speculative.draft_one_device", "/speculative/draft",
                            "the draft cannot be split over tp " + count_text(p.tp) + " (" + model_problem(d, p.tp, 1) +
                                "); it runs on one device"});
    std::vector<Stage> dstages;
    {
      Stage ds;
      ds.layers = static_cast<int>(d.layers.size());
      ds.model = shard(frame_of(d), d, dp_plan.tp, 0, ds.layers);
      dstages.push_back(std::move(ds));
    }
    // The drafter runs inside the engine step that verifies its tokens (vLLM's GPUModelRunner.execute_model calls
    // propose_draft_token_ids; SGLang's and TensorRT-LLM's speculative workers likewise): scheduling, input
    // preparation and output processing, the runtime's step overhead, are paid once per verification step, and
    // a draft step pays only its own kernels' launches.
    Workload wd = w;
    RuntimeSpec draft_rt;
    if (w.runtime) {
      draft_rt = *w.runtime;
      draft_rt.step_overhead_s = 0;
      wd.runtime = &draft_rt;
    }
    const CommContext dctx = context_for(sys, dp_plan, wd);
    std::vector<WorkSums> draft_work;
    r.draft_step_s = step_seconds(dstages, dctx, draft_step, wd, conv, nullptr, &draft_work);
    if (!draft_work.empty()) r.draft_work = draft_work.front();
    const double plain = f.tpot_mean_s;
    r.tpot_s = (spec.draft_tokens * r.draft_step_s + r.verify_step_s) / r.tokens_per_step;
    r.speedup = r.tpot_s > 0 ? plain / r.tpot_s : 1;
    // The plan's figures become the speculative ones: TPOT over the generation is the plain curve scaled by the
    // ratio at mid-generation, and every throughput follows it.
    r.plain_tpot_s = plain;
    r.plain_e2e_s = f.e2e_s;
    r.plain_total_tokens_per_s = f.total_tokens_per_s;
    const double ratio = plain > 0 ? r.tpot_s / plain : 1;
    f.tpot_first_s *= ratio;
    f.tpot_mean_s = r.tpot_s;
    f.tpot_last_s *= ratio;
    for (auto& t : f.timeline) t.tpot_s *= ratio;
    // Memory the draft adds to the first stage's devices: its own weights (an MTP module shares the embedding and
    // LM head) and its cache at the end of the workload. The same analysis times the drafter over the prompt: vLLM's
    // proposer and SGLang's draft-extend run it in the step that yields the first token, so it is in TTFT (vLLM
    // then drafts gamma - 1 more tokens in that step; SGLang at the start of the next: not counted).
    ModelSpec held = dstages.front().model;
    if (spec.mtp) held.has_embedding = held.has_head = false;
    const Analysis da = analyze(held, wd, &sys.device);
    r.draft_weights_bytes = da.weights_bytes;
    r.draft_kv_bytes = da.kv_cache_bytes;
    r.draft_prefill_s = da.ttft_s;
    f.ttft_s += r.draft_prefill_s;
    f.decode_time_s = D * r.tpot_s;
    f.e2e_s = f.ttft_s + f.decode_time_s;
    f.tokens_per_s = r.tpot_s > 0 ? 1 / r.tpot_s : 0;
    f.replica_tokens_per_s = f.tokens_per_s * B;
    f.total_tokens_per_s = f.replica_tokens_per_s * p.dp;
    f.tokens_per_s_per_device = f.total_tokens_per_s / std::max(f.devices, 1);
    f.stages.front().required_bytes += r.draft_weights_bytes + r.draft_kv_bytes;
    // A target with recurrent layers (Mamba, linear attention) keeps their state for every drafted position, so a
    // rejected token's state can be dropped: vLLM holds 1 + gamma state blocks a request (num_speculative_blocks),
    // SGLang an intermediate SSM state per draft token. Every stage's devices hold gamma more copies of theirs.
    for (auto& st : f.stages) {
      const double extra = spec.draft_tokens * std::max(0.0, st.a.state_bytes - st.a.image_kv_bytes);
      st.required_bytes += extra;
      if (&st == &f.stages.front()) r.draft_state_bytes = extra;
    }
  }

  // With a draft, the first stage's devices hold its weights and cache too: the room the analysis leaves for the
  // target's cache at its largest batch, less the draft's weights, shared per request by both caches and the
  // drafted positions' recurrent state (a draft larger than that room: 0); other stages hold that state too.
  if (f.spec.enabled) {
    for (std::size_t i = 0; i < f.stages.size(); ++i) {
      Stage& st = f.stages[i];
      const double requests = std::max(1.0, st.a.batch_requests);  // the analysis's own count of the workload's requests
      const double per_main = st.a.kv_cache_bytes / requests;
      const double per_more = (i == 0 ? f.spec.draft_kv_bytes / requests : 0.0) +
                              f.spec.draft_tokens * std::max(0.0, st.a.state_bytes - st.a.image_kv_bytes) / requests;
      const double room = (per_main > 0 ? st.a.max_batch * per_main : st.capacity_bytes) - (i == 0 ? f.spec.draft_weights_bytes : 0.0);
      const double fit = per_main + per_more > 0 ? std::floor(std::max(0.0, room) / (per_main + per_more)) : (room > 0 ? st.a.max_batch : 0);
      st.a.max_batch = std::min(st.a.max_batch, fit);
    }
  }
  f.max_batch = 1e300;
  for (auto& st : f.stages) {
    st.fits = st.required_bytes <= st.capacity_bytes;
    f.fits = f.fits && st.fits;
    if (st.required_bytes >= f.device_required_bytes) {
      f.device_required_bytes = st.required_bytes;
      f.device_capacity_bytes = st.capacity_bytes;
    }
    f.max_batch = std::min(f.max_batch, st.a.max_batch);
  }
  f.max_context = 1e300;
  for (const auto& st : f.stages) f.max_context = std::min(f.max_context, st.a.max_context);
  if (f.spec.enabled) f.max_context = -1;
  return f;
}

BatchingCurve batching_curve(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& p,
                             const Speculative& spec, double max_batch) {
  BatchingCurve c;
  const Request shape = w.requests.empty() ? Request{0, 1, 1} : w.requests.front();
  const auto at = [&](double b) {
    Workload wb = w;
    wb.requests = {Request{shape.cached, shape.input, static_cast<i64>(b)}};
    return forecast_plan(m, wb, sys, p, spec);
  };
  const auto point = [&](double b) {
    const PlanForecast f = at(b);
    BatchPoint pt;
    pt.batch = b;
    pt.ttft_s = f.ttft_s;
    pt.tpot_s = f.tpot_mean_s;  // speculative when speculative decoding is on
    pt.e2e_s = f.e2e_s;
    pt.tokens_per_s_per_user = f.tokens_per_s;
    pt.total_tokens_per_s = f.total_tokens_per_s;
    pt.tokens_per_s_per_device = f.tokens_per_s_per_device;
    pt.device_required_bytes = f.device_required_bytes;
    pt.fits = f.fits;
    return pt;
  };
  // The largest batch that fits: bracket from the first point's estimate, then bisect.
  const PlanForecast one = at(1);
  if (one.fits) {
    double lo = 1, hi = std::max(2.0, std::min(1e6, one.max_batch * 2 + 2));
    while (hi < 1e6 && at(hi).fits) {
      lo = hi;
      hi = std::min(1e6, hi * 2);
    }
    if (hi >= 1e6 && at(hi).fits) lo = hi;
    while (hi - lo > 1) {
      const double mid = std::floor((lo + hi) / 2);
      (at(mid).fits ? lo : hi) = mid;
    }
    c.kv_fit_batch = lo;
  }
  const double top = std::max(1.0, std::min(max_batch, std::max(2 * c.kv_fit_batch, 8.0)));
  std::vector<double> bs;
  for (double b = 1; b <= top; b *= 2) bs.push_back(b);
  if (c.kv_fit_batch >= 1 && c.kv_fit_batch <= top) bs.push_back(c.kv_fit_batch);
  if (c.kv_fit_batch + 1 <= top) bs.push_back(c.kv_fit_batch + 1);
  bs.push_back(top);
  std::sort(bs.begin(), bs.end());
  bs.erase(std::unique(bs.begin(), bs.end()), bs.end());
  for (double b : bs) c.points.push_back(point(b));
  return c;
}

}  // namespace infercast
