#include "quant/dtype.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace infercast {

const NameTable<ComputeType>& compute_type_names() {
  static const NameTable<ComputeType> t({{ComputeType::FP32, "fp32", "IEEE binary32 (CUDA cores)"},
                                         {ComputeType::TF32, "tf32", "tensor cores on fp32 inputs (10-bit mantissa)"},
                                         {ComputeType::BF16, "bf16", "bfloat16 tensor math"},
                                         {ComputeType::FP16, "fp16", "IEEE binary16 tensor math"},
                                         {ComputeType::FP8, "fp8", "8-bit floating-point tensor math"},
                                         {ComputeType::INT8, "int8", "8-bit integer dot products"},
                                         {ComputeType::FP4, "fp4", "4-bit floating-point tensor math"},
                                         {ComputeType::INT4, "int4", "4-bit integer dot products"}});
  return t;
}

const NameTable<WeightFormat>& weight_format_names() {
  static const NameTable<WeightFormat> t({{WeightFormat::Float, "float", "fp32, tf32, bf16, fp16"},
                                          {WeightFormat::FP8, "fp8", "fp8 e4m3/e5m2, per tensor, channel or block"},
                                          {WeightFormat::Int, "int", "integers with per-channel or per-group scales (AWQ, GPTQ, mlx)"},
                                          {WeightFormat::GGUF, "gguf", "GGUF's block formats: Q4_0, K-quants, I-quants"},
                                          {WeightFormat::BitsAndBytes, "bnb", "bitsandbytes NF4/FP4"},
                                          {WeightFormat::MX, "mx", "OCP microscaling: MXFP4, MXFP8, MXINT8"},
                                          {WeightFormat::NVFP4, "nvfp4", "NVIDIA's fp4 with fp8 scales per 16"},
                                          {WeightFormat::FP4, "fp4", "fp4 e2m1 without block scales"}});
  return t;
}

WeightFormat weight_format(const DType& d) {
  const std::string& n = d.name;
  const auto starts = [&](const char* p) { return n.rfind(p, 0) == 0; };
  if (starts("fp8")) return WeightFormat::FP8;
  if (starts("mx")) return WeightFormat::MX;
  if (n == "nvfp4") return WeightFormat::NVFP4;
  if (n == "fp4") return WeightFormat::FP4;
  if (starts("nf4")) return WeightFormat::BitsAndBytes;
  if (starts("int")) return WeightFormat::Int;
  if (starts("iq") || (n.size() > 1 && n[0] == 'q' && n[1] >= '0' && n[1] <= '9')) return WeightFormat::GGUF;
  return WeightFormat::Float;
}

