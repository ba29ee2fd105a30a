#include "quant/llama_mix.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <iterator>

namespace infercast {

const std::vector<LlamaMix>& llama_mixes() {
  // llama-quantize's file types without an importance matrix requirement (tools/quantize/quantize.cpp lists them).
  static const std::vector<LlamaMix> t = {
      {"q2_k", "q2_k", "llama.cpp Q2_K: Q2_K, attn_v Q3_K (Q4_K with 4+ query heads per KV head), ffn_down and attn_output Q3_K, output Q6_K"},
      {"q3_k_s", "q3_k", "llama.cpp Q3_K_S: Q3_K everywhere but the output (Q6_K)"},
      {"q3_k_m", "q3_k", "llama.cpp Q3_K_M: Q3_K, attn_v Q5_K in the first 2 layers and Q4_K after, ffn_down Q5_K in the first 1/16 of layers and Q4_K after, attn_output Q4_K, output Q6_K"},
      {"q3_k_l", "q3_k", "llama.cpp Q3_K_L: Q3_K, attn_v, attn_output and ffn_down Q5_K, output Q6_K"},
      {"q4_0", "q4_0", "llama.cpp Q4_0: Q4_0 everywhere but the output (Q6_K)"},
      {"q4_1", "q4_1", "llama.cpp Q4_1: Q4_1 everywhere but the output (Q6_K)"},
      {"q4_k_s", "q4_k", "llama.cpp Q4_K_S: Q4_K, attn_v Q5_K in the first 4 layers, ffn_down Q5_K in the first 1/8 of layers, output Q6_K"},
      {"q4_k_m", "q4_k", "llama.cpp Q4_K_M: Q4_K, attn_v and ffn_down Q6_K in half the layers (the first and last 1/8 and every third), output Q6_K"},
      {"q5_0", "q5_0", "llama.cpp Q5_0: Q5_0 everywhere but the output (Q6_K)"},
      {"q5_1", "q5_1", "llama.cpp Q5_1: Q5_1 everywhere but the output (Q6_K)"},
      {"q5_k_s", "q5_k", "llama.cpp Q5_K_S: Q5_K everywhere but the output (Q6_K)"},
      {"q5_k_m", "q5_k", "llama.cpp Q5_K_M: Q5_K, attn_v and ffn_down Q6_K in half the layers, output Q6_K"},
      {"q6_k", "q6_k", "llama.cpp Q6_K: Q6_K everywhere"},
      {"q8_0", "q8_0", "llama.cpp Q8_0: Q8_0 everywhere"},
      {"iq4_nl", "iq4_nl", "llama.cpp IQ4_NL: IQ4_NL, attn_v Q5_K with 4+ query heads per KV head, ffn_down Q5_K in the first 1/8 of layers, output Q6_K"},
      {"iq4_xs", "iq4_xs", "llama.cpp IQ4_XS: IQ4_XS, attn_v Q5_K with 4+ query heads per KV head, ffn_down Q5_K in the first 1/8 of layers, output Q6_K"},
  };
  return t;
}

const LlamaMix* find_llama_mix(const std::string& raw) {
  std::string n = raw;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& m : llama_mixes())
    if (n == m.name) return &m;
  return nullptr;
}

