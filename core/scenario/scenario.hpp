// Built-in scenarios: named bundles of optimizations that set the defaults of an analysis (a request's own fields
// override them). LIFE's Table 3 variants of Llama-2-7B are here, so its characterization can be rerun on any model
// and device. Data only: what each setting costs is computed in ops/ and analysis/ (docs/formulas.md).
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"
#include "ops/ops.hpp"

namespace infercast {

struct Scenario {
  std::string name;         // e.g. "life/bf16-int4-kv4"
  std::string description;  // one line for lists
  std::string source;       // where the definition comes from
  std::string weights = "bf16";
  std::string activations = "bf16";
  std::string kv = "bf16";
  AttnImpl attention = AttnImpl::Fused;
  bool fused_mlp = false;
  LoraSettings lora;                 // rank 0: none
  bool convert_mla = false;          // convert standard attention to MLA with `mla`
  MlaConversion mla;
  MlaForm mla_form = MlaForm::Auto;
  bool online_hadamard = false;
};

const std::vector<Scenario>& all_scenarios();
// nullptr when unknown.
const Scenario* find_scenario(const std::string& name);

// The scenario's settings (formats for every weight class, attention, MLP, LoRA, MLA form, rotations); the
// convention and anything else in `st` is kept.
void apply_scenario(const Scenario& sc, StepSettings& st);
// The model the scenario runs: converted to MLA when it asks for that, otherwise unchanged.
ModelSpec scenario_model(const Scenario& sc, const ModelSpec& m);

}  // namespace infercast
