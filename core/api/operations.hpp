// The operations of the API, grouped by concept (analyze.cpp, sweeps.cpp, fit.cpp, files.cpp, catalog.cpp) and
// listed once in registry.cpp. Each takes the request's JSON and returns its value (or writes it), or throws
// InputError.
#pragma once

#include <string>

#include "io/json_reader.hpp"
#include "io/json_writer.hpp"

namespace infercast {

// How far a search call goes (the `check` call, docs/schema.md): `all` runs it; `check` reads its request, checks
// every limit known before anything is timed, and returns (a null value) before its search or simulation starts.
enum class Run { all, check };

// analyze.cpp (analyze writes its result straight to the output, schema and project versions first)
void api_analyze(const json& request, JsonWriter& out);
json api_batching(const json& request, Run run = Run::all);
json api_model(const json& request);
json api_device(const json& request);
// serving.cpp, deploy.cpp
json api_serving(const json& request, Run run = Run::all);
json api_deploy(const json& request, Run run = Run::all);
// sweeps.cpp
json api_quant_sweep(const json& request, Run run = Run::all);
void api_sweep(const json& request, JsonWriter& out, Run run = Run::all);
json api_dse_device(const json& request);
json api_tc_tm_map(const json& request, Run run = Run::all);
// fit.cpp
json api_validate(const json& request, Run run = Run::all);
json api_calibrate(const json& request, Run run = Run::all);
// files.cpp: a checkpoint's tensors as JSON; GGUF and safetensors headers as bytes
json api_checkpoint(const json& request);
json api_gguf(const std::string& bytes);
json api_config_text(const std::string& bytes);
json api_safetensors(const std::string& bytes);
json api_safetensors_size(const std::string& bytes);
// catalog.cpp
json api_version(const json& request);
json api_models(const json& request);
json api_families(const json& request);
json api_hardware(const json& request);
json api_systems(const json& request);
json api_runtimes(const json& request);
json api_regions(const json& request);
json api_scenarios(const json& request);
json api_conventions(const json& request);
json api_dtypes(const json& request);
json api_options(const json& request);
json api_limits(const json& request);
// peaks.cpp
json api_architectures(const json& request);
json api_derive_peaks(const json& request);

}  // namespace infercast
