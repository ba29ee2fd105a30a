// Request reading: the model, device, workload, precisions, settings, costs, scenario and plan a request names,
// each checked with a message naming its path (docs/schema.md). Shared by every operation.
#include "api/request.hpp"

#include <cmath>
#include <tuple>

#include "analysis/work.hpp"
#include "api/images.hpp"
#include "api/options.hpp"
#include "util/limits.hpp"
#include "io/hardware_json.hpp"
#include "io/defaults.hpp"
#include "io/presets.hpp"
#include "io/runtime_json.hpp"
#include "io/system_json.hpp"
#include "quant/llama_mix.hpp"

namespace infercast {

ResolvedModel resolve_model(Reader& r) {
  const json* v = r.raw("model");
  if (!v) r.fail("model", "missing_field", r.child_path("model") + " is missing; expected a preset id or a config.json object");
  ResolvedModel out;
  if (v->is_string()) {
    const auto id = v->get<std::string>();
    const ModelPreset* p = find_model_preset(id);
    if (!p) {
      r.fail("model", "unknown_preset",
             r.child_path("model") + " holds " + quote_text(id, 200) + ", which is not a model preset; run `infercast models` for the list");
    }
    out.spec = model_preset_spec(*p);
    out.id = p->id;
    out.name = p->name;
    out.source = p->source;
    out.stated_total = p->stated_total;
    out.stated_active = p->stated_active;
  } else if (v->is_object()) {
    // A preset document (with its config) or a bare Hugging Face config.json.
    if (v->contains("schema_version") && v->contains("config")) {
      ModelPreset p = parse_model_preset(*v, r.child_path("model"), r.code_prefix());
      out.spec = parse_model_config(p.config, r.child_path("model") + "/config");
      out.id = p.id;
      out.name = p.name;
      out.source = p.source;
      out.stated_total = p.stated_total;
      out.stated_active = p.stated_active;
    } else {
      out.spec = parse_model_config(*v, r.child_path("model"));
      const json* nm = v->contains("_name_or_path") ? &v->at("_name_or_path") : nullptr;
      out.name = (nm && nm->is_string()) ? nm->get<std::string>() : "custom " + out.spec.model_type;
      out.id = "custom";
    }
  } else {
    r.fail("model", "wrong_type", r.child_path("model") + " holds " + describe(*v) + "; expected a preset id or a config.json object");
  }
  out.spec.id = out.id;
  out.spec.name = out.name;
  return out;
}

std::string unknown_dtype_message(const std::string& path, const std::string& name, bool mixes) {
  std::string list;
  for (const auto& t : all_dtypes()) list += (list.empty() ? "" : ", ") + t.name;
  std::string mix_list;
  if (mixes)
    for (const auto& x : llama_mixes()) mix_list += (mix_list.empty() ? "" : ", ") + std::string(x.name);
  return path + " holds " + quote_text(name, 200) + "; expected one of " + list +
         ", or intN-gG (N-bit integers with an fp16 scale and zero per G weights, N = 2, 3, 4 or 8; intN-gG-sym without the zero), or mlxN-gG (mlx-lm's N-bit integers with an fp16 scale and bias per G weights, N = 2 to 6 or 8), or exl2-B (ExLlamaV2's EXL2 at a mean of B bits per weight, 2.0 to 8.0)" +
         (mixes ? ", or a llama.cpp file type (" + mix_list + ")" : "");
}

std::vector<std::string> weight_format_list(Reader& r, const std::string& key, const std::vector<std::string>& fallback) {
  std::vector<std::string> names = r.has(key) ? r.string_array_or(key) : fallback;
  if (!r.has(key)) r.raw(key);
  if (names.empty()) r.fail(key, "out_of_range", r.child_path(key) + " is an empty list; expected at least one format");
  if (names.size() > 40)
    r.fail(key, "out_of_range", r.child_path(key) + " holds " + std::to_string(names.size()) + " formats; expected at most 40");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string path = r.child_path(key) + "/" + std::to_string(i);
    if (!find_llama_mix(names[i]) && !find_dtype(names[i]))
      throw InputError(r.code_prefix() + ".unknown_dtype", path, unknown_dtype_message(path, names[i], true));
  }
  return names;
}

DType dtype_field(Reader& r, const std::string& key, const std::string& fallback) {
  const std::string name = r.string_or(key, fallback);
  const auto d = find_dtype(name);
  if (!d) r.fail(key, "unknown_dtype", unknown_dtype_message(r.child_path(key), name, false));
  return *d;
}

