#include "api/api.hpp"

#include <cmath>
#include <deque>
#include <set>

#include "analysis/analysis.hpp"
#include "calibrate/calibrate.hpp"
#include "scenario/scenario.hpp"
#include "cost/cost.hpp"
#include "dse/dse.hpp"
#include "validation/validation.hpp"
#include "io/presets.hpp"
#include "io/system_json.hpp"
#include "io/gguf.hpp"
#include "io/safetensors.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

const char* const kVersion = "0.1.0";

namespace {

constexpr std::int64_t kMaxTokens = 1000000000;  // 1e9 tokens per request
constexpr std::int64_t kMaxBatch = 1000000;

struct ResolvedModel {
  ModelSpec spec;
  std::string id;
  std::string name;
  std::string source;
  std::string stated_total, stated_active;
};

ResolvedModel resolve_model(Reader& r) {
  const json* v = r.raw("model");
  if (!v) r.fail("model", "missing_field", r.child_path("model") + " is missing; expected a preset id or a config.json object");
  ResolvedModel out;
  if (v->is_string()) {
    const auto id = v->get<std::string>();
    const ModelPreset* p = find_model_preset(id);
    if (!p) {
      r.fail("model", "unknown_preset",
             r.child_path("model") + " holds \"" + id + "\", which is not a model preset; run `infercast models` for the list");
    }
    out.spec = parse_model_config(p->config, "/config");
    out.id = p->id;
    out.name = p->name;
    out.source = p->source;
    out.stated_total = p->stated_total;
    out.stated_active = p->stated_active;
  } else if (v->is_object()) {
    // A preset document (with its config) or a bare Hugging Face config.json.
    if (v->contains("schema_version") && v->contains("config")) {
      ModelPreset p = parse_model_preset(*v);
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

std::string unknown_dtype_message(const std::string& path, const std::string& name) {
  std::string list;
  for (const auto& t : all_dtypes()) list += (list.empty() ? "" : ", ") + t.name;
  return path + " holds \"" + name + "\"; expected one of " + list +
         ", or intN-gG (N-bit integers with an fp16 scale and zero per G weights, N = 2, 3, 4 or 8)";
}

DType dtype_field(Reader& r, const std::string& key, const std::string& fallback) {
  const std::string name = r.string_or(key, fallback);
  const auto d = find_dtype(name);
  if (!d) r.fail(key, "unknown_dtype", unknown_dtype_message(r.child_path(key), name));
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
    if (!d) throw InputError(r.code_prefix() + ".unknown_dtype", path, unknown_dtype_message(path, names[i]));
    out.push_back(*d);
  }
  return out;
}

json warnings_json(const std::vector<Warning>& ws);

// The request's "costs": assumptions behind energy, cost and CO2 (docs/formulas.md, "Energy, cost and CO2").
CostAssumptions read_costs(Reader& r) {
  CostAssumptions a;
  if (!r.has("costs")) {
    r.raw("costs");
    return a;
  }
  Reader c = r.object("costs");
  a.compute_power_fraction = c.number_in_or("compute_power_fraction", 0, 1, a.compute_power_fraction);
  a.static_fraction = c.number_in_or("static_fraction", 0, 1, a.static_fraction);
  a.power_w = c.number_in_or("power_W", 0, 1e7, a.power_w);
  a.lifetime_years = c.number_in_or("lifetime_years", 0.01, 100, a.lifetime_years);
  a.utilization = c.number_in_or("utilization", 0.001, 1, a.utilization);
  a.usd_per_kwh = c.number_in_or("usd_per_kWh", 0, 100, a.usd_per_kwh);
  a.pue = c.number_in_or("pue", 1, 10, a.pue);
  a.price_usd = c.number_in_or("price_USD", 0, 1e10, a.price_usd);
  a.region = c.string_or("region", a.region);
  if (!find_grid_region(a.region)) {
    std::string list;
    for (const auto& g : grid_regions()) list += (list.empty() ? "" : ", ") + g.id;
    c.fail("region", "out_of_range", c.child_path("region") + " holds \"" + a.region + "\"; expected one of " + list +
                                         ", or give grid_gCO2e_per_kWh");
  }
  a.grid_g_per_kwh = c.number_in_or("grid_gCO2e_per_kWh", 0, 5000, a.grid_g_per_kwh);
  a.embodied_kgco2e = c.number_in_or("embodied_kgCO2e", 0, 1e9, -1);
  c.reject_unknown();
  return a;
}

json cost_json(const CostReport& c, const CostAssumptions& a) {
  const auto phase = [](const PhaseEnergy& e) {
    return json{{"joules", e.joules}, {"static_j", e.static_j}, {"compute_j", e.compute_j}, {"memory_j", e.memory_j},
                {"tokens", e.tokens}, {"j_per_token", e.j_per_token}, {"tokens_per_j", e.tokens_per_j},
                {"avg_power_W", e.avg_power_w}};
  };
  json j_flop = json::object();
  for (std::size_t i = 0; i < 8; ++i)
    if (c.model.j_per_flop[i] > 0) j_flop[compute_type_name(static_cast<ComputeType>(i))] = c.model.j_per_flop[i] * 1e12;
  json j_byte = json::array();
  for (double v : c.model.j_per_byte) j_byte.push_back(v * 1e12);
  json out = {{"energy_available", c.model.available},
              {"assumptions",
               {{"compute_power_fraction", a.compute_power_fraction}, {"static_fraction", a.static_fraction},
                {"power_W", c.model.tdp_w}, {"static_W", c.model.static_w}, {"pJ_per_flop", j_flop},
                {"pJ_per_byte_by_tier", j_byte}, {"lifetime_years", a.lifetime_years}, {"utilization", a.utilization},
                {"usd_per_kWh", a.usd_per_kwh}, {"pue", a.pue}, {"price_USD", c.price_usd}, {"region", c.region},
                {"grid_gCO2e_per_kWh", c.grid_g_per_kwh}, {"embodied_kgCO2e", c.embodied_kgco2e},
                {"sources",
                 {{"energy", "LLM-Para metrics.py (compute_power_frac 0.55, 5% idle floor; after Ghane et al., ISPASS 2018): the device draws its TDP at full compute and full bandwidth"},
                  {"ownership", "LLM-Para metrics.py compute_tco defaults: 3 years, 50% utilization, $0.10/kWh, PUE 1.3"},
                  {"grid", kGridSource}}}}},
              {"output_tokens", c.output_tokens},
              {"has_price", c.has_price},
              {"has_embodied", c.has_embodied}};
  if (c.model.available) {
    out["prefill"] = phase(c.prefill);
    out["decode"] = phase(c.decode);
    out["joules"] = c.joules_per_request_batch;
    out["busy_power_W"] = c.busy_power_w;
  }
  out["usd_per_hour"] = c.usd_per_hour;
  out["hardware_usd_per_hour"] = c.hardware_usd_per_hour;
  out["energy_usd_per_hour"] = c.energy_usd_per_hour;
  out["usd_per_million_tokens"] = c.usd_per_million_tokens;
  out["operational_gCO2e_per_million_tokens"] = c.operational_g_per_million_tokens;
  out["embodied_gCO2e_per_million_tokens"] = c.embodied_g_per_million_tokens;
  out["gCO2e_per_million_tokens"] = c.g_per_million_tokens;
  out["warnings"] = warnings_json(c.warnings);
  return out;
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
    r.fail("scenario", "out_of_range", r.child_path("scenario") + " holds \"" + name + "\"; expected one of " + list);
  }
  return sc;
}

// "convert_mla": convert standard attention to MLA (sizes default to LIFE's); a scenario may ask for it too.
void apply_mla_conversion(Reader& r, ModelSpec& m, const Scenario* sc) {
  if (r.has("convert_mla")) {
    Reader c = r.object("convert_mla");
    MlaConversion d = sc ? sc->mla : MlaConversion{};
    d.q_lora_rank = c.int_in_or("q_lora_rank", 0, 65536, d.q_lora_rank);
    d.kv_lora_rank = c.int_in_or("kv_lora_rank", 1, 65536, d.kv_lora_rank);
    d.qk_nope_dim = c.int_in_or("qk_nope_head_dim", 1, 4096, d.qk_nope_dim);
    d.qk_rope_dim = c.int_in_or("qk_rope_head_dim", 0, 4096, d.qk_rope_dim);
    d.v_head_dim = c.int_in_or("v_head_dim", 1, 4096, d.v_head_dim);
    c.reject_unknown();
    m = convert_to_mla(m, d);
  } else {
    r.raw("convert_mla");
    if (sc) m = scenario_model(*sc, m);
  }
}

Workload read_workload(Reader& req, const ModelSpec& m, const Scenario* sc) {
  Workload w;
  if (sc) apply_scenario(*sc, w.settings);  // its settings are the defaults of the fields below
  if (req.has("workload")) {
    Reader wr = req.object("workload");
    if (wr.has("requests")) {
      for (auto& rr : wr.object_array("requests")) {
        Request q;
        q.cached = rr.int_in_or("cached", 0, kMaxTokens, 0);
        q.input = rr.int_in_or("input", 1, kMaxTokens, 1);
        q.count = rr.int_in_or("count", 1, kMaxBatch, 1);
        rr.reject_unknown();
        w.requests.push_back(q);
      }
      if (wr.has("batch") || wr.has("prompt")) {
        const std::string key = wr.has("batch") ? "batch" : "prompt";
        wr.fail(key, "conflict", wr.child_path(key) + " cannot be combined with " + wr.child_path("requests") +
                                     "; give either batch and prompt, or a list of requests");
      }
    } else {
      Request q;
      q.count = wr.int_in_or("batch", 1, kMaxBatch, 1);
      q.input = wr.int_in_or("prompt", 1, kMaxTokens, 512);
      q.cached = wr.int_in_or("cached", 0, kMaxTokens, 0);
      w.requests.push_back(q);
    }
    w.gen_tokens = wr.int_in_or("gen", 1, kMaxTokens, 128);
    w.prefill_chunk = wr.int_in_or("prefill_chunk", 0, kMaxTokens, 0);
    wr.reject_unknown();
  } else {
    req.raw("workload");
    w.requests.push_back(Request{0, 512, 1});
    w.gen_tokens = 128;
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

  // Weights: the request's format for every class; without one, the checkpoint's quantization_config for the
  // classes it quantizes and bf16 for the rest. Per-class keys override either.
  Precision& pr = w.settings.precision;
  static const json kNone = json::object();
  Reader p = req.has("precision") ? req.object("precision") : Reader(kNone, "/precision", "request");
  if (!req.has("precision")) req.raw("precision");
  const bool given = p.has("weights") || sc;  // a scenario's weight format replaces the declared one too
  pr.weights = dtype_field(p, "weights", pr.weights.name);
  pr.activations = dtype_field(p, "activations", pr.activations.name);
  pr.kv = dtype_field(p, "kv", pr.kv.name);
  if (!given && !m.declared_weights.empty()) {
    const auto declared = find_dtype(m.declared_weights);
    for (int c = 0; c < kWeightClasses; ++c)
      if (!m.declared_keeps[c]) pr.by_class[c] = declared;
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
  w.settings.convention = convention_by_name(req.string_or("convention", "infercast"), req.child_path("convention"));
  const std::string attn = req.string_or("attention", w.settings.attention == AttnImpl::Unfused ? "unfused" : "fused");
  if (attn == "fused") w.settings.attention = AttnImpl::Fused;
  else if (attn == "unfused") w.settings.attention = AttnImpl::Unfused;
  else req.fail("attention", "out_of_range", req.child_path("attention") + " holds \"" + attn + "\"; expected fused or unfused");
  const MlaForm mla_default = w.settings.mla;
  const std::string mla = req.string_or("mla", mla_default == MlaForm::Auto ? "auto" : (mla_default == MlaForm::Absorbed ? "absorbed" : "expanded"));
  if (mla == "auto") w.settings.mla = MlaForm::Auto;
  else if (mla == "absorbed") w.settings.mla = MlaForm::Absorbed;
  else if (mla == "expanded") w.settings.mla = MlaForm::Expanded;
  else req.fail("mla", "out_of_range", req.child_path("mla") + " holds \"" + mla + "\"; expected auto, absorbed or expanded");
  const std::string mlp = req.string_or("mlp", w.settings.fused_mlp ? "fused" : "unfused");
  w.settings.fused_mlp = mlp == "fused";
  if (mlp != "fused" && mlp != "unfused") req.fail("mlp", "out_of_range", req.child_path("mlp") + " holds \"" + mlp + "\"; expected fused or unfused");
  w.settings.attention_tile = req.int_in_or("attention_tile", 0, 65536, 0);
  if (req.has("lora")) {
    Reader lr = req.object("lora");
    w.settings.lora.rank = lr.int_in_or("rank", 1, 65536, w.settings.lora.rank > 0 ? w.settings.lora.rank : 16);
    const std::string mode = lr.string_or("mode", lora_mode_name(w.settings.lora.mode));
    if (mode == "unmerged") w.settings.lora.mode = LoraMode::Unmerged;
    else if (mode == "merge-per-call") w.settings.lora.mode = LoraMode::MergePerCall;
    else if (mode == "merged") w.settings.lora.mode = LoraMode::Merged;
    else lr.fail("mode", "out_of_range", lr.child_path("mode") + " holds \"" + mode + "\"; expected unmerged, merge-per-call or merged");
    lr.reject_unknown();
  } else {
    req.raw("lora");
  }
  w.settings.online_hadamard = req.boolean_or("online_hadamard", w.settings.online_hadamard);
  // Timing: LIFE sums a whole phase as max(compute, memory); our default bounds each operator on its own.
  const std::string timing = req.string_or("timing", w.settings.convention.name == "life" ? "phase-max" : "per-op");
  if (timing == "per-op") w.timing = Timing::PerOp;
  else if (timing == "phase-max") w.timing = Timing::PhaseMax;
  else req.fail("timing", "out_of_range", req.child_path("timing") + " holds \"" + timing + "\"; expected per-op or phase-max");
  if (req.has("placement")) {
    if (!req.has("hardware"))
      throw InputError("request.conflict", "/placement",
                       "/placement pins data to memory tiers, which need a device; give /hardware too or drop /placement");
    Reader pl = req.object("placement");
    w.pin_weights = static_cast<int>(pl.int_in_or("weights", 0, 15, -1));
    w.pin_kv = static_cast<int>(pl.int_in_or("kv_cache", 0, 15, -1));
    pl.reject_unknown();
  } else {
    req.raw("placement");
  }
  if (req.has("moe_traffic")) {
    w.settings.convention.moe = moe_traffic_by_name(req.string("moe_traffic"), req.child_path("moe_traffic"));
  } else {
    req.raw("moe_traffic");
  }
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
             "/hardware holds \"" + hv->get<std::string>() + "\", which is not a hardware preset; run `infercast hardware` for the list");
    return hw;
  }
  if (hv->is_object()) {
    storage = parse_hardware(*hv, "/hardware");
    return &storage;
  }
  r.fail("hardware", "wrong_type", "/hardware holds " + describe(*hv) + "; expected a preset id or a hardware object");
}

json warnings_json(const std::vector<Warning>& ws) {
  json a = json::array();
  for (const auto& w : ws) a.push_back({{"code", w.code}, {"path", w.path}, {"message", w.message}});
  return a;
}

json params_json(const ParamCounts& p) {
  return {{"total", p.total},
          {"active", p.active},
          {"active_excluding_embedding", p.active_no_embed},
          {"embedding", p.embedding},
          {"lm_head", p.lm_head},
          {"attention", p.attention},
          {"ffn_dense", p.ffn_dense},
          {"experts_routed", p.experts_routed},
          {"experts_shared", p.experts_shared},
          {"router", p.router},
          {"norms", p.norms}};
}

json groups_json(const std::vector<LayerGroup>& groups) {
  json a = json::array();
  for (const auto& g : groups) a.push_back({{"label", g.label}, {"count", g.count}, {"layers", g.layers}});
  return a;
}

json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups) {
  const auto& m = rm.spec;
  return {{"id", rm.id},
          {"name", rm.name},
          {"source", rm.source},
          {"model_type", m.model_type},
          {"stated_params_total", rm.stated_total},
          {"stated_params_active", rm.stated_active},
          {"params_total", p.total},
          {"params_active", p.active},
          {"params_active_includes_embedding", true},
          {"params_active_excluding_embedding", p.active_no_embed},
          {"params", params_json(p)},
          {"hidden_size", m.hidden},
          {"vocab_size", m.vocab},
          {"num_layers", static_cast<i64>(m.layers.size())},
          {"mtp_layers_not_counted", m.mtp_layers},
          {"tied_embeddings", m.tied_embeddings},
          {"declared_quantization", m.declared_quant},
          {"groups", groups_json(groups)},
          {"warnings", warnings_json(m.warnings)}};
}

double finite(double v) { return std::isfinite(v) ? v : 0; }

json ops_json(const Phase& p, const char* phase) {
  json a = json::array();
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const Op& o = p.ops[i];
    const double bytes = o.bytes();
    json j = {{"name", o.name},
              {"phase", phase},
              {"group", o.group},
              {"class", op_class_name(o.cls)},
              {"count", o.count},
              {"compute_type", compute_type_name(o.compute)},
              {"flops", o.flops},
              {"weight_bytes", o.weight_bytes},
              {"act_read_bytes", o.act_read_bytes},
              {"act_write_bytes", o.act_write_bytes},
              {"kv_read_bytes", o.kv_read_bytes},
              {"kv_write_bytes", o.kv_write_bytes},
              {"bytes", bytes},
              {"dispatches", o.dispatches},
              {"dequant_flops", o.dequant_flops},
              {"lora_flops", o.lora_flops},
              {"padded_flops", o.padded_flops},
              {"intensity_flop_per_byte", bytes > 0 ? o.flops / bytes : 0.0}};
    if (!p.times.empty()) {
      const auto& t = p.times[i];
      j["time_s"] = t.time_s;
      j["compute_s"] = t.compute_s;
      j["memory_s"] = t.memory_s;
      j["dispatch_s"] = t.dispatch_s;
      j["bound"] = t.bound;
      j["compute_type_used"] = compute_type_name(t.compute_used);
    }
    a.push_back(j);
  }
  return a;
}

