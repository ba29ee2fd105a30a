#include "io/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "io/model_config.hpp"
#include "io/weight_formats.hpp"
#include "model/model.hpp"
#include "util/limits.hpp"
#include "util/text.hpp"

namespace infercast {

namespace {

[[noreturn]] void safetensors_fail(const std::string& code, const std::string& message) {
  throw InputError("safetensors." + code, "/safetensors", message);
}

struct StDtype {
  const char* name;
  int bits;           // per element
  const char* ours;   // our storage format, "" when it has none (packed integers, scales)
};

const StDtype* st_dtype(const std::string& s) {
  static const StDtype types[] = {
      {"F64", 64, ""},       {"F32", 32, "fp32"},          {"F16", 16, "fp16"}, {"BF16", 16, "bf16"},
      {"F8_E4M3", 8, "fp8"}, {"F8_E5M2", 8, "fp8_e5m2"},   {"F8_E8M0", 8, ""},  {"F6_E2M3", 6, ""},
      {"F6_E3M2", 6, ""},    {"F4", 4, "fp4"},             {"I64", 64, ""},     {"I32", 32, ""},
      {"I16", 16, ""},       {"I8", 8, "int8"},            {"U64", 64, ""},     {"U32", 32, ""},
      {"U16", 16, ""},       {"U8", 8, ""},                {"BOOL", 8, ""},
  };
  for (const auto& t : types)
    if (s == t.name) return &t;
  return nullptr;
}

std::string dtype_list() {
  return "F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, F6_E2M3, F6_E3M2, F4, I64, I32, I16, I8, U64, U32, U16, U8 "
         "or BOOL";
}

bool has_text(const std::string& s, const char* t) { return s.find(t) != std::string::npos; }

// Model parameters whose names end in "_scale": Gemma 3n's AltUp `correct_output_scale`, Gemma 4's vision
// `std_scale`, and the audio attention's `per_dim_scale` (Gemma 3n and Gemma 4).
bool is_model_scale(const std::string& n) {
  return ends_with(n, "correct_output_scale") || ends_with(n, "vision_tower.std_scale") || ends_with(n, ".per_dim_scale");
}

// Quantization side tensors (scales, zero points, group indices): stored, but not model parameters.
bool is_side_tensor(const std::string& n) {
  return (ends_with(n, "_scale") && !is_model_scale(n)) || ends_with(n, "_scale_inv") || ends_with(n, ".scales") || ends_with(n, ".qzeros") ||
         ends_with(n, ".g_idx") || ends_with(n, "_scale_2") || ends_with(n, ".absmax") || ends_with(n, ".quant_map") ||
         ends_with(n, ".quant_state.bitsandbytes__nf4") || ends_with(n, ".quant_state.bitsandbytes__fp4") ||
         ends_with(n, ".nested_absmax") || ends_with(n, ".nested_quant_map") || ends_with(n, "_scales") ||
         ends_with(n, ".weight_shape") || ends_with(n, "_zero_point");
}

// The bits of a packed checkpoint's integer weights: its config's quantization_config ("bits" for AWQ and GPTQ,
// config_groups' weights.num_bits for compressed-tensors); 4 when it says nothing.
int packed_weight_bits(const json* config) {
  if (!config || !config->is_object()) return 4;
  const json* q = nullptr;
  if (config->contains("quantization_config")) q = &(*config)["quantization_config"];
  else if (config->contains("text_config") && (*config)["text_config"].is_object() && (*config)["text_config"].contains("quantization_config"))
    q = &(*config)["text_config"]["quantization_config"];
  if (!q || !q->is_object()) return 4;
  const auto ok = [](const json& v) { return v.is_number_integer() && (v.get<long long>() == 2 || v.get<long long>() == 3 || v.get<long long>() == 4 || v.get<long long>() == 8); };
  if (q->contains("bits") && ok((*q)["bits"])) return (*q)["bits"].get<int>();
  if (q->contains("config_groups") && (*q)["config_groups"].is_object())
    for (const auto& [k, g] : (*q)["config_groups"].items())
      if (g.is_object() && g.contains("weights") && g["weights"].is_object() && g["weights"].contains("num_bits") && ok(g["weights"]["num_bits"]))
        return g["weights"]["num_bits"].get<int>();
  return 4;
}

// Weights one stored element holds: AWQ's and GPTQ's qweight and compressed-tensors' weight_packed hold 32 / bits
// per I32 word; gpt-oss's MXFP4 blocks (*_blocks), ModelOpt's NVFP4 and bitsandbytes' 4-bit weights two fp4 or nf4
// values per U8 byte; everything else one.
std::uint64_t weights_per_element(const std::string& n, const std::string& dtype, int bits) {
  if (dtype == "I32" && (ends_with(n, ".qweight") || ends_with(n, ".weight_packed"))) return static_cast<std::uint64_t>(32 / bits);
  if (dtype == "U8" && (ends_with(n, "_blocks") || ends_with(n, ".weight") || ends_with(n, ".weight_packed"))) return 2;
  return 1;
}

// Tensors of a multimodal checkpoint's encoders and their projectors (Gemma 3n's vision and audio towers, Qwen-VL's
// `visual`, LLaVA's projector...), as transformers names them.
bool is_audio_tensor(const std::string& n) { return has_text(n, "audio_tower") || has_text(n, "embed_audio"); }
bool is_encoder_tensor(const std::string& n) {
  return has_text(n, "vision_tower") || has_text(n, "audio_tower") || has_text(n, "embed_vision") || has_text(n, "embed_audio") ||
         has_text(n, "multi_modal_projector") || has_text(n, "vision_model") || n.rfind("visual.", 0) == 0 ||
         has_text(n, ".visual.") || has_text(n, "mm_projector");
}

// The weight class of a Hugging Face tensor name ("" for norms, biases and anything else).
std::string class_of(const std::string& n, std::size_t dims) {
  if (dims < 2) return "";
  if (has_text(n, "embed_tokens") || has_text(n, ".wte.") || has_text(n, "word_embeddings") || has_text(n, "tok_embeddings")) return "embedding";
  if (n.rfind("lm_head", 0) == 0 || n == "output.weight" || n.rfind("embed_out", 0) == 0) return "lm_head";
  if (has_text(n, "norm")) return "";
  if (has_text(n, ".experts.") && !has_text(n, "shared_expert")) return "experts";
  if (ends_with(n, "mlp.gate.weight") || ends_with(n, "block_sparse_moe.gate.weight") || has_text(n, ".router.")) return "router";
  if (has_text(n, "self_attn.") || has_text(n, ".attention.") || has_text(n, ".attn.")) return "attention";
  if (has_text(n, ".mlp.") || has_text(n, ".feed_forward.") || has_text(n, "block_sparse_moe.") || has_text(n, "shared_expert")) return "ffn";
  return "";
}

// The layer index in "...layers.12...." (or "h.12.", "blocks.12."), -1 when none.
long layer_of(const std::string& n) {
  for (const char* key : {"layers.", ".h.", "blocks."}) {
    std::size_t at = n.find(key);
    if (at == std::string::npos) continue;
    at += std::strlen(key);
    std::size_t end = at;
    while (end < n.size() && n[end] >= '0' && n[end] <= '9') ++end;
    if (end > at && end < n.size() && n[end] == '.') return std::stol(n.substr(at, std::min<std::size_t>(end - at, 9)));
  }
  return -1;
}

// Elements of a shape, checked: above 2^53 (past what a double holds exactly, and past any tensor) is refused
// naming the tensor at `where`, never wrapped or saturated into a wrong count.
std::uint64_t elements(const std::vector<std::uint64_t>& shape, const std::string& code_path, const std::string& where) {
  std::uint64_t n = 1;
  for (auto d : shape) if (d == 0) return 0;
  for (auto d : shape) {
    if (n > limit::kTensorElements / d)
      throw InputError("safetensors.bad_value", code_path,
                       where + ": its shape holds more than 2^53 elements; expected a tensor a model can hold");
    n *= d;
  }
  return n;
}

// Bytes `n` elements of `d` take (n is at most 2^53: no overflow).
std::uint64_t stored_bytes(std::uint64_t n, const StDtype& d) { return (n * static_cast<std::uint64_t>(d.bits) + 7) / 8; }

// A sum of counts kept within 2^53, refused past it rather than wrapped.
void add_checked(std::uint64_t& into, std::uint64_t v, const std::string& code_path, const char* what) {
  if (v > limit::kTensorElements || into > limit::kTensorElements - v)
    throw InputError("safetensors.bad_value", code_path,
                     std::string("the tensors' ") + what + " add up past 2^53; expected a model's tensors");
  into += v;
}

// The expert index in "...experts.7....", -1 when none.
long expert_of(const std::string& n) {
  const std::size_t at = n.find(".experts.");
  if (at == std::string::npos) return -1;
  std::size_t b = at + 9, e = b;
  while (e < n.size() && n[e] >= '0' && n[e] <= '9') ++e;
  return e > b ? std::stol(n.substr(b, std::min<std::size_t>(e - b, 9))) : -1;
}

}  // namespace

std::uint64_t safetensors_header_size(const std::string& bytes) {
  if (bytes.size() < 8)
    safetensors_fail("truncated", "a safetensors file starts with an 8-byte header length; only " + std::to_string(bytes.size()) +
                                      " bytes were read");
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);  // little-endian, as are x86, ARM and wasm
  if (n < 2 || n > limit::kSafetensorsHeaderBytes)
    safetensors_fail("bad_value", "the header length holds " + std::to_string(n) + " bytes; expected 2 to " +
                                      std::to_string(limit::kSafetensorsHeaderBytes) + " (is this a safetensors file?)");
  return 8 + n;
}