// A list of format names (a sweep axis); `fallback` when absent.
std::vector<DType> dtype_list(Reader& r, const std::string& key, const std::vector<std::string>& fallback) {
  std::vector<std::string> names = r.has(key) ? r.string_array_or(key) : fallback;
  if (!r.has(key)) r.raw(key);
  if (names.empty()) r.fail(key, "out_of_range", r.child_path(key) + " is an empty list; expected at least one format");
  if (names.size() > 40)
    r.fail(key, "out_of_range", r.child_path(key) + " holds " + std::to_string(names.size()) + " formats; expected at most 40");
  std::vector<DType> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto d = find_dtype(names[i]);
    const std::string path = r.child_path(key) + "/" + std::to_string(i);
    if (!d) throw InputError(r.code_prefix() + ".unknown_dtype", path, unknown_dtype_message(path, names[i], false));
    out.push_back(*d);
  }
  return out;
}

// The request's "costs": assumptions behind energy, cost and CO2 (docs/formulas.md, "Energy, cost and CO2").
CostAssumptions read_costs(Reader& r) {
  CostAssumptions a;
  if (!r.has("costs")) {
    r.raw("costs");
    return a;
  }
  Reader c = r.object("costs");
  a.compute_power_fraction = read_field(c, field::compute_power_fraction);
  a.static_fraction = read_field(c, field::static_fraction);
  a.power_w = read_field(c, field::power_w);
  a.lifetime_years = read_field(c, field::lifetime_years);
  a.utilization = read_field(c, field::utilization);
  a.usd_per_kwh = read_field(c, field::usd_per_kwh);
  a.pue = read_field(c, field::pue);
  a.price_usd = read_field(c, field::price_usd);
  a.region = c.string_or("region", a.region);
  if (!find_grid_region(a.region)) {
    std::string list;
    for (const auto& g : grid_regions()) list += (list.empty() ? "" : ", ") + g.id;
    c.fail("region", "out_of_range", c.child_path("region") + " holds " + quote_text(a.region, 200) + "; expected one of " + list +
                                         ", or give grid_gCO2e_per_kWh");
  }
  a.grid_g_per_kwh = read_field(c, field::grid_g_per_kwh);
  a.embodied_kgco2e = read_field(c, field::embodied_kgco2e);
  c.reject_unknown();
  return a;
}

// The request's "scenario": a built-in bundle of optimizations whose settings become the defaults below.
const Scenario* read_scenario(Reader& r) {
  if (!r.has("scenario")) {
    r.raw("scenario");
    return nullptr;
  }
  const std::string name = r.string("scenario");
  const Scenario* sc = find_scenario(name);
  if (!sc) {
    std::string list;
    for (const auto& s : all_scenarios()) list += (list.empty() ? "" : ", ") + s.name;
    r.fail("scenario", "out_of_range", r.child_path("scenario") + " holds " + quote_text(name, 200) + "; expected one of " + list);
  }
  return sc;
}

// "convert_mla": convert standard attention to MLA (sizes default to LIFE's); a scenario may ask for it too.
void apply_mla_conversion(Reader& r, ModelSpec& m, const Scenario* sc) {
  if (r.has("convert_mla")) {
    Reader c = r.object("convert_mla");
    MlaConversion d = sc ? sc->mla : MlaConversion{};
    // A scenario's sizes are the defaults (LIFE's otherwise); the ranges are the options table's.
    d.q_lora_rank = c.int_in_or("q_lora_rank", field::mla_q_lora_rank.lo, field::mla_q_lora_rank.hi, d.q_lora_rank);
    d.kv_lora_rank = c.int_in_or("kv_lora_rank", field::mla_kv_lora_rank.lo, field::mla_kv_lora_rank.hi, d.kv_lora_rank);
    d.qk_nope_dim = c.int_in_or("qk_nope_head_dim", field::mla_qk_nope_head_dim.lo, field::mla_qk_nope_head_dim.hi, d.qk_nope_dim);
    d.qk_rope_dim = c.int_in_or("qk_rope_head_dim", field::mla_qk_rope_head_dim.lo, field::mla_qk_rope_head_dim.hi, d.qk_rope_dim);
    d.v_head_dim = c.int_in_or("v_head_dim", field::mla_v_head_dim.lo, field::mla_v_head_dim.hi, d.v_head_dim);
    c.reject_unknown();
    m = convert_to_mla(m, d);
  } else {
    r.raw("convert_mla");
    if (sc) m = scenario_model(*sc, m);
  }
}

