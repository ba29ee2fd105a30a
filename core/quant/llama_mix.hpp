// llama.cpp's file types (Q4_K_M, Q5_K_M, Q6_K, Q8_0, IQ4_XS, ...) are not one format: llama-quantize gives each
// tensor its own type by rules on its role, its layer index and the model (attn_v and ffn_down get more bits in some
// layers, the output matrix gets Q6_K, 1-D tensors stay f32). This file writes those rules down once, from
// llama.cpp's src/llama-quant.cpp (llama_tensor_get_type_impl, tensor_type_fallback), and sums every tensor to the
// bytes the file's tensor data takes, exactly (docs/formulas.md, "llama.cpp quantization mixes").
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "quant/dtype.hpp"

namespace infercast {

// A file type llama-quantize writes: its name (lower case, as --weights takes it) and what it does.
struct LlamaMix {
  const char* name;         // "q4_k_m"
  const char* base;         // the default tensor type, a dtype name ("q4_k")
  const char* description;  // shown to users
};
const std::vector<LlamaMix>& llama_mixes();
const LlamaMix* find_llama_mix(const std::string& name);  // case-insensitive

// Every tensor of a model quantized with one mix, summed: elements and bytes per weight class and per tensor type,
// and the bytes of the file's tensor data (norms, biases and the router kept in f32, as the converter writes them).
struct MixPlan {
  std::string mix;
  std::array<double, kWeightClasses> class_elements{};  // by WeightClass, as count_params groups them
  std::array<double, kWeightClasses> class_bytes{};
  std::map<std::string, double> elements_by_type;       // dtype name ("q4_k", "q6_k", "fp32") -> elements
  double norm_elements = 0;                              // norm weights (f32), outside the classes
  double tensor_bytes = 0;                               // all tensor data: classes, norms, rope_freqs (f32)
  // The per-class formats the analysis uses: each class stored at its exact average bits per element.
  std::array<DType, kWeightClasses> class_dtype;
  DType overall;  // every class together (what "weights" reports)
};

// The tensors of `m` as llama-quantize makes them for `mix` (a name from llama_mixes()). Assumes no importance
// matrix (llama-quantize's default), which only changes IQ4 files' first ffn_down layers.
MixPlan plan_llama_mix(const ModelSpec& m, const LlamaMix& mix);

}  // namespace infercast
