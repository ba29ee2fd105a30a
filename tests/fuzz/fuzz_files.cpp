// libFuzzer harnesses over the file-bytes entry points (call_bytes), one target each (fuzz::files_one's selector):
//   gguf:        a GGUF header's bytes; a header that reads is analyzed as the page does (its config on an H100)
//   safetensors: a safetensors file's first bytes (the length field made to fit, so the JSON behind it is fuzzed),
//                then its rows as a checkpoint, alone and against a preset's config
// Every envelope is checked as fuzz_common.hpp says.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "fuzz_targets.hpp"

namespace fuzz {

int files_one(FilesTarget target, const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
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
