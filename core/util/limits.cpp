#include "util/limits.hpp"

#include <cstdio>

#include "util/error.hpp"

namespace infercast {

const std::vector<LimitEntry>& limits() {
  using namespace limit;
  static const std::vector<LimitEntry> table = {
      {"request_bytes", static_cast<double>(kRequestBytes), "bytes", "a JSON request or document (config, hardware, system, request file), as text"},
      {"json_depth", kJsonDepth, "levels", "arrays and objects nested inside one another in a JSON text"},
      {"json_values", static_cast<double>(kJsonValues), "values", "array elements and object members in one JSON text"},
      {"message_bytes", static_cast<double>(kMessageBytes), "bytes", "an error message; a longer one keeps its head and its tail"},
      {"text_config_depth", kTextConfigDepth, "levels", "text_config nested inside text_config in a model config"},
      {"model_layers", static_cast<double>(kModelLayers), "layers", "layers of a model: num_hidden_layers or its family's key, DeciLM's block_configs, the MTP layers, and a GGUF's block_count (the largest published models have about 200)"},
      {"position_rows", static_cast<double>(kPositionRows), "rows", "rows of a learned position table: max_position_embeddings or its family's key (GPT-2's n_positions, 1,024; StarCoder's 8,192)"},
      {"request_entries", static_cast<double>(kRequestEntries), "entries", "entries of /workload/requests (their counts add up to at most 1000000 requests)"},
      {"analysis_steps", kAnalysisSteps, "steps", "steps one analysis makes operators for: prefill chunks (the longest request over /workload/prefill_chunk) plus decode intervals (where requests' keys cross a sliding window, an attention chunk or the attention tile)"},
      {"request_steps", kRequestSteps, "request-steps", "request entries, plus each entry's prefill chunks, plus each entry's own decode boundaries times the layer groups (the decode's running sums touch a request once, and at each of its boundaries once per layer group)"},
      {"analysis_operator_steps", kAnalysisOperatorSteps, "operator-steps", "one analysis's steps times the operators of a step (a Llama step has 16 operators, a Gemma 3n step 191): what its time and memory grow with"},
      {"call_operator_steps", kCallOperatorSteps, "operator-steps", "operator-steps over every analysis of one call: a quantization sweep's formats, a batching curve's points, a plan's stages, an offload split's analyses"},
      {"call_steps", kCallSteps, "steps", "steps over every evaluation of a calibration (its search stops there)"},
      {"fit_blocks", kFitBlocks, "blocks", "validate: step blocks its runtime fits time per evaluation, every fit together (each source left out refits)"},
      {"serving_request_steps", kServingRequestSteps, "request-steps", "a serving simulation: its requests times their output tokens and prompt chunks (serving.too_large past it)"},
      {"serving_steps", kServingSteps, "steps", "a serving simulation's engine steps: estimated from the steady state's batch before it starts, and a backstop while it runs"},
      {"plan_devices", static_cast<double>(kPlanDevices), "devices", "tp x pp x dp of a plan (/parallel): as many devices as the largest system holds, 4,096 per node in 65,536 nodes"},
      {"deploy_layer_layouts", kDeployLayerLayouts, "layer-layouts", "a deployment search's tensor/pipeline layouts times the model's layers (deploy): each layout's setups analyze every layer"},
      {"serving_stage_steps", kServingStageSteps, "stage-steps", "a serving simulation's engine steps times the plan's pipeline stages (each step times every stage)"},
      {"deploy_evaluations", kDeployEvaluations, "configurations", "configurations one deployment search times (deploy): past it the prefill and decode pool sizes are searched on a geometric grid"},
      {"sweep_points", kSweepPoints, "points", "design points of one sweep (the product of the axes' values)"},
      {"csv_records", static_cast<double>(kCsvRecords), "records", "records of a measurements CSV (validate)"},
      {"csv_columns", static_cast<double>(kCsvColumns), "columns", "fields of one CSV line"},
      {"gguf_header_bytes", static_cast<double>(kGgufHeaderBytes), "bytes", "a GGUF header: metadata and tensor table (the weights are never read)"},
      {"gguf_entries", static_cast<double>(kGgufEntries), "entries", "tensors, and metadata entries, of a GGUF header"},
      {"safetensors_header_bytes", static_cast<double>(kSafetensorsHeaderBytes), "bytes", "a safetensors header (the format's own limit)"},
      {"checkpoint_tensors", static_cast<double>(kCheckpointTensors), "tensors", "tensors of a safetensors checkpoint, every shard together"},
      {"metadata_bytes", static_cast<double>(kMetadataBytes), "bytes", "a safetensors __metadata__ value as the result shows it (longer ones are cut)"},
      {"tensor_elements", static_cast<double>(kTensorElements), "elements", "elements of one tensor, and of all tensors of a file or checkpoint (2^53, exact in a double)"},
  };
  return table;
}

std::string mib_text(std::uint64_t bytes) {
  char b[48];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1u << 20));
  return b;
}

void check_json_text(const char* begin, const char* end, const std::string& what, const std::string& code_prefix,
                     std::uint64_t max_bytes) {
  const auto size = static_cast<std::uint64_t>(end - begin);
  if (size > max_bytes)
    throw InputError(code_prefix + ".too_large", "",
                     what + " is " + std::to_string(size) + " bytes (" + mib_text(size) + "); expected at most " +
                         std::to_string(max_bytes) + " (" + mib_text(max_bytes) + ")");
  int depth = 0;
  std::uint64_t values = 0;
  bool in_string = false, escaped = false;
  for (const char* p = begin; p != end; ++p) {
    const char c = *p;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        ++values;
        if (++depth > limit::kJsonDepth)
          throw InputError(code_prefix + ".too_deep", "",
                           what + " nests arrays and objects more than " + std::to_string(limit::kJsonDepth) +
                               " levels deep (at byte " + std::to_string(p - begin) + "); expected at most " +
                               std::to_string(limit::kJsonDepth));
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      case ',': ++values; break;
      default: break;
    }
    if (values > limit::kJsonValues)
      throw InputError(code_prefix + ".too_large", "",
                       what + " holds more than " + std::to_string(limit::kJsonValues) +
                           " values (array elements and object members; at byte " + std::to_string(p - begin) +
                           "); expected at most " + std::to_string(limit::kJsonValues));
  }
}

namespace {
// The start of the UTF-8 character holding byte `i` (i itself when it starts one).
std::size_t char_start(const std::string& s, std::size_t i) {
  std::size_t back = 0;
  while (i > 0 && back < 3 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i, ++back;
  return i;
}
}  // namespace

std::string utf8_prefix(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  return text.substr(0, char_start(text, max_bytes)) + "...";
}

std::string bounded_message(const std::string& message) {
  if (message.size() <= limit::kMessageBytes) return message;
  const std::size_t head = char_start(message, limit::kMessageBytes * 2 / 3);
  std::size_t tail = message.size() - limit::kMessageBytes / 3;
  tail = char_start(message, tail);
  return message.substr(0, head) + " [... " + std::to_string(tail - head) + " bytes cut ...] " + message.substr(tail);
}

}  // namespace infercast
