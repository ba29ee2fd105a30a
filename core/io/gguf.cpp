#include "io/gguf.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "io/families.hpp"
#include "io/gguf_decoders.hpp"
#include "io/gguf_hybrid.hpp"
#include "io/weight_formats.hpp"
#include "quant/llama_mix.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {

[[noreturn]] void gguf_fail(const std::string& code, const std::string& message) { throw InputError("gguf." + code, "/gguf", message); }

struct Cursor {
  const std::string& b;
  std::uint64_t at = 0;
  void need(std::uint64_t n) {
    if (n > limit::kGgufHeaderBytes || at > limit::kGgufHeaderBytes - n)
      gguf_fail("too_large", "the GGUF header runs past " + std::to_string(limit::kGgufHeaderBytes) + " bytes (" +
                                 mib_text(limit::kGgufHeaderBytes) + ", at byte " + std::to_string(at) +
                                 "); expected a header within that limit (llama.cpp's headers take a few MiB)");
    if (n > b.size() || at > b.size() - n)
      gguf_fail("truncated", "the GGUF header continues past the " + std::to_string(b.size()) +
                                 " bytes read (at byte " + std::to_string(at) + "); expected more of the file");
  }
  template <typename T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, b.data() + at, sizeof(T));
    at += sizeof(T);
    return v;  // GGUF is little-endian, as are x86, ARM and wasm
  }
  std::string str() {
    const auto n = get<std::uint64_t>();
    need(n);
    std::string s = b.substr(at, n);
    at += n;
    return s;
  }
};

// Size in bytes of a scalar metadata type (0 for strings, arrays and unknown types).
std::size_t scalar_size(std::uint32_t t) {
  switch (t) {
    case 0: case 1: case 7: return 1;
    case 2: case 3: return 2;
    case 4: case 5: case 6: return 4;
    case 10: case 11: case 12: return 8;
    default: return 0;
  }
}

json scalar(Cursor& c, std::uint32_t t) {
  switch (t) {
    case 0: return c.get<std::uint8_t>();
    case 1: return c.get<std::int8_t>();
    case 2: return c.get<std::uint16_t>();
    case 3: return c.get<std::int16_t>();
    case 4: return c.get<std::uint32_t>();
    case 5: return c.get<std::int32_t>();
    case 6: return c.get<float>();
    case 7: return c.get<std::uint8_t>() != 0;
    case 8: return c.str();
    case 10: return c.get<std::uint64_t>();
    case 11: return c.get<std::int64_t>();
    case 12: return c.get<double>();
    default: break;
  }
  gguf_fail("bad_value", "GGUF metadata type " + std::to_string(t) + " at byte " + std::to_string(c.at) + "; expected 0 to 12");
}

// ggml tensor types: name and bytes per block of `block` elements.
struct GgmlType {
  const char* name;
  std::uint32_t block;
  std::uint32_t bytes;
  const char* dtype;  // our storage format ("" when none matches)
};
const GgmlType* ggml_type(std::uint32_t t) {
  static const std::map<std::uint32_t, GgmlType> types = {
      {0, {"F32", 1, 4, "fp32"}},       {1, {"F16", 1, 2, "fp16"}},         {2, {"Q4_0", 32, 18, "q4_0"}},
      {3, {"Q4_1", 32, 20, "q4_1"}},        {6, {"Q5_0", 32, 22, "q5_0"}},      {7, {"Q5_1", 32, 24, "q5_1"}},
      {8, {"Q8_0", 32, 34, "q8_0"}},    {10, {"Q2_K", 256, 84, "q2_k"}},    {11, {"Q3_K", 256, 110, "q3_k"}},
      {12, {"Q4_K", 256, 144, "q4_k"}}, {13, {"Q5_K", 256, 176, "q5_k"}},   {14, {"Q6_K", 256, 210, "q6_k"}},
      {16, {"IQ2_XXS", 256, 66, "iq2_xxs"}},   {17, {"IQ2_XS", 256, 74, "iq2_xs"}},      {18, {"IQ3_XXS", 256, 98, "iq3_xxs"}},
      {19, {"IQ1_S", 256, 50, "iq1_s"}},     {20, {"IQ4_NL", 32, 18, "iq4_nl"}},       {21, {"IQ3_S", 256, 110, "iq3_s"}},
      {22, {"IQ2_S", 256, 82, "iq2_s"}},     {23, {"IQ4_XS", 256, 136, "iq4_xs"}},     {24, {"I8", 1, 1, ""}},
      {25, {"I16", 1, 2, ""}},          {26, {"I32", 1, 4, ""}},            {28, {"F64", 1, 8, ""}},
      {29, {"IQ1_M", 256, 56, "iq1_m"}},     {30, {"BF16", 1, 2, "bf16"}},       {34, {"TQ1_0", 256, 54, "tq1_0"}},
      {35, {"TQ2_0", 256, 66, "tq2_0"}},     {39, {"MXFP4", 32, 17, "mxfp4"}},
  };
  const auto it = types.find(t);
  return it == types.end() ? nullptr : &it->second;
}

}  // namespace

