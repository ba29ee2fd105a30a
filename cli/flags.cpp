#include "cli/flags.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "api/api.hpp"
#include "cli/files.hpp"

namespace infercast::cli {

using K = FlagKind;

const std::vector<Flag>& flags() {
  static const std::vector<Flag> table = {
      {"--model", "model", K::Custom, "/model", "ID|PATH",
       "a model preset id, a config.json (or Mistral's params.json), a preset file, a .gguf (its header only), a "
       "safetensors checkpoint (a folder or one of its files: the headers give the exact shapes and formats) or a "
       "folder holding a config.json or params.json"},
      {"--hardware", "hardware", K::Document, "/hardware", "ID|PATH", "a hardware preset id or a hardware JSON file"},
      {"--memory", "hardware", K::Number, "/memory_capacity_GiB", "GiB", ""},
      {"--reserve", "hardware", K::Number, "/memory_reserve_GB", "GB", ""},
      {"--runtime", "runtime", K::Document, "/runtime", "ID|PATH",
       "the software stack (infercast runtimes): llama.cpp-cuda, vllm, mlx, ... (default: the device's usual one)"},
      {"--batch", "workload", K::Int, "/workload/batch", "N", ""},
      {"--prompt", "workload", K::Int, "/workload/prompt", "N", ""},
      {"--gen", "workload", K::Int, "/workload/gen", "N", ""},
      {"--prefill-chunk", "workload", K::Int, "/workload/prefill_chunk", "N", ""},
      {"--cached-tokens", "workload", K::Values, "", "N...", "ragged batch: tokens already cached, one value per request"},
      {"--input-tokens", "workload", K::Values, "", "N...", "ragged batch: new tokens, one value per request"},
      {"--images", "workload", K::Custom, "/workload/images", "WxH[xN],...",
       "images in every new prompt, e.g. 1024x768 or 1024x768x2,640x480: their tokens join the prompt and the vision "
       "encoder runs in the prefill"},
      {"--weights", "precision", K::String, "/precision/weights", "DTYPE", ""},
      {"--activations", "precision", K::String, "/precision/activations", "DTYPE", ""},
      {"--kv", "precision", K::String, "/precision/kv", "DTYPE", ""},
      {"--attention-weights", "precision", K::String, "/precision/attention", "DTYPE", ""},
      {"--ffn-weights", "precision", K::String, "/precision/ffn", "DTYPE", ""},
      {"--expert-weights", "precision", K::String, "/precision/experts", "DTYPE", ""},
      {"--router-weights", "precision", K::String, "/precision/router", "DTYPE", ""},
      {"--embedding-weights", "precision", K::String, "/precision/embedding", "DTYPE", ""},
      {"--lm-head-weights", "precision", K::String, "/precision/lm_head", "DTYPE", ""},
      {"--vision-weights", "precision", K::String, "/precision/vision", "DTYPE", ""},
      {"--scenario", "settings", K::String, "/scenario", "", ""},
      {"--convention", "settings", K::String, "/convention", "", ""},
      {"--attention", "settings", K::String, "/attention", "", ""},
      {"--mla", "settings", K::String, "/mla", "", ""},
      {"--mlp", "settings", K::String, "/mlp", "", ""},
      {"--moe-traffic", "settings", K::String, "/moe_traffic", "", ""},
      {"--timing", "settings", K::String, "/timing", "", ""},
      {"--attention-tile", "settings", K::Int, "/attention_tile", "N", ""},
      {"--memory-fraction", "settings", K::Number, "/memory_fraction", "F", ""},
      {"--lora-rank", "settings", K::Int, "/lora/rank", "R", ""},
      {"--lora-mode", "settings", K::String, "/lora/mode", "", ""},
      {"--hadamard", "settings", K::OnOff, "/online_hadamard", "on|off", ""},
      {"--convert-mla", "settings", K::Custom, "", "default|Q,KV,NOPE,ROPE,V",
       "convert standard attention to MLA (default: LIFE's sizes 128,128,128,64,128)"},
      {"--pin-weights", "settings", K::Int, "/placement/weights", "TIER", ""},
      {"--pin-kv", "settings", K::Int, "/placement/kv_cache", "TIER", ""},
      {"--system", "multi", K::Document, "/system", "ID|PATH", "a system preset (infercast systems) or a system JSON: devices, nodes, links"},
      {"--tp", "parallel", K::Int, "/parallel/tp", "N", ""},
      {"--pp", "parallel", K::Int, "/parallel/pp", "N", ""},
      {"--ep", "parallel", K::Int, "/parallel/ep", "N", ""},
      {"--dp", "parallel", K::Int, "/parallel/dp", "N", ""},
      {"--collective", "parallel", K::String, "/parallel/algorithm", "", ""},
      {"--draft", "speculative", K::Custom, "", "ID|PATH|mtp", "speculative decoding with a draft model, or the model's own MTP module"},
      {"--draft-tokens", "speculative", K::Int, "/speculative/draft_tokens", "N", ""},
      {"--acceptance", "speculative", K::Number, "/speculative/acceptance", "X", ""},
      {"--acceptance-length", "speculative", K::Number, "/speculative/acceptance_length", "L", ""},
      {"--gpu-layers", "offload", K::Custom, "", "N|auto",
       "keep the other layers in host memory, as llama.cpp's -ngl N (layers + 1: the output layer too; auto: the most that fit)"},
      {"--host", "offload", K::Document, "/offload/host", "ID|PATH", "the host CPU the offloaded layers run on (a preset or a hardware JSON)"},
      {"--host-bandwidth", "offload", K::Number, "/offload/host_bandwidth_GBps", "GBPS", ""},
      {"--host-capacity", "offload", K::Number, "/offload/host_capacity_GB", "GB", ""},
      {"--host-efficiency", "offload", K::Number, "/offload/host_memory_efficiency", "X", ""},
      {"--link-bandwidth", "offload", K::Number, "/offload/link_GBps", "GBPS", ""},
      {"--ubatch", "offload", K::Int, "/offload/ubatch", "N", ""},
      {"--power", "costs", K::Number, "/costs/power_W", "W", ""},
      {"--price", "costs", K::Number, "/costs/price_USD", "USD", ""},
      {"--usd-per-kwh", "costs", K::Number, "/costs/usd_per_kWh", "X", ""},
      {"--pue", "costs", K::Number, "/costs/pue", "X", ""},
      {"--lifetime", "costs", K::Number, "/costs/lifetime_years", "YEARS", ""},
      {"--utilization", "costs", K::Number, "/costs/utilization", "X", ""},
      {"--region", "costs", K::String, "/costs/region", "", ""},
      {"--grid", "costs", K::Number, "/costs/grid_gCO2e_per_kWh", "G_PER_KWH", ""},
      {"--embodied", "costs", K::Number, "/costs/embodied_kgCO2e", "KG_CO2E", ""},
      {"--compute-power-fraction", "costs", K::Number, "/costs/compute_power_fraction", "X", ""},
      {"--concurrency", "serving", K::Int, "/serving/concurrency", "C", ""},
      {"--request-rate", "serving", K::Custom, "", "R|inf",
       "open loop: Poisson arrivals per second; inf sends every request at once (a closed loop of --requests clients)"},
      {"--requests", "serving", K::Int, "/serving/requests", "N", ""},
      {"--isl", "serving-lengths", K::Int, "/serving/isl", "N", ""},
      {"--osl", "serving-lengths", K::Int, "/serving/osl", "N", ""},
      {"--isl-dist", "serving-lengths", K::String, "/serving/isl_distribution", "", ""},
      {"--osl-dist", "serving-lengths", K::String, "/serving/osl_distribution", "", ""},
      {"--isl-spread", "serving-lengths", K::Number, "/serving/isl_spread", "X", ""},
      {"--osl-spread", "serving-lengths", K::Number, "/serving/osl_spread", "X", ""},
      {"--prefix-hit-rate", "serving-lengths", K::Number, "/serving/prefix_hit_rate", "X", ""},
      {"--max-num-seqs", "serving", K::Int, "/serving/max_num_seqs", "N", ""},
      {"--max-batched-tokens", "serving", K::Int, "/serving/max_num_batched_tokens", "N", ""},
      {"--scheduler-steps", "serving", K::Int, "/serving/scheduler_steps", "N", ""},
      {"--seed", "serving", K::Int, "/serving/seed", "N", ""},
      {"--steady", "serving", K::Switch, "", "", "the analytical steady state only (no simulation)"},
      {"--devices", "deploy", K::Int, "/deploy/devices", "N", ""},
      {"--max-ttft-ms", "deploy", K::Number, "/deploy/max_ttft_ms", "X", ""},
      {"--max-tpot-ms", "deploy", K::Number, "/deploy/max_tpot_ms", "Y", ""},
      {"--disaggregated", "deploy", K::String, "/deploy/disaggregated", "", ""},
      {"--max-tp", "deploy", K::Int, "/deploy/max_tp", "N", ""},
      {"--max-batch", "batching", K::Int, "/batching/max_batch", "N", ""},
      {"--sweep-weights", "quant", K::List, "/sweep/weights", "F,F,...", "weight formats or llama.cpp file types to sweep (default fp32,bf16,int8,q8_0,q6_k,q5_k_m,q4_k_m,int4-g128,q3_k_m,int2)"},
      {"--sweep-kv", "quant", K::List, "/sweep/kv", "F,F,...", "KV formats to sweep (default bf16,int8,int4)"},
      {"--axis", "sweep", K::Repeated, "", "PARAM=MIN:MAX:STEPS[:log|linear]|PARAM=V1,V2,...",
       "a swept hardware parameter (1 to 5 axes): compute_TFLOPS, bandwidth_GBps, capacity_GB, sram_MB, power_W, price_USD"},
      {"--objectives", "sweep", K::List, "/objectives", "A,B[,C,D]", ""},
      {"--max-tpot", "sweep", K::Number, "/constraints/max_tpot_s", "S", ""},
      {"--max-ttft", "sweep", K::Number, "/constraints/max_ttft_s", "S", ""},
      {"--max-power", "sweep", K::Number, "/constraints/max_power_W", "W", ""},
      {"--allow-spill", "sweep", K::Custom, "", "yes|no", "let design points spill to slower memory tiers (default no)"},
      {"--sram-bandwidth", "sweep", K::Number, "/sram_bandwidth_GBps", "GBPS", ""},
      {"--keep", "sweep-sample", K::Int, "/keep_points", "N", ""},
      {"--csv", "validate", K::Custom, "", "FILE", "measurements in the columns of presets/validation/measured_public.csv"},
      {"--class", "validate", K::String, "/hardware_class", "CLASS", "summarize the rows measured on this device class apart"},
      {"--device", "validate", K::String, "/hardware_id", "ID", "summarize the rows measured on this hardware preset apart"},
      {"--measured-runtime", "validate", K::String, "/runtime_id", "ID", "summarize the rows measured with this runtime apart"},
      {"--no-cross-validate", "validate", K::Switch, "", "", "in-sample figures only: no refits leaving each source out (about 3x faster; the request's cross_validate false)"},
      {"--write-fits", "validate", K::Custom, "", "FILE",
       "write every runtime's class fit over these measurements (the format of presets/defaults/runtime_fits.json)"},
      {"--point", "calibrate", K::Repeated, "", "K=V,...",
       "a measured point: metric=tpot_s,value=0.0123[,batch=1,prompt=512,gen=128,cached=0,weights=q4_0,activations=..,kv=..,model=ID]"},
      {"--measurements", "calibrate", K::Custom, "", "FILE",
       "measurements as a tool prints them: llama-bench's table, `vllm bench serve`'s summary, or a CSV with metric,value[,batch,prompt,gen,cached,weights]"},
      {"--concurrency", "calibrate", K::Int, "/concurrency", "N", "requests at a time in a vllm run whose output does not state it (default 1)"},
      {"--fit", "calibrate", K::List, "/fit", "P,P,...", ""},
      {"--save", "calibrate", K::Custom, "", "FILE", "write the calibrated device to FILE"},
      {"--request", "call", K::Custom, "", "FILE|-", "the JSON request (default -: standard input); for a function of file bytes (gguf, safetensors, safetensors_size, config_text) the file, of which its first 100 MB at most are read"},
      {"--envelope", "call", K::Switch, "", "", "print the whole envelope {ok, schema_version, version, value | error} on stdout (exit 2 still when not ok)"},
      {"--format", "format", K::Custom, "", "FORMAT", "output format"},
  };
  return table;
}

namespace {
bool in_groups(const Flag& f, const std::vector<std::string>& groups) {
  return std::find(groups.begin(), groups.end(), f.group) != groups.end();
}
}  // namespace

const Flag* find_flag(const std::string& name, const std::vector<std::string>& groups) {
  for (const auto& f : flags())
    if (name == f.name && in_groups(f, groups)) return &f;
  return nullptr;
}

void die(const std::string& message) { throw Exit{2, message}; }

namespace {

// The options call, read once: the request fields' help, defaults, ranges and choices.
const json& options() {
  static const json opts = json::parse(call("options", "{}"))["value"];
  return opts;
}

const json* option_at(const std::string& path) {
  for (const auto& o : options())
    if (o["path"] == path) return &o;
  return nullptr;
}

std::string value_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + value_text(x);
    return s;
  }
  return number_text(v);
}

}  // namespace