namespace {

// The ggml types a mix uses, and each one's elements and bytes per block (ggml's block_* structs). Types are
// indices into this table while a plan is made (a tensor's type was a string compared against the table for
// every tensor, most of a llama.cpp-typed analysis's time); their names are written once, into the plan.
enum G : std::uint8_t { fp32, fp16, q4_0, q4_1, q5_0, q5_1, q8_0, q2_k, q3_k, q4_k, q5_k, q6_k, iq4_nl, iq4_xs, kTypes };
struct Block {
  const char* name;
  i64 elements;
  i64 bytes;
};
constexpr Block kBlocks[kTypes] = {{"fp32", 1, 4},       {"fp16", 1, 2},      {"q4_0", 32, 18},    {"q4_1", 32, 20},
                                   {"q5_0", 32, 22},     {"q5_1", 32, 24},    {"q8_0", 32, 34},    {"q2_k", 256, 84},
                                   {"q3_k", 256, 110},   {"q4_k", 256, 144},  {"q5_k", 256, 176},  {"q6_k", 256, 210},
                                   {"iq4_nl", 32, 18},   {"iq4_xs", 256, 136}};
const Block& block(G type) { return kBlocks[type]; }
// A mix's base type by name (fp32 for a name the table lacks, as the string lookup gave).
G type_named(const std::string& name) {
  for (int i = 0; i < kTypes; ++i)
    if (name == kBlocks[i].name) return static_cast<G>(i);
  return fp32;
}

// The mixes the rules below tell apart (llama_mixes() by name).
enum class Mix { q2_k, q3_k_s, q3_k_m, q3_k_l, q4_0, q4_1, q4_k_s, q4_k_m, q5_0, q5_1, q5_k_s, q5_k_m, q6_k, q8_0, iq4_nl, iq4_xs, other };
Mix mix_named(const std::string& name) {
  static constexpr const char* kNames[] = {"q2_k", "q3_k_s", "q3_k_m", "q3_k_l", "q4_0",  "q4_1",  "q4_k_s", "q4_k_m",
                                           "q5_0", "q5_1",   "q5_k_s", "q5_k_m", "q6_k",  "q8_0",  "iq4_nl", "iq4_xs"};
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) return static_cast<Mix>(i);
  return Mix::other;
}

// llama-quant.cpp's tensor categories.
enum class Cat { TokenEmbd, Output, AttnQ, AttnK, AttnV, AttnQkv, AttnKvB, AttnOut, FfnUp, FfnGate, FfnDown, Other };

struct Tensor {
  Cat cat;
  WeightClass cls;
  int layer;         // -1 outside the blocks
  i64 ne0;           // the row length (input dimension): blocks run along it
  double elements;
  bool quantized;    // 2-D or 3-D weights; 1-D tensors, biases and the router stay f32
};