const RuntimeSpec* resolve_runtime(Reader& r, RuntimeSpec& storage) {
  const json* v = r.raw("runtime");
  if (!v) return nullptr;
  if (v->is_string()) {
    const RuntimeSpec* rt = find_runtime_preset(v->get<std::string>());
    if (!rt)
      r.fail("runtime", "unknown_preset",
             "/runtime holds \"" + v->get<std::string>() + "\", which is not a runtime preset; run `infercast runtimes` for the list");
    return rt;
  }
  if (v->is_object()) {
    storage = parse_runtime(*v, "/runtime");
    return &storage;
  }
  r.fail("runtime", "wrong_type", "/runtime holds " + describe(*v) + "; expected a runtime preset id or a runtime object");
}

const RuntimeSpec* choose_runtime(const RuntimeSpec* given, const HardwareSpec* hw, const Workload& w, const Scenario* sc) {
  if (given) return given;
  if (sc || w.settings.convention.name == "life" || !hw) return find_runtime_preset("reference");
  return find_runtime_preset(default_runtime_id(*hw));
}

namespace {

// An integer a request entry holds within the field's range, or false (the checked reader then says why).
bool plain_int(const json& v, const IntField& f, i64& out) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(f.hi)) return false;
    out = static_cast<i64>(u);
  } else if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
  } else {
    return false;
  }
  return out >= f.lo && out <= f.hi;
}

// /workload/requests: thousands of entries read directly when each is an object of in-range integers under the
// known keys; an entry that is not goes through the checked reader, whose message names its path.
void read_requests(Reader& wr, std::vector<Request>& out) {
  const json& list = *wr.raw("requests");
  if (list.is_array() && list.size() > limit::kRequestEntries)
    wr.fail("requests", "out_of_range", wr.child_path("requests") + " holds " + std::to_string(list.size()) +
                                            " entries; expected at most " + std::to_string(limit::kRequestEntries) +
                                            " (each entry's count repeats it, up to " + std::to_string(kMaxBatch) + " requests in all)");
  if (!list.is_array() || list.empty()) {
    wr.object_array("requests");  // throws the message for what it holds
    return;
  }
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    Request q{field::request_cached.fallback, field::request_input.fallback, field::request_count.fallback};
    bool plain = e.is_object();
    std::size_t known = 0;
    if (plain) {
      for (const auto& [key, f, slot] : {std::tuple{"cached", &field::request_cached, &q.cached},
                                         std::tuple{"input", &field::request_input, &q.input},
                                         std::tuple{"count", &field::request_count, &q.count}}) {
        const auto it = e.find(key);
        if (it == e.end()) continue;
        ++known;
        plain = plain && plain_int(*it, *f, *slot);
      }
      plain = plain && known == e.size();
    }
    if (!plain) {
      Reader rr(e, wr.child_path("requests") + "/" + std::to_string(i), wr.code_prefix());
      q.cached = read_field(rr, field::request_cached);
      q.input = read_field(rr, field::request_input);
      q.count = read_field(rr, field::request_count);
      rr.reject_unknown();
    }
    out.push_back(q);
  }
}

}  // namespace