const std::vector<DType>& all_dtypes() {
  // GGUF block sizes from ggml's block_q* structs: Q8_0 = 32 int8 + fp16 scale (34 B / 32); Q4_0 = 32 nibbles +
  // fp16 scale (18 B / 32); Q4_1 adds an fp16 minimum (20 B / 32); Q5_0 = 32 nibbles + 4 B high bits + fp16 scale
  // (22 B / 32); Q5_1 adds an fp16 minimum (24 B / 32); IQ4_NL = fp16 scale + 16 B (18 B / 32); K-quants use
  // 256-weight super-blocks: Q2_K 84 B, Q3_K 110 B, Q4_K 144 B, Q5_K 176 B, Q6_K 210 B, IQ4_XS 136 B. MX formats (OCP MX v1.0): 32
  // elements share one 8-bit E8M0 scale. NVFP4: 16 FP4 elements share one FP8 E4M3 scale.
  static const std::vector<DType> table = {
      {"fp32", 32, ComputeType::FP32, false, "IEEE binary32"},
      {"tf32", 32, ComputeType::TF32, false, "stored as fp32, multiplied as tf32"},
      {"bf16", 16, ComputeType::BF16, false, "bfloat16"},
      {"fp16", 16, ComputeType::FP16, false, "IEEE binary16"},
      {"fp8", 8, ComputeType::FP8, false, "fp8 e4m3 (per-tensor scale, negligible)"},
      {"fp8_e4m3", 8, ComputeType::FP8, false, "fp8 e4m3"},
      {"fp8_e5m2", 8, ComputeType::FP8, false, "fp8 e5m2"},
      {"fp8_block128", 8 + 32.0 / (128 * 128), ComputeType::FP8, false,
       "fp8 e4m3 with one fp32 scale per 128x128 block (DeepSeek-V3's weight_block_size)"},
      {"int8", 8, ComputeType::INT8, false, "int8 (per-channel scales, negligible)"},
      {"int4", 4, ComputeType::INT4, false, "int4 (per-channel scales, negligible)"},
      {"int3", 3, ComputeType::INT4, true, "3-bit integer, unpacked to int4/bf16 for math"},
      {"int2", 2, ComputeType::INT4, true, "2-bit integer, unpacked for math"},
      {"fp4", 4, ComputeType::FP4, false, "fp4 e2m1 (no block scales)"},
      {"mxfp8", 8.25, ComputeType::FP8, false, "8-bit elements + one 8-bit scale per 32 (OCP MX)"},
      {"mxint8", 8.25, ComputeType::INT8, false, "int8 elements + one 8-bit scale per 32 (OCP MX)"},
      {"mxfp4", 4.25, ComputeType::FP4, false, "fp4 e2m1 elements + one 8-bit scale per 32 (OCP MX)"},
      {"nvfp4", 4.5, ComputeType::FP4, false, "fp4 e2m1 elements + one fp8 e4m3 scale per 16"},
      {"q8_0", 8.5, ComputeType::INT8, true, "GGUF Q8_0: 34 bytes per 32 weights"},
      {"q6_k", 6.5625, ComputeType::INT8, true, "GGUF Q6_K: 210 bytes per 256 weights"},
      {"q5_k", 5.5, ComputeType::INT8, true, "GGUF Q5_K: 176 bytes per 256 weights"},
      {"q5_1", 6, ComputeType::INT8, true, "GGUF Q5_1: 24 bytes per 32 weights"},
      {"q5_0", 5.5, ComputeType::INT8, true, "GGUF Q5_0: 22 bytes per 32 weights"},
      {"q4_k", 4.5, ComputeType::INT8, true, "GGUF Q4_K: 144 bytes per 256 weights"},
      {"q4_1", 5, ComputeType::INT8, true, "GGUF Q4_1: 20 bytes per 32 weights"},
      {"q4_0", 4.5, ComputeType::INT8, true, "GGUF Q4_0: 18 bytes per 32 weights"},
      {"iq4_nl", 4.5, ComputeType::INT8, true, "GGUF IQ4_NL: 18 bytes per 32 weights (non-linear 4-bit grid)"},
      {"iq4_xs", 4.25, ComputeType::INT8, true, "GGUF IQ4_XS: 136 bytes per 256 weights"},
      {"q3_k", 3.4375, ComputeType::INT8, true, "GGUF Q3_K: 110 bytes per 256 weights"},
      {"q2_k", 2.625, ComputeType::INT8, true, "GGUF Q2_K: 84 bytes per 256 weights"},
      {"nf4", 4.5, ComputeType::INT4, true, "bitsandbytes 4-bit (NF4 or FP4 codes) with an fp32 absmax per 64"},
      {"nf4-dq", 4 + 8.0 / 64 + 32.0 / (64 * 256), ComputeType::INT4, true,
       "bitsandbytes 4-bit with double quantization: an 8-bit absmax per 64, an fp32 scale per 256 of those"},
      {"iq3_s", 3.4375, ComputeType::INT8, true, "GGUF IQ3_S: 110 bytes per 256 weights (lattice codebook)"},
      {"iq3_xxs", 3.0625, ComputeType::INT8, true, "GGUF IQ3_XXS: 98 bytes per 256 weights (lattice codebook)"},
      {"iq2_s", 2.5625, ComputeType::INT8, true, "GGUF IQ2_S: 82 bytes per 256 weights (lattice codebook)"},
      {"iq2_xs", 2.3125, ComputeType::INT8, true, "GGUF IQ2_XS: 74 bytes per 256 weights (lattice codebook)"},
      {"iq2_xxs", 2.0625, ComputeType::INT8, true, "GGUF IQ2_XXS: 66 bytes per 256 weights (lattice codebook)"},
      {"iq1_m", 1.75, ComputeType::INT8, true, "GGUF IQ1_M: 56 bytes per 256 weights (ternary codebook)"},
      {"iq1_s", 1.5625, ComputeType::INT8, true, "GGUF IQ1_S: 50 bytes per 256 weights (ternary codebook)"},
      {"tq2_0", 2.0625, ComputeType::INT8, true, "GGUF TQ2_0: ternary weights, 2 bits each and an fp16 scale per 256 (66 bytes)"},
      {"tq1_0", 1.6875, ComputeType::INT8, true, "GGUF TQ1_0: ternary weights, five in a byte and an fp16 scale per 256 (54 bytes)"},
      {"i2_s", 2, ComputeType::INT8, true,
       "ternary weights packed four in a byte with one scale per matrix (BitNet b1.58's checkpoint; bitnet.cpp's I2_S)"},
  };
  return table;
}