// The tensors a GGUF of `m` holds, in the loader's order (by layer, then by name; the order only matters for the
// counters below, which run layer by layer).
std::vector<Tensor> tensors_of(const ModelSpec& m) {
  std::vector<Tensor> t;
  const i64 h = m.hidden;
  const auto add = [&](Cat c, WeightClass cls, int layer, i64 ne0, double n, bool q = true) { t.push_back({c, cls, layer, ne0, n, q}); };
  const auto f32 = [&](WeightClass cls, int layer, double n) { t.push_back({Cat::Other, cls, layer, 1, n, false}); };
  const bool shared_head = m.tied_embeddings && m.has_embedding && m.has_head;
  const double rows = static_cast<double>(m.embedding_rows > 0 ? m.embedding_rows : m.vocab);
  if (m.has_embedding) add(Cat::TokenEmbd, WeightClass::Embedding, -1, h, rows * h);
  for (std::size_t li = 0; li < m.layers.size(); ++li) {
    const int L = static_cast<int>(li);
    const LayerSpec& ly = m.layers[li];
    const AttentionSpec& a = ly.attn;
    const auto A = WeightClass::Attention;
    if (a.kind == AttnKind::Compressed) {
      // DeepSeek-V4's attention, its compressor and indexer: as one block of rows of h (no llama.cpp mix names them).
      add(Cat::Other, A, L, h, static_cast<double>(attention_params(a, h)));
    } else {
    if (a.kind == AttnKind::MLA) {
      const double qdim = static_cast<double>(a.n_heads) * (a.qk_nope_dim + a.qk_rope_dim);
      if (a.q_lora_rank > 0) {
        add(Cat::Other, A, L, h, static_cast<double>(h) * a.q_lora_rank);        // attn_q_a
        f32(A, L, static_cast<double>(a.q_lora_rank));                           // attn_q_a_norm
        add(Cat::Other, A, L, a.q_lora_rank, a.q_lora_rank * qdim);              // attn_q_b
      } else {
        add(Cat::AttnQ, A, L, h, h * qdim);                                      // attn_q
      }
      add(Cat::Other, A, L, h, static_cast<double>(h) * (a.kv_lora_rank + a.qk_rope_dim));  // attn_kv_a_mqa
      f32(A, L, static_cast<double>(a.kv_lora_rank));                                       // attn_kv_a_norm
      // kv_b as the converter splits it for absorbed MLA: attn_k_b rows of qk_nope, attn_v_b rows of kv_lora_rank.
      add(Cat::Other, A, L, a.qk_nope_dim, static_cast<double>(a.kv_lora_rank) * a.n_heads * a.qk_nope_dim);
      add(Cat::Other, A, L, a.kv_lora_rank, static_cast<double>(a.kv_lora_rank) * a.n_heads * a.v_head_dim);
    } else {
      const double q = static_cast<double>(a.n_heads) * a.head_dim, k = static_cast<double>(a.n_kv_heads) * a.head_dim,
                   v = static_cast<double>(a.n_kv_heads) * a.v_head_dim;
      if (a.fused_qkv) {
        add(Cat::AttnQkv, A, L, h, h * (q + k + v));
      } else {
        add(Cat::AttnQ, A, L, h, h * q);
        add(Cat::AttnK, A, L, h, h * k);
        add(Cat::AttnV, A, L, h, h * v);
      }
      if (a.qkv_bias) f32(A, L, q + k + v);
    }
    add(Cat::AttnOut, A, L, a.n_heads * a.v_head_dim, static_cast<double>(a.n_heads) * a.v_head_dim * h);
    if (a.o_bias) f32(A, L, static_cast<double>(h));
    if (a.qk_norm && a.qk_norm_weight) f32(A, L, 2.0 * a.head_dim);
    if (a.sinks) f32(A, L, static_cast<double>(a.n_heads));
    if (a.head_gate) add(Cat::Other, A, L, h, static_cast<double>(h) * a.n_heads);  // Step-3.7's g_proj
    if (a.index_topk > 0 && a.index_block > 0) {  // MiniMax-M3's index_q, index_k and their norms
      add(Cat::Other, A, L, h, static_cast<double>(h) * (a.index_heads + 1) * a.index_head_dim);
      f32(A, L, 2.0 * a.index_head_dim);
    }
    }
    if (ly.hc_mult > 0) {  // DeepSeek-V4's two hyper-connections: fp32
      const double n = static_cast<double>(ly.hc_mult);
      f32(WeightClass::Router, L, 2 * ((2 + n) * n * n * h + (2 + n) * n + 3));
    }
    const FfnSpec& f = ly.ffn;
    // A feed-forward block of width w: gate and up (or one fused up) with rows of h, down with rows of w.
    // A latent MoE's experts read and write the latent instead of h (x: their input width).
    const auto mlp = [&](WeightClass cls, i64 w, double copies, bool bias, bool fused, i64 x) {
      if (f.gated && fused) {
        add(Cat::FfnUp, cls, L, x, copies * 2.0 * x * w);
      } else {
        if (f.gated) add(Cat::FfnGate, cls, L, x, copies * x * w);
        add(Cat::FfnUp, cls, L, x, copies * x * w);
      }
      add(Cat::FfnDown, cls, L, w, copies * w * x);
      if (bias) f32(cls, L, copies * ((f.gated ? 2.0 * w : 1.0 * w) + x));
    };
    if (!f.moe) {
      mlp(WeightClass::Ffn, f.intermediate, 1, f.bias, f.fused_gate_up, h);
    } else {
      const double slots = static_cast<double>(f.n_experts + f.zero_experts);
      f32(WeightClass::Router, L, static_cast<double>(h) * slots);  // ffn_gate_inp: never quantized
      if (f.router_bias) f32(WeightClass::Router, L, slots);
      if (f.score_correction_bias) f32(WeightClass::Router, L, slots);
      if (f.hash_routed) f32(WeightClass::Router, L, static_cast<double>(m.vocab) * f.top_k);  // tid2eid
      mlp(WeightClass::Experts, f.expert_intermediate, static_cast<double>(f.n_experts), f.expert_bias, false,
          f.latent > 0 ? f.latent : h);
      if (f.latent > 0) {  // fc1_latent_proj and fc2_latent_proj
        add(Cat::Other, WeightClass::Ffn, L, h, static_cast<double>(h) * f.latent);
        add(Cat::Other, WeightClass::Ffn, L, f.latent, static_cast<double>(f.latent) * h);
        if (f.bias) f32(WeightClass::Ffn, L, static_cast<double>(f.latent + h));
      }
      if (f.n_shared > 0) mlp(WeightClass::Ffn, f.n_shared * f.shared_intermediate, 1, false, false, h);
      if (f.shared_gate) f32(WeightClass::Ffn, L, static_cast<double>(h));  // ffn_gate_inp_shexp
    }
  }
  if (m.has_head && m.hc_mult > 0) {  // DeepSeek-V4's hyper head
    const double n = static_cast<double>(m.hc_mult);
    f32(WeightClass::Router, -1, n * n * h + n + 1);
  }
  if (m.has_head && !shared_head) add(Cat::Output, WeightClass::LmHead, -1, h, static_cast<double>(m.vocab) * h);
  return t;
}