// The format of each weight class, and where it came from.
json precision_json(const Precision& p, const ModelSpec& m) {
  json classes = json::object();
  for (int c = 0; c < kWeightClasses; ++c) {
    const DType& d = p.of(static_cast<WeightClass>(c));
    classes[weight_class_name(static_cast<WeightClass>(c))] = {{"dtype", d.name}, {"bits_per_element", d.bits_per_element}};
  }
  return {{"weights", p.weights.name},
          {"weights_bits_per_element", p.weights.bits_per_element},
          {"activations", p.activations.name},
          {"kv", p.kv.name},
          {"kv_bits_per_element", p.kv.bits_per_element},
          {"by_class", classes},
          {"declared_quantization", m.declared_quant},
          {"declared_weights", m.declared_weights}};
}

json totals_json(const PhaseTotals& t) {
  return {{"flops", t.flops},
          {"weight_bytes", t.weight_bytes},
          {"act_read_bytes", t.act_read_bytes},
          {"act_write_bytes", t.act_write_bytes},
          {"kv_read_bytes", t.kv_read_bytes},
          {"kv_write_bytes", t.kv_write_bytes},
          {"bytes", t.bytes()},
          {"dispatches", t.dispatches}};
}

}  // namespace

json api_models() {
  json a = json::array();
  for (const auto& p : model_presets()) {
    ModelSpec m = parse_model_config(p.config, "/config");
    const auto c = count_params(m);
    a.push_back({{"id", p.id},
                 {"name", p.name},
                 {"model_type", m.model_type},
                 {"params_total", c.total},
                 {"params_active", c.active},
                 {"stated_params_total", p.stated_total},
                 {"stated_params_active", p.stated_active},
                 {"source", p.source}});
  }
  return a;
}

