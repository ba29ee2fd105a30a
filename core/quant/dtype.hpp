// Storage formats and the compute data type they run in. Bits per element include block scales and zero
// points exactly as the format defines them (docs/formulas.md, "Data types"). One table, here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/names.hpp"

namespace infercast {

// The arithmetic a hardware peak is quoted for.
enum class ComputeType { FP32, TF32, BF16, FP16, FP8, INT8, FP4, INT4 };

const NameTable<ComputeType>& compute_type_names();
inline const char* compute_type_name(ComputeType t) { return compute_type_names().name(t); }

// A format is a value (bf16 by default): grouped formats such as int4-g128 are made on request, never kept in a
// table that grows, so lookups need no shared mutable state.
struct DType {
  std::string name = "bf16";       // canonical name, e.g. "bf16", "q4_k", "mxfp4"
  double bits_per_element = 16;    // storage, scales included
  ComputeType native = ComputeType::BF16;  // arithmetic it can feed directly when used for activations
  bool weight_only = false;        // a storage format that is dequantized before the math (GGUF, grouped int4)
  std::string definition = "bfloat16";  // how the bits are made up, shown to users
};

// Look a name up (case-insensitive; "float16"/"fp16"/"half" and "bfloat16"/"bf16" are aliases).
// Returns nothing when unknown.
std::optional<DType> find_dtype(const std::string& name);
const std::vector<DType>& all_dtypes();

// The family of kernels a weight format needs: what a runtime states it runs (RuntimeSpec::weight_formats).
enum class WeightFormat { Float, FP8, Int, GGUF, BitsAndBytes, MX, NVFP4, FP4 };
const NameTable<WeightFormat>& weight_format_names();
// The family of a format by its name: bf16/fp16/fp32; fp8*; int8/int4 and grouped int4-g128 (AWQ, GPTQ, mlx's
// affine); GGUF's q*/iq* types and llama.cpp's mixes (q4_k_m); bitsandbytes' nf4; OCP MX; NVFP4; bare fp4.
WeightFormat weight_format(const DType& d);

// True when weights stored as `w` must be converted before a GEMM computing in `act` (weight-only formats, and
// narrower weights than the activations, e.g. int4 or fp8 weights with bf16 activations).
bool needs_dequant(const DType& w, const DType& act);

}  // namespace infercast