Args parse_args(int argc, char** argv, int first, const std::string& command, const std::vector<std::string>& groups) {
  Args a;
  a.command = command;
  a.groups = groups;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--help" || s == "-h") {
      a.help = true;
      continue;
    }
    if (s.rfind("--", 0) != 0) {
      a.positional.push_back(s);
      continue;
    }
    std::string inline_value;
    bool has_inline = false;
    if (const auto eq = s.find('='); eq != std::string::npos) {
      inline_value = s.substr(eq + 1);
      s = s.substr(0, eq);
      has_inline = true;
    }
    const Flag* f = find_flag(s, groups);
    if (!f)
      die("unknown option " + s + " for `infercast " + command + "`; see infercast " + command + " --help");
    const bool several = f->kind == K::Values;
    if (a.has(s) && f->kind != K::Repeated) die(s + " is given twice; give it once");
    auto& vals = a.values[s];
    if (f->kind == K::Switch) {
      if (has_inline) die(s + " takes no value");
      vals.push_back("");
      continue;
    }
    if (has_inline) {
      vals.push_back(inline_value);
    } else {
      while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        vals.push_back(argv[++i]);
        if (!several) break;
      }
    }
    if (vals.empty() || (has_inline && inline_value.empty())) die(s + " needs a value (" + f->metavar + ")");
  }
  return a;
}

