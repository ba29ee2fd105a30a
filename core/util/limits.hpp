// The limits on what the core reads, written once (docs/schema.md, "Limits"). Each is checked before any work
// starts on the input it bounds, and refused with a message that names the input, what it holds and the limit.
// Together they bound every call's time and memory (the budget the adversarial tests assert, tests/adversarial/).
// The `limits` call lists this table; the page reads its file limits from there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infercast {

namespace limit {
// Text
constexpr std::uint64_t kRequestBytes = 32u << 20;     // a JSON request or document (a config, a hardware file), as text
constexpr int kJsonDepth = 64;                         // arrays and objects inside one another
constexpr std::uint64_t kJsonValues = 2u << 20;        // array elements and object members in one JSON text
constexpr std::uint64_t kMessageBytes = 2048;          // an error message (longer ones keep their head and tail)
constexpr int kTextConfigDepth = 3;                    // text_config inside text_config
// Models
constexpr std::int64_t kModelLayers = 100000;          // layers of a model (the largest published have about 200)
constexpr std::int64_t kPositionRows = std::int64_t(1) << 32;  // rows of a learned position table (GPT-2: 1,024)
// Workloads and sweeps
constexpr std::uint64_t kRequestEntries = 65536;       // entries of /workload/requests (their counts add to 1e6)
constexpr double kAnalysisSteps = 65536;               // steps one analysis makes operators for: prefill chunks + decode intervals
constexpr double kAnalysisOperatorSteps = 2097152;     // those steps times the operators of a step (2^21: 65,536 steps of 32; a Llama step has 16)
constexpr double kRequestSteps = 4194304;              // request entries + their prefill chunks + their decode boundaries x layer groups (2^22)
constexpr double kCallOperatorSteps = 8388608;         // operator-steps over every analysis of one call (sweeps, curves, plan stages; 2^23: 524,288 Llama steps)
constexpr double kCallSteps = 524288;                  // steps over every evaluation of a calibration (its search stops there)
constexpr double kSweepPoints = 4e6;                   // design points of one sweep
constexpr double kServingRequestSteps = 5e7;           // a serving simulation: requests x (output tokens + prompt chunks)
constexpr double kServingSteps = 2e6;                  // a serving simulation's engine steps
constexpr std::int64_t kPlanDevices = std::int64_t(4096) * 65536;  // tp x pp x dp of a plan: the largest system's devices (2^28)
constexpr double kDeployEvaluations = 500000;          // configurations one deployment search times
constexpr double kDeployLayerLayouts = 100000;         // a deployment search's parallel layouts x the model's layers
constexpr double kServingStageSteps = 4e6;             // a serving simulation's engine steps x pipeline stages
// validate's fits (csv.too_much_work): step blocks timed per evaluation over every fit, the refits that leave each
// source out and the pooled wait's fixed-point refits (at most 6 per fit of the wait) included. A fit evaluates about
// 1,000 times at about 150 ns a block: 15,000 blocks take about 2.5 s. The public measurements need 42,482 at most
// (the wait's fixed point stops after 1-3 refits on them: about 13 s for the whole call, its analyses and serving
// runs included); a test keeps them under three quarters of the limit.
constexpr double kFitBlocks = 60000;
constexpr std::uint64_t kCsvRecords = 10000;           // records of a measurements CSV
constexpr std::uint64_t kCsvColumns = 64;              // fields of a CSV line
// Files
constexpr std::uint64_t kGgufHeaderBytes = 64u << 20;  // a GGUF header (metadata and tensor table)
constexpr std::uint64_t kGgufEntries = 100000;         // GGUF tensors, and GGUF metadata entries
constexpr std::uint64_t kSafetensorsHeaderBytes = 100000000;  // a safetensors header: the format's own limit
constexpr std::uint64_t kCheckpointTensors = 300000;   // tensors of a checkpoint, all shards together
constexpr std::uint64_t kMetadataBytes = 1024;         // a safetensors __metadata__ value as results echo it
constexpr std::uint64_t kTensorElements = 9007199254740992ull;  // 2^53: elements of a tensor, or of all tensors
}  // namespace limit

struct LimitEntry {
  const char* name;
  double value;
  const char* unit;
  const char* help;
};
// Every limit above, for the `limits` call and the docs.
const std::vector<LimitEntry>& limits();

// "12.0 MiB" style text for a byte count in messages.
std::string mib_text(std::uint64_t bytes);

// A JSON text checked against the text limits before it is parsed: its size, nesting depth and value count.
// Throws InputError{code_prefix + ".too_large" | ".too_deep", "", message naming `what`}. Linear, no allocation.
void check_json_text(const char* begin, const char* end, const std::string& what, const std::string& code_prefix,
                     std::uint64_t max_bytes = limit::kRequestBytes);

// An error message cut to kMessageBytes on UTF-8 boundaries, keeping its head and its tail ("expected ...").
std::string bounded_message(const std::string& message);

// Text cut to at most `max_bytes` without splitting a UTF-8 character ("..." added when cut).
std::string utf8_prefix(const std::string& text, std::size_t max_bytes);

}  // namespace infercast
