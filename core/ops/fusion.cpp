// A runtime's kernel fusion applied to one step's operators (runtime/runtime.hpp, Fusion; docs/formulas.md,
// "Fusion"). A fused operator keeps its FLOPs; it loses its launches and the activation traffic the fused kernel
// never sends through memory. The operators keep their rows, so tables and tests still show where work goes.
#include <string>
#include <string_view>

#include "ops/ops.hpp"
#include "util/text.hpp"

namespace infercast {

namespace {
// Names are compared as views (util/text.hpp): a length check first, no copies (a quantization sweep makes millions
// of these).
using Name = std::string_view;
// Folds `op` into the kernel before it: no launch of its own, and its input arrives in registers (`keep_reads`
// of its activation read passes remain, out of `reads`).
void fold(Op& op, double keep_reads, double reads) {
  op.dispatches = 0;
  op.act_read_bytes *= reads > 0 ? keep_reads / reads : 0;
}
bool is_norm(Name n) {
  return n != "qk_norm" && (starts_with(n, "norm") || ends_with(n, "_norm") || n.find("norms x") != Name::npos);
}
bool is_act(Name n) { return n == "act" || ends_with(n, "act_mul"); }
}  // namespace

void apply_fusion(std::vector<Op>& ops, const Fusion& f) {
  double cache_read = 0;  // the keys and values attention reads this step (for a cache grown by concatenation)
  for (const auto& op : ops)
    if (op.cls == OpClass::Attention) cache_read += op.kv_read_bytes;
  for (auto& op : ops) {
    const Name n = op.name;
    if (is_norm(n) || n == "qk_norm") op.dispatches *= f.norm_kernels;
    if (n == "rope") op.dispatches *= f.rope_kernels;
    if (is_act(n)) op.dispatches *= f.act_kernels;
    if (n == "kv_cache_write") op.dispatches *= f.kv_write_kernels;
    if (op.cls == OpClass::GEMM) op.dispatches *= f.gemm_kernels;
    if (f.dequant_copy_above > 0 && op.cls == OpClass::GEMM && op.dequant_flops > 0 && op.gemm_m > f.dequant_copy_above) {
      op.weight_bytes += op.weight_elements * 4;  // the 16-bit copy written, then read by the GEMM
      op.dispatches += static_cast<double>(op.count);
    }
    if (f.kv_append_copy && n == "kv_cache_write") {
      op.kv_read_bytes += cache_read;   // the old cache read into the new buffer
      op.kv_write_bytes += cache_read;  // and written there
    }
  }
  for (std::size_t i = 0; i < ops.size(); ++i) {
    Op& op = ops[i];
    const Name n = op.name;
    const Name prev = i > 0 ? Name(ops[i - 1].name) : Name();
    if (f.qkv && (n == "k_proj" || n == "v_proj")) fold(op, 0, 1);  // one GEMM over [Wq Wk Wv]: x read once
    // One GEMM over [Wg Wu] (a gated MLP: the up projection right after its gate projection).
    if (f.gate_up && ends_with(n, "up_proj") && ends_with(prev, "gate_proj") &&
        n.substr(0, n.size() - 7) == prev.substr(0, prev.size() - 9))
      fold(op, 0, 1);
    if (f.norm_residual && starts_with(n, "residual_add")) fold(op, 1, 2);     // add inside the norm: the sum not re-read
    if (f.rope && n == "rope") {                                                // RoPE inside attention: q, k stay on chip
      fold(op, 0, 1);
      op.act_write_bytes = 0;
    }
    if (f.kv_write && n == "kv_cache_write") fold(op, 0, 1);  // the cache written by the kernel that has k and v
    if (f.qk_norm && n == "qk_norm") {
      fold(op, 0, 1);
      op.act_write_bytes = 0;
    }
  }
}

}  // namespace infercast