Workload read_workload(Reader& req, const ModelSpec& m, const Scenario* sc, const HardwareSpec* hw, const RuntimeSpec* rt) {
  Workload w;
  // The convention first: it decides the default runtime, whose settings are the defaults of everything below.
  w.settings.convention = convention_by_name(req.string_or("convention", "infercast"), req.child_path("convention"));
  w.runtime = choose_runtime(rt, hw, w, sc);
  if (w.runtime) {
    w.settings.fusion = w.runtime->fusion;
    w.settings.fused_mlp = w.runtime->act_in_gemm;
    w.settings.attention = w.runtime->flash_attention ? AttnImpl::Fused : AttnImpl::Unfused;
    w.settings.score_bytes = w.runtime->unfused_score_bytes;
  }
  if (sc) apply_scenario(*sc, w.settings);  // its settings are the defaults of the fields below
  bool prefill_chunk_given = false;
  if (req.has("workload")) {
    Reader wr = req.object("workload");
    if (wr.has("requests")) {
      read_requests(wr, w.requests);
      if (wr.has("batch") || wr.has("prompt")) {
        const std::string key = wr.has("batch") ? "batch" : "prompt";
        wr.fail(key, "conflict", wr.child_path(key) + " cannot be combined with " + wr.child_path("requests") +
                                     "; give either batch and prompt, or a list of requests");
      }
    } else {
      Request q;
      q.count = read_field(wr, field::batch);
      q.input = read_field(wr, field::prompt);
      q.cached = read_field(wr, field::cached);
      w.requests.push_back(q);
    }
    w.gen_tokens = read_field(wr, field::gen);
    prefill_chunk_given = wr.has("prefill_chunk");
    w.prefill_chunk = read_field(wr, field::prefill_chunk);
    read_images(wr, m, w);  // their tokens join every new prompt (api/images.cpp)
    wr.reject_unknown();
  } else {
    req.raw("workload");
    w.requests.push_back(Request{field::cached.fallback, field::prompt.fallback, field::batch.fallback});
    w.gen_tokens = field::gen.fallback;
  }
  double total_requests = 0;
  for (const auto& q : w.requests) {
    total_requests += static_cast<double>(q.count);
    if (static_cast<double>(q.cached + q.input) + static_cast<double>(w.gen_tokens) > 2.0 * kMaxTokens) {
      throw InputError("workload.out_of_range", "/workload",
                       "/workload: cached + input + generated tokens exceed 2000000000 for one request");
    }
  }
  if (total_requests > static_cast<double>(kMaxBatch))
    throw InputError("workload.out_of_range", "/workload/requests",
                     "/workload/requests adds up to " + std::to_string(static_cast<long long>(total_requests)) +
                         " requests; expected at most " + std::to_string(kMaxBatch));
  // A runtime that runs prompts in micro-batches (llama.cpp's n_ubatch) prefills in chunks unless the request
  // says how.
  if (!prefill_chunk_given) w.prefill_chunk = prompt_chunk(w.runtime, total_requests);

  // Weights: the request's format for every class; without one, the checkpoint's quantization_config for the
  // classes it quantizes and bf16 for the rest. Per-class keys override either.
  Precision& pr = w.settings.precision;
  static const json kNone = json::object();
  Reader p = req.has("precision") ? req.object("precision") : Reader(kNone, "/precision", "request");
  if (!req.has("precision")) req.raw("precision");
  const bool given = p.has("weights") || sc;  // a scenario's weight format replaces the declared one too
  // A llama.cpp file type (q4_k_m, ...) gives each class the exact bits llama-quantize gives its tensors.
  const std::string wname = p.string_or("weights", pr.weights.name);
  if (!find_llama_mix(wname) && !find_dtype(wname))
    p.fail("weights", "unknown_dtype", unknown_dtype_message(p.child_path("weights"), wname, true));
  apply_weight_format(pr, m, wname, sc != nullptr);
  pr.activations = dtype_field(p, "activations", pr.activations.name);
  pr.kv = dtype_field(p, "kv", pr.kv.name);
  if (!given && !m.declared_weights.empty()) {
    const auto declared = find_dtype(m.declared_weights);
    for (int c = 0; c < kWeightClasses; ++c)
      if (!m.declared_keeps[c]) pr.by_class[c] = declared;
    // Routed experts stored in a format of their own (DeepSeek-V4's fp4 experts beside fp8 weights).
    if (const auto experts = find_dtype(m.declared_expert_weights); experts && !m.declared_expert_weights.empty())
      pr.by_class[static_cast<int>(WeightClass::Experts)] = experts;
    // A W8A8 FP8 checkpoint (an activation_scheme beside FP8 weights) computes in FP8 where the device has FP8 matrix
    // units and the runtime uses them (vLLM's and SGLang's Fp8LinearMethod quantize activations per token or per
    // 128-wide group); elsewhere its weights are dequantized and multiplied in bf16 (FP8 Marlin on an A100).
    const bool fp8_units = hw && hw->peak_flops[static_cast<std::size_t>(ComputeType::FP8)] > 0 && (!w.runtime || w.runtime->fp8);
    if (!p.has("activations") && m.declared_activations == "fp8" && fp8_units) pr.activations = *find_dtype("fp8");
  }
  for (int c = 0; c < kWeightClasses; ++c) {
    const char* key = weight_class_name(static_cast<WeightClass>(c));
    if (p.has(key)) pr.by_class[c] = dtype_field(p, key, "bf16");
  }
  p.reject_unknown();
  if (w.settings.precision.activations.weight_only) {
    req.fail("precision", "out_of_range",
             "/precision/activations holds \"" + w.settings.precision.activations.name +
                 "\", a weight-only storage format; expected a compute type such as bf16, fp16, fp8 or int8");
  }
  w.settings.attention = read_enum(req, "attention", attn_impl_names(), w.settings.attention);
  w.settings.mla = read_enum(req, "mla", mla_form_names(), w.settings.mla);
  w.settings.fused_mlp = read_enum(req, "mlp", mlp_form_names(), w.settings.fused_mlp);
  w.settings.attention_tile = read_field(req, field::attention_tile);
  w.memory_fraction = read_field(req, field::memory_fraction);
  if (req.has("lora")) {
    Reader lr = req.object("lora");
    w.settings.lora.rank = lr.int_in_or("rank", field::lora_rank.lo, field::lora_rank.hi,
                                        w.settings.lora.rank > 0 ? w.settings.lora.rank : field::lora_rank.fallback);
    w.settings.lora.mode = read_enum(lr, "mode", lora_mode_names(), w.settings.lora.mode);
    lr.reject_unknown();
  } else {
    req.raw("lora");
  }
  w.settings.online_hadamard = req.boolean_or("online_hadamard", w.settings.online_hadamard);
  // Timing: LIFE sums a whole phase as max(compute, memory); our default bounds each operator on its own.
  w.timing = read_enum(req, "timing", timing_names(), w.settings.convention.name == "life" ? Timing::PhaseMax : Timing::PerOp);
  if (req.has("placement")) {
    if (!req.has("hardware"))
      throw InputError("request.conflict", "/placement",
                       "/placement pins data to memory tiers, which need a device; give /hardware too or drop /placement");
    Reader pl = req.object("placement");
    w.pin_weights = static_cast<int>(read_field(pl, field::pin_weights));
    w.pin_kv = static_cast<int>(read_field(pl, field::pin_kv));
    pl.reject_unknown();
  } else {
    req.raw("placement");
  }
  if (req.has("moe_traffic")) {
    w.settings.convention.moe = moe_traffic_names().parse(req.string("moe_traffic"), "/moe_traffic", "workload.out_of_range");
  } else {
    req.raw("moe_traffic");
  }
  check_workload(m, w);  // before any work starts (analysis/work.hpp)
  return w;
}

