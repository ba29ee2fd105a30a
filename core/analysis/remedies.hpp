// What would make a workload fit where it does not (docs/schema.md, `memory.remedies`): the rule lives here once;
// the CLI's device line and the page's answer each word the codes their own way (a flag, a tab).
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "runtime/runtime.hpp"
#include "util/names.hpp"

namespace infercast {

enum class Remedy { RaiseFraction, SmallerFormat, OffloadLayers, FewerRequests, MoreDevices };
const NameTable<Remedy>& remedy_names();

// Under an engine's memory budget: whether the weights and the activations it keeps pass the budget alone, so that
// fewer or shorter requests cannot help.
bool weights_pass_budget(const Analysis& a);

// Empty where the workload fits. Past an engine's budget that the device would hold (warning memory.runtime_budget):
// raise the fraction, then a smaller format and more devices where the weights alone pass it, else fewer or
// shorter requests. Past the device: a smaller format; layers in host memory under llama.cpp (its -ngl, the only
// runtime whose offload split is modelled); fewer or shorter requests where the weights and activations alone fit;
// more devices.
std::vector<Remedy> memory_remedies(const Analysis& a, const RuntimeSpec* rt);

}  // namespace infercast
