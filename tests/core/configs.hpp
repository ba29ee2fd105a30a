// Configs in tests: a file of tests/data/configs read as the API reads it, a config parsed as a model request's,
// the error a refused config raises, and a model's KV-cache bytes per token.
#pragma once
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "helpers.hpp"
#include "ops/geometry.hpp"

namespace test {

inline json data_config(const std::string& name) {
  const auto path = std::filesystem::path(INFERCAST_SOURCE_DIR) / "tests" / "data" / "configs" / name;
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_json_text(ss.str(), name, "input");
}

inline ModelSpec parse(const json& cfg) { return parse_model_config(cfg, "/model"); }

inline InputError error_of(const json& cfg) {
  try {
    parse(cfg);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("the config was accepted");
  return InputError("", "", "");
}

// KV-cache bytes of one token over every layer, all layers holding it (a context within every window).
inline double kv_per_token(const ModelSpec& m, double bytes = 2) {
  double b = 0;
  for (const auto& l : m.layers) b += kv_bytes_per_token_layer(l.attn, bytes);
  return b;
}

}  // namespace test