namespace {

// "int4-g128": b-bit integers with one fp16 scale and one b-bit zero point per group of G weights along the
// input dimension (AWQ and GPTQ store exactly this: fp16 scales, zeros packed like the weights; GPTQ writes its
// qzeros even when symmetric). Bits per element = b + (16 + b) / G.
// "int4-g32-sym": the symmetric scheme that stores no zero point (compressed-tensors' `symmetric: true`):
// b + 16 / G.
std::optional<DType> grouped_dtype(const std::string& n) {
  int bits = 0;
  long group = 0;
  char tail[8] = {0};
  const int got = std::sscanf(n.c_str(), "int%d-g%ld%7s", &bits, &group, tail);
  const bool sym = got == 3 && std::string(tail) == "-sym";
  if (got != 2 && !sym) return std::nullopt;
  if ((bits != 2 && bits != 3 && bits != 4 && bits != 8) || group < 8 || group > 65536) return std::nullopt;
  if (n != "int" + std::to_string(bits) + "-g" + std::to_string(group) + (sym ? "-sym" : "")) return std::nullopt;  // no "int4-g0128"
  const double bpe = bits + ((sym ? 0.0 : bits) + 16.0) / static_cast<double>(group);
  DType d{n, bpe, bits == 8 ? ComputeType::INT8 : ComputeType::INT4, true,
          sym ? "int" + std::to_string(bits) + " with an fp16 scale per group of " + std::to_string(group) +
                    " and no zero point (symmetric: compressed-tensors)"
              : "int" + std::to_string(bits) + " with an fp16 scale and an int" + std::to_string(bits) +
                    " zero point per group of " + std::to_string(group) + " (AWQ/GPTQ layout)"};
  return d;
}

// "mlx4-g64": mlx-lm's affine quantization, b-bit integers with an fp16 scale and an fp16 bias per group of G
// (mlx.core.quantize; mlx-community checkpoints). Bits per element = b + 32 / G: 4.5 at 4 bits in groups of 64.
std::optional<DType> affine_dtype(const std::string& n) {
  int bits = 0;
  long group = 0;
  char tail = 0;
  if (std::sscanf(n.c_str(), "mlx%d-g%ld%c", &bits, &group, &tail) != 2) return std::nullopt;
  if (bits < 2 || bits > 8 || bits == 7 || group < 8 || group > 65536) return std::nullopt;
  if (n != "mlx" + std::to_string(bits) + "-g" + std::to_string(group)) return std::nullopt;
  DType d{n, bits + 32.0 / static_cast<double>(group), bits == 8 ? ComputeType::INT8 : ComputeType::INT4, true,
          std::to_string(bits) + "-bit integers with an fp16 scale and an fp16 bias per group of " + std::to_string(group) +
              " (mlx-lm's affine quantization)"};
  return d;
}

// "exl2-4.65": ExLlamaV2's EXL2, a mean of B bits per weight over a linear layer's weights, its scales and
// permutation included (ExLlamaV2 mixes 2- to 8-bit tensors and groups to reach the target it is given; convert.py's
// `-b`, 2 to 8). The kernels dequantize to fp16 for the math. B has at most two decimals; "exl2-4" is "exl2-4.0".
std::optional<DType> exl2_dtype(const std::string& n) {
  if (n.rfind("exl2-", 0) != 0) return std::nullopt;
  const std::string v = n.substr(5);
  const std::size_t dot = v.find('.');
  const std::string whole = v.substr(0, dot), frac = dot == std::string::npos ? "" : v.substr(dot + 1);
  const auto digits = [](const std::string& s) { return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }); };
  if (whole.empty() || whole.size() > 1 || !digits(whole) || !digits(frac) || frac.size() > 2 ||
      (dot != std::string::npos && frac.empty()))
    return std::nullopt;
  const int hundredths = (whole[0] - '0') * 100 + (frac.size() > 0 ? (frac[0] - '0') * 10 : 0) + (frac.size() > 1 ? frac[1] - '0' : 0);
  if (hundredths < 200 || hundredths > 800) return std::nullopt;
  // The canonical name: one or two decimals, no trailing zero past the first.
  std::string name = "exl2-" + std::to_string(hundredths / 100) + "." + std::to_string(hundredths / 10 % 10);
  if (hundredths % 10 != 0) name += std::to_string(hundredths % 10);
  DType d{name, hundredths / 100.0, ComputeType::FP16, true,
          "ExLlamaV2 EXL2: " + name.substr(5) + " bits per weight on average, scales included, dequantized to fp16 for the math"};
  return d;
}

}  // namespace

std::optional<DType> find_dtype(const std::string& raw) {
  std::string n = raw;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n == "float32") n = "fp32";
  if (n == "bfloat16") n = "bf16";
  if (n == "float16" || n == "half") n = "fp16";
  if (n == "e4m3" || n == "float8_e4m3fn") n = "fp8_e4m3";
  if (n == "e5m2" || n == "float8_e5m2") n = "fp8_e5m2";
  for (const auto& d : all_dtypes())
    if (d.name == n) return d;
  if (auto g = grouped_dtype(n)) return g;
  if (auto e = exl2_dtype(n)) return e;
  return affine_dtype(n);
}

bool needs_dequant(const DType& w, const DType& act) {
  return w.weight_only || (w.native != act.native && w.bits_per_element < act.bits_per_element);
}

}  // namespace infercast