json api_hardware() {
  json a = json::array();
  for (const auto& h : hardware_presets()) a.push_back(hardware_to_json(h));
  return a;
}

// Checks a hardware document (or names a preset) and returns it as the core reads it: the page validates a
// custom device with this before keeping it.
json api_device(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec storage;
  const HardwareSpec* hw = resolve_hardware(r, storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
  r.reject_unknown();
  return hardware_to_json(*hw);
}

json api_model(const json& request) {
  Reader r(request, "", "request");
  ResolvedModel rm = resolve_model(r);
  r.reject_unknown();
  const auto p = count_params(rm.spec);
  return model_json(rm, p, group_layers(rm.spec));
}

// What analyze, quant_sweep and sweep read first: the model (converted by a scenario or convert_mla), the
// scenario and the device. Filled in place: `hw` may point into `hw_storage`.
struct Inputs {
  ResolvedModel rm;
  const Scenario* sc = nullptr;
  HardwareSpec hw_storage;
  const HardwareSpec* hw = nullptr;
};
void read_inputs(Reader& r, Inputs& in) {
  in.rm = resolve_model(r);
  in.sc = read_scenario(r);
  apply_mla_conversion(r, in.rm.spec, in.sc);
  in.hw = resolve_hardware(r, in.hw_storage);
}

// Several devices, speculative decoding: /system (a preset id, or an object whose device defaults to /hardware),
// /parallel {tp, pp, ep, dp, algorithm} and /speculative {model | draft: "mtp", draft_tokens, acceptance}.
struct MultiInputs {
  bool active = false;  // any of the three given: the result carries a plan forecast
  System sys;
  ParallelPlan plan;
  Speculative spec;
  ResolvedModel draft;
};

void read_multi(Reader& r, Inputs& in, MultiInputs& mi, bool force) {
  const bool has_hardware = in.hw != nullptr;
  const json* sv = r.raw("system");
  bool has_system = false;
  if (sv && sv->is_string()) {
    const System* ps = find_system_preset(sv->get<std::string>());
    if (!ps)
      r.fail("system", "unknown_preset", "/system holds \"" + sv->get<std::string>() +
                                             "\", which is not a system preset; run `infercast systems` for the list");
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
    in.hw_storage = mi.sys.device;
    in.hw = &in.hw_storage;
  }
  const bool has_parallel = r.has("parallel");
  if (has_parallel) {
    Reader p = r.object("parallel");
    mi.plan.tp = static_cast<int>(p.int_in_or("tp", 1, 4096, 1));
    mi.plan.pp = static_cast<int>(p.int_in_or("pp", 1, 4096, 1));
    mi.plan.ep = static_cast<int>(p.int_in_or("ep", 1, 4096, 1));
    mi.plan.dp = static_cast<int>(p.int_in_or("dp", 1, 65536, 1));
    const std::string algo = p.string_or("algorithm", "auto");
    if (algo == "auto") mi.plan.algorithm = CollectiveAlgo::Auto;
    else if (algo == "ring") mi.plan.algorithm = CollectiveAlgo::Ring;
    else if (algo == "tree") mi.plan.algorithm = CollectiveAlgo::Tree;
    else p.fail("algorithm", "out_of_range", "/parallel/algorithm holds \"" + algo + "\"; expected auto, ring or tree");
    p.reject_unknown();
  } else {
    r.raw("parallel");
  }
  const bool has_spec = r.has("speculative");
  if (has_spec) {
    Reader sp = r.object("speculative");
    mi.spec.draft_tokens = static_cast<int>(sp.int_in_or("draft_tokens", 1, 16, 3));
    mi.spec.acceptance = sp.number_in_or("acceptance", 0, 1, 0.8);
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
      sp.fail("draft", "out_of_range", "/speculative/draft holds \"" + draft + "\"; expected \"mtp\" (or a draft model in /speculative/model)");
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

json comm_json(const StepComm& c) {
  json a = json::array();
  for (const auto& l : c.lines)
    a.push_back({{"what", l.what},
                 {"collective", collective_name(l.kind)},
                 {"algorithm", l.algorithm},
                 {"participants", l.participants},
                 {"link", l.inter_node ? "inter-node" : "intra-node"},
                 {"calls", l.calls},
                 {"bytes", l.bytes},
                 {"seconds", finite(l.seconds)}});
  return a;
}

json plan_brief(const ParallelPlan& p) {
  return {{"tp", p.tp}, {"pp", p.pp}, {"ep", p.ep}, {"dp", p.dp}, {"algorithm", collective_algo_name(p.algorithm)}, {"devices", p.devices()}};
}

json plan_json(const PlanForecast& f, const System& sys) {
  json stages = json::array();
  for (std::size_t i = 0; i < f.stages.size(); ++i) {
    const Stage& st = f.stages[i];
    stages.push_back({{"stage", i},
                      {"first_layer", st.first_layer},
                      {"layers", st.layers},
                      {"params_per_device", st.a.params.total},
                      {"weights_bytes", st.a.weights_bytes},
                      {"kv_cache_bytes", st.a.kv_cache_bytes},
                      {"activation_peak_bytes", st.a.activation_peak_bytes},
                      {"required_bytes", st.required_bytes},
                      {"capacity_bytes", st.capacity_bytes},
                      {"fits", st.fits},
                      {"max_batch", st.a.max_batch},
                      {"ttft_s", finite(st.a.ttft_s)},
                      {"tpot_s", finite(st.a.tpot_mean_s)}});
  }
  json timeline = json::array();
  for (const auto& t : f.timeline) timeline.push_back({{"generated", t.generated}, {"context", t.context}, {"tpot_s", finite(t.tpot_s)}});
  json out = {{"plan", plan_brief(f.plan)},
              {"system", system_to_json(sys)},
              {"stages", stages},
              {"communication",
               {{"prefill", comm_json(f.prefill_comm)},
                {"prefill_s", finite(f.prefill_comm.seconds)},
                {"decode_step", comm_json(f.decode_comm)},
                {"decode_step_s", finite(f.decode_comm.seconds)}}},
              {"ttft_s", finite(f.ttft_s)},
              {"tpot_first_s", finite(f.tpot_first_s)},
              {"tpot_s", finite(f.tpot_mean_s)},
              {"tpot_last_s", finite(f.tpot_last_s)},
              {"decode_time_s", finite(f.decode_time_s)},
              {"e2e_s", finite(f.e2e_s)},
              {"tokens_per_s", finite(f.tokens_per_s)},
              {"replica_tokens_per_s", finite(f.replica_tokens_per_s)},
              {"total_tokens_per_s", finite(f.total_tokens_per_s)},
              {"tokens_per_s_per_device", finite(f.tokens_per_s_per_device)},
              {"device_required_bytes", f.device_required_bytes},
              {"device_capacity_bytes", f.device_capacity_bytes},
              {"fits", f.fits},
              {"max_batch", f.max_batch},
              {"timeline", timeline},
              {"warnings", warnings_json(f.warnings)}};
  return out;
}

json speculative_json(const PlanForecast& f) {
  const SpeculativeResult& s = f.spec;
  const double D = f.stages.front().a.decode_steps;
  return {{"enabled", s.enabled},
          {"draft", s.draft},
          {"draft_tp", s.draft_tp},
          {"draft_tokens", s.draft_tokens},
          {"acceptance", s.acceptance},
          {"tokens_per_step", s.tokens_per_step},
          {"draft_step_s", finite(s.draft_step_s)},
          {"verify_step_s", finite(s.verify_step_s)},
          {"tpot_s", finite(s.tpot_s)},
          {"plain_tpot_s", finite(f.tpot_mean_s)},
          {"speedup", finite(s.speedup)},
          {"e2e_s", finite(f.ttft_s + D * s.tpot_s)},
          {"draft_weights_bytes", s.draft_weights_bytes},
          {"draft_kv_bytes", s.draft_kv_bytes}};
}

json api_analyze(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  const HardwareSpec*& hw = in.hw;
  MultiInputs mi;
  read_multi(r, in, mi, false);
  Workload w = read_workload(r, rm.spec, sc);
  const CostAssumptions costs = read_costs(r);
  r.reject_unknown();
  const Analysis a = analyze(rm.spec, w, hw);

  json ops = ops_json(a.prefill, "prefill");
  for (auto& o : ops_json(a.decode, "decode")) ops.push_back(o);
  json placement = json::array();
  for (const auto& p : a.placement) placement.push_back({{"what", p.what}, {"bytes_per_tier", p.bytes_per_tier}});
  json timeline = json::array();
  for (const auto& t : a.timeline) timeline.push_back({{"generated", t.generated}, {"context", t.context}, {"tpot_s", t.tpot_s}});
  json requests = json::array();
  for (const auto& q : w.requests) requests.push_back({{"cached", q.cached}, {"input", q.input}, {"count", q.count}});

  json out = {
      {"model", model_json(rm, a.params, a.groups)},
      {"workload",
       {{"requests", requests},
        {"gen", w.gen_tokens},
        {"batch_requests", a.batch_requests},
        {"precision", precision_json(w.settings.precision, rm.spec)},
        {"scenario", sc ? json(sc->name) : json(nullptr)},
        {"mlp", w.settings.fused_mlp ? "fused" : "unfused"},
        {"online_hadamard", w.settings.online_hadamard},
        {"attention_tile", w.settings.attention_tile},
        {"prefill_chunk", w.prefill_chunk},
        {"prefill_chunks", a.prefill_chunks},
        {"lora", {{"rank", w.settings.lora.rank}, {"mode", lora_mode_name(w.settings.lora.mode)},
                  {"merge_flops", a.lora_merge_flops}}},
        {"convention", w.settings.convention.name},
        {"timing", w.timing == Timing::PerOp ? "per-op" : "phase-max"},
        {"convention_description", w.settings.convention.description},
        {"moe_traffic", moe_traffic_name(w.settings.convention.moe)},
        {"attention", w.settings.attention == AttnImpl::Fused ? "fused" : "unfused"},
        {"mla", w.settings.mla == MlaForm::Auto ? "auto" : (w.settings.mla == MlaForm::Absorbed ? "absorbed" : "expanded")}}},
      {"memory",
       {{"weights_bytes", a.weights_bytes},
        {"kv_cache_bytes", a.kv_cache_bytes},
        {"kv_bytes_per_token", a.kv_bytes_per_token},
        {"activation_peak_bytes", a.activation_peak_bytes},
        {"required_bytes", a.memory_required_bytes}}},
      {"prefill", totals_json(a.prefill.totals)},
      {"decode", totals_json(a.decode.totals)},
      {"ops", ops}};
  out["prefill"]["tokens"] = a.prefill.tokens;
  out["decode"]["tokens"] = a.decode.tokens;
  out["decode"]["flops_per_token"] = a.decode_flops_per_token;
  out["decode"]["steps"] = a.decode_steps;
  if (a.has_hardware) {
    out["hardware"] = hardware_to_json(*hw);
    out["memory"]["capacity_bytes"] = a.memory_capacity_bytes;
    out["memory"]["fits"] = a.fits;
    out["memory"]["fits_first_tier"] = a.fits_first_tier;
    out["memory"]["max_batch"] = a.max_batch;
    out["memory"]["max_context"] = a.max_context;
    out["memory"]["placement"] = placement;
    out["prefill"]["time_s"] = finite(a.ttft_s);
    out["prefill"]["compute_s"] = finite(a.prefill.compute_s);
    out["prefill"]["memory_s"] = finite(a.prefill.memory_s);
    out["decode"]["tpot_s"] = finite(a.tpot_mean_s);
    out["decode"]["tpot_first_s"] = finite(a.tpot_first_s);
    out["decode"]["tpot_last_s"] = finite(a.tpot_last_s);
    out["decode"]["time_s"] = finite(a.decode_time_s);
    out["decode"]["tokens_per_s"] = finite(a.tokens_per_s);
    out["decode"]["batch_tokens_per_s"] = finite(a.batch_tokens_per_s);
    out["decode"]["timeline"] = timeline;
    out["e2e_s"] = finite(a.e2e_s);
    out["workload"]["lora"]["merge_s"] = finite(a.lora_merge_s);
    out["ttft_s"] = finite(a.ttft_s);
    out["cost"] = cost_json(cost_report(a, *hw, costs), costs);
  }
  out["warnings"] = warnings_json(a.warnings);
  if (mi.active) {
    const PlanForecast f = forecast_plan(rm.spec, w, mi.sys, mi.plan, mi.spec);
    // Energy and cost are modelled for one device; a plan over several is not costed yet.
    if (f.devices > 1) out.erase("cost");
    out["parallel"] = plan_json(f, mi.sys);
    if (f.spec.enabled) out["speculative"] = speculative_json(f);
  }
  return out;
}

// Throughput against latency as the batch grows, on one device or a plan (docs/schema.md, "batching").
json api_batching(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  MultiInputs mi;
  read_multi(r, in, mi, true);
  const Workload w = read_workload(r, in.rm.spec, in.sc);
  read_costs(r);  // accepted so the page can send one request to every call; the curve has no cost column yet
  double max_batch = 65536;
  if (r.has("batching")) {
    Reader b = r.object("batching");
    max_batch = static_cast<double>(b.int_in_or("max_batch", 1, kMaxBatch, 65536));
    b.reject_unknown();
  } else {
    r.raw("batching");
  }
  r.reject_unknown();
  const BatchingCurve c = batching_curve(in.rm.spec, w, mi.sys, mi.plan, mi.spec, max_batch);
  json pts = json::array();
  for (const auto& p : c.points)
    pts.push_back({{"batch", p.batch},
                   {"ttft_s", finite(p.ttft_s)},
                   {"tpot_s", finite(p.tpot_s)},
                   {"e2e_s", finite(p.e2e_s)},
                   {"tokens_per_s_per_user", finite(p.tokens_per_s_per_user)},
                   {"total_tokens_per_s", finite(p.total_tokens_per_s)},
                   {"tokens_per_s_per_device", finite(p.tokens_per_s_per_device)},
                   {"device_required_bytes", p.device_required_bytes},
                   {"fits", p.fits}});
  return {{"kv_fit_batch", c.kv_fit_batch},
          {"speculative", mi.spec.enabled()},
          {"plan", plan_brief(mi.plan)},
          {"system", system_to_json(mi.sys)},
          {"points", pts}};
}

// Throughput and memory against weight and KV formats: the analyze request with every weight class stored in each
// format of sweep.weights and the cache in each of sweep.kv (docs/schema.md, "quant_sweep").
json api_quant_sweep(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  const HardwareSpec*& hw = in.hw;
  const Workload base = read_workload(r, rm.spec, sc);
  const CostAssumptions costs = read_costs(r);
  static const json kNone = json::object();
  Reader sr = r.has("sweep") ? r.object("sweep") : Reader(kNone, "/sweep", "request");
  if (!r.has("sweep")) r.raw("sweep");
  const auto weights = dtype_list(sr, "weights", {"fp32", "bf16", "int8", "q6_k", "q5_k", "int4-g128", "int3", "int2"});
  const auto kvs = dtype_list(sr, "kv", {"bf16", "int8", "int4"});
  sr.reject_unknown();
  r.reject_unknown();

  json rows = json::array();
  for (const DType& wt : weights) {
    for (const DType& kv : kvs) {
      Workload w = base;
      w.settings.precision.weights = wt;
      for (auto& c : w.settings.precision.by_class) c.reset();
      w.settings.precision.kv = kv;
      const Analysis a = analyze(rm.spec, w, hw);
      json row = {{"weights", wt.name},
                  {"weight_bits", wt.bits_per_element},
                  {"kv", kv.name},
                  {"kv_bits", kv.bits_per_element},
                  {"weights_bytes", a.weights_bytes},
                  {"kv_cache_bytes", a.kv_cache_bytes},
                  {"required_bytes", a.memory_required_bytes},
                  {"prefill_flops", a.prefill.totals.flops},
                  {"decode_flops_per_token", a.decode_flops_per_token}};
      if (a.has_hardware) {
        row["fits"] = a.fits;
        row["ttft_s"] = finite(a.ttft_s);
        row["tpot_s"] = finite(a.tpot_mean_s);
        row["tokens_per_s"] = finite(a.tokens_per_s);
        row["batch_tokens_per_s"] = finite(a.batch_tokens_per_s);
        row["max_batch"] = a.max_batch;
        row["max_context"] = a.max_context;
        row["decode_bound"] = a.decode.memory_s >= a.decode.compute_s ? "memory" : "compute";
        const CostReport c = cost_report(a, *hw, costs);
        if (c.model.available) row["decode_j_per_token"] = c.decode.j_per_token;
        row["usd_per_million_tokens"] = c.usd_per_million_tokens;
        row["gCO2e_per_million_tokens"] = c.g_per_million_tokens;
      }
      rows.push_back(row);
    }
  }
  json out = {{"model", rm.spec.name.empty() ? rm.id : rm.spec.name},
              {"scenario", sc ? json(sc->name) : json(nullptr)},
              {"activations", base.settings.precision.activations.name},
              {"rows", rows}};
  if (hw) out["hardware"] = hw->name;
  return out;
}

// One sweep axis: {"param": name, "values": [...]} or {"param": name, "min", "max", "steps", "scale": "log"|"linear"}.
DseAxis read_axis(Reader& ar) {
  DseAxis ax;
  const std::string name = ar.string("param");
  if (!dse_param_by_name(name, ax.param)) {
    std::string list;
    for (int i = 0; i < kDseParams; ++i) list += (list.empty() ? "" : ", ") + std::string(dse_param_name(static_cast<DseParam>(i)));
    ar.fail("param", "out_of_range", ar.child_path("param") + " holds \"" + name + "\"; expected one of " + list);
  }
  const double hi_limit = 1e12;
  if (ar.has("values")) {
    const json* v = ar.raw("values");
    if (!v->is_array() || v->empty() || v->size() > 10000)
      ar.fail("values", "wrong_type", ar.child_path("values") + " holds " + describe(*v) + "; expected an array of 1 to 10000 numbers");
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& x = (*v)[i];
      const std::string path = ar.child_path("values") + "/" + std::to_string(i);
      if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0 || x.get<double>() > hi_limit)
        throw InputError(ar.code_prefix() + ".out_of_range", path, path + " holds " + describe(x) + "; expected a number from 0 to 1000000000000");
      ax.values.push_back(x.get<double>());
    }
    for (const char* k : {"min", "max", "steps", "scale"})
      if (ar.has(k)) ar.fail(k, "conflict", ar.child_path(k) + " cannot be combined with " + ar.child_path("values") + "; give a list or a range");
  } else {
    const double lo = ar.number_in_or("min", 0, hi_limit, -1), hi = ar.number_in_or("max", 0, hi_limit, -1);
    if (lo < 0) ar.fail("min", "missing_field", ar.child_path("min") + " is missing; expected values, or min, max and steps");
    if (hi < lo) ar.fail("max", "out_of_range", ar.child_path("max") + " holds " + number_text(json(hi)) + "; expected at least min (" + number_text(json(lo)) + ")");
    const std::int64_t steps = ar.int_in_or("steps", 1, 10000, 10);
    const std::string scale = ar.string_or("scale", "log");
    if (scale != "log" && scale != "linear")
      ar.fail("scale", "out_of_range", ar.child_path("scale") + " holds \"" + scale + "\"; expected log or linear");
    if (scale == "log" && lo <= 0) ar.fail("min", "out_of_range", ar.child_path("min") + " holds 0; a log scale needs min above 0");
    for (std::int64_t i = 0; i < steps; ++i) {
      const double t = steps == 1 ? 0 : static_cast<double>(i) / static_cast<double>(steps - 1);
      ax.values.push_back(scale == "log" ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t);
    }
  }
  ar.reject_unknown();
  return ax;
}

json dse_point_json(const DsePoint& p) {
  json params = json::object(), values = json::object();
  for (int i = 0; i < kDseParams; ++i) params[dse_param_name(static_cast<DseParam>(i))] = p.params[i];
  for (int i = 0; i < kDseObjectives; ++i) values[dse_objective_name(static_cast<DseObjective>(i))] = finite(p.values[i]);
  return {{"params", params}, {"objectives", values}};
}

// Design-space exploration (docs/schema.md, "sweep").
json api_sweep(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  HardwareSpec& hw_storage = in.hw_storage;
  const HardwareSpec*& hw = in.hw;
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected the base device the sweep varies (a preset id or a hardware object)");
  const Workload w = read_workload(r, rm.spec, sc);
  DseSpec spec;
  spec.costs = read_costs(r);
  std::set<int> seen;
  for (auto& ar : r.object_array("axes")) {
    DseAxis ax = read_axis(ar);
    if (!seen.insert(static_cast<int>(ax.param)).second)
      ar.fail("param", "conflict", ar.child_path("param") + " holds \"" + dse_param_name(ax.param) + "\", which an earlier axis already sweeps");
    spec.axes.push_back(ax);
  }
  if (spec.axes.size() > 5) r.fail("axes", "out_of_range", "/axes holds " + std::to_string(spec.axes.size()) + " axes; expected 1 to 5");
  double total = 1;
  for (const auto& a : spec.axes) total *= static_cast<double>(a.values.size());
  if (total > 5e7) r.fail("axes", "out_of_range", "/axes make " + number_text(json(total)) + " points; expected at most 50000000");
  const std::vector<std::string> objs = r.has("objectives") ? r.string_array_or("objectives") : std::vector<std::string>{"tpot_s", "usd_per_million_tokens"};
  if (!r.has("objectives")) r.raw("objectives");
  std::set<int> oseen;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    DseObjective o;
    const std::string path = "/objectives/" + std::to_string(i);
    if (!dse_objective_by_name(objs[i], o)) {
      std::string list;
      for (int k = 0; k < kDseObjectives; ++k) list += (list.empty() ? "" : ", ") + std::string(dse_objective_name(static_cast<DseObjective>(k)));
      throw InputError("request.out_of_range", path, path + " holds \"" + objs[i] + "\"; expected one of " + list);
    }
    if (!oseen.insert(static_cast<int>(o)).second)
      throw InputError("request.conflict", path, path + " holds \"" + objs[i] + "\" twice; expected distinct objectives");
    spec.objectives.push_back(o);
  }
  if (spec.objectives.size() < 2 || spec.objectives.size() > 4)
    r.fail("objectives", "out_of_range", "/objectives names " + std::to_string(spec.objectives.size()) +
                                             (spec.objectives.size() == 1 ? " objective" : " objectives") + "; expected 2 to 4");
  if (r.has("constraints")) {
    Reader c = r.object("constraints");
    spec.constraints.must_fit = c.boolean_or("must_fit", true);
    spec.constraints.max_tpot_s = c.number_in_or("max_tpot_s", 0, 1e9, 0);
    spec.constraints.max_ttft_s = c.number_in_or("max_ttft_s", 0, 1e9, 0);
    spec.constraints.max_power_w = c.number_in_or("max_power_W", 0, 1e9, 0);
    c.reject_unknown();
  } else {
    r.raw("constraints");
  }
  spec.sram_bandwidth_bytes_per_s = r.number_in_or("sram_bandwidth_GBps", 0, 1e9, 0) * 1e9;
  if (seen.count(static_cast<int>(DseParam::SramMB)) && spec.sram_bandwidth_bytes_per_s <= 0)
    r.fail("sram_bandwidth_GBps", "missing_field", "/sram_bandwidth_GBps is missing; an axis sweeps sram_MB, so give the on-chip SRAM's bandwidth");
  spec.keep_points = r.int_in_or("keep_points", 0, 200000, 20000);
  r.reject_unknown();
  for (const auto& a : spec.axes)
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      const bool must_be_positive = a.param == DseParam::ComputeTflops || a.param == DseParam::BandwidthGBps;
      if (must_be_positive && a.values[i] <= 0)
        throw InputError("request.out_of_range", "/axes", std::string("/axes: ") + dse_param_name(a.param) + " holds 0; expected values above 0");
    }

  spec.derive_power = !seen.count(static_cast<int>(DseParam::PowerW));
  if (spec.derive_power && energy_model(*hw, spec.costs).available == false)
    r.fail("axes", "missing_field", "/axes: " + hw->name + " has no published power to scale; sweep power_W or give costs.power_W");
  if (spec.costs.price_usd > 0) {  // the assumed price is the base device's price_USD parameter
    HardwareSpec priced = *hw;
    priced.price_usd = spec.costs.price_usd;
    hw_storage = priced;
    hw = &hw_storage;
  }
  const DseWorkload wl = dse_prepare(rm.spec, w, *hw, spec.costs);
  const DseResult res = dse_run(wl, spec);
  json front = json::array();
  for (const auto& p : res.front) front.push_back(dse_point_json(p));
  json sample_params = json::object(), sample_values = json::object();
  for (int i = 0; i < kDseParams; ++i) {
    json col = json::array();
    for (const auto& p : res.sample) col.push_back(p.params[i]);
    sample_params[dse_param_name(static_cast<DseParam>(i))] = col;
  }
  for (int i = 0; i < kDseObjectives; ++i) {
    json col = json::array();
    for (const auto& p : res.sample) col.push_back(finite(p.values[i]));
    sample_values[dse_objective_name(static_cast<DseObjective>(i))] = col;
  }
  json axes = json::array();
  for (const auto& a : spec.axes) axes.push_back({{"param", dse_param_name(a.param)}, {"values", a.values}});
  json objectives = json::array();
  for (auto o : spec.objectives) objectives.push_back(dse_objective_name(o));
  json base = json::object();
  const auto bp = dse_base_params(*hw);
  for (int i = 0; i < kDseParams; ++i) base[dse_param_name(static_cast<DseParam>(i))] = bp[i];
  std::vector<Warning> warns;
  if (hw->price_usd <= 0 && !seen.count(static_cast<int>(DseParam::PriceUSD)) && spec.costs.price_usd <= 0)
    warns.push_back({"cost.no_price", "/hardware/price_USD", hw->name + " has no public price: cost per token counts electricity only; sweep price_USD or give costs.price_USD"});
  if (hw->embodied_kgco2e <= 0 && spec.costs.embodied_kgco2e < 0)
    warns.push_back({"cost.no_embodied", "/hardware/embodied_kgCO2e", hw->name + " has no published embodied carbon; CO2 counts operation only"});
  return {{"model", rm.spec.name.empty() ? rm.id : rm.spec.name},
          {"warnings", warnings_json(warns)},
          {"derived_power", spec.derive_power},
          {"base", {{"id", hw->id}, {"name", hw->name}, {"params", base}}},
          {"axes", axes},
          {"objectives", objectives},
          {"points", res.points},
          {"feasible", res.feasible},
          {"front", front},
          {"sample", {{"params", sample_params}, {"objectives", sample_values}, {"count", res.sample.size()}}}};
}

