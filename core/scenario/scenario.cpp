#include "scenario/scenario.hpp"

namespace infercast {

const Scenario* find_scenario(const std::string& name) {
  for (const auto& s : all_scenarios())
    if (s.name == name) return &s;
  return nullptr;
}

void apply_scenario(const Scenario& sc, StepSettings& st) {
  st.precision.weights = *find_dtype(sc.weights);
  st.precision.activations = *find_dtype(sc.activations);
  st.precision.kv = *find_dtype(sc.kv);
  for (auto& c : st.precision.by_class) c.reset();
  st.attention = sc.attention;
  st.fused_mlp = sc.fused_mlp;
  st.lora = sc.lora;
  st.mla = sc.mla_form;
  st.online_hadamard = sc.online_hadamard;
}

ModelSpec scenario_model(const Scenario& sc, const ModelSpec& m) { return sc.convert_mla ? convert_to_mla(m, sc.mla) : m; }

}  // namespace infercast