GgufHeader read_gguf_header(const std::string& bytes) {
  Cursor c{bytes};
  GgufHeader h;
  if (bytes.size() < 4 || bytes.compare(0, 4, "GGUF") != 0)
    gguf_fail("bad_magic", "the file does not start with \"GGUF\"; expected a GGUF model file (llama.cpp)");
  c.at = 4;
  h.version = c.get<std::uint32_t>();
  if (h.version != 2 && h.version != 3)
    gguf_fail("unsupported_version", "GGUF version " + std::to_string(h.version) + "; expected 2 or 3");
  const auto n_tensors = c.get<std::uint64_t>();
  const auto n_kv = c.get<std::uint64_t>();
  if (n_tensors > limit::kGgufEntries || n_kv > limit::kGgufEntries)
    gguf_fail("bad_value", "the GGUF header claims " + std::to_string(n_tensors) + " tensors and " + std::to_string(n_kv) +
                               " metadata entries; expected at most " + std::to_string(limit::kGgufEntries) + " of each");
  for (std::uint64_t i = 0; i < n_kv; ++i) {
    const std::string key = c.str();
    if (h.metadata.contains(key)) gguf_fail("bad_value", "metadata key " + utf8_prefix(key, 256) + " appears twice; expected each key once");
    const auto t = c.get<std::uint32_t>();
    if (t != 9) {
      h.metadata[key] = scalar(c, t);
      continue;
    }
    const auto et = c.get<std::uint32_t>();
    const auto n = c.get<std::uint64_t>();
    if (et == 9) gguf_fail("bad_value", "metadata " + utf8_prefix(key, 256) + " is an array of arrays; expected scalars or strings");
    const std::size_t sz = scalar_size(et);
    if (et != 8 && sz == 0) gguf_fail("bad_value", "metadata " + utf8_prefix(key, 256) + " has element type " + std::to_string(et) + "; expected 0 to 12");
    if (et != 8 && n <= 64) {
      json a = json::array();
      for (std::uint64_t k = 0; k < n; ++k) a.push_back(scalar(c, et));
      h.metadata[key] = a;
      continue;
    }
    if (et == 8) {
      for (std::uint64_t k = 0; k < n; ++k) c.str();  // skipped: tokenizer vocabularies, merges
    } else {
      if (n > limit::kGgufHeaderBytes) c.need(limit::kGgufHeaderBytes + 1);  // past the limit, without overflow
      c.need(n * sz);
      c.at += n * sz;
    }
    h.metadata[key] = {{"type", et}, {"length", n}};
  }
  for (std::uint64_t i = 0; i < n_tensors; ++i) {
    GgufTensor t;
    t.name = c.str();
    const auto nd = c.get<std::uint32_t>();
    if (nd > 8) gguf_fail("bad_value", "tensor " + utf8_prefix(t.name, 256) + " has " + std::to_string(nd) + " dimensions; expected at most 8");
    for (std::uint32_t d = 0; d < nd; ++d) t.dims.push_back(c.get<std::uint64_t>());
    t.type = c.get<std::uint32_t>();
    c.get<std::uint64_t>();  // offset into the data section
    h.tensors.push_back(std::move(t));
  }
  h.header_bytes = c.at;
  return h;
}

