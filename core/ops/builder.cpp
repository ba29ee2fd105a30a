#include "ops/builder.hpp"

namespace infercast {

Op& Builder::add(const std::string& name, const std::string& group, OpClass cls, i64 count) {
  Op op;
  op.name = name;
  op.group = group;
  op.cls = cls;
  op.count = count;
  op.compute = compute;
  op.dispatches = static_cast<double>(count);
  out.push_back(op);
  return out.back();
}

Op& Builder::gemm(const std::string& name, const std::string& group, i64 count, double M, double K, double N, bool bias,
                double weights_touched) {
  Op& op = add(name, group, OpClass::GEMM, count);
  const double c = static_cast<double>(count);
  const DType& w = s.precision.of(wclass);
  double f = 2 * M * K * N - (s.convention.gemm_minus_mn ? M * N : 0);
  if (bias) f += M * N;
  op.weight_bytes = c * weights_touched * (K * N * w.bits_per_element / 8 + (bias ? N * ab : 0));
  op.weight_elements = c * weights_touched * K * N;
  op.lora_target = wclass == WeightClass::Attention || wclass == WeightClass::Ffn;
  op.gemm_m = weights_touched > 0 ? M / weights_touched : M;  // routed experts: the tokens each touched expert sees
  op.gemm_k = K;
  op.gemm_n = N;
  // A GEMM whose weights are wider than the compute type (a bf16 router, LM head or vision tower beside fp8 layers)
  // runs in its weights' type and reads its input as stored; a quantized one reads the input quantized.
  const bool wide = !w.weight_only && w.bits_per_element >= 16 && s.precision.activations.bits_per_element < 16;
  if (wide) op.compute = w.native;
  op.act_read_bytes = c * M * K * (wide ? ab : gb);
  op.act_write_bytes = c * M * N * ab;
  if (M > 0 && needs_dequant(w, s.precision.activations)) op.dequant_flops = c * weights_touched * 2 * K * N;
  // LoRA on the attention and MLP projections (not the router, experts, embedding or LM head).
  const i64 r = s.lora.rank;
  if (r > 0 && M > 0 && op.lora_target) {
    const double R = static_cast<double>(r);
    if (s.lora.mode == LoraMode::Unmerged) {
      op.lora_flops = c * (2 * M * K * R + 2 * M * R * N + M * N);  // x A, (x A) B, add to y
      op.act_write_bytes += c * M * R * ab;                         // x A
      op.act_read_bytes += c * M * R * ab;
      // Two kernels beside the base GEMM: the shrink (x A) and the expand ((x A) B added to y), as vLLM's punica
      // wrapper launches lora_shrink and lora_expand for each adapted layer.
      op.dispatches += 2 * c;
    } else if (s.lora.mode == LoraMode::MergePerCall) {
      op.lora_flops = c * (2 * K * R * N + K * N);  // B A, added to W (LIFE's appendix)
    }
    if (s.lora.mode != LoraMode::Merged) op.weight_bytes += c * (K * R + R * N) * ab;  // A and B
  }
  op.flops = c * f + op.dequant_flops + op.lora_flops;
  return op;
}

Op& Builder::elementwise(const std::string& name, const std::string& group, i64 count, double elements,
                       double flops_per_element, double reads, double weight_elements) {
  Op& op = add(name, group, OpClass::Elementwise, count);
  const double c = static_cast<double>(count);
  op.flops = c * elements * flops_per_element;
  op.act_read_bytes = c * elements * reads * ab;
  op.act_write_bytes = c * elements * ab;
  op.weight_bytes = c * weight_elements * ab;  // norm weights and biases stay in activation precision
  return op;
}

double Builder::norm_cost() const {
  return m.norm == NormKind::RMS ? s.convention.rmsnorm_flops_per_element : s.convention.layernorm_flops_per_element;
}
double Builder::act_cost() const {
  const auto& a = m.activation;
  if (a.find("gelu") != std::string::npos) return s.convention.gelu_flops_per_element;
  if (a == "relu" || a == "fatrelu") return 1;  // FATReLU (MiniCPM-S): ReLU at a threshold, one compare and select
  if (a == "relu2") return 2;  // ReLU squared (Nemotron-H): max and a multiply
  // xIELU (Apertus): alpha_p x^2 + beta x where x > 0, alpha_n (expm1(min(x, eps)) - x) + beta x elsewhere: a
  // compare, a select and about four operations on the branch taken, the exponential counted as one.
  if (a == "xielu") return 6;
  return s.convention.silu_flops_per_element;
}

void GroupStep::finish_attention(Builder& b, Op& op, double per_pair_flops, double kv_elements) const {
  op.padded_flops = static_cast<double>(g.count) * (pairs_padded - pairs) * per_pair_flops;
  if (needs_dequant(b.s.precision.kv, b.s.precision.activations)) op.dequant_flops = 2 * kv_elements;
  op.flops += op.padded_flops + op.dequant_flops;
}

}  // namespace infercast
