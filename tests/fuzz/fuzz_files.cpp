// libFuzzer harnesses over the file-bytes entry points (call_bytes), one target each (fuzz::files_one's selector):
//   gguf:        a GGUF header's bytes; a header that reads is analyzed as the page does (its config on an H100)
//   safetensors: a safetensors file's first bytes (the length field made to fit, so the JSON behind it is fuzzed),
//                then its rows as a checkpoint, alone and against a preset's config
//   measurements: text as a measurements CSV (what `validate` reads before it builds each row's case) and as
//                measurements pasted for `calibrate` (llama-bench's table, `vllm bench serve`'s summary, a CSV):
//                the two text readers alone, so they run at parser speed (the `validate` and `calls` targets run
//                them too, followed by whole analyses and fits, at a few executions per second)
// Every envelope is checked as fuzz_common.hpp says; a reader called directly may throw only InputError, with a
// code and a message, and what it returns must hold what its header promises.
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "fuzz_targets.hpp"
#include "io/csv.hpp"
#include "io/measurements.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"

namespace fuzz {

namespace {

void check_error(const infercast::InputError& e) {
  if (e.code().empty() || std::string(e.what()).empty()) std::abort();
}

void measurements_one(const std::string& in) {
  try {
    const auto records = infercast::parse_csv(in);
    if (records.size() > infercast::limit::kCsvRecords) std::abort();
    for (const auto& r : records)
      if (r.size() > infercast::limit::kCsvColumns) std::abort();
  } catch (const infercast::InputError& e) {
    check_error(e);
  }
  for (const std::int64_t concurrency : {1, 64}) {
    try {
      const auto p = infercast::parse_measurements(in, concurrency);
      if (p.points.empty() || !std::isfinite(p.params_stated)) std::abort();
      for (const auto& q : p.points)
        if (q.metric.empty() || !std::isfinite(q.value) || q.value <= 0 || q.batch < 0 || q.prompt < 0 || q.gen < 0 || q.cached < 0)
          std::abort();
    } catch (const infercast::InputError& e) {
      check_error(e);
    }
  }
}

}  // namespace

int files_one(FilesTarget target, const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
  if (target == FilesTarget::measurements) {
    measurements_one(in);
    return 0;
  }
  if (target == FilesTarget::gguf) {
    const json g = fuzz::call_bytes("gguf", in);
    if (g["ok"].get<bool>())
      fuzz::call("analyze", fuzz::text({{"model", g["value"]["config"]}, {"hardware", "nvidia-h100-sxm"}, {"precision", {{"kv", "fp8"}}}}));
    return 0;
  }
  fuzz::call_bytes("safetensors_size", in);
  std::string st = in;
  if (st.size() >= 8) {
    const std::uint64_t n = st.size() - 8;
    for (int i = 0; i < 8; ++i) st[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  }
  const json h = fuzz::call_bytes("safetensors", st);
  if (h["ok"].get<bool>()) {
    fuzz::call("checkpoint", fuzz::text({{"tensors", h["value"]["tensors"]}}));
    fuzz::call("checkpoint", fuzz::text({{"tensors", h["value"]["tensors"]}, {"model", "llama-3.2-1b"}}));
  }
  return 0;
}

}  // namespace fuzz
