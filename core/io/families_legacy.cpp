// The traits entries of the GPT lineage still widely run and fine-tuned: GPT-2, GPT-J, GPT-NeoX (Pythia), Phi
// (phi-1, 1.5, 2), OPT and BLOOM. LayerNorms with biases, ungated MLPs with biases, learned positions (GPT-2, OPT) or
// ALiBi (BLOOM) instead of RoPE, parallel blocks (GPT-J, GPT-NeoX, Phi). Sources name files under
// huggingface/transformers src/transformers/models/.
#include "io/families.hpp"

namespace infercast {

void add_legacy_families(std::vector<FamilyTraits>& v) {
  // Keys of GPT-2's lineage that change no count or FLOP: dropouts, the sequence-classification head's settings,
  // attention scalings, training switches.
  const std::vector<std::string> gpt_switches = {"attn_pdrop", "n_ctx", "summary_type", "summary_use_proj", "summary_activation",
                                                 "summary_proj_to_labels", "summary_first_dropout", "scale_attn_weights",
                                                 "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn",
                                                 "gradient_checkpointing", "rotary"};
  const std::vector<std::pair<std::string, std::string>> gpt_names = {
      {"hidden_size", "n_embd"},     {"num_hidden_layers", "n_layer"},    {"num_attention_heads", "n_head"},
      {"intermediate_size", "n_inner"}, {"hidden_act", "activation_function"}, {"max_position_embeddings", "n_positions"}};

  // What the lineage shares: LayerNorms with a weight and a bias, ungated MLPs with biases.
  FamilyTraits lineage{"", {}, {}};
  lineage.norm = NormKind::Layer;
  lineage.norm_bias = true;
  lineage.gated_mlp = false;
  lineage.mlp_bias = true;
  const auto family = [&](const char* type, const char* arch) {
    FamilyTraits t = lineage;
    t.model_type = type;
    t.architectures = {arch};
    return t;
  };

  // GPT-2 (GPT2LMHeadModel): c_attn (q, k, v fused) and c_proj with biases, learned positions (wpe, n_positions rows),
  // two LayerNorms a layer, an MLP of n_inner (null: 4 x n_embd) with biases, the head tied to wte.
  FamilyTraits gpt2 = family("gpt2", "GPT2LMHeadModel");
  gpt2.activation = "gelu_new";
  gpt2.fused_qkv = true;
  gpt2.bias_default = true;
  gpt2.rope = false;
  gpt2.learned_positions = true;
  gpt2.tied_default = true;
  gpt2.intermediate_multiple = 4;
  gpt2.key_aliases = gpt_names;
  gpt2.ignored_keys = gpt_switches;
  gpt2.config_class = "GPT2Config";
  gpt2.source = "gpt2/configuration_gpt2.py, modeling_gpt2.py (GPT2Attention c_attn / c_proj, GPT2MLP c_fc / c_proj)";
  gpt2.defaults = {{"vocab_size", 50257}, {"max_position_embeddings", 1024}, {"hidden_size", 768},
                   {"num_hidden_layers", 12}, {"num_attention_heads", 12}, {"hidden_act", "gelu_new"},
                   {"tie_word_embeddings", true}};
  v.push_back(gpt2);

  // GPT-J (GPTJForCausalLM): one LayerNorm before attention and MLP in parallel; q, k, v and out_proj without
  // biases, RoPE on rotary_dim of each head; fc_in / fc_out with biases; an untied head with a bias.
  FamilyTraits gptj = family("gptj", "GPTJForCausalLM");
  gptj.activation = "gelu_new";
  gptj.bias = BiasRule::None;
  gptj.parallel = true;
  gptj.lm_head_bias = true;
  gptj.intermediate_multiple = 4;
  gptj.key_aliases = gpt_names;
  gptj.ignored_keys = gpt_switches;
  gptj.config_class = "GPTJConfig";
  gptj.source = "gptj/configuration_gptj.py, modeling_gptj.py (GPTJBlock: ln_1 before attention and MLP in parallel)";
  gptj.defaults = {{"vocab_size", 50400}, {"max_position_embeddings", 2048}, {"hidden_size", 4096},
                   {"num_hidden_layers", 28}, {"num_attention_heads", 16}, {"rotary_dim", 64},
                   {"hidden_act", "gelu_new"}, {"tie_word_embeddings", false}};
  v.push_back(gptj);

  // GPT-NeoX (Pythia, GPT-NeoX-20B): query_key_value and dense with attention_bias (true), RoPE on rotary_pct of each
  // head, two LayerNorms a layer (before attention, before the MLP) whether the block is parallel or not, an MLP with
  // biases, an untied embed_out.
  FamilyTraits neox = family("gpt_neox", "GPTNeoXForCausalLM");
  neox.activation = "gelu";
  neox.fused_qkv = true;
  neox.bias_default = true;
  neox.parallel = true;
  neox.parallel_key = "use_parallel_residual";
  neox.parallel_norms = 2;
  neox.key_aliases = {{"partial_rotary_factor", "rotary_pct"}};
  neox.ignored_keys = {"rotary_emb_base", "classifier_dropout"};
  neox.config_class = "GPTNeoXConfig";
  neox.source = "gpt_neox/configuration_gpt_neox.py, modeling_gpt_neox.py (GPTNeoXLayer: input_layernorm, "
                "post_attention_layernorm)";
  neox.defaults = {{"vocab_size", 50432},        {"hidden_size", 6144},      {"num_hidden_layers", 44},
                   {"num_attention_heads", 64},  {"intermediate_size", 24576}, {"hidden_act", "gelu"},
                   {"partial_rotary_factor", 0.25}, {"max_position_embeddings", 2048}, {"tie_word_embeddings", false},
                   {"use_parallel_residual", true}, {"attention_bias", true}};
  v.push_back(neox);

  // Phi (phi-1, phi-1.5, phi-2): one LayerNorm before attention and MLP in parallel; q, k, v and dense with biases,
  // RoPE on partial_rotary_factor of each head; fc1 / fc2 with biases; final_layernorm; an untied head with a bias.
  FamilyTraits phi = family("phi", "PhiForCausalLM");
  phi.activation = "gelu_new";
  phi.bias_default = true;
  phi.parallel = true;
  phi.lm_head_bias = true;
  phi.fixed_keys = {{"qk_layernorm", false}};
  phi.config_class = "PhiConfig";
  phi.source = "phi/configuration_phi.py, modeling_phi.py (PhiDecoderLayer: input_layernorm only, a parallel block)";
  phi.defaults = {{"vocab_size", 51200},       {"hidden_size", 2048},       {"intermediate_size", 8192},
                  {"num_hidden_layers", 24},   {"num_attention_heads", 32}, {"hidden_act", "gelu_new"},
                  {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"partial_rotary_factor", 0.5}};
  v.push_back(phi);

  // OPT: q, k, v, out_proj, fc1 and fc2 with enable_bias (true), learned positions of max_position_embeddings + 2
  // rows (OPTLearnedPositionalEmbedding's offset), two LayerNorms a layer and a final one, the head tied. OPT-350M's
  // post-norm layout and word_embed_proj_dim projections are refused by name.
  FamilyTraits opt = family("opt", "OPTForCausalLM");
  opt.activation = "relu";
  opt.mlp_bias_key = true;
  opt.mlp_bias_name = "enable_bias";
  opt.bias_key = "enable_bias";
  opt.bias_default = true;
  opt.rope = false;
  opt.learned_positions = true;
  opt.position_offset = 2;
  opt.tied_default = true;
  opt.key_aliases = {{"intermediate_size", "ffn_dim"}, {"hidden_act", "activation_function"}};
  opt.fixed_keys = {{"do_layer_norm_before", true}, {"layer_norm_elementwise_affine", true}, {"_remove_final_layer_norm", false}};
  opt.hidden_keys = {"word_embed_proj_dim"};
  opt.ignored_keys = {"activation_dropout", "init_std", "layerdrop"};
  opt.config_class = "OPTConfig";
  opt.source = "opt/configuration_opt.py, modeling_opt.py (OPTLearnedPositionalEmbedding, offset 2)";
  opt.defaults = {{"vocab_size", 50272},       {"hidden_size", 768},       {"num_hidden_layers", 12},
                  {"intermediate_size", 3072}, {"max_position_embeddings", 2048}, {"num_attention_heads", 12},
                  {"hidden_act", "relu"},      {"tie_word_embeddings", true}};
  v.push_back(opt);

  // BLOOM: ALiBi (no position parameters), a LayerNorm after the embedding (word_embeddings_layernorm),
  // query_key_value and dense with biases, an MLP of 4 x hidden with biases, two LayerNorms a layer, the head tied.
  FamilyTraits bloom = family("bloom", "BloomForCausalLM");
  bloom.activation = "gelu_pytorch_tanh";
  bloom.fused_qkv = true;
  bloom.bias_default = true;
  bloom.rope = false;
  bloom.embedding_norm = true;
  bloom.tied_default = true;
  bloom.intermediate_multiple = 4;  // BloomMLP: 4 x hidden_size, whatever n_inner says
  // BloomConfig's attribute_map (n_layer, n_head) and its n_embed keyword: bloom-560m writes hidden_size, n_layer
  // and n_head, BLOOM-176B n_embed, n_layer and num_attention_heads.
  bloom.alt_keys = {{"hidden_size", "n_embed"}, {"num_hidden_layers", "n_layer"}, {"num_attention_heads", "n_head"}};
  bloom.ignored_keys = {"n_inner", "attention_softmax_in_fp32", "bias_dropout_fusion", "masked_softmax_fusion",
                        "offset_alibi", "skip_bias_add", "skip_bias_add_qkv", "slow_but_exact", "seq_length"};
  bloom.config_class = "BloomConfig";
  bloom.source = "bloom/configuration_bloom.py, modeling_bloom.py (word_embeddings_layernorm, ALiBi, BloomMLP 4h)";
  bloom.defaults = {{"vocab_size", 250880}, {"hidden_size", 64}, {"num_hidden_layers", 2}, {"num_attention_heads", 8},
                    {"tie_word_embeddings", true}};
  v.push_back(bloom);

  // GPT-BigCode (StarCoder, SantaCoder, WizardCoder, OctoCoder): GPT-2's blocks with one key-value head
  // (multi_query, default true: c_attn h x (h + 2 x head_dim)), learned positions, the head tied to wte.
  FamilyTraits bigcode = family("gpt_bigcode", "GPTBigCodeForCausalLM");
  bigcode.activation = "gelu_pytorch_tanh";
  bigcode.fused_qkv = true;
  bigcode.bias_default = true;
  bigcode.rope = false;
  bigcode.learned_positions = true;
  bigcode.tied_default = true;
  bigcode.intermediate_multiple = 4;
  bigcode.multi_query_key = "multi_query";
  bigcode.key_aliases = gpt_names;
  bigcode.ignored_keys = gpt_switches;
  bigcode.ignored_keys.insert(bigcode.ignored_keys.end(), {"attention_softmax_in_fp32", "scale_attention_softmax_in_fp32",
                                                           "validate_runner_input", "inference_runner", "max_sequence_length",
                                                           "max_batch_size", "pad_key_length", "pre_allocate_kv_cache"});
  bigcode.config_class = "GPTBigCodeConfig";
  bigcode.source = "gpt_bigcode/configuration_gpt_bigcode.py, modeling_gpt_bigcode.py (GPTBigCodeAttention, multi_query)";
  bigcode.defaults = {{"vocab_size", 50257}, {"max_position_embeddings", 1024}, {"hidden_size", 768},
                      {"num_hidden_layers", 12}, {"num_attention_heads", 12}, {"hidden_act", "gelu_pytorch_tanh"},
                      {"tie_word_embeddings", true}};
  v.push_back(bigcode);

  // MPT (MosaicML's MPT-7B and 30B; transformers' MptModel, vLLM's mpt.py): ALiBi, Wqkv and out_proj without biases
  // (no_bias true; false is refused), an MLP of expansion_ratio x d_model without biases (vLLM reads the ratio,
  // transformers fixes 4, as every release has), LayerNorms without bias, the head tied to wte. attn_config must say
  // alibi and plain multi-head attention; ffn_config the plain MLP (llm-foundry's GQA and GLU variants are refused).
  FamilyTraits mpt = family("mpt", "MPTForCausalLM");
  mpt.architectures.push_back("MptForCausalLM");
  mpt.norm_bias = false;
  mpt.mlp_bias = false;
  mpt.bias = BiasRule::None;
  mpt.fused_qkv = true;
  mpt.activation = "gelu";
  mpt.rope = false;
  mpt.tied_default = true;
  mpt.intermediate_ratio_key = "expansion_ratio";
  mpt.intermediate_multiple = 4;
  mpt.attn_config_key = "attn_config";
  mpt.fixed_keys = {{"no_bias", true}};
  mpt.key_aliases = {{"hidden_size", "d_model"}, {"num_attention_heads", "n_heads"}, {"num_hidden_layers", "n_layers"},
                     {"max_position_embeddings", "max_seq_len"}};
  mpt.ignored_keys = {"tokenizer_name", "norm_type", "learned_pos_emb", "emb_pdrop", "embedding_fraction", "init_config",
                      "init_device", "logit_scale", "verbose", "fc_type", "use_pad_tok_in_ffn"};
  mpt.config_class = "MptConfig";
  mpt.source = "mpt/configuration_mpt.py, modeling_mpt.py (MptBlock: norm_1 / norm_2 without bias, MptMLP)";
  mpt.defaults = {{"hidden_size", 2048}, {"num_attention_heads", 16}, {"num_hidden_layers", 24},
                  {"max_position_embeddings", 2048}, {"vocab_size", 50368}, {"tie_word_embeddings", true}};
  v.push_back(mpt);

  // GPT-Neo (EleutherAI's 125M, 1.3B, 2.7B): global and local layers as attention_types lists them (local: the last
  // window_size tokens), q, k and v without biases and out_proj with one, learned positions, the head tied to wte.
  FamilyTraits neo = family("gpt_neo", "GPTNeoForCausalLM");
  neo.activation = "gelu_new";
  neo.bias = BiasRule::None;
  neo.o_bias = true;
  neo.rope = false;
  neo.learned_positions = true;
  neo.tied_default = true;
  neo.intermediate_multiple = 4;
  neo.sliding = SlidingRule::AttentionTypes;
  neo.key_aliases = {{"num_hidden_layers", "num_layers"}, {"num_attention_heads", "num_heads"},
                     {"hidden_act", "activation_function"}, {"sliding_window", "window_size"}};
  neo.ignored_keys = {"embed_dropout", "resid_dropout", "attention_layers", "classifier_dropout", "gradient_checkpointing",
                      "summary_type", "summary_use_proj", "summary_activation", "summary_proj_to_labels",
                      "summary_first_dropout", "attention_dropout"};
  neo.config_class = "GPTNeoConfig";
  neo.source = "gpt_neo/configuration_gpt_neo.py, modeling_gpt_neo.py (GPTNeoSelfAttention: q, k, v without bias)";
  neo.defaults = {{"vocab_size", 50257},      {"max_position_embeddings", 2048}, {"hidden_size", 2048},
                  {"num_hidden_layers", 24},  {"num_attention_heads", 16},       {"sliding_window", 256},
                  {"hidden_act", "gelu_new"}, {"tie_word_embeddings", true},
                  {"attention_types", json::array({json::array({json::array({"global", "local"}), 12})})}};
  v.push_back(neo);

  // OLMo 1 (OlmoForCausalLM): Llama's layers with LayerNorms that learn nothing (OlmoLayerNorm), clip_qkv.
  FamilyTraits olmo = family("olmo", "OlmoForCausalLM");
  olmo.norm_bias = false;
  olmo.norm_weight = false;
  olmo.gated_mlp = true;
  olmo.mlp_bias = false;
  olmo.ignored_keys = {"clip_qkv"};
  olmo.config_class = "OlmoConfig";
  olmo.source = "olmo/configuration_olmo.py, modeling_olmo.py (OlmoLayerNorm: no weight, no bias)";
  olmo.defaults = {{"vocab_size", 50304},      {"hidden_size", 4096},       {"intermediate_size", 11008},
                   {"num_hidden_layers", 32},  {"num_attention_heads", 32}, {"hidden_act", "silu"},
                   {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}, {"attention_bias", false}};
  v.push_back(olmo);
}

}  // namespace infercast