// A design point as a hardware document (to keep as a custom device).
json api_dse_device(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec hw_storage;
  const HardwareSpec* hw = resolve_hardware(r, hw_storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected the base device of the sweep");
  Reader pr = r.object("params");
  std::array<double, kDseParams> p = dse_base_params(*hw);
  for (int i = 0; i < kDseParams; ++i) p[i] = pr.number_in_or(dse_param_name(static_cast<DseParam>(i)), 0, 1e12, p[i]);
  pr.reject_unknown();
  DseSpec spec;
  spec.sram_bandwidth_bytes_per_s = r.number_in_or("sram_bandwidth_GBps", 0, 1e9, 0) * 1e9;
  spec.derive_power = !pr.has("power_W");
  spec.costs = read_costs(r);
  r.reject_unknown();
  if (p[0] <= 0 || p[1] <= 0) throw InputError("request.out_of_range", "/params", "/params: compute_TFLOPS and bandwidth_GBps must be above 0");
  if (p[static_cast<int>(DseParam::SramMB)] > 0 && spec.sram_bandwidth_bytes_per_s <= 0)
    r.fail("sram_bandwidth_GBps", "missing_field", "/sram_bandwidth_GBps is missing; the point has SRAM, so give its bandwidth");
  const DseWorkload wl = dse_base(*hw, spec.costs);
  if (hw->tiers.empty()) throw InputError("dse.no_memory", "/hardware", "/hardware: " + hw->name + " has no memory tier to scale");
  return hardware_to_json(dse_device(wl, spec, p));
}

// LIFE's Fig. 4: t_c / t_m of the prefill (and of the first decode step) over a grid of compute and bandwidth,
// at the given efficiencies. t_c = sum of FLOPs / (TOPS x compute efficiency); t_m = bytes / (bandwidth x memory
// efficiency). Above 1 the phase is compute-bound.
json api_tc_tm_map(const json& request) {
  Reader r(request, "", "request");
  ResolvedModel rm = resolve_model(r);
  const Scenario* sc = read_scenario(r);
  apply_mla_conversion(r, rm.spec, sc);
  const Workload w = read_workload(r, rm.spec, sc);
  Reader cr = r.object("compute_TOPS");
  const auto range = [&](Reader& rr) {
    std::vector<double> v;
    const double lo = rr.number_in_or("min", 1e-6, 1e9, -1), hi = rr.number_in_or("max", 1e-6, 1e9, -1);
    if (lo < 0) rr.fail("min", "missing_field", rr.child_path("min") + " is missing; expected a number above 0");
    if (hi < lo) rr.fail("max", "out_of_range", rr.child_path("max") + " is missing or below min; expected a number at least min");
    const std::int64_t n = rr.int_in_or("steps", 2, 200, 10);
    for (std::int64_t i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n - 1));
    rr.reject_unknown();
    return v;
  };
  const auto tops = range(cr);
  Reader br = r.object("bandwidth_GBps");
  const auto bws = range(br);
  const double ce = r.number_in_or("compute_efficiency", 0.001, 1, 1), me = r.number_in_or("memory_efficiency", 0.001, 1, 1);
  r.reject_unknown();
  const Analysis a = analyze(rm.spec, w, nullptr);
  const auto map = [&](const PhaseTotals& t) {
    json rows = json::array();
    for (double bw : bws) {
      json row = json::array();
      for (double c : tops) row.push_back((t.flops / (c * 1e12 * ce)) / (t.bytes() / (bw * 1e9 * me)));
      rows.push_back(row);
    }
    return rows;
  };
  return {{"compute_TOPS", tops}, {"bandwidth_GBps", bws}, {"compute_efficiency", ce}, {"memory_efficiency", me},
          {"prefill", {{"flops", a.prefill.totals.flops}, {"bytes", a.prefill.totals.bytes()}, {"tc_over_tm", map(a.prefill.totals)}}},
          {"decode", {{"flops", a.decode.totals.flops}, {"bytes", a.decode.totals.bytes()}, {"tc_over_tm", map(a.decode.totals)}}}};
}

