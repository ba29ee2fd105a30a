#include "io/weight_formats.hpp"

#include "quant/dtype.hpp"

namespace infercast {

json precision_of_classes(const ClassFormats& classes, bool tied) {
  json by_class = json::object();
  for (const auto& [cls, formats] : classes) {
    std::string best;
    std::uint64_t most = 0;
    for (const auto& [f, n] : formats)
      if (n > most) most = n, best = f;
    by_class[cls] = best;
  }
  if (tied && by_class.contains("embedding") && !by_class.contains("lm_head")) by_class["lm_head"] = by_class["embedding"];
  // A class stored packed (I32 or U8 words: AWQ, GPTQ, MXFP4 blocks) has no format the header can name: its
  // format is the checkpoint's quantization_config's, so "weights" is left out (the declared format fills every
  // class the header does not name).
  for (const auto& [cls, f] : by_class.items())
    if (!find_dtype(f.get<std::string>())) return {{"by_class", by_class}};
  const std::string weights = by_class.contains("attention") ? by_class["attention"].get<std::string>()
                              : by_class.contains("ffn")     ? by_class["ffn"].get<std::string>()
                                                             : std::string("bf16");
  return {{"weights", weights}, {"by_class", by_class}};
}

}  // namespace infercast