void apply_simple_flags(const Args& a, json& request) {
  for (const auto& [name, vals] : a.values) {
    const Flag& f = *find_flag(name, a.groups);
    const json::json_pointer at(f.path);
    const std::string& v = vals.front();
    switch (f.kind) {
      case K::Int: request[at] = integer(name, v); break;
      case K::Number: request[at] = number(name, v); break;
      case K::String: request[at] = v; break;
      case K::List: request[at] = split_commas(name, v); break;
      case K::Document: request[at] = document(v); break;
      case K::OnOff:
        if (v != "on" && v != "off") die(name + " holds \"" + v + "\"; expected on or off");
        request[at] = v == "on";
        break;
      case K::Custom:
        if (name == "--images") request[at] = images_value(name, v);
        break;
      default: break;  // the command reads the rest itself
    }
  }
}

std::string flags_help(const std::vector<std::string>& groups) {
  std::ostringstream out;
  for (const auto& g : groups) {
    for (const auto& f : flags()) {
      if (f.group != g) continue;
      const json* o = *f.path ? option_at(f.path) : nullptr;
      std::string meta = f.metavar;
      if (meta.empty() && o && o->contains("values")) {
        for (const auto& v : (*o)["values"]) meta += (meta.empty() ? "" : "|") + v["name"].get<std::string>();
      }
      std::string help = *f.help ? f.help : (o ? (*o)["help"].get<std::string>() : "");
      if (o) {
        std::string extra;
        if (!(*o)["default"].is_null() && !(o->contains("values") && (*o)["kind"] == "dtype"))
          extra = "default " + value_text((*o)["default"]);
        if (o->contains("min") && (*o)["kind"] == "integer")
          extra += (extra.empty() ? "" : "; ") + value_text((*o)["min"]) + " to " + value_text((*o)["max"]);
        if (!extra.empty()) help += " (" + extra + ")";
      }
      std::string head = std::string("  ") + f.name + (meta.empty() ? "" : " " + meta);
      if (head.size() < 30) head += std::string(30 - head.size(), ' ');
      else head += "\n" + std::string(30, ' ');
      out << head << help << "\n";
    }
  }
  return out.str();
}