// The request's "hardware": a preset id or a hardware object (parsed into `storage`); nullptr when absent.
const HardwareSpec* resolve_hardware(Reader& r, HardwareSpec& storage) {
  const json* hv = r.raw("hardware");
  if (!hv) return nullptr;
  if (hv->is_string()) {
    const HardwareSpec* hw = find_hardware_preset(hv->get<std::string>());
    if (!hw)
      r.fail("hardware", "unknown_preset",
             "/hardware holds " + quote_text(hv->get<std::string>(), 200) + ", which is not a hardware preset; run `infercast hardware` for the list");
    return hw;
  }
  if (hv->is_object()) {
    storage = parse_hardware(*hv, "/hardware");
    return &storage;
  }
  r.fail("hardware", "wrong_type", "/hardware holds " + describe(*hv) + "; expected a preset id or a hardware object");
}

// The request's "memory_capacity_GiB": the device's main memory as the user's machine has it (one size of a chip sold
// with several), applied before any reserve the request gives. The main memory is the first tier that is not on-chip
// SRAM (d-Matrix Corsair's LPDDR5 behind its SRAM), the first tier where every tier is SRAM (Groq, Cerebras).
void apply_capacity(Reader& r, HardwareSpec& hw) {
  const double v = read_field(r, field::memory_capacity_gib) * 1073741824.0;
  if (v <= 0) return;
  if (hw.tiers.empty())
    r.fail("memory_capacity_GiB", "missing_field",
           "/memory_capacity_GiB sets the device's main memory, and " + hw.name + " has no memory tiers; expected a device with memory tiers");
  std::size_t main = 0;
  while (main + 1 < hw.tiers.size() && hw.tiers[main].technology == MemoryTech::SRAM) ++main;
  if (hw.tiers[main].technology == MemoryTech::SRAM) main = 0;
  hw.tiers[main].capacity_bytes = v;
  if (main > 0) return;  // the driver's reserve stays with the first tier
  // The driver's and the OS's share: the device's own figure stays; its class's rule (macOS's GPU working set, a
  // fraction of the memory) is applied to the new capacity, and the hidden share follows it.
  const bool own = hw.reserve_basis.rfind("set", 0) == 0;
  const double kept = own ? hw.reserve_bytes - hw.hidden_bytes() : reserve_bytes(default_reserve(hw.device_class), v);
  hw.reserve_bytes = std::min(v, kept + hw.hidden_bytes());
}

// The request's "memory_reserve_GB": what the driver and OS keep on the device, replacing its own or its class's.
void apply_reserve(Reader& r, HardwareSpec& hw) {
  if (!r.has("memory_reserve_GB")) {
    r.raw("memory_reserve_GB");
    return;
  }
  const double v = read_field(r, field::memory_reserve_gb) * 1e9;
  const double first = hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes;
  if (v > first)
    r.fail("memory_reserve_GB", "out_of_range",
           "/memory_reserve_GB holds " + number_text(json(v / 1e9)) + " (GB); expected at most " + hw.name + "'s first memory tier, " +
               (hw.tiers.empty() ? std::string("0 GB") : tier_capacity_text(hw.tiers.front())));
  hw.reserve_bytes = std::min(first, v + hw.hidden_bytes());  // what the driver never shows stays hidden
  hw.reserve_basis = "set in the request";
}