SafetensorsHeader read_safetensors_header(const std::string& bytes) {
  const std::uint64_t need = safetensors_header_size(bytes);
  if (bytes.size() < need)
    safetensors_fail("truncated", "the safetensors header is " + std::to_string(need) + " bytes long and only " +
                                      std::to_string(bytes.size()) + " were read; expected the first " +
                                      std::to_string(need) + " bytes of the file");
  json doc;
  check_json_text(bytes.data() + 8, bytes.data() + need, "the safetensors header", "safetensors", limit::kSafetensorsHeaderBytes);
  try {
    doc = json::parse(bytes.begin() + 8, bytes.begin() + static_cast<std::ptrdiff_t>(need));
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past a double's range
    safetensors_fail("bad_json", std::string("the safetensors header is not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) safetensors_fail("bad_json", "the safetensors header holds " + describe(doc) + "; expected an object of tensors");
  SafetensorsHeader h;
  h.header_bytes = need;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string& name = it.key();
    const json& v = it.value();
    if (name == "__metadata__") {
      // Text to text, as the format defines it; results show each value cut to limit::kMetadataBytes.
      if (!v.is_object()) safetensors_fail("bad_value", "__metadata__ holds " + describe(v) + "; expected an object of strings");
      if (v.size() > 1024) safetensors_fail("bad_value", "__metadata__ holds " + std::to_string(v.size()) + " entries; expected at most 1024");
      for (auto m = v.begin(); m != v.end(); ++m) {
        if (!m.value().is_string())
          safetensors_fail("bad_value", "__metadata__/" + pointer_escape(m.key()) + " holds " + describe(m.value()) + "; expected a string");
        h.metadata[utf8_prefix(m.key(), limit::kMetadataBytes)] = utf8_prefix(m.value().get<std::string>(), limit::kMetadataBytes);
      }
      continue;
    }
    if (h.tensors.size() >= limit::kCheckpointTensors)
      safetensors_fail("bad_value", "the header lists more than " + std::to_string(limit::kCheckpointTensors) + " tensors; expected at most that many");
    const std::string where = "tensor " + utf8_prefix(name, 256);
    if (!v.is_object()) safetensors_fail("bad_value", where + " holds " + describe(v) + "; expected {dtype, shape, data_offsets}");
    if (!v.contains("dtype") || !v["dtype"].is_string())
      safetensors_fail("bad_value", where + ": dtype is missing or not a string; expected one of " + dtype_list());
    SafetensorsTensor t;
    t.name = name;
    t.dtype = v["dtype"].get<std::string>();
    const StDtype* d = st_dtype(t.dtype);
    if (!d) safetensors_fail("bad_value", where + ": dtype holds " + quote_text(t.dtype) + "; expected one of " + dtype_list());
    if (!v.contains("shape") || !v["shape"].is_array() || v["shape"].size() > 8)
      safetensors_fail("bad_value", where + ": shape is missing or not an array of at most 8 sizes");
    for (const auto& s : v["shape"]) {
      if (!s.is_number_unsigned()) safetensors_fail("bad_value", where + ": shape holds " + describe(s) + "; expected sizes of 0 or more");
      t.shape.push_back(s.get<std::uint64_t>());
    }
    const json& off = v.contains("data_offsets") ? v["data_offsets"] : json();
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned() ||
        off[1].get<std::uint64_t>() < off[0].get<std::uint64_t>())
      safetensors_fail("bad_value", where + ": data_offsets must be [begin, end] with end >= begin");
    const std::uint64_t n = elements(t.shape, "/safetensors", where);
    const std::uint64_t span = off[1].get<std::uint64_t>() - off[0].get<std::uint64_t>();
    const std::uint64_t expect = stored_bytes(n, *d);
    if (span != expect)
      safetensors_fail("bad_value", where + ": data_offsets span " + std::to_string(span) + " bytes; expected " + std::to_string(expect) +
                                        " for " + std::to_string(n) + " " + t.dtype + " elements");
    h.data_bytes = std::max(h.data_bytes, off[1].get<std::uint64_t>());
    h.tensors.push_back(std::move(t));
  }
  return h;
}

json safetensors_header_json(const SafetensorsHeader& h) {
  json rows = json::array();
  for (const auto& t : h.tensors) rows.push_back(json::array({t.name, t.dtype, t.shape}));
  return {{"header_bytes", h.header_bytes}, {"data_bytes", h.data_bytes}, {"metadata", h.metadata}, {"tensors", rows}};
}

json safetensors_checkpoint(const json& rows, const json* config, const std::string& config_path) {
  if (!rows.is_array() || rows.empty())
    throw InputError("safetensors.bad_value", "/tensors", "/tensors holds " + describe(rows) + "; expected a non-empty array of [name, dtype, shape] rows");
  if (rows.size() > limit::kCheckpointTensors)
    throw InputError("safetensors.bad_value", "/tensors", "/tensors holds " + std::to_string(rows.size()) +
                                                            " rows; expected at most " + std::to_string(limit::kCheckpointTensors) + " tensors");
  struct T {
    std::string name, dtype;
    std::vector<std::uint64_t> shape;
    std::uint64_t n;
    long layer;           // layer_of(name)
    std::uint64_t params = 0;  // the weights it holds: n, or n x the weights per packed word
  };
  const int packed_bits = packed_weight_bits(config);
  std::vector<T> ts;
  ts.reserve(rows.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& r = rows[i];
    const std::string path = "/tensors/" + std::to_string(i);
    if (!r.is_array() || r.size() != 3 || !r[0].is_string() || !r[1].is_string() || !r[2].is_array())
      throw InputError("safetensors.bad_value", path, path + " holds " + describe(r) + "; expected [name, dtype, shape]");
    T t{r[0].get<std::string>(), r[1].get<std::string>(), {}, 0, -1};
    if (!st_dtype(t.dtype))
      throw InputError("safetensors.bad_value", path + "/1", path + "/1 holds " + quote_text(t.dtype) + "; expected one of " + dtype_list());
    if (r[2].size() > 8) throw InputError("safetensors.bad_value", path + "/2", path + "/2 holds " + describe(r[2]) + "; expected a shape of at most 8 sizes");
    for (const auto& s : r[2]) {
      if (!s.is_number_unsigned()) throw InputError("safetensors.bad_value", path + "/2", path + "/2 holds " + describe(s) + " in a shape; expected sizes of 0 or more");
      t.shape.push_back(s.get<std::uint64_t>());
    }
    t.n = elements(t.shape, path + "/2", path);
    t.layer = layer_of(t.name);
    t.params = t.n * weights_per_element(t.name, t.dtype, packed_bits);
    ts.push_back(std::move(t));
  }
  for (const auto& t : ts)
    if (!seen.insert(t.name).second)
      throw InputError("safetensors.bad_value", "/tensors", "tensor " + utf8_prefix(t.name, 256) + " appears in two shards; expected each tensor once");

  // Counts: parameters exclude quantization side tensors (scales, zero points), which are still stored bytes.
  std::uint64_t params = 0, side = 0, total_bytes = 0;
  std::map<std::string, std::array<std::uint64_t, 3>> by_type;  // dtype -> tensors, elements, bytes
  ClassFormats class_types;
  bool packed = false;
  long layers = -1, experts = -1;
  for (const auto& t : ts) {
    const StDtype* d = st_dtype(t.dtype);
    const std::uint64_t b = stored_bytes(t.n, *d);
    add_checked(total_bytes, b, "/tensors", "bytes");
    auto& bt = by_type[t.dtype];
    bt[0] += 1, bt[1] += t.n, bt[2] += b;  // within the totals' checked bounds
    if (!is_encoder_tensor(t.name)) layers = std::max(layers, t.layer);  // the text model's layers
    experts = std::max(experts, expert_of(t.name));
    if (is_side_tensor(t.name)) {
      add_checked(side, t.n, "/tensors", "elements");
      continue;
    }
    add_checked(params, t.params, "/tensors", "elements");
    const std::string cls = class_of(t.name, t.shape.size());
    if (cls.empty()) continue;
    if (!d->ours[0]) packed = packed || t.dtype == "I32" || t.dtype == "U8";
    class_types[cls][d->ours[0] ? d->ours : t.dtype] += t.params;
  }
  const bool tied = !class_types.count("lm_head");
  const json precision = precision_of_classes(class_types, tied);
  json types = json::array();
  for (const auto& [d, v] : by_type)
    types.push_back({{"dtype", d}, {"format", st_dtype(d)->ours}, {"tensors", v[0]}, {"params", v[1]}, {"bytes", v[2]}});

  // Shapes the header states for sure.
  const auto find = [&](std::initializer_list<const char*> suffixes, long layer) -> const T* {
    for (const auto& t : ts) {
      if (layer >= 0 && t.layer != layer) continue;
      for (const char* s : suffixes)
        if (ends_with(t.name, s)) return &t;
    }
    return nullptr;
  };
  const T* embed = find({"embed_tokens.weight", "wte.weight", "word_embeddings.weight", "tok_embeddings.weight"}, -1);
  const T* q = find({"self_attn.q_proj.weight"}, 0);
  const T* k = find({"self_attn.k_proj.weight"}, 0);
  const T* qn = find({"self_attn.q_norm.weight"}, 0);
  const T* gate = find({"mlp.gate_proj.weight", "mlp.up_proj.weight"}, 0);

  json cfg;
  json assumed = json::array();
  bool inferred = false;
  if (config) {
    cfg = *config;
  } else {
    // Infer a config from the names (Llama layout and its Mistral, Qwen and Mixtral relatives).
    if (!embed || embed->shape.size() != 2 || !q || !k || layers < 0)
      throw InputError("safetensors.unknown_layout", "/tensors",
                       "the tensor names follow no layout this reader infers a config from (expected model.embed_tokens "
                       "and model.layers.N.self_attn.q_proj/k_proj, as Llama, Mistral, Qwen and Mixtral use); drop the "
                       "checkpoint's config.json with its .safetensors files");
    inferred = true;
    // Every tensor a size is read from is a matrix with rows (a header may give a scalar or an empty shape).
    for (const T* t : {q, k, gate, find({"block_sparse_moe.experts.0.w1.weight"}, 0),
                       find({"mlp.experts.0.gate_proj.weight", "mlp.experts.0.up_proj.weight"}, 0),
                       find({"mlp.shared_expert.gate_proj.weight", "mlp.shared_expert.up_proj.weight"}, 0)}) {
      if (!t || (t->shape.size() == 2 && t->shape[0] > 0)) continue;
      std::string dims;
      for (const auto d : t->shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      throw InputError("safetensors.unknown_layout", "/tensors/" + t->name,
                       t->name + " has shape [" + dims +
                           "]; expected a matrix of at least one row, as a projection is; drop the checkpoint's config.json "
                           "with its .safetensors files");
    }
    const std::uint64_t hidden = embed->shape[1], vocab = embed->shape[0];
    const std::uint64_t q_out = q->shape[0], kv_out = k->shape[0];
    std::uint64_t head_dim = 0;
    if (qn && qn->shape.size() == 1 && qn->shape[0] > 0) head_dim = qn->shape[0];
    else {
      head_dim = (q_out % 128 == 0 && kv_out % 128 == 0) ? 128 : 64;
      if (q_out == hidden && hidden % head_dim != 0) head_dim = 64;
      assumed.push_back("head_dim");
    }
    if (q_out % head_dim != 0 || kv_out % head_dim != 0)
      throw InputError("safetensors.unknown_layout", "/tensors",
                       "q_proj has " + std::to_string(q_out) + " rows and k_proj " + std::to_string(kv_out) +
                           ", which no head size divides; drop the checkpoint's config.json with its .safetensors files");
    const T* mix = find({"block_sparse_moe.experts.0.w1.weight"}, 0);
    const T* qexp = find({"mlp.experts.0.gate_proj.weight", "mlp.experts.0.up_proj.weight"}, 0);
    const T* shared = find({"mlp.shared_expert.gate_proj.weight", "mlp.shared_expert.up_proj.weight"}, 0);
    std::string type = qn ? "qwen3" : (find({"self_attn.q_proj.bias"}, 0) ? "qwen2" : "llama");
    cfg = {{"hidden_size", hidden}, {"vocab_size", vocab}, {"num_hidden_layers", layers + 1},
           {"num_attention_heads", q_out / head_dim}, {"num_key_value_heads", kv_out / head_dim},
           {"tie_word_embeddings", tied}};
    cfg["head_dim"] = head_dim;
    if (type == "qwen2") cfg["attention_bias"] = true;
    if (mix) {
      type = "mixtral";
      cfg["num_local_experts"] = experts + 1;
      cfg["intermediate_size"] = mix->shape[0];
      cfg["num_experts_per_tok"] = 2;
      assumed.push_back("num_experts_per_tok");
    } else if (qexp) {
      type = qn ? "qwen3_moe" : "qwen2_moe";
      cfg["num_experts"] = experts + 1;
      cfg["moe_intermediate_size"] = qexp->shape[0];
      cfg["num_experts_per_tok"] = qn ? 8 : 4;
      assumed.push_back("num_experts_per_tok");
      if (shared) cfg["shared_expert_intermediate_size"] = shared->shape[0];
      cfg["intermediate_size"] = gate ? gate->shape[0] : qexp->shape[0];
    } else {
      if (!gate)
        throw InputError("safetensors.unknown_layout", "/tensors",
                         "layer 0 has no mlp.gate_proj or mlp.up_proj; drop the checkpoint's config.json with its .safetensors files");
      cfg["intermediate_size"] = gate->shape[0];
    }
    cfg["model_type"] = type;
    cfg["_name_or_path"] = type + " (from safetensors)";
  }

  // The config against the shapes.
  const ModelSpec m = parse_model_config(cfg, config ? config_path : "/safetensors/config");
  const std::uint64_t from_config = static_cast<std::uint64_t>(count_params(m).total);
  // Multi-token-prediction layers follow the model's layers in the checkpoint (DeepSeek-V3's layer 61); they are
  // reported apart, as the model's parameter count leaves them out.
  const long model_layers = static_cast<long>(m.layers.size());
  std::uint64_t mtp_params = 0;
  if (m.mtp_layers > 0)
    for (const auto& t : ts)
      if (t.layer >= model_layers && !is_side_tensor(t.name) && !is_encoder_tensor(t.name))
        mtp_params += t.params;  // an encoder's layers past the model's are the encoder's, counted below
  params -= std::min(params, mtp_params);
  // Encoders the config's model leaves out are reported apart, as the model's count leaves them out: every audio
  // tower (Gemma 3n's, Gemma 4's small models'), and a vision tower where none is modelled (Gemma 3n's MobileNet;
  // Gemma 3's, Gemma 4's, Llama 4's, Qwen-VL's and Pixtral's are counted).
  std::uint64_t encoder_params = 0;
  const ParamCounts counted = count_params(m);
  for (const auto& t : ts) {
    const bool audio = is_audio_tensor(t.name);
    if (((audio && counted.audio == 0) || (!audio && counted.vision == 0 && is_encoder_tensor(t.name))) && !is_side_tensor(t.name))
      encoder_params += t.params;
  }
  params -= std::min(params, encoder_params);
  // Gemma 4's KV-shared layers read an earlier layer's cache: E2B's and E4B's checkpoints still store their k and v
  // projections and k-norm, which transformers never builds (ignored on load). Reported apart, as the model's count
  // leaves them out.
  std::uint64_t unloaded_params = 0;
  for (const auto& t : ts) {
    if (t.layer < 0 || t.layer >= model_layers || is_encoder_tensor(t.name) || is_side_tensor(t.name)) continue;
    const AttentionSpec& a = m.layers[static_cast<std::size_t>(t.layer)].attn;
    if (a.kv_shared && !a.kv_weights_kept &&
        (has_text(t.name, "self_attn.k_proj.") || has_text(t.name, "self_attn.v_proj.") || has_text(t.name, "self_attn.k_norm.")))
      unloaded_params += t.params;
  }
  params -= std::min(params, unloaded_params);
  json checks = json::array();
  const auto check = [&](const char* field, std::uint64_t in_config, std::uint64_t in_header) {
    checks.push_back({{"field", field}, {"config", in_config}, {"header", in_header}, {"ok", in_config == in_header}});
  };
  if (config) {
    if (embed && embed->shape.size() == 2) {
      check("vocab_size", static_cast<std::uint64_t>(m.vocab), embed->shape[0]);
      check("hidden_size", static_cast<std::uint64_t>(m.hidden), embed->shape[1]);
    }
    if (layers >= 0)
      check(m.mtp_layers > 0 ? "num_hidden_layers + num_nextn_predict_layers" : "num_hidden_layers",
            static_cast<std::uint64_t>(model_layers) + static_cast<std::uint64_t>(m.mtp_layers), static_cast<std::uint64_t>(layers + 1));
    if (!m.layers.empty()) {
      const LayerSpec& l0 = m.layers.front();
      if (q && q->shape.size() == 2 && l0.attn.kind != AttnKind::MLA)
        check("num_attention_heads x head_dim", static_cast<std::uint64_t>((l0.attn.output_gate ? 2 : 1) * l0.attn.n_heads * l0.attn.head_dim),
              q->shape[0]);  // a gated attention's q_proj also holds the gate
      if (k && k->shape.size() == 2 && l0.attn.kind != AttnKind::MLA)
        check("num_key_value_heads x head_dim", static_cast<std::uint64_t>(l0.attn.n_kv_heads * l0.attn.head_dim), k->shape[0]);
    }
  }
  check("parameters", from_config, params);
  bool matches = true;
  for (const auto& c : checks) matches = matches && c["ok"].get<bool>();

  return {{"tensors", ts.size()},
          {"params_total", params},
          {"side_params", side},
          {"mtp_params", mtp_params},
          {"encoder_params", encoder_params},
          {"unloaded_params", unloaded_params},
          {"tensor_bytes", total_bytes},
          {"types", types},
          {"packed", packed},
          {"precision", precision},
          {"config", cfg},
          {"inferred", inferred},
          {"assumed", assumed},
          {"checks", checks},
          {"params_from_config", from_config},
          {"matches", matches}};
}

}  // namespace infercast
