#include "io/presets.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "io/defaults.hpp"
#include "io/system_json.hpp"
#include "runtime/params.hpp"

namespace infercast {

namespace {

// Values made one per entry on first use of that entry, each once (under its own once_flag) and constant after: the
// presets themselves, a model's spec, a device's text. The vector is made at full size up front, so a pointer to an
// entry stays valid.
template <typename V>
struct LazyDerived {
  explicit LazyDerived(std::size_t n) : values(n), once(std::make_unique<std::once_flag[]>(n)) {}
  template <typename Make>
  const V& at(std::size_t i, Make make) const {
    std::call_once(once[i], [&] { values[i] = make(); });
    return values[i];
  }
  mutable std::vector<V> values;
  std::unique_ptr<std::once_flag[]> once;
};

// The embedded files of one kind, each read the first time it is asked for. Presets are named after their ids
// (presets/<kind>/<id>.json, checked as each is read), so finding one by id reads that file alone: an analysis
// of one model on one device reads two presets, not all 200 (in the browser's first call, before its code is
// compiled optimized, reading every preset took 300 ms). Reading is memoized: each entry is filled once (under its
// own once_flag, LazyDerived) and never changes after, so the table is constant to every caller, and `all()` is
// the memo's vector.
template <typename T>
class LazyPresets {
 public:
  using Parse = T (*)(const json&);
  LazyPresets(const char* kind, const char* code_prefix, Parse parse)
      : code_prefix_(code_prefix), parse_(parse), files_(files_of(kind)), items_(files_.size()) {
    for (const EmbeddedFile* f : files_) {
      const std::string name = f->name;
      stems_.push_back(name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0 ? name.substr(0, name.size() - 5) : name);
    }
  }

  std::size_t size() const { return files_.size(); }

  // Entry i, read on first use.
  const T& at(std::size_t i) const {
    return items_.at(i, [&] { return read(i); });
  }

  // Every entry, read.
  const std::vector<T>& all() const {
    for (std::size_t i = 0; i < files_.size(); ++i) at(i);
    return items_.values;
  }

  // The entry whose file is <id>.json (nullptr when there is none), read.
  const T* find(const std::string& id) const {
    const auto i = index_of_file(id);
    return i < files_.size() ? &at(i) : nullptr;
  }

  // Whether an entry's file is <id>.json, without reading it (a reference to a preset checked before it is used).
  bool has(const std::string& id) const { return index_of_file(id) < files_.size(); }

  // Where `p` is in the table (size() when it is not one of its entries).
  std::size_t index_of(const T* p) const {
    const std::vector<T>& v = items_.values;
    if (v.empty() || p < v.data() || p >= v.data() + v.size()) return v.size();
    return static_cast<std::size_t>(p - v.data());
  }

 private:
  static std::vector<const EmbeddedFile*> files_of(const char* kind) {
    std::vector<const EmbeddedFile*> out;
    for (const auto& f : embedded_files())
      if (std::strcmp(f.kind, kind) == 0) out.push_back(&f);
    return out;
  }

  std::size_t index_of_file(const std::string& id) const {
    return static_cast<std::size_t>(std::find(stems_.begin(), stems_.end(), id) - stems_.begin());
  }

  T read(std::size_t i) const {
    const EmbeddedFile& f = *files_[i];
    const std::string where = std::string("presets/") + f.kind + "/" + f.name;
    T item;
    try {
      item = parse_(parse_json_text(f.text, where, code_prefix_));
    } catch (const InputError& e) {
      throw InputError(e.code(), e.path(), where + ": " + e.what());
    }
    if (item.id != stems_[i])
      throw InputError(std::string(code_prefix_) + ".id_mismatch", "/id",
                       where + ": id \"" + item.id + "\" differs from the file's name; expected the file named after its id (" +
                           item.id + ".json), as presets are found by it");
    return item;
  }

  const char* code_prefix_;
  Parse parse_;
  std::vector<const EmbeddedFile*> files_;
  LazyDerived<T> items_;
  std::vector<std::string> stems_;  // each file's name without .json: the id it must hold
};

ModelPreset read_model_preset(const json& d) { return parse_model_preset(d); }
HardwareSpec read_hardware_preset(const json& d) { return parse_hardware(d); }
System read_system_preset(const json& d) { return parse_system(d, "", true); }

// A runtime preset with its class fit (presets/defaults/runtime_fits.json) laid over its priors.
RuntimeSpec read_runtime_preset(const json& d) {
  RuntimeSpec rt = parse_runtime(d, "");
  for (const auto& f : runtime_fits()) {
    if (f.runtime != rt.id) continue;
    for (const auto& [name, value] : f.values) set_param(rt, *rt_param_names().find(name), value);
    rt.fit_basis = f.basis;
  }
  return rt;
}

const LazyPresets<ModelPreset>& models() {
  static const LazyPresets<ModelPreset> t("models", "preset", read_model_preset);
  return t;
}
const LazyPresets<HardwareSpec>& hardware() {
  static const LazyPresets<HardwareSpec> t("hardware", "hardware", read_hardware_preset);
  return t;
}
const LazyPresets<System>& systems() {
  static const LazyPresets<System> t("systems", "system", read_system_preset);
  return t;
}
const LazyPresets<RuntimeSpec>& runtimes() {
  static const LazyPresets<RuntimeSpec> t("runtimes", "runtime", read_runtime_preset);
  return t;
}

}  // namespace

const std::vector<ModelPreset>& model_presets() { return models().all(); }

const ModelSpec& model_preset_spec(const ModelPreset& p) {
  static const LazyDerived<ModelSpec> specs(models().size());
  const std::size_t i = models().index_of(&p);
  if (i >= models().size()) throw std::out_of_range("model_preset_spec: not a model preset");
  return specs.at(i, [&] { return parse_model_config(p.config, "/config"); });
}

const std::vector<HardwareSpec>& hardware_presets() { return hardware().all(); }

const std::string* hardware_preset_text(const HardwareSpec* hw) {
  static const LazyDerived<std::string> texts(hardware().size());
  const std::size_t i = hardware().index_of(hw);
  if (i >= hardware().size()) return nullptr;
  return &texts.at(i, [&] {
    std::string s;
    JsonWriter w(s);
    write_hardware(w, *hw);
    return s;
  });
}

const std::vector<System>& system_presets() { return systems().all(); }

// Every runtime preset; a class fit naming a runtime that is not one is an error of the presets.
// Checked once: the listing's first call reads every runtime and every fit.
const std::vector<RuntimeSpec>& runtime_presets() {
  static const std::vector<RuntimeSpec>& checked = [] () -> const std::vector<RuntimeSpec>& {
    const auto& v = runtimes().all();
    for (const auto& f : runtime_fits())
      if (std::none_of(v.begin(), v.end(), [&](const RuntimeSpec& r) { return r.id == f.runtime; }))
        throw InputError("preset.unknown_runtime", "", "presets/defaults/runtime_fits.json fits \"" + f.runtime + "\", which is not a runtime preset");
    return v;
  }();
  return checked;
}

const RuntimeSpec* find_runtime_preset(const std::string& id) { return runtimes().find(id); }
bool has_runtime_preset(const std::string& id) { return runtimes().has(id); }
const System* find_system_preset(const std::string& id) { return systems().find(id); }
const ModelPreset* find_model_preset(const std::string& id) { return models().find(id); }
const HardwareSpec* find_hardware_preset(const std::string& id) { return hardware().find(id); }

}  // namespace infercast