bool read_offload(Reader& r, const HardwareSpec* hw, OffloadSpec& out) {
  if (!r.has("offload")) {
    r.raw("offload");
    return false;
  }
  if (!hw)
    r.fail("offload", "missing_field", "/offload keeps layers in host memory next to a device; give /hardware too");
  Reader o = r.object("offload");
  out.gpu_layers = static_cast<int>(read_field(o, field::gpu_layers));
  if (const json* hv = o.raw("host")) {
    if (hv->is_string()) {
      const HardwareSpec* p = find_hardware_preset(hv->get<std::string>());
      if (!p)
        o.fail("host", "unknown_preset", "/offload/host holds \"" + hv->get<std::string>() +
                                             "\", which is not a hardware preset; expected a CPU such as intel-xeon-8480, or give host_bandwidth_GBps");
      out.host = *p;
    } else if (hv->is_object()) {
      out.host = parse_hardware(*hv, "/offload/host");
    } else {
      o.fail("host", "wrong_type", "/offload/host holds " + describe(*hv) + "; expected a hardware preset id or a hardware object");
    }
    if (o.has("host_bandwidth_GBps")) out.host.tiers.front().bandwidth_bytes_per_s = read_field(o, field::host_bandwidth_gbps) * 1e9;
    if (o.has("host_capacity_GB")) out.host.tiers.front().capacity_bytes = read_field(o, field::host_capacity_gb) * 1e9;
  } else {
    // A desktop host of the given (or default) bandwidth and capacity; no published compute peak.
    out.host = HardwareSpec{};
    out.host.id = "host";
    out.host.name = "host memory";
    out.host.device_class = "cpu";
    out.host.source = "offload host: bandwidth and capacity as given (default two channels of DDR5-5600, 64 GB)";
    out.host.tiers = {MemoryTier{"host DDR5", read_field(o, field::host_capacity_gb) * 1e9, read_field(o, field::host_bandwidth_gbps) * 1e9,
                                 0, MemoryTech::DDR5}};
    out.host.eff = default_efficiencies("cpu");
    out.host.reserve_bytes = 0;
    out.host.reserve_basis = "none: the host's RAM as given";
  }
  // The host runs llama.cpp's CPU backend (its runtime's efficiencies), unless the request states the bandwidth
  // efficiency it reaches.
  if (const RuntimeSpec* cpu = find_runtime_preset("llama.cpp-cpu")) {
    out.host_runtime = *cpu;
    out.host_runtime->step_overhead_s = 0;  // the step's own overhead is the device part's
  }
  if (o.has(field::host_memory_efficiency.key())) {
    out.host.eff.memory = read_field(o, field::host_memory_efficiency);
    out.host.eff_given |= kEffMemory;
  }
  out.link_bytes_per_s = read_field(o, field::link_gbps) * 1e9;
  out.ubatch = static_cast<int>(read_field(o, field::ubatch));
  o.reject_unknown();
  return true;
}

void read_inputs(Reader& r, Inputs& in) {
  in.rm = resolve_model(r);
  in.sc = read_scenario(r);
  apply_mla_conversion(r, in.rm.spec, in.sc);
  in.hw = resolve_hardware(r, in.hw_storage);
  in.rt = resolve_runtime(r, in.rt_storage);
  if (in.hw && (r.has("memory_reserve_GB") || r.has("memory_capacity_GiB"))) {
    if (in.hw != &in.hw_storage) in.hw_storage = *in.hw;
    in.hw = &in.hw_storage;
    apply_capacity(r, in.hw_storage);  // first: a reserve given is checked against the new capacity
    apply_reserve(r, in.hw_storage);
  } else {
    // Without a device the memory has nothing to apply to (with a /system, read_multi applies it to its device).
    if (!in.hw && !r.has("system"))
      for (const char* k : {"memory_capacity_GiB", "memory_reserve_GB"})
        if (r.has(k))
          r.fail(k, "missing_field", std::string("/") + k + " sets a device's memory, and the request names no /hardware or /system; "
                                     "expected a device (a preset id or a hardware object)");
    r.raw("memory_reserve_GB");
    r.raw("memory_capacity_GiB");
  }
}

// Several devices, speculative decoding: /system (a preset id, or an object whose device defaults to /hardware),

