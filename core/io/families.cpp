#include "io/families.hpp"

#include "io/config_hybrid.hpp"

namespace infercast {

// Sources name files under huggingface/transformers src/transformers/models/.
const std::vector<FamilyTraits>& model_families() {
  static const std::vector<FamilyTraits> table = [] {
    std::vector<FamilyTraits> v;
    const auto add = [&](FamilyTraits t) { v.push_back(std::move(t)); };
    FamilyTraits llama{"llama", {}, {"LlamaForCausalLM"}};
    llama.mlp_bias_key = true;
    llama.source = "llama/configuration_llama.py, modeling_llama.py";
    add(llama);

    FamilyTraits mistral{"mistral", {}, {"MistralForCausalLM"}};
    mistral.bias = BiasRule::None;
    mistral.sliding = SlidingRule::AllLayers;
    mistral.source = "mistral/configuration_mistral.py";
    add(mistral);

    FamilyTraits mixtral = mistral;
    mixtral.model_type = "mixtral";
    mixtral.architectures = {"MixtralForCausalLM"};
    mixtral.moe = MoeRule::Mixtral;
    mixtral.source = "mixtral/configuration_mixtral.py";
    add(mixtral);

    FamilyTraits qwen2{"qwen2", {}, {"Qwen2ForCausalLM"}};
    qwen2.bias = BiasRule::QkvOnly;
    qwen2.sliding = SlidingRule::QwenMaxWindow;
    qwen2.source = "qwen2/modeling_qwen2.py (q, k, v with bias=True, o without)";
    add(qwen2);

    FamilyTraits qwen2_moe = qwen2;
    qwen2_moe.model_type = "qwen2_moe";
    qwen2_moe.architectures = {"Qwen2MoeForCausalLM"};
    qwen2_moe.moe = MoeRule::QwenShared;
    qwen2_moe.source = "qwen2_moe/modeling_qwen2_moe.py";
    add(qwen2_moe);

    FamilyTraits qwen3{"qwen3", {}, {"Qwen3ForCausalLM"}};
    qwen3.qk_norm = true;
    qwen3.sliding = SlidingRule::QwenMaxWindow;
    qwen3.source = "qwen3/modeling_qwen3.py";
    add(qwen3);

    FamilyTraits qwen3_moe = qwen3;
    qwen3_moe.model_type = "qwen3_moe";
    qwen3_moe.architectures = {"Qwen3MoeForCausalLM"};
    qwen3_moe.moe = MoeRule::Qwen;
    qwen3_moe.source = "qwen3_moe/modeling_qwen3_moe.py";
    add(qwen3_moe);

    FamilyTraits gemma{"gemma", {}, {"GemmaForCausalLM"}};
    gemma.activation = "gelu_pytorch_tanh";
    gemma.tied_default = true;
    gemma.source = "gemma/configuration_gemma.py";
    add(gemma);

    FamilyTraits gemma2 = gemma;
    gemma2.model_type = "gemma2";
    gemma2.architectures = {"Gemma2ForCausalLM"};
    gemma2.norms = 4;
    gemma2.sliding = SlidingRule::Alternate;
    gemma2.softcapping = true;
    gemma2.source = "gemma2/modeling_gemma2.py (pre- and post-norms around attention and MLP)";
    add(gemma2);

    FamilyTraits gemma3 = gemma2;
    gemma3.model_type = "gemma3_text";
    gemma3.aliases = {"gemma3"};
    gemma3.architectures = {"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"};
    gemma3.qk_norm = true;
    gemma3.sliding = SlidingRule::Pattern;
    gemma3.source = "gemma3/configuration_gemma3.py, modeling_gemma3.py";
    add(gemma3);

    FamilyTraits phi3{"phi3", {}, {"Phi3ForCausalLM"}};
    phi3.bias = BiasRule::None;
    phi3.fused_qkv = true;
    phi3.fused_gate_up = true;
    phi3.sliding = SlidingRule::AllLayers;
    phi3.source = "phi3/modeling_phi3.py (qkv_proj, gate_up_proj)";
    add(phi3);

    FamilyTraits llama4{"llama4_text", {"llama4"}, {"Llama4ForCausalLM", "Llama4ForConditionalGeneration"}};
    llama4.moe = MoeRule::Llama4;
    llama4.chunked_nope = true;
    llama4.source = "llama4/configuration_llama4.py, modeling_llama4.py";
    add(llama4);

    FamilyTraits gpt_oss{"gpt_oss", {}, {"GptOssForCausalLM"}};
    gpt_oss.bias_default = true;
    gpt_oss.sinks = true;
    gpt_oss.moe = MoeRule::GptOss;
    gpt_oss.source = "gpt_oss/configuration_gpt_oss.py, modeling_gpt_oss.py";
    add(gpt_oss);

    FamilyTraits falcon{"falcon", {"RefinedWeb", "RefinedWebModel"}, {"FalconForCausalLM", "RWForCausalLM"}};
    falcon.layout = Layout::Falcon;
    falcon.source = "falcon/configuration_falcon.py (and the RefinedWeb schema of tiiuae's first checkpoints)";
    add(falcon);

    FamilyTraits ds2{"deepseek_v2", {}, {"DeepseekV2ForCausalLM"}};
    ds2.layout = Layout::DeepSeek;
    ds2.source = "deepseek_v2/configuration_deepseek_v2.py";
    add(ds2);
    FamilyTraits ds3{"deepseek_v3", {}, {"DeepseekV3ForCausalLM"}};
    ds3.layout = Layout::DeepSeek;
    ds3.source = "deepseek_v3/configuration_deepseek_v3.py";
    add(ds3);
    add_hybrid_families(v);
    return v;
  }();
  return table;
}

const FamilyTraits* find_family(const std::string& model_type) {
  for (const auto& f : model_families()) {
    if (model_type == f.model_type) return &f;
    for (const auto& a : f.aliases)
      if (model_type == a) return &f;
  }
  return nullptr;
}

const FamilyTraits* find_family_by_architecture(const std::vector<std::string>& architectures) {
  for (const auto& arch : architectures)
    for (const auto& f : model_families())
      for (const auto& a : f.architectures)
        if (arch == a) return &f;
  return nullptr;
}

std::vector<std::string> supported_model_types() {
  std::vector<std::string> out;
  for (const auto& f : model_families()) {
    out.push_back(f.model_type);
    for (const auto& a : f.aliases) out.push_back(a);
  }
  return out;
}

}  // namespace infercast
