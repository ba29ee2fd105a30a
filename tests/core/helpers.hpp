#pragma once
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "io/presets.hpp"
#include "ops/ops.hpp"

namespace test {
using namespace infercast;

inline ModelSpec preset_model(const std::string& id) {
  const ModelPreset* p = find_model_preset(id);
  if (!p) throw std::runtime_error("no preset " + id);
  ModelSpec m = parse_model_config(p->config, "/config");
  m.id = p->id;
  m.name = p->name;  // as the API names a preset model
  return m;
}

inline StepSettings settings(const std::string& conv = "infercast", const std::string& w = "bf16", const std::string& kv = "bf16") {
  StepSettings s;
  s.precision.weights = *find_dtype(w);
  s.precision.activations = *find_dtype("bf16");
  s.precision.kv = *find_dtype(kv);
  s.convention = convention_by_name(conv);
  return s;
}

inline const Op& find_op(const std::vector<Op>& ops, const std::string& name, const std::string& group = "*") {
  for (const auto& o : ops)
    if (o.name == name && (group == "*" || o.group == group)) return o;
  throw std::runtime_error("no op " + name);
}

inline double sum_flops(const std::vector<Op>& ops) {
  double f = 0;
  for (const auto& o : ops) f += o.flops;
  return f;
}
}  // namespace test

// The value of a successful core API call (helpers for tests that call the API with JSON).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api/api.hpp"

inline nlohmann::json api_value(const std::string& fn, const nlohmann::json& req) {
  const nlohmann::json env = nlohmann::json::parse(infercast::call(fn, req.dump()));
  INFO(env.dump());
  REQUIRE(env["ok"].get<bool>());
  return env["value"];
}