void read_multi(Reader& r, Inputs& in, MultiInputs& mi, bool force) {
  const bool has_hardware = in.hw != nullptr;
  const json* sv = r.raw("system");
  bool has_system = false;
  if (sv && sv->is_string()) {
    const System* ps = find_system_preset(sv->get<std::string>());
    if (!ps)
      r.fail("system", "unknown_preset", "/system holds " + quote_text(sv->get<std::string>(), 200) +
                                             ", which is not a system preset; run `infercast systems` for the list");
    if (has_hardware)
      r.fail("system", "conflict", "/system names the preset \"" + ps->id + "\", which brings its own device, and /hardware is given too; "
                                   "expected one of them (or a /system object without a device, which uses /hardware)");
    mi.sys = *ps;
    has_system = true;
  } else if (sv && sv->is_object()) {
    mi.sys = parse_system(*sv, "/system", false, in.hw);
    has_system = true;
  } else if (sv) {
    r.fail("system", "wrong_type", "/system holds " + describe(*sv) + "; expected a system preset id or a system object");
  }
  if (has_system) {
    apply_capacity(r, mi.sys.device);
    if (r.has("memory_reserve_GB")) apply_reserve(r, mi.sys.device);
    in.hw_storage = mi.sys.device;
    in.hw = &in.hw_storage;
  }
  const bool has_parallel = r.has("parallel");
  if (has_parallel) {
    Reader p = r.object("parallel");
    mi.plan.tp = static_cast<int>(read_field(p, field::tp));
    mi.plan.pp = static_cast<int>(read_field(p, field::pp));
    mi.plan.ep = static_cast<int>(read_field(p, field::ep));
    mi.plan.dp = static_cast<int>(read_field(p, field::dp));
    // Each factor is in range; their product too, before anything counts the plan's devices (docs/schema.md, "Limits").
    const std::int64_t devices = static_cast<std::int64_t>(mi.plan.tp) * mi.plan.pp * mi.plan.dp;
    if (devices > limit::kPlanDevices)
      p.fail("dp", "out_of_range",
             p.child_path("dp") + " holds " + std::to_string(mi.plan.dp) + " with tp " + std::to_string(mi.plan.tp) + " and pp " +
                 std::to_string(mi.plan.pp) + ": " + std::to_string(devices) + " devices; expected tp x pp x dp at most " +
                 std::to_string(limit::kPlanDevices) + " (the devices of the largest system, 4096 per node in 65536 nodes)");
    mi.plan.algorithm = read_enum(p, "algorithm", collective_algo_names(), CollectiveAlgo::Auto);
    p.reject_unknown();
  } else {
    r.raw("parallel");
    if (has_system) {
      mi.plan = default_plan(in.rm.spec, mi.sys);  // the largest valid tensor-parallel group of a node
      mi.plan_defaulted = true;
    }
  }
  const bool has_spec = r.has("speculative");
  if (has_spec) {
    Reader sp = r.object("speculative");
    mi.spec.draft_tokens = static_cast<int>(read_field(sp, field::draft_tokens));
    mi.spec.acceptance = read_field(sp, field::acceptance);
    mi.spec.acceptance_length = read_field(sp, field::acceptance_length);
    if (sp.has("acceptance") && sp.has("acceptance_length"))
      sp.fail("acceptance_length", "conflict",
              "/speculative has both /speculative/acceptance and /speculative/acceptance_length; expected one: the chance each "
              "drafted token is accepted, or the mean tokens a verification step yields");
    if (mi.spec.acceptance_length > mi.spec.draft_tokens + 1)
      sp.fail("acceptance_length", "out_of_range",
              "/speculative/acceptance_length holds " + number_text(json(mi.spec.acceptance_length)) + "; expected at most draft_tokens + 1 = " +
                  std::to_string(mi.spec.draft_tokens + 1) + " (every drafted token accepted, and the bonus token)");
    const bool has_model = sp.has("model");
    const std::string draft = sp.string_or("draft", "");
    if (has_model && !draft.empty())
      sp.fail("draft", "conflict", "/speculative has both /speculative/model and /speculative/draft; expected one: a draft model, or \"mtp\"");
    if (has_model) {
      mi.draft = resolve_model(sp);
      mi.spec.draft = &mi.draft.spec;
    } else if (draft == "mtp") {
      mi.spec.mtp = true;
    } else if (!draft.empty()) {
      sp.fail("draft", "out_of_range", "/speculative/draft holds " + quote_text(draft, 200) + "; expected \"mtp\" (or a draft model in /speculative/model)");
    } else {
      sp.fail("model", "missing_field", "/speculative/model is missing; expected a draft model (a preset id or a config.json object), or /speculative/draft: \"mtp\"");
    }
    sp.reject_unknown();
  } else {
    r.raw("speculative");
  }
  mi.active = has_system || has_parallel || has_spec || force;
  if (!mi.active) return;
  if (!in.hw)
    r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object (or a /system)");
  if (!has_system) {
    if (mi.plan.devices() > 1 && in.hw->interconnect_bytes_per_s <= 0)
      r.fail("parallel", "missing_link", "/parallel asks for " + std::to_string(mi.plan.devices()) + " devices and " +
                                             in.hw->name + " has no interconnect_GBps; expected a /system with its link "
                                             "(a preset such as \"2x-rtx-4090-pcie\", or an object with intra.bandwidth_GBps)");
    mi.sys = single_node_system(*in.hw, mi.plan.devices());
  }
}