json api_validate(const json& request) {
  Reader r(request, "", "request");
  const std::string text = r.string_or("csv", embedded_measurements());
  r.reject_unknown();
  const ValidationReport rep = validate(parse_csv(text));
  json rows = json::array();
  for (const auto& v : rep.rows) {
    json j = {{"row_id", v.row_id},   {"source_id", v.source_id}, {"model", v.model},   {"hardware", v.hardware},
              {"metric", v.metric},   {"unit", v.unit},           {"group", v.group},   {"measured", v.measured},
              {"covered", v.covered}};
    if (v.covered) {
      j["model_id"] = v.model_id;
      j["hardware_id"] = v.hardware_id;
      j["weights"] = v.weights;
      j["activations"] = v.activations;
      j["kv"] = v.kv;
      j["batch"] = v.batch;
      j["prompt"] = v.prompt;
      j["gen"] = v.gen;
      j["devices"] = v.devices;
      j["system_id"] = v.system_id;
      j["forecast"] = finite(v.forecast);
      j["error"] = finite(v.error);
    } else {
      j["reason"] = v.reason;
    }
    rows.push_back(j);
  }
  json groups = json::array();
  for (const auto& g : rep.groups)
    groups.push_back({{"group", g.name},
                      {"rows", g.rows},
                      {"median_abs_error", g.median_abs_error},
                      {"p90_abs_error", g.p90_abs_error},
                      {"median_signed_error", g.median_signed_error}});
  return {{"rows", rows}, {"groups", groups}};
}

