#include "quant/weight_format.hpp"

#include "quant/llama_mix.hpp"

namespace infercast {

void apply_weight_format(Precision& p, const ModelSpec& m, const std::string& name, bool every_class) {
  if (const LlamaMix* mix = find_llama_mix(name)) {
    const MixPlan plan = plan_llama_mix(m, *mix);
    p.weights = plan.overall;
    for (int c = 0; c < kWeightClasses; ++c) p.by_class[c] = plan.class_dtype[static_cast<std::size_t>(c)];
    return;
  }
  p.weights = *find_dtype(name);
  for (auto& c : p.by_class) c.reset();
  // A quantized format quantizes the linear layers, as its checkpoints and the runtimes' online quantization do
  // (AWQ, GPTQ, FP8, NVFP4, MXFP4, bitsandbytes, LLM.int8): the embedding, the LM head, the router and a vision
  // tower stay in bf16. GGUF types (llama.cpp quantizes the embedding too: the mixes above give the head its type)
  // and mlx-lm's affine formats quantize every class; so does LIFE's convention (`every_class`, the scenarios).
  const bool gguf = name.rfind("q", 0) == 0 || name.rfind("iq", 0) == 0, mlx = name.rfind("mlx", 0) == 0;
  if (!every_class && !gguf && !mlx && p.weights.bits_per_element < 16)
    for (WeightClass c : {WeightClass::Embedding, WeightClass::LmHead, WeightClass::Router, WeightClass::Vision})
      p.by_class[static_cast<int>(c)] = *find_dtype("bf16");
  // ExLlamaV2's EXL2 quantizes the output head too, at 6 bits per weight unless told otherwise (convert.py's
  // `-hb`/`--head_bits`, default 6); the embedding stays in fp16.
  if (!every_class && p.weights.name.rfind("exl2-", 0) == 0) p.by_class[static_cast<int>(WeightClass::LmHead)] = *find_dtype("exl2-6.0");
}

}  // namespace infercast
