// The names of the operator-level enums (op classes, attention and MLA forms, MLP kernels, LoRA modes).
#include "ops/ops.hpp"

namespace infercast {

const NameTable<OpClass>& op_class_names() {
  static const NameTable<OpClass> t({{OpClass::GEMM, "gemm", "matrix multiplications (projections, experts, LM head)"},
                                     {OpClass::Attention, "attention", "scores, softmax and the weighted sum of values"},
                                     {OpClass::Elementwise, "elementwise", "norms, activations, RoPE, residual adds"},
                                     {OpClass::Memory, "memory", "gathers and cache writes: bytes only"}});
  return t;
}

const NameTable<AttnImpl>& attn_impl_names() {
  static const NameTable<AttnImpl> t(
      {{AttnImpl::Fused, "fused", "one kernel (FlashAttention): scores never written; causal pairs skipped"},
       {AttnImpl::Unfused, "unfused", "scores, softmax and the weighted sum as three kernels, scores through memory"}});
  return t;
}

const NameTable<MlaForm>& mla_form_names() {
  static const NameTable<MlaForm> t(
      {{MlaForm::Auto, "auto", "expanded for prefill, absorbed for decode, as vLLM and SGLang run MLA"},
       {MlaForm::Absorbed, "absorbed", "queries moved into the latent space; attention over the cached latent"},
       {MlaForm::Expanded, "expanded", "kv_b_proj rebuilds per-head keys and values for every key read"}});
  return t;
}

const NameTable<bool>& mlp_form_names() {
  static const NameTable<bool> t({{true, "fused", "the activation in the gate/up GEMM's epilogue: its outputs never written"},
                                  {false, "unfused", "gate, up, activation and down as separate kernels"}});
  return t;
}

const NameTable<LoraMode>& lora_mode_names() {
  static const NameTable<LoraMode> t(
      {{LoraMode::Unmerged, "unmerged", "y = xW + (xA)B on every call, as PEFT, vLLM and S-LoRA serve adapters"},
       {LoraMode::MergePerCall, "merge-per-call", "W + BA rebuilt inside every GEMM call (LIFE's inline merge)"},
       {LoraMode::Merged, "merged", "merged once ahead of time: no cost per step, the one-time cost reported apart"}});
  return t;
}

}  // namespace infercast
