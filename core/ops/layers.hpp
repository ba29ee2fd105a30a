// Layers with identical specs are grouped and computed once, times their count. Whether two layers are identical
// is decided over every field of their specs (layers.cpp binds them all with structured bindings, so a field added
// to a spec without being compared there does not compile).
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace infercast {

struct LayerGroup {
  LayerSpec spec;
  i64 count = 0;
  std::string label;  // "MoE, sliding 4096", shown in tables
  std::vector<i64> layers;
};

bool same_layer(const LayerSpec& a, const LayerSpec& b);
std::vector<LayerGroup> group_layers(const ModelSpec& m);

}  // namespace infercast
