// Storage formats and the compute data type they run in. Bits per element include block scales and zero
// points exactly as the format defines them (docs/formulas.md, "Data types"). One table, here.
#pragma once

#include <string>
#include <vector>

namespace infercast {

// The arithmetic a hardware peak is quoted for.
enum class ComputeType { FP32, TF32, BF16, FP16, FP8, INT8, FP4, INT4 };

const char* compute_type_name(ComputeType t);

struct DType {
  std::string name;          // canonical name, e.g. "bf16", "q4_k", "mxfp4"
  double bits_per_element;   // storage, scales included
  ComputeType native;        // arithmetic it can feed directly when used for activations
  bool weight_only;          // a storage format that is dequantized before the math (GGUF, grouped int4)
  std::string definition;    // how the bits are made up, shown to users
};

// Look a name up (case-insensitive; "float16"/"fp16"/"half" and "bfloat16"/"bf16" are aliases).
// Returns nullptr when unknown.
const DType* find_dtype(const std::string& name);
const std::vector<DType>& all_dtypes();

}  // namespace infercast
