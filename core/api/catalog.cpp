// The catalog: presets, systems, formats, conventions, scenarios, grid regions and the request's options, as the
// page and the CLI list them. These calls take an empty request.
#include "api/operations.hpp"

#include "api/options.hpp"
#include "api/version.hpp"
#include "cost/cost.hpp"
#include "io/defaults.hpp"
#include "io/hardware_json.hpp"
#include "util/limits.hpp"
#include "io/model_config.hpp"
#include "io/presets.hpp"
#include "io/system_json.hpp"
#include "ops/conventions.hpp"
#include "quant/dtype.hpp"
#include "quant/llama_mix.hpp"
#include "scenario/scenario.hpp"

namespace infercast {

namespace {
void no_fields(const json& request) { Reader(request, "", "request").reject_unknown(); }
}  // namespace

json api_version(const json& request) {
  no_fields(request);
  return {{"version", kVersion}};
}

// The limits on inputs (util/limits.hpp): each with its value, unit and what it bounds.
json api_limits(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& l : limits()) a.push_back({{"name", l.name}, {"value", l.value}, {"unit", l.unit}, {"help", l.help}});
  return a;
}

// The model families a config.json may name: model_type and its aliases, the architectures that name the family,
// transformers' defaults for omitted fields, and what a recognized-but-refused family lacks.
json api_families(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& f : model_families()) {
    json defaults = json::object();
    for (const auto& d : f.defaults) defaults[d.key] = d.value;
    a.push_back({{"model_type", f.model_type},
                 {"aliases", f.aliases},
                 {"architectures", f.architectures},
                 {"config_class", f.config_class},
                 {"defaults", defaults},
                 {"supported", f.unsupported[0] == '\0'},
                 {"not_modelled", f.unsupported},
                 {"source", f.source}});
  }
  return a;
}

json api_models(const json& request) {
  no_fields(request);
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
                 {"declared_weights", m.declared_weights},
                 {"source", p.source}});
  }
  return a;
}

json api_hardware(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& h : hardware_presets()) {
    json d = hardware_to_json(h);
    d["default_runtime"] = default_runtime_id(h);  // the runtime its users most run (presets/defaults/default_runtimes.json)
    a.push_back(d);
  }
  return a;
}

json api_runtimes(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& r : runtime_presets()) a.push_back(runtime_to_json(r));
  return a;
}

json api_systems(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& sy : system_presets()) a.push_back(system_to_json(sy));
  return a;
}

json api_regions(const json& request) {
  no_fields(request);
  json v = {{"source", grid_source()}, {"regions", json::array()}};
  for (const auto& g : grid_regions()) v["regions"].push_back({{"id", g.id}, {"name", g.name}, {"gCO2e_per_kWh", g.g_per_kwh}});
  return v;
}

json api_scenarios(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& sc : all_scenarios()) {
    json v = {{"name", sc.name},
              {"description", sc.description},
              {"source", sc.source},
              {"weights", sc.weights},
              {"activations", sc.activations},
              {"kv", sc.kv},
              {"attention", attn_impl_names().name(sc.attention)},
              {"mlp", mlp_form_names().name(sc.fused_mlp)},
              {"online_hadamard", sc.online_hadamard}};
    if (sc.lora.rank > 0) v["lora"] = {{"rank", sc.lora.rank}, {"mode", lora_mode_name(sc.lora.mode)}};
    if (sc.convert_mla)
      v["convert_mla"] = {{"q_lora_rank", sc.mla.q_lora_rank}, {"kv_lora_rank", sc.mla.kv_lora_rank},
                          {"qk_nope_head_dim", sc.mla.qk_nope_dim}, {"qk_rope_head_dim", sc.mla.qk_rope_dim},
                          {"v_head_dim", sc.mla.v_head_dim}};
    a.push_back(v);
  }
  return a;
}

json api_conventions(const json& request) {
  no_fields(request);
  json a = json::array();
  for (const auto& c : all_conventions()) a.push_back({{"name", c.name}, {"description", c.description}});
  return a;
}

json api_dtypes(const json& request) {
  no_fields(request);
  json a = json::array();
  const auto row = [&](const DType& d) {
    a.push_back({{"name", d.name}, {"bits_per_element", d.bits_per_element}, {"definition", d.definition}, {"mix", false}});
  };
  for (const auto& d : all_dtypes()) row(d);
  // Common grouped formats (any intN-gG is accepted): AWQ/GPTQ weights, KIVI-style KV.
  for (const char* g : {"int4-g128", "int4-g64", "int4-g32", "int3-g128", "int2-g64", "int8-g64"}) row(*find_dtype(g));
  // ExLlamaV2's EXL2 at common rates (any exl2-B from 2.0 to 8.0 is accepted).
  for (const char* g : {"exl2-3.0", "exl2-4.0", "exl2-5.0", "exl2-6.0"}) row(*find_dtype(g));
  // llama.cpp file types: weights only, each tensor in the type llama-quantize gives it (the bits depend on the model;
  // these are the base type's).
  for (const auto& x : llama_mixes())
    a.push_back({{"name", x.name}, {"bits_per_element", find_dtype(x.base)->bits_per_element}, {"definition", x.description}, {"mix", true}});
  return a;
}

json api_options(const json& request) {
  no_fields(request);
  return options_json();
}

}  // namespace infercast
