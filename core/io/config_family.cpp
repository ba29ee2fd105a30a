#include "io/config_family.hpp"

#include <cmath>

namespace infercast {

namespace {

std::vector<std::string> architectures_of(const json& config) {
  std::vector<std::string> out;
  const auto it = config.find("architectures");
  if (it == config.end() || !it->is_array()) return out;
  for (const auto& a : *it)
    if (a.is_string()) out.push_back(a.get<std::string>());
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i == 0 ? "" : ", ") + items[i];
  return s;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : number_text(v); }

// Where a family's defaults come from, for messages: a source that starts with a folder of transformers' models
// ("gemma3/configuration_gemma3.py") is named as transformers'; another (a model repository's own files) as written.
std::string source_text(const FamilyTraits& family) {
  const std::string s = family.source;
  const auto slash = s.find('/');
  bool folder = slash != std::string::npos && slash > 0;
  for (std::size_t i = 0; folder && i < slash; ++i)
    folder = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_';
  return folder ? "transformers " + s : s;
}

}  // namespace

std::string model_label(const json& config) {
  const auto name = config.find("_name_or_path");
  if (name != config.end() && name->is_string() && !name->get<std::string>().empty())
    return "\"" + name->get<std::string>() + "\"";
  const auto archs = architectures_of(config);
  if (!archs.empty()) return joined(archs);
  const auto type = config.find("model_type");
  if (type != config.end() && type->is_string()) return "model_type \"" + type->get<std::string>() + "\"";
  return "the model";
}

const FamilyTraits& family_of_config(const json& config, const std::string& path, const std::string& type,
                                     std::vector<Warning>& warnings) {
  const std::string where = path + "/model_type";
  const auto archs = architectures_of(config);
  const std::string arch_text = archs.empty() ? "no architectures" : "architectures " + joined(archs);
  const FamilyTraits* f = find_family(type);
  if (!f) {
    f = find_family_by_architecture(archs);
    if (f)
      warnings.push_back(Warning{"model.family_by_architecture", where,
                                 where + " holds \"" + type + "\", which is not a known model type; read as " +
                                     f->model_type + " because its " + arch_text + " names that family"});
  }
  if (!f) {
    const auto like = families_resembling(type, archs);
    throw InputError("model.unsupported", where,
                     where + " holds \"" + type + "\" (" + arch_text + "), which is not a supported model type; " +
                         (like.empty() ? std::string("it resembles none of the supported families")
                                       : "it resembles " + joined(like)) +
                         " (the families call lists every supported model type)");
  }
  if (f->unsupported[0] != '\0')
    throw InputError("model.unsupported", where,
                     where + " holds \"" + type + "\" (" + arch_text + "), which Infercast recognizes but does not model: " +
                         f->unsupported);
  return *f;
}

std::string type_from_architectures(const json& config, const std::string& path, std::vector<Warning>& warnings) {
  const std::string where = path + "/model_type";
  const auto archs = architectures_of(config);
  const FamilyTraits* f = find_family_by_architecture(archs);
  if (!f)
    throw InputError("model.missing_field", where,
                     where + " is missing; expected a string" +
                         (archs.empty() ? std::string()
                                        : " (its architectures " + joined(archs) + " name no family Infercast reads)"));
  warnings.push_back(Warning{"model.family_by_architecture", where,
                             where + " is missing; read as " + f->model_type + " because its architectures " +
                                 joined(archs) + " name that family"});
  return f->model_type;
}

json with_family_defaults(const json& config, const FamilyTraits& family, std::vector<std::string>& filled) {
  json out = config;
  for (const auto& d : family.defaults) {
    // A field the family spells its own way is present under the config's key.
    std::string key = d.key;
    for (const auto& [field, config_key] : family.key_aliases)
      if (field == d.key) key = config_key;
    if (out.contains(key)) continue;
    bool spelled_otherwise = false;
    for (const auto& [field, alt] : family.alt_keys) spelled_otherwise = spelled_otherwise || (field == d.key && out.contains(alt));
    if (spelled_otherwise) continue;
    // layer_types names every layer's kind: a pattern is then neither read nor missing.
    if (key == "sliding_window_pattern" && out.contains("layer_types")) continue;
    out[key] = d.value;
    filled.push_back(key);
  }
  return out;
}

void check_schema(const json& config, const FamilyTraits& family, const std::vector<std::string>& filled,
                  const std::string& path) {
  static const std::vector<std::string> sizes = {"hidden_size", "num_hidden_layers", "num_attention_heads"};
  static const std::vector<std::string> foreign = {"n_embd", "d_model", "dim", "n_layer", "n_layers", "num_layers", "n_head", "n_heads"};
  bool size_filled = false;
  for (const auto& k : filled)
    for (const auto& s : sizes) size_filled = size_filled || k == s;
  if (!size_filled) return;
  std::vector<std::string> found;
  for (const auto& k : foreign) {
    bool aliased = false;
    for (const auto& [field, key] : family.key_aliases) aliased = aliased || key == k;
    for (const auto& [field, key] : family.alt_keys) aliased = aliased || key == k;
    if (!aliased && config.contains(k)) found.push_back(k);
  }
  if (found.empty()) return;
  throw InputError("model.unsupported", path.empty() ? "/" : path,
                   (path.empty() ? std::string("the config") : path) + " spells its sizes as " + joined(found) +
                       ", not as " + family.config_class + " does (hidden_size, num_hidden_layers, num_attention_heads): " +
                       "another schema for model_type \"" + family.model_type + "\" (remote code), which Infercast does not read");
}

void note_defaults(const FamilyTraits& family, const json& filled_config, const std::vector<std::string>& filled,
                   const std::string& path, std::vector<Warning>& warnings) {
  if (filled.empty()) return;
  std::string list;
  for (const auto& k : filled) list += (list.empty() ? "" : ", ") + k + " " + value_text(filled_config.at(k));
  warnings.push_back(Warning{"model.defaults", path.empty() ? "/" : path,
                             (path.empty() ? std::string("the config") : path) + " omits " + std::to_string(filled.size()) +
                                 " field(s); " + family.config_class + "'s defaults fill them: " + list + " (" +
                                 source_text(family) + ")"});
}

bool non_finite_at(const json& config, const std::string& path, const std::string& pointer) {
  if (pointer.compare(0, path.size(), path) != 0) return false;
  const std::string rel = pointer.substr(path.size());
  if (rel.empty() || rel[0] != '/') return false;
  try {
    const json& v = config.at(json::json_pointer(rel));
    return v.is_number_float() && !std::isfinite(v.get<double>());
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace infercast