void settle_default_plan(MultiInputs& mi, const ModelSpec& m, const Workload& w) {
  if (!mi.plan_defaulted) return;
  // A runtime that splits by layers (llama.cpp) runs every device as a stage, whatever fits where.
  if (w.runtime && w.runtime->device_split == DeviceSplit::Layers && mi.sys.devices() > 1) {
    mi.plan = layer_split_plan(m, mi.sys, *w.runtime, mi.plan_note);
    return;
  }
  if (mi.sys.nodes <= 1) return;
  mi.plan = default_plan_for(m, w, mi.sys, mi.plan, mi.spec, mi.plan_note, mi.search_analyses, &mi.plan_holds);
}

void settle_serving_plan(MultiInputs& mi, const ModelSpec& m, const Workload& w, double isl, double osl) {
  if (!mi.plan_defaulted) return;
  Workload held = w;
  held.requests = {Request{0, std::max<i64>(1, std::llround(isl)), 1}};
  held.gen_tokens = std::max<i64>(1, std::llround(osl));
  settle_default_plan(mi, m, held);
  if (!mi.plan_holds || (w.runtime && w.runtime->device_split == DeviceSplit::Layers)) return;
  mi.plan = serving_plan_filling(m, mi.sys, mi.plan, mi.plan_note);
}

void check_call_work(const MultiInputs& mi, const ModelSpec& m, const Workload& w, double analyses, const std::string& what) {
  const double all = mi.search_analyses + analyses;
  check_work(estimate_work(m, w, all), all, mi.search_analyses > 0 ? "the default plan's search over the nodes and " + what : what);
}

double plan_analyses(const MultiInputs& mi) {
  return mi.active ? 1 + plan_forecast_analyses(mi.plan, mi.spec) : 1;
}

double offload_analyses(const ModelSpec& m) {
  return 4 + std::ceil(std::log2(static_cast<double>(m.layers.size()) + 2));
}

ServingRequest read_serving(Reader& r, bool deploy) {
  ServingRequest out;
  ServingLoad& l = out.load;
  static const json kNone = json::object();
  const bool given = r.has("serving");
  if (!given) r.raw("serving");
  Reader s = given ? r.object("serving") : Reader(kNone, "/serving", "request");
  l.isl.mean = static_cast<double>(read_field(s, field::serving_isl));
  l.osl.mean = static_cast<double>(read_field(s, field::serving_osl));
  l.isl.kind = read_enum(s, "isl_distribution", length_kind_names(), LengthKind::Fixed);
  l.osl.kind = read_enum(s, "osl_distribution", length_kind_names(), LengthKind::Fixed);
  l.isl.spread = read_field(s, field::serving_isl_spread);
  l.osl.spread = read_field(s, field::serving_osl_spread);
  for (const auto& [d, key] : {std::pair<const LengthDist*, const char*>{&l.isl, "isl_spread"}, {&l.osl, "osl_spread"}})
    if (d->kind == LengthKind::Uniform && d->spread > 1)
      s.fail(key, "out_of_range", s.child_path(key) + " holds " + number_text(d->spread) +
                                      "; a uniform length's half-width is at most its mean (expected 0 to 1)");
  l.prefix_hit_rate = read_field(s, field::serving_prefix_hit_rate);
  if (!deploy) {
    l.concurrency = static_cast<double>(read_field(s, field::serving_concurrency));
    l.request_rate = read_field(s, field::serving_request_rate);
    if (s.has("concurrency") && s.has("request_rate"))
      s.fail("request_rate", "conflict", s.child_path("request_rate") + " cannot be combined with " + s.child_path("concurrency") +
                                             "; give a closed loop (concurrency) or an open loop (request_rate)");
    if (l.concurrency <= 0 && l.request_rate <= 0)
      s.fail("concurrency", "missing_field", s.child_path("concurrency") + " and " + s.child_path("request_rate") +
                                                 " are both missing or 0; expected a number of clients or a request rate");
    l.requests = static_cast<double>(read_field(s, field::serving_requests));
    l.seed = static_cast<unsigned long long>(read_field(s, field::serving_seed));
    out.max_num_seqs = read_field(s, field::serving_max_num_seqs);
    out.token_budget = read_field(s, field::serving_max_batched_tokens);
    out.scheduler_steps = static_cast<int>(read_field(s, field::serving_scheduler_steps));
    out.simulate = s.boolean_or("simulate", true);
  }
  s.reject_unknown();
  return out;
}

}  // namespace infercast