// What llama-quantize decides, per tensor (llama-quant.cpp, llama_tensor_get_type_impl), for the mixes above.
struct Rules {
  Mix ftype = Mix::other;  // the mix
  G base = fp32;           // its default type
  bool falcon = false;
  bool is_70b = false;   // LLM_TYPE_70B: Llama and Qwen2 with 80 layers and grouped KV heads
  double n_gqa = 1;      // query heads per KV head
  i64 n_expert = 0;
  bool tied = false;     // no output.weight: the token embedding is quantized like the output
  int n_layer = 0;
  int n_attention_wv = 0;
  int i_attention_wv = 0;  // counts attn_v-like tensors seen, as llama.cpp does
  int i_ffn_down = 0;

  static bool more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }
  bool is(Mix f) const { return ftype == f; }

  G pick(const Tensor& t) {
    G type = base;
    if (t.cat == Cat::Output || (tied && t.cat == Cat::TokenEmbd)) {
      if (falcon || t.ne0 % block(type).elements != 0) return q8_0;
      return type != q8_0 ? q6_k : type;
    }
    if (t.cat == Cat::TokenEmbd) return type;
    if (t.cat == Cat::AttnV || t.cat == Cat::AttnQkv || t.cat == Cat::AttnKvB) {
      if (is(Mix::q2_k)) type = n_gqa >= 4 ? q4_k : q3_k;
      else if (is(Mix::q3_k_m)) type = i_attention_wv < 2 ? q5_k : q4_k;
      else if (is(Mix::q3_k_l)) type = q5_k;
      else if ((is(Mix::iq4_nl) || is(Mix::iq4_xs)) && n_gqa >= 4) type = q5_k;
      else if ((is(Mix::q4_k_m) || is(Mix::q5_k_m)) && more_bits(i_attention_wv, n_attention_wv)) type = q6_k;
      else if (is(Mix::q4_k_s) && i_attention_wv < 4) type = q5_k;
      if (is_70b && (type == q3_k || type == q4_k)) type = q5_k;
      if (n_expert == 8) type = q8_0;
      ++i_attention_wv;
      return type;
    }
    if (t.cat == Cat::AttnK) return n_expert == 8 ? q8_0 : type;
    if (t.cat == Cat::FfnDown) {
      // Mixture-of-experts tensors take their layer from their name; dense ones from the counter (the same).
      const int i = n_expert > 1 ? t.layer : i_ffn_down, n = n_layer;
      ++i_ffn_down;
      if (is(Mix::q2_k)) return q3_k;
      if (is(Mix::q3_k_m)) return i < n / 16 ? q5_k : (!falcon || more_bits(i, n)) ? q4_k : q3_k;
      if (is(Mix::q3_k_l)) return falcon ? q4_k : q5_k;
      if (is(Mix::q4_k_m)) {
        if (falcon) return i < n / 16 ? q6_k : more_bits(i, n) ? q5_k : q4_k;
        return more_bits(i, n) ? q6_k : type;
      }
      if (i < n / 8 && (is(Mix::iq4_nl) || is(Mix::iq4_xs))) return q5_k;  // without an importance matrix
      if (is(Mix::q5_k_m) && more_bits(i, n)) return q6_k;
      if (is(Mix::q4_k_s) && !falcon && i < n / 8) return q5_k;
      return type;
    }
    if (t.cat == Cat::AttnOut) {
      if (!falcon) {
        if (n_expert == 8) {
          for (Mix f : {Mix::q2_k, Mix::q3_k_s, Mix::q3_k_m, Mix::iq4_nl, Mix::q4_k_s, Mix::q4_k_m, Mix::iq4_xs})
            if (is(f)) return q5_k;
          return type;
        }
        if (is(Mix::q2_k)) return q3_k;
        if (is(Mix::q3_k_m)) return q4_k;
        if (is(Mix::q3_k_l)) return q5_k;
        return type;
      }
      return is(Mix::q3_k_l) ? q4_k : type;
    }
    return type;
  }
};