json api_calibrate(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec hw_storage;
  const HardwareSpec* hw = resolve_hardware(r, hw_storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
  std::deque<ResolvedModel> models;  // stable addresses: points keep pointers to their models
  bool has_default = r.has("model");
  if (has_default) models.push_back(resolve_model(r));
  else r.raw("model");
  std::vector<EffParam> params;
  for (const auto& name : r.string_array_or("fit")) params.push_back(eff_param_by_name(name, r.child_path("fit")));
  if (params.empty()) params = {EffParam::Gemm, EffParam::Attention, EffParam::Memory, EffParam::Dispatch};
  std::vector<CalibrationPoint> points;
  auto readers = r.object_array("points");
  if (readers.size() > 60) r.fail("points", "out_of_range", "/points holds " + std::to_string(readers.size()) + " points; expected at most 60");
  for (auto& pr : readers) {
    CalibrationPoint p;
    if (pr.has("model")) {
      models.push_back(resolve_model(pr));
      p.model = &models.back().spec;
    } else if (has_default) {
      pr.raw("model");
      p.model = &models.front().spec;
    } else {
      pr.fail("model", "missing_field", pr.child_path("model") + " is missing and the request has no default /model");
    }
    p.metric = metric_by_name(pr.string("metric"), pr.child_path("metric"));
    p.measured = pr.positive_number("value");
    p.workload = read_workload(pr, *p.model, nullptr);
    pr.reject_unknown();
    points.push_back(p);
  }
  r.reject_unknown();
  const CalibrationResult res = calibrate(*hw, points, params);
  json fitted_names = json::array();
  for (EffParam p : params) fitted_names.push_back(eff_param_name(p));
  json pts = json::array();
  for (std::size_t i = 0; i < points.size(); ++i)
    pts.push_back({{"metric", metric_name(points[i].metric)},
                   {"measured", points[i].measured},
                   {"forecast_before", finite(res.forecast_before[i])},
                   {"forecast_after", finite(res.forecast_after[i])},
                   {"error_after", finite(res.forecast_after[i] / points[i].measured - 1)}});
  HardwareSpec out = *hw;
  out.eff = res.fitted;
  out.id = hw->id + "-calibrated";
  out.name = hw->name + " (calibrated)";
  out.source = hw->source + "; efficiencies calibrated by infercast from " + std::to_string(points.size()) + " measured points";
  return {{"fitted_parameters", fitted_names},
          {"start", efficiency_to_json(res.start)},
          {"fitted", efficiency_to_json(res.fitted)},
          {"points", pts},
          {"rms_log_error_before", res.rms_log_error_before},
          {"rms_log_error_after", res.rms_log_error_after},
          {"evaluations", res.evaluations},
          {"hardware", hardware_to_json(out)}};
}

namespace {
// The envelope around one call: its value, or the error it raised.
template <typename F>
std::string envelope_of(F body) {
  json envelope;
  try {
    envelope = {{"ok", true}, {"value", body()}};
  } catch (const InputError& e) {
    envelope = {{"ok", false}, {"error", {{"code", e.code()}, {"path", e.path()}, {"message", e.what()}}}};
  } catch (const std::exception& e) {
    envelope = {{"ok", false}, {"error", {{"code", "internal"}, {"path", ""}, {"message", std::string("internal error: ") + e.what()}}}};
  }
  return envelope.dump(-1, ' ', false, json::error_handler_t::replace);
}
}  // namespace

// A safetensors checkpoint's tensors (all shards' rows) with its config.json, a model preset's config, or neither.
json api_checkpoint(const json& req) {
  Reader r(req, "", "request");
  const json* rows = r.raw("tensors");
  if (!rows) r.fail("tensors", "missing_field", "/tensors is missing; expected the [name, dtype, shape] rows of the checkpoint's safetensors headers");
  const json* mv = r.raw("model");
  r.reject_unknown();
  json config;
  if (mv && mv->is_string()) {
    const ModelPreset* p = find_model_preset(mv->get<std::string>());
    if (!p)
      throw InputError("request.unknown_preset", "/model", "/model holds \"" + mv->get<std::string>() + "\", which is not a model preset; run `infercast models` for the list");
    config = p->config;
  } else if (mv && mv->is_object()) {
    config = mv->contains("schema_version") && mv->contains("config") ? mv->at("config") : *mv;
  } else if (mv) {
    throw InputError("request.wrong_type", "/model", "/model holds " + describe(*mv) + "; expected a preset id or a config.json object");
  }
  return safetensors_checkpoint(*rows, mv ? &config : nullptr);
}

std::string call_bytes(const std::string& fn, const std::string& bytes) {
  return envelope_of([&]() -> json {
    if (fn == "safetensors") return safetensors_header_json(read_safetensors_header(bytes));
    if (fn == "safetensors_size") return json{{"header_bytes", safetensors_header_size(bytes)}};
    if (fn != "gguf")
      throw InputError("api.unknown_function", "", "unknown function \"" + fn + "\" for file bytes; expected gguf, safetensors or safetensors_size");
    json v = gguf_model(read_gguf_header(bytes));
    // The config as the model parser reads it, and its parameter count against the tensors'.
    const ModelSpec m = parse_model_config(v["config"], "/gguf/config");
    v["params_from_config"] = count_params(m).total;
    return v;
  });
}

std::string call(const std::string& fn, const std::string& request_json) {
  return envelope_of([&]() -> json {
    json req = request_json.empty() ? json::object() : parse_json_text(request_json, "the request", "request");
    json value;
    if (fn == "version") value = {{"version", kVersion}};
    else if (fn == "models") value = api_models();
    else if (fn == "hardware") value = api_hardware();
    else if (fn == "model") value = api_model(req);
    else if (fn == "device") value = api_device(req);
    else if (fn == "analyze") value = api_analyze(req);
    else if (fn == "quant_sweep") value = api_quant_sweep(req);
    else if (fn == "sweep") value = api_sweep(req);
    else if (fn == "dse_device") value = api_dse_device(req);
    else if (fn == "tc_tm_map") value = api_tc_tm_map(req);
    else if (fn == "batching") value = api_batching(req);
    else if (fn == "checkpoint") value = api_checkpoint(req);
    else if (fn == "systems") {
      value = json::array();
      for (const auto& sy : system_presets()) value.push_back(system_to_json(sy));
    } else if (fn == "regions") {
      value = {{"source", kGridSource}, {"regions", json::array()}};
      for (const auto& g : grid_regions()) value["regions"].push_back({{"id", g.id}, {"name", g.name}, {"gCO2e_per_kWh", g.g_per_kwh}});
    } else if (fn == "scenarios") {
      value = json::array();
      for (const auto& sc : all_scenarios()) {
        json v = {{"name", sc.name},
                  {"description", sc.description},
                  {"source", sc.source},
                  {"weights", sc.weights},
                  {"activations", sc.activations},
                  {"kv", sc.kv},
                  {"attention", sc.attention == AttnImpl::Fused ? "fused" : "unfused"},
                  {"mlp", sc.fused_mlp ? "fused" : "unfused"},
                  {"online_hadamard", sc.online_hadamard}};
        if (sc.lora.rank > 0) v["lora"] = {{"rank", sc.lora.rank}, {"mode", lora_mode_name(sc.lora.mode)}};
        if (sc.convert_mla)
          v["convert_mla"] = {{"q_lora_rank", sc.mla.q_lora_rank}, {"kv_lora_rank", sc.mla.kv_lora_rank},
                              {"qk_nope_head_dim", sc.mla.qk_nope_dim}, {"qk_rope_head_dim", sc.mla.qk_rope_dim},
                              {"v_head_dim", sc.mla.v_head_dim}};
        value.push_back(v);
      }
    }
    else if (fn == "validate") value = api_validate(req);
    else if (fn == "calibrate") value = api_calibrate(req);
    else if (fn == "conventions") {
      value = json::array();
      for (const auto& c : all_conventions()) value.push_back({{"name", c.name}, {"description", c.description}});
    } else if (fn == "dtypes") {
      value = json::array();
      const auto row = [&](const DType& d) {
        value.push_back({{"name", d.name}, {"bits_per_element", d.bits_per_element}, {"definition", d.definition}});
      };
      for (const auto& d : all_dtypes()) row(d);
      // Common grouped formats (any intN-gG is accepted): AWQ/GPTQ weights, KIVI-style KV.
      for (const char* g : {"int4-g128", "int4-g64", "int4-g32", "int3-g128", "int2-g64", "int8-g64"}) row(*find_dtype(g));
    } else {
      throw InputError("api.unknown_function", "", "unknown function \"" + fn +
                                                       "\"; expected version, models, hardware, systems, conventions, dtypes, scenarios, regions, model, device, analyze, batching, quant_sweep, sweep, dse_device, tc_tm_map, validate or calibrate");
    }
    return value;
  });
}

}  // namespace infercast