json integer(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno == ERANGE) die(flag + " holds \"" + v + "\"; expected an integer");
  return x;
}

json number(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(x)) die(flag + " holds \"" + v + "\"; expected a number");
  return x;
}

json document(const std::string& text) {
  if (!file_exists(text)) return text;  // a preset id
  try {
    return parse_json_text(read_text_file(text), text, "input");
  } catch (const InputError& e) {
    die(std::string(e.what()) + " [" + e.code() + "]");
  }
}

// "WxH[xN],...": one image object per item (N identical images).
json images_value(const std::string& flag, const std::string& v) {
  json out = json::array();
  for (const auto& item : split_commas(flag, v)) {
    const std::vector<std::string> parts = split_items(flag, item, 'x');
    if (parts.size() < 2 || parts.size() > 3) die(flag + " holds \"" + item + "\"; expected WIDTHxHEIGHT or WIDTHxHEIGHTxCOUNT");
    json img = {{"width", integer(flag, parts[0])}, {"height", integer(flag, parts[1])}};
    if (parts.size() == 3) img["count"] = integer(flag, parts[2]);
    out.push_back(img);
  }
  return out;
}

std::vector<std::string> split_items(const std::string& flag, const std::string& v, char sep) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = v.find(sep, start);
    out.push_back(v.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (out.back().empty())
      die(flag + " holds \"" + v + "\", which has an empty item; expected items separated by a single '" + std::string(1, sep) +
          "', none at either end");
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

std::vector<std::string> split_commas(const std::string& flag, const std::string& v) { return split_items(flag, v, ','); }

}  // namespace infercast::cli