// A row length a type's blocks do not divide falls back to a type that fits (tensor_type_fallback), else f16.
G fallback(G type, i64 ne0) {
  if (ne0 % block(type).elements == 0) return type;
  G r = type;
  if (type == iq4_xs) r = iq4_nl;
  else if (type == q2_k || type == q3_k) r = q4_0;
  else if (type == q4_k) r = q5_0;
  else if (type == q5_k) r = q5_1;
  else if (type == q6_k) r = q8_0;
  return ne0 % block(r).elements == 0 ? r : fp16;
}

double bytes_of(G type, double elements) {
  const Block& b = block(type);
  return elements / static_cast<double>(b.elements) * static_cast<double>(b.bytes);
}

}  // namespace

MixPlan plan_llama_mix(const ModelSpec& m, const LlamaMix& mix) {
  Rules q;
  q.ftype = mix_named(mix.name);
  q.base = type_named(mix.base);
  q.falcon = m.model_type == "falcon";
  q.n_layer = static_cast<int>(m.layers.size());
  q.tied = m.tied_embeddings;
  for (const auto& L : m.layers) {
    q.n_expert = std::max(q.n_expert, L.ffn.moe ? L.ffn.n_experts : 0);
    if (L.attn.kind == AttnKind::Standard && L.attn.n_kv_heads > 0 && q.n_gqa == 1)
      q.n_gqa = static_cast<double>(L.attn.n_heads / L.attn.n_kv_heads);  // llama.cpp's n_gqa(): an integer division
  }
  q.is_70b = (m.model_type == "llama" || m.model_type == "qwen2") && q.n_layer == 80 && q.n_gqa > 1;
  const std::vector<Tensor> ts = tensors_of(m);
  for (const auto& t : ts)
    if (t.cat == Cat::AttnV || t.cat == Cat::AttnQkv || t.cat == Cat::AttnKvB) ++q.n_attention_wv;

  MixPlan p;
  p.mix = mix.name;
  std::array<double, kTypes> by_type{};
  std::array<bool, kTypes> used{};
  for (const auto& t : ts) {
    const G type = t.quantized ? fallback(q.pick(t), t.ne0) : fp32;
    const double b = bytes_of(type, t.elements);
    const auto c = static_cast<std::size_t>(t.cls);
    p.class_elements[c] += t.elements;
    p.class_bytes[c] += b;
    by_type[type] += t.elements;
    used[type] = true;
    p.tensor_bytes += b;
  }
  for (int i = 0; i < kTypes; ++i)
    if (used[i]) p.elements_by_type[kBlocks[i].name] = by_type[i];
  // Norm weights: every block's and the final one, f32.
  const ParamCounts pc = count_params(m);
  p.norm_elements = static_cast<double>(pc.norms);
  p.elements_by_type["fp32"] += p.norm_elements + static_cast<double>(m.rope_freqs);
  p.tensor_bytes += 4 * (p.norm_elements + static_cast<double>(m.rope_freqs));

  double all_e = 0, all_b = 0;
  for (int c = 0; c < kWeightClasses; ++c) {
    const auto i = static_cast<std::size_t>(c);
    DType d;
    d.name = mix.name;
    d.native = ComputeType::INT8;
    d.weight_only = true;
    d.bits_per_element = p.class_elements[i] > 0 ? 8 * p.class_bytes[i] / p.class_elements[i] : block(q.base).bytes * 8.0 / static_cast<double>(block(q.base).elements);
    d.definition = mix.description;
    p.class_dtype[i] = d;
    all_e += p.class_elements[i];
    all_b += p.class_bytes[i];
  }
  // A tied head has no tensor of its own: llama.cpp's output matmul reads token_embd, quantized as the output would
  // be (Q6_K in the K mixes, `pick` above), so the LM head streams the embedding's format.
  const bool shared_head = m.tied_embeddings && m.has_embedding && m.has_head;
  if (shared_head && p.class_elements[static_cast<std::size_t>(WeightClass::Embedding)] > 0)
    p.class_dtype[static_cast<std::size_t>(WeightClass::LmHead)] = p.class_dtype[static_cast<std::size_t>(WeightClass::Embedding)];
  p.overall = p.class_dtype[0];
  p.overall.bits_per_element = all_e > 0 ? 8 * all_b / all_e : p.overall.bits_per_element;
  return p;
}

}  // namespace infercast