json gguf_model(const GgufHeader& h) {
  const json& md = h.metadata;
  const auto text = [&](const std::string& k) { return md.contains(k) && md[k].is_string() ? md[k].get<std::string>() : std::string(); };
  const std::string arch = text("general.architecture");
  const auto num = [&](const std::string& k) -> json {
    const std::string key = arch + "." + k;
    if (!md.contains(key)) return nullptr;
    const json& v = md[key];
    // Per-layer arrays: the first layer's value. A value of another type (a string, booleans) is not a number:
    // read as absent, so a required field is named as missing rather than failing inside.
    const json& first = v.is_array() && !v.empty() ? v[0] : v;
    return first.is_number() ? first : json(nullptr);
  };

  // Tensors: exact elements and bytes, by ggml type and by weight class.
  ClassFormats class_types;  // class -> dtype -> elements
  std::map<std::uint32_t, std::array<std::uint64_t, 3>> by_type;             // tensors, elements, bytes
  std::uint64_t total = 0, tensor_bytes = 0, vocab_rows = 0;
  bool has_output = false;
  for (const auto& t : h.tensors) {
    // Element counts checked, never wrapped: each tensor's and the file's total within 2^53 (exact in a double).
    std::uint64_t n = 1;
    for (auto d : t.dims) {
      if (d != 0 && n > limit::kTensorElements / d)
        gguf_fail("bad_value", "tensor " + utf8_prefix(t.name, 256) + " has dimensions whose product passes 2^53 elements; expected a tensor a model can hold");
      n *= d;
    }
    const GgmlType* g = ggml_type(t.type);
    if (!g) gguf_fail("bad_value", "tensor " + utf8_prefix(t.name, 256) + " has ggml type " + std::to_string(t.type) + ", which this reader does not know");
    const std::uint64_t b = (n + g->block - 1) / g->block * g->bytes;  // at most 2^53 / 1 * 8: no overflow
    total += n;
    tensor_bytes += b;
    if (total > limit::kTensorElements)
      gguf_fail("bad_value", "the tensors hold more than 2^53 elements in all (at tensor " + utf8_prefix(t.name, 256) + "); expected a model's tensors");
    auto& bt = by_type[t.type];
    bt[0] += 1, bt[1] += n, bt[2] += b;
    const std::string& nm = t.name;
    std::string cls;
    if (nm == "token_embd.weight") {
      cls = "embedding";
      if (t.dims.size() == 2) vocab_rows = t.dims[1];
    } else if (nm == "output.weight") {
      cls = "lm_head";
      has_output = true;
    } else if (nm.find("_exps.") != std::string::npos) cls = "experts";
    else if (nm.find("ffn_gate_inp") != std::string::npos) cls = "router";
    else if (nm.find(".attn_") != std::string::npos && nm.find("norm") == std::string::npos && t.dims.size() >= 2) cls = "attention";
    else if (nm.find(".ssm_in") != std::string::npos || nm.find(".ssm_out") != std::string::npos || nm.find(".ssm_ba") != std::string::npos)
      cls = "attention";  // recurrent mixers' projections are the attention class
    else if (nm.find(".ffn_") != std::string::npos && nm.find("norm") == std::string::npos && t.dims.size() >= 2) cls = "ffn";
    if (!cls.empty() && t.dims.size() >= 2) {
      class_types[cls][g->dtype[0] ? g->dtype : g->name] += n;
    }
  }
  json precision = precision_of_classes(class_types, !has_output);
  // A file llama-quantize wrote names its mix in general.file_type (llama.h's llama_ftype). The mix's rules give each
  // tensor its own type (attn_v and ffn_down in Q6_K in some layers of a Q4_K_M file), which one format per class
  // cannot hold, so the mix is the precision when its base type is the largest class's own (a file whose tensors
  // were retyped by hand keeps the per-class formats).
  static const std::map<std::uint32_t, const char*> file_types = {
      {2, "q4_0"},    {3, "q4_1"},    {7, "q8_0"},    {8, "q5_0"},    {9, "q5_1"},    {10, "q2_k"},
      {11, "q3_k_s"}, {12, "q3_k_m"}, {13, "q3_k_l"}, {14, "q4_k_s"}, {15, "q4_k_m"}, {16, "q5_k_s"},
      {17, "q5_k_m"}, {18, "q6_k"},   {25, "iq4_nl"}, {30, "iq4_xs"}};
  if (md.contains("general.file_type") && md["general.file_type"].is_number_unsigned()) {
    const auto ft = file_types.find(md["general.file_type"].get<std::uint32_t>());
    const LlamaMix* mix = ft == file_types.end() ? nullptr : find_llama_mix(ft->second);
    std::string largest;
    std::uint64_t most = 0;
    for (const auto& [cls, formats] : class_types) {
      std::uint64_t n = 0;
      for (const auto& [f, k] : formats) n += k;
      if (n > most) most = n, largest = cls;
    }
    if (mix && !largest.empty() && precision["by_class"].value(largest, "") == mix->base)
      precision = {{"weights", mix->name}, {"by_class", json::object()}, {"file_type", mix->name}};
  }
  json types = json::array();
  for (const auto& [t, v] : by_type)
    types.push_back({{"type", ggml_type(t)->name}, {"tensors", v[0]}, {"params", v[1]}, {"bytes", v[2]}, {"dtype", ggml_type(t)->dtype}});

  // The config, in the Hugging Face schema of the matching family.
  static const std::map<std::string, std::string> families = {
      {"llama", "llama"}, {"mistral", "mistral"}, {"qwen2", "qwen2"}, {"qwen3", "qwen3"}, {"qwen2moe", "qwen2_moe"},
      {"qwen3moe", "qwen3_moe"}, {"phi3", "phi3"}, {"gemma", "gemma"}};
  const auto fam = families.find(arch);
  const json decoder = fam == families.end() ? gguf_decoder_config(h, arch, vocab_rows, has_output) : json(nullptr);
  // Hybrid families: layers read from the tensor table (io/gguf_hybrid.cpp).
  const json hybrid = fam == families.end() && decoder.is_null() ? gguf_hybrid_config(h, arch) : json(nullptr);
  if (fam == families.end() && decoder.is_null() && hybrid.is_null()) {
    std::vector<std::string> names;
    for (const auto& [k, v] : families) names.push_back(k);
    for (const auto& k : gguf_decoder_architectures()) names.push_back(k);
    for (const auto& k : gguf_hybrid_architectures()) names.push_back(k);
    std::sort(names.begin(), names.end());
    std::string list;
    for (const auto& k : names) list += (list.empty() ? "" : ", ") + k;
    throw InputError("gguf.unsupported_architecture", "/gguf/general.architecture",
                     "general.architecture holds " + quote_text(arch) + "; expected one of " + list +
                         " (drop the model's config.json instead)");
  }
  const auto result = [&](const json& c) -> json {
    return {{"architecture", arch},
            {"name", c["_name_or_path"]},
            {"gguf_version", h.version},  // "version" is the project's in every result
            {"config", c},
            {"precision", precision},
            {"tensors", h.tensors.size()},
            {"params_total", total},
            {"tensor_bytes", tensor_bytes},
            {"header_bytes", h.header_bytes},
            {"types", types}};
  };
  // The name as a label: cut to 256 bytes (a header may hold megabytes there; the page keeps the config in its link).
  const std::string label = utf8_prefix(text("general.name"), 256);
  const std::string name = label.empty() ? arch : label;
  if (!decoder.is_null()) {  // the families of io/gguf_decoders.cpp
    json c = decoder;
    c["_name_or_path"] = name;
    // head_dim equal to hidden / heads is left out, as Hugging Face configs leave it, unless the family's own
    // default is another (Gemma's 256): then leaving it out would change the model.
    const FamilyTraits* fam = find_family(c["model_type"].get<std::string>());
    const bool own_default = fam && std::any_of(fam->defaults.begin(), fam->defaults.end(),
                                                [](const FieldDefault& d) { return d.key == "head_dim"; });
    // (The older families' decoders name the sizes their own way, n_embd or n_head: then nothing is compared.)
    const auto number = [&](const char* key) { return c.contains(key) && c[key].is_number() ? c[key].get<double>() : -1.0; };
    const double hd = number("head_dim"), hidden = number("hidden_size"), heads = number("num_attention_heads");
    if (!own_default && hd > 0 && hidden > 0 && heads > 0 && hidden == hd * heads) c.erase("head_dim");
    return result(c);
  }
  if (!hybrid.is_null()) {
    json c = hybrid;
    c["_name_or_path"] = name;
    return result(c);
  }
  json cfg = {{"model_type", fam->second}, {"_name_or_path", name}};
  const auto put = [&](const char* hf, const std::string& key, bool required) {
    put_gguf_field(cfg, num(key), arch, hf, key, required);
  };
  put("hidden_size", "embedding_length", true);
  put("num_hidden_layers", "block_count", true);
  put("num_attention_heads", "attention.head_count", true);
  put("num_key_value_heads", "attention.head_count_kv", false);
  put("max_position_embeddings", "context_length", false);
  put("head_dim", "attention.key_length", false);
  put("rms_norm_eps", "attention.layer_norm_rms_epsilon", false);
  put("sliding_window", "attention.sliding_window", false);
  const bool moe = !num("expert_count").is_null() && num("expert_count").get<double>() > 0;
  if (moe) {
    put("num_experts", "expert_count", true);
    put("num_experts_per_tok", "expert_used_count", true);
    put("moe_intermediate_size", "expert_feed_forward_length", arch != "llama");
    put("shared_expert_intermediate_size", "expert_shared_feed_forward_length", false);
    if (arch == "llama") {  // Mixtral is "llama" with experts
      cfg["model_type"] = "mixtral";
      cfg["num_local_experts"] = cfg["num_experts"];
      cfg.erase("num_experts");
    }
  }
  // Dense models and Mixtral (its experts are feed_forward_length wide) need it; other MoE families may omit it.
  put("intermediate_size", "feed_forward_length", !moe || arch == "llama");
  const json vocab = num("vocab_size");
  cfg["vocab_size"] = !vocab.is_null() ? vocab : json(vocab_rows);
  if (cfg["vocab_size"].get<double>() <= 0) {
    const std::string key = "tokenizer.ggml.tokens";
    if (md.contains(key) && md[key].is_object()) cfg["vocab_size"] = md[key]["length"];
  }
  cfg["tie_word_embeddings"] = !has_output;
  if (arch == "qwen2" || arch == "qwen2moe") cfg["attention_bias"] = true;
  if (cfg.contains("head_dim") && cfg["hidden_size"].get<double>() == cfg["head_dim"].get<double>() * cfg["num_attention_heads"].get<double>())
    cfg.erase("head_dim");
  return result(cfg);
}

}  // namespace infercast
