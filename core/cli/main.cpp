// infercast: the command-line front end. It builds the same JSON request the web page sends and calls the same
// core entry points (core/api), so both show the same numbers.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "io/json_reader.hpp"
#include <algorithm>
#include "cli/files.hpp"
#include "quant/dtype.hpp"

using infercast::json;

namespace {

const char* kHelp = R"(infercast - forecast LLM inference performance from a model config and a device

Usage:
  infercast models   [--format table|json]        list model presets
  infercast hardware [--format table|json]        list hardware presets
  infercast scenarios [--format table|json]       list built-in scenarios (LIFE's Table 3 variants)
  infercast analyze  --model <preset id | config.json> [options]
  infercast systems  [--format table|json]        list multi-device system presets (nodes, links)
  infercast batching --model ... [analyze options] [--max-batch N] [--format table|json|csv]
                                                  throughput against latency as the batch grows
  infercast quant-sweep --model ... [analyze options] [--sweep-weights F,F,...] [--sweep-kv F,F,...]
                     [--format table|json|csv]    throughput and memory for every weight x KV format
  infercast sweep  --model ... --hardware BASE --axis PARAM=MIN:MAX:STEPS[:log|linear] [--axis ...] [options]
                     [--format csv|json|table]    design points (a sample) and the Pareto front
  infercast pareto --model ... --hardware BASE --axis ... [--objectives a,b[,c,d]] [--format table|csv|json]
                                                  only the Pareto front
  infercast validate [--csv FILE] [--format table|json|csv]
                                                  forecasts against public measurements
  infercast calibrate --hardware ID|PATH [--model ID|PATH] --point K=V,... [--point ...]
                     [--fit gemm,attention,elementwise,memory,dispatch_us] [--save FILE] [--format table|json]
                                                  fit a device's efficiencies to measured points
  infercast checkpoint --model DIR|FILE.safetensors [--format table|json]
                                                  read a checkpoint's safetensors headers (never the weights):
                                                  exact parameters, formats, its config.json checked against
                                                  the shapes (exit 1 when they disagree) or a config inferred
  infercast call FUNCTION [--request FILE|-]     call a core API function with a JSON request (the same
                                                  calls the web page makes; see docs/schema.md), print its value
  infercast --help | --version

Analyze options:
  --model ID|PATH          model preset id, a Hugging Face config.json, a preset file, or a .gguf file (its
                           header only: the config and each weight class's format), or a safetensors
                           checkpoint: a folder (or one of its files) whose .safetensors headers give the
                           exact shapes and formats, with the config.json beside them or one inferred
  --hardware ID|PATH       hardware preset id or hardware JSON (adds TTFT, TPOT, throughput, fit)
  --batch N                identical requests (default 1)
  --prompt N               prompt tokens per request (default 512)
  --gen N                  generated tokens per request, the first from prefill (default 128)
  --cached-tokens N...     ragged batch: tokens already cached, one value per request
  --input-tokens N...      ragged batch: new tokens, one value per request
  --weights DTYPE          weight format (bf16, fp16, fp8, int8, int4, mxfp4, nvfp4, q4_k, ...)
  --activations DTYPE      activation type (default bf16)
  --kv DTYPE               KV-cache type (default bf16; fp8, int8-g64, int4-g64, int4, ...)
  --attention-weights, --ffn-weights, --expert-weights, --router-weights, --embedding-weights, --lm-head-weights DTYPE
                           one weight class in its own format (default: --weights, or the config's
                           quantization_config for the classes it quantizes)
                           grouped integers: intN-gG (N = 2, 3, 4, 8 bits; fp16 scale + N-bit zero per G weights)
  --mlp fused|unfused      fused: gate/up GEMM with the activation in its epilogue (default unfused)
  --attention-tile N       pad each request's keys to a multiple of N (LIFE Fig. 8; default 0: none)
  --prefill-chunk N        chunked prefill: at most N new tokens per request per step (default 0: one step)
  --lora-rank R            LoRA adapters of rank R on the attention and MLP projections
  --lora-mode MODE         unmerged (x A B on every call, default), merge-per-call (LIFE), merged (once, ahead)
  --scenario NAME          start from a built-in scenario (infercast scenarios); other flags override it
  --hadamard on|off        QuaRot's online Hadamard rotations (q/k, o_proj input, down_proj input)
  --convert-mla default|Q,KV,NOPE,ROPE,V
                           convert standard attention to MLA (default: LIFE's 128,128,128,64,128)
  --convention NAME        counting convention: infercast (default), life, no-causal
  --attention fused|unfused
  --mla auto|absorbed|expanded
  --moe-traffic expected|top-k|all|upper-bound
  --timing per-op|phase-max  per-op: each operator bound on its own (default); phase-max: LIFE's
                           max(total compute, total memory) per phase (default under --convention life)
  --pin-weights TIER       place the weights in memory tier TIER (0 = fastest) first
  --pin-kv TIER            the same for the KV cache
  --format table|json|csv  output format (default table)

Several devices and speculative decoding (analyze, batching; docs/formulas.md, "Parallelism"):
  --system ID|PATH         a system preset (infercast systems) or a system JSON: devices, nodes, links
  --tp N --pp N --ep N --dp N
                           tensor, pipeline, expert parallelism (ep divides tp) and data-parallel replicas
  --collective auto|ring|tree  all-reduce algorithm (default auto: the faster)
  --draft ID|PATH|mtp      speculative decoding with a draft model, or the model's own MTP module
  --draft-tokens N         tokens drafted per step (default 3)   --acceptance X  chance each is accepted (0.8)

Calibrate points: --point metric=tpot_s,value=0.0123,batch=1,prompt=512,gen=128,weights=q4_0[,model=ID]
  metrics: ttft_s, tpot_s (mean over the generation), tpot_first_s, decode_tokens_per_s,
           prompt_tokens_per_s, e2e_s, output_tokens_per_s; other keys: cached, activations, kv

Energy, cost and CO2 (analyze, sweep, pareto; docs/formulas.md):
  --power W  --price USD  --usd-per-kwh X (0.10)  --pue X (1.3)  --lifetime YEARS (3)  --utilization X (0.5)
  --region world|united-states|european-union|china|india|germany|france|united-kingdom|japan  --grid G_PER_KWH
  --embodied KG_CO2E  --compute-power-fraction X (0.55)

Sweep and pareto: --axis PARAM=MIN:MAX:STEPS[:log|linear] or PARAM=V1,V2,... (1 to 5 axes; PARAM: compute_TFLOPS,
  bandwidth_GBps, capacity_GB, sram_MB, power_W, price_USD); --objectives (2 to 4 of tpot_s, ttft_s, tokens_per_s,
  joules_per_token, usd_per_million_tokens, gCO2e_per_million_tokens, power_W, price_USD; default
  tpot_s,usd_per_million_tokens); --max-tpot S, --max-ttft S, --max-power W, --allow-spill yes|no (default no);
  --sram-bandwidth GBPS (needed to sweep sram_MB); --keep N sampled points (default 20000). Without a power_W axis
  a point's power follows its compute and bandwidth at the base device's energy per FLOP and per byte.

Quant-sweep: every weight class in each of --sweep-weights (default fp32,bf16,int8,q6_k,q5_k,int4-g128,int3,int2)
  with the cache in each of --sweep-kv (default bf16,int8,int4); --weights and --kv are what it varies.

Exit status: 0 on success, 2 on bad input (a message on stderr names the field).
)";

struct Args {
  std::string command;
  std::string function;  // of `call`
  std::map<std::string, std::vector<std::string>> opts;
};

const std::vector<std::string> kMulti = {"--cached-tokens", "--input-tokens", "--point", "--axis"};

[[noreturn]] void die(const std::string& msg) {
  std::cerr << "infercast: " << msg << "\n";
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--help" || s == "-h") {
      std::cout << kHelp;
      std::exit(0);
    }
    if (s == "--version") {
      std::cout << "infercast " << infercast::kVersion << "\n";
      std::exit(0);
    }
    if (s.rfind("--", 0) == 0) {
      auto& vals = a.opts[s];
      const bool multi = std::find(kMulti.begin(), kMulti.end(), s) != kMulti.end();
      while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        vals.push_back(argv[++i]);
        if (!multi) break;
      }
      if (vals.empty()) die(s + " needs a value");
    } else if (a.command.empty()) {
      a.command = s;
    } else if (a.command == "call" && a.function.empty()) {
      a.function = s;
    } else {
      die("unexpected argument \"" + s + "\"; see infercast --help");
    }
  }
  return a;
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

std::string one(const Args& a, const std::string& flag, const std::string& fallback = "") {
  auto it = a.opts.find(flag);
  return it == a.opts.end() ? fallback : it->second.front();
}

json load_json_arg(const std::string& value) {
  if (!infercast::file_exists(value)) return value;  // a preset id
  try {
    return infercast::parse_json_text(infercast::read_text_file(value), value, "input");
  } catch (const infercast::InputError& e) {
    die(std::string(e.what()));
  }
}

// The value of an envelope, or exit with its message (after "what: " when `what` names a file).
json unwrap_for(const std::string& what, const std::string& envelope_text) {
  json env = json::parse(envelope_text);
  if (!env["ok"].get<bool>()) {
    const auto& e = env["error"];
    die((what.empty() ? "" : what + ": ") + e["message"].get<std::string>() + " [" + e["code"].get<std::string>() + "]");
  }
  return env["value"];
}

json unwrap(const std::string& envelope_text) { return unwrap_for("", envelope_text); }

// A header's weight formats as precision fields ({"weights", class: format}), keeping the formats this build knows.
json known_formats(const json& precision) {
  json out = precision["by_class"];
  out["weights"] = precision["weights"];
  for (auto it = out.begin(); it != out.end();)
    it = infercast::find_dtype(it.value().get<std::string>()) ? std::next(it) : out.erase(it);
  return out;
}

// A safetensors checkpoint (a folder, or one of its files; `files` its shards, from safetensors_files): every
// shard's header (never the weights) and the config.json beside them when there is one, through the core's
// "checkpoint" call.
json read_checkpoint(const std::string& path, const std::vector<std::string>& files) {
  if (files.empty()) die(path + " is neither a .safetensors file nor a folder holding one");
  json rows = json::array();
  try {
    for (const auto& f : files) {
      const json size = unwrap_for(f, infercast::call_bytes("safetensors_size", infercast::read_file_prefix(f, 8)));
      const json h = unwrap_for(f, infercast::call_bytes("safetensors", infercast::read_file_prefix(f, size["header_bytes"].get<std::size_t>())));
      for (const auto& r : h["tensors"]) rows.push_back(r);
    }
  } catch (const infercast::InputError& e) {
    die(e.what());
  }
  json req = {{"tensors", rows}};
  const std::string cfg = infercast::config_beside(path);
  if (!cfg.empty()) req["model"] = load_json_arg(cfg);
  json v = unwrap_for(path, infercast::call("checkpoint", req.dump()));
  v["files"] = files;
  v["config_file"] = cfg;
  return v;
}

// What a checkpoint's headers say, and where its config disagrees with them, on stderr (the analysis goes on).
void report_checkpoint(const json& v, std::ostream& out) {
  out << "checkpoint: " << v["files"].size() << " safetensors file(s), " << v["tensors"] << " tensors, "
      << v["params_total"] << " parameters; "
      << (v["inferred"].get<bool>() ? "config inferred from the tensor names" : "config from " + v["config_file"].get<std::string>())
      << (v["matches"].get<bool>() ? "; it matches the shapes" : "; it does NOT match the shapes") << "\n";
  for (const auto& c : v["checks"])
    if (!c["ok"].get<bool>()) out << "  " << c["field"].get<std::string>() << ": config " << c["config"] << ", header " << c["header"] << "\n";
  if (!v["assumed"].empty()) out << "  assumed (not in the shapes): " << v["assumed"].dump() << "; drop a config.json beside the files to be exact\n";
  if (v["packed"].get<bool>()) out << "  packed integer weights (I32/U8): formats come from the config's quantization_config\n";
}

std::string si(double v, const char* unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1000 && p < 6) {
    x /= 1000;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s%s", x, prefixes[p], unit);
  return buf;
}

std::string bytes_str(double v) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1024 && p < 5) {
    x /= 1024;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s", x, units[p]);
  return buf;
}

std::string time_str(double s) {
  char buf[64];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> w;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], r[i].size());
    }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line = "|";
    for (std::size_t i = 0; i < rows[k].size(); ++i) line += " " + rows[k][i] + std::string(w[i] - rows[k][i].size(), ' ') + " |";
    std::cout << line << "\n";
    if (k == 0) {
      std::string sep = "|";
      for (auto x : w) sep += std::string(x + 2, '-') + "|";
      std::cout << sep << "\n";
    }
  }
}

void check_known(const Args& a, const std::vector<std::string>& known);
std::string num3(double v);

void print_analysis_table(const json& r) {
  const auto& m = r["model"];
  std::cout << "Model: " << m["name"].get<std::string>() << " (" << m["model_type"].get<std::string>() << "), "
            << m["params_total"].get<long long>() << " parameters, " << m["params_active"].get<long long>()
            << " active per token (input embedding included)\n";
  for (const auto& w : m["warnings"]) std::cout << "warning: " << w["message"].get<std::string>() << "\n";
  const bool hw = r.contains("hardware");
  for (const char* phase : {"prefill", "decode"}) {
    std::cout << "\n" << (std::string(phase) == "prefill" ? "Prefill (first step)" : "Decode (first step)") << "\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head = {"Operator", "Layers", "Count", "FLOPs", "Weights", "Act read", "Act write", "KV read", "KV write", "Intensity"};
    if (hw) {
      head.push_back("Time");
      head.push_back("Bound");
    }
    rows.push_back(head);
    for (const auto& o : r["ops"]) {
      if (o["phase"] != phase) continue;
      std::vector<std::string> row = {o["name"].get<std::string>(), o["group"].get<std::string>(),
                                      std::to_string(o["count"].get<long long>()), si(o["flops"].get<double>(), "FLOP"),
                                      bytes_str(o["weight_bytes"].get<double>()), bytes_str(o["act_read_bytes"].get<double>()),
                                      bytes_str(o["act_write_bytes"].get<double>()), bytes_str(o["kv_read_bytes"].get<double>()),
                                      bytes_str(o["kv_write_bytes"].get<double>()),
                                      si(o["intensity_flop_per_byte"].get<double>(), "FLOP/B")};
      if (hw) {
        row.push_back(time_str(o["time_s"].get<double>()));
        row.push_back(o["bound"].get<std::string>());
      }
      rows.push_back(row);
    }
    const auto& t = r[phase];
    std::vector<std::string> total = {"Total", "", "", si(t["flops"].get<double>(), "FLOP"), bytes_str(t["weight_bytes"].get<double>()),
                                      bytes_str(t["act_read_bytes"].get<double>()), bytes_str(t["act_write_bytes"].get<double>()),
                                      bytes_str(t["kv_read_bytes"].get<double>()), bytes_str(t["kv_write_bytes"].get<double>()),
                                      si(t["bytes"].get<double>() > 0 ? t["flops"].get<double>() / t["bytes"].get<double>() : 0, "FLOP/B")};
    if (hw) {
      total.push_back(time_str(std::string(phase) == "prefill" ? t["time_s"].get<double>() : t["tpot_first_s"].get<double>()));
      total.push_back("");
    }
    rows.push_back(total);
    print_table(rows);
  }
  const auto& mem = r["memory"];
  std::cout << "\nMemory: weights " << bytes_str(mem["weights_bytes"].get<double>()) << " + KV cache "
            << bytes_str(mem["kv_cache_bytes"].get<double>()) << " (at the end of the workload) + activations "
            << bytes_str(mem["activation_peak_bytes"].get<double>()) << " = " << bytes_str(mem["required_bytes"].get<double>()) << "\n";
  if (hw && r.contains("parallel")) {
    std::cout << "(The whole model, counted above, is split as the plan below says; on one "
              << r["hardware"]["name"].get<std::string>() << " it would need " << bytes_str(mem["required_bytes"].get<double>())
              << " of " << bytes_str(mem["capacity_bytes"].get<double>()) << ".)\n";
  } else if (hw) {
    std::cout << "Device: " << r["hardware"]["name"].get<std::string>() << ", capacity "
              << bytes_str(mem["capacity_bytes"].get<double>()) << (mem["fits"].get<bool>() ? " (fits)" : " (DOES NOT FIT: spills to the slowest tier)") << "\n";
    std::cout << "TTFT " << time_str(r["ttft_s"].get<double>()) << ", TPOT mean " << time_str(r["decode"]["tpot_s"].get<double>())
              << " (first " << time_str(r["decode"]["tpot_first_s"].get<double>()) << ", last "
              << time_str(r["decode"]["tpot_last_s"].get<double>()) << "), " << std::to_string(r["decode"]["tokens_per_s"].get<double>())
              << " tok/s per sequence, " << std::to_string(r["decode"]["batch_tokens_per_s"].get<double>()) << " tok/s batch, end-to-end "
              << time_str(r["e2e_s"].get<double>()) << "\n";
    const auto& c = r["cost"];
    if (c["energy_available"].get<bool>()) {
      std::cout << "Energy: prefill " << num3(c["prefill"]["j_per_token"].get<double>()) << " J/token, decode "
                << num3(c["decode"]["j_per_token"].get<double>()) << " J/token (" << num3(c["decode"]["tokens_per_j"].get<double>())
                << " tokens/J), " << num3(c["busy_power_W"].get<double>()) << " W while busy\n";
    }
    std::cout << "Cost: $" << num3(c["usd_per_million_tokens"].get<double>()) << " per million output tokens"
              << (c["has_price"].get<bool>() ? "" : " (electricity only: no price)") << "; CO2 "
              << num3(c["gCO2e_per_million_tokens"].get<double>()) << " g per million tokens (grid "
              << c["assumptions"]["region"].get<std::string>() << ", " << num3(c["assumptions"]["grid_gCO2e_per_kWh"].get<double>())
              << " g/kWh" << (c["has_embodied"].get<bool>() ? ", embodied included" : ", operation only") << ")\n";
    for (const auto& w : c["warnings"]) std::cout << "note: " << w["message"].get<std::string>() << "\n";
  }
}

void print_csv(const json& r) {
  std::cout << "phase,name,group,class,count,flops,weight_bytes,act_read_bytes,act_write_bytes,kv_read_bytes,kv_write_bytes,"
               "dispatches,intensity_flop_per_byte";
  const bool hw = r.contains("hardware");
  if (hw) std::cout << ",time_s,bound";
  std::cout << "\n";
  for (const auto& o : r["ops"]) {
    std::cout << o["phase"].get<std::string>() << "," << o["name"].get<std::string>() << ",\"" << o["group"].get<std::string>() << "\","
              << o["class"].get<std::string>() << "," << o["count"] << "," << o["flops"] << "," << o["weight_bytes"] << ","
              << o["act_read_bytes"] << "," << o["act_write_bytes"] << "," << o["kv_read_bytes"] << "," << o["kv_write_bytes"] << ","
              << o["dispatches"] << "," << o["intensity_flop_per_byte"];
    if (hw) std::cout << "," << o["time_s"] << "," << o["bound"].get<std::string>();
    std::cout << "\n";
  }
}


std::vector<std::string> split_commas(const std::string& v) {
  std::vector<std::string> out;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

// The analyze request the flags describe (shared by analyze and quant-sweep); `extra` lists the caller's own flags.
json analysis_request(const Args& a, const std::vector<std::string>& extra) {
  json req = json::object();
  const std::string model = one(a, "--model");
  if (model.empty()) die("--model is required; give a preset id (infercast models) or a config.json path");
  // A safetensors checkpoint or a GGUF file: its headers give the config and each weight class's format (flags
  // given still win).
  json header_precision;
  const auto shards = infercast::safetensors_files(model);
  if (!shards.empty()) {
    const json ck = read_checkpoint(model, shards);
    report_checkpoint(ck, std::cerr);
    req["model"] = ck["config"];
    header_precision = known_formats(ck["precision"]);
  } else if (model.size() > 5 && model.compare(model.size() - 5, 5, ".gguf") == 0) {
    std::string bytes;
    try {
      bytes = infercast::read_file_prefix(model, std::size_t(256) << 20);
    } catch (const infercast::InputError& e) {
      die(e.what());
    }
    const json g = unwrap(infercast::call_bytes("gguf", bytes));
    req["model"] = g["config"];
    header_precision = known_formats(g["precision"]);
  } else {
    req["model"] = load_json_arg(model);
  }
  if (a.opts.count("--hardware")) req["hardware"] = load_json_arg(one(a, "--hardware"));
  json wl = json::object();
  const bool ragged = a.opts.count("--cached-tokens") || a.opts.count("--input-tokens");
  if (ragged) {
    if (a.opts.count("--prompt")) die("--prompt cannot be combined with --cached-tokens/--input-tokens");
    const auto cached = a.opts.count("--cached-tokens") ? a.opts.at("--cached-tokens") : std::vector<std::string>{};
    const auto input = a.opts.count("--input-tokens") ? a.opts.at("--input-tokens") : std::vector<std::string>{};
    const std::size_t n = std::max(cached.size(), input.size());
    if (!cached.empty() && !input.empty() && cached.size() != input.size())
      die("--cached-tokens has " + std::to_string(cached.size()) + " values and --input-tokens " +
          std::to_string(input.size()) + "; expected one of each per request");
    const json count = a.opts.count("--batch") ? integer("--batch", one(a, "--batch")) : json(1);
    json reqs = json::array();
    for (std::size_t i = 0; i < n; ++i) {
      reqs.push_back({{"cached", cached.empty() ? json(0) : integer("--cached-tokens", cached[i])},
                      {"input", input.empty() ? json(1) : integer("--input-tokens", input[i])},
                      {"count", count}});
    }
    wl["requests"] = reqs;
  } else {
    if (a.opts.count("--batch")) wl["batch"] = integer("--batch", one(a, "--batch"));
    if (a.opts.count("--prompt")) wl["prompt"] = integer("--prompt", one(a, "--prompt"));
  }
  if (a.opts.count("--gen")) wl["gen"] = integer("--gen", one(a, "--gen"));
  if (a.opts.count("--prefill-chunk")) wl["prefill_chunk"] = integer("--prefill-chunk", one(a, "--prefill-chunk"));
  req["workload"] = wl;
  json prec = json::object();
  for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{
           {"--weights", "weights"}, {"--activations", "activations"}, {"--kv", "kv"}, {"--attention-weights", "attention"},
           {"--ffn-weights", "ffn"}, {"--expert-weights", "experts"}, {"--router-weights", "router"},
           {"--embedding-weights", "embedding"}, {"--lm-head-weights", "lm_head"}})
    if (a.opts.count(flag)) prec[key] = one(a, flag);
  for (auto it = header_precision.begin(); it != header_precision.end(); ++it)
    if (!prec.contains(it.key()) && !(it.key() != "weights" && a.opts.count("--weights"))) prec[it.key()] = it.value();
  if (!prec.empty()) req["precision"] = prec;
  for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{
           {"--convention", "convention"}, {"--attention", "attention"}, {"--mla", "mla"}, {"--moe-traffic", "moe_traffic"},
           {"--timing", "timing"}, {"--mlp", "mlp"}})
    if (a.opts.count(flag)) req[key] = one(a, flag);
  if (a.opts.count("--attention-tile")) req["attention_tile"] = integer("--attention-tile", one(a, "--attention-tile"));
  if (a.opts.count("--scenario")) req["scenario"] = one(a, "--scenario");
  {
    json costs = json::object();
    for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{
             {"--power", "power_W"}, {"--price", "price_USD"}, {"--usd-per-kwh", "usd_per_kWh"}, {"--pue", "pue"},
             {"--lifetime", "lifetime_years"}, {"--utilization", "utilization"}, {"--grid", "grid_gCO2e_per_kWh"},
             {"--embodied", "embodied_kgCO2e"}, {"--compute-power-fraction", "compute_power_fraction"}}) {
      if (a.opts.count(flag)) costs[key] = number(flag, one(a, flag));
    }
    if (a.opts.count("--region")) costs["region"] = one(a, "--region");
    if (!costs.empty()) req["costs"] = costs;
  }
  if (a.opts.count("--hadamard")) {
    const std::string v = one(a, "--hadamard");
    if (v != "on" && v != "off") die("--hadamard holds \"" + v + "\"; expected on or off");
    req["online_hadamard"] = v == "on";
  }
  if (a.opts.count("--convert-mla")) {
    const std::string v = one(a, "--convert-mla");
    json c = json::object();
    if (v != "default") {
      const auto parts = split_commas(v);
      if (parts.size() != 5) die("--convert-mla holds \"" + v + "\"; expected default or Q_RANK,KV_RANK,NOPE,ROPE,V (five integers)");
      const char* keys[] = {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"};
      for (int i = 0; i < 5; ++i) c[keys[i]] = integer("--convert-mla", parts[i]);
    }
    req["convert_mla"] = c;
  }
  if (a.opts.count("--lora-rank") || a.opts.count("--lora-mode")) {
    json lora = json::object();
    if (a.opts.count("--lora-rank")) lora["rank"] = integer("--lora-rank", one(a, "--lora-rank"));
    if (a.opts.count("--lora-mode")) lora["mode"] = one(a, "--lora-mode");
    req["lora"] = lora;
  }
  if (a.opts.count("--pin-weights") || a.opts.count("--pin-kv")) {
    json pl = json::object();
    if (a.opts.count("--pin-weights")) pl["weights"] = integer("--pin-weights", one(a, "--pin-weights"));
    if (a.opts.count("--pin-kv")) pl["kv_cache"] = integer("--pin-kv", one(a, "--pin-kv"));
    req["placement"] = pl;
  }
  std::vector<std::string> known = {"--model", "--hardware", "--batch", "--prompt", "--gen", "--cached-tokens",
                                    "--input-tokens", "--weights", "--activations", "--kv", "--convention",
                                    "--attention", "--mla", "--moe-traffic", "--format", "--timing",
                                    "--prefill-chunk", "--attention-weights", "--ffn-weights", "--expert-weights",
                                    "--router-weights", "--embedding-weights", "--lm-head-weights", "--mlp",
                                    "--attention-tile", "--lora-rank", "--lora-mode", "--scenario", "--hadamard",
                                    "--convert-mla", "--pin-weights", "--pin-kv", "--power", "--price", "--usd-per-kwh",
                                    "--pue", "--lifetime", "--utilization", "--grid", "--embodied", "--region",
                                    "--compute-power-fraction"};
  known.insert(known.end(), extra.begin(), extra.end());
  for (const auto& [k, v] : a.opts)
    if (std::find(known.begin(), known.end(), k) == known.end()) die("unknown option " + k + "; see infercast --help");
  return req;
}

const std::vector<std::string> kMultiFlags = {"--system", "--tp", "--pp", "--ep", "--dp", "--collective",
                                              "--draft", "--draft-tokens", "--acceptance"};

// /system, /parallel and /speculative from their flags.
void add_multi(const Args& a, json& req) {
  if (a.opts.count("--system")) req["system"] = load_json_arg(one(a, "--system"));
  json par = json::object();
  for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{{"--tp", "tp"}, {"--pp", "pp"}, {"--ep", "ep"}, {"--dp", "dp"}})
    if (a.opts.count(flag)) par[key] = integer(flag, one(a, flag));
  if (a.opts.count("--collective")) par["algorithm"] = one(a, "--collective");
  if (!par.empty()) req["parallel"] = par;
  if (a.opts.count("--draft") || a.opts.count("--draft-tokens") || a.opts.count("--acceptance")) {
    if (!a.opts.count("--draft")) die("--draft-tokens and --acceptance need --draft (a draft model, or mtp)");
    json sp = json::object();
    const std::string d = one(a, "--draft");
    if (d == "mtp") sp["draft"] = "mtp";
    else sp["model"] = load_json_arg(d);
    if (a.opts.count("--draft-tokens")) sp["draft_tokens"] = integer("--draft-tokens", one(a, "--draft-tokens"));
    if (a.opts.count("--acceptance")) sp["acceptance"] = number("--acceptance", one(a, "--acceptance"));
    req["speculative"] = sp;
  }
}

void print_plan(const json& r) {
  const auto& p = r["parallel"];
  const auto& pl = p["plan"];
  const auto& sy = p["system"];
  std::cout << "\nPlan: tp " << pl["tp"] << " x pp " << pl["pp"] << " x dp " << pl["dp"] << " (ep " << pl["ep"] << ") = "
            << pl["devices"] << " devices of " << sy["name"].get<std::string>() << "; intra-node "
            << num3(sy["intra"]["bandwidth_GBps"].get<double>()) << " GB/s, inter-node "
            << num3(sy["inter"]["bandwidth_GBps"].get<double>()) << " GB/s per device per direction\n";
  std::vector<std::vector<std::string>> rows = {{"Stage", "Layers", "Params/device", "Weights", "KV cache", "Activations", "Required", "Capacity", "Fits"}};
  for (const auto& st : p["stages"]) {
    const int first = st["first_layer"].get<int>(), n = st["layers"].get<int>();
    rows.push_back({std::to_string(st["stage"].get<int>()), std::to_string(first) + "-" + std::to_string(first + n - 1),
                    std::to_string(st["params_per_device"].get<long long>()), bytes_str(st["weights_bytes"].get<double>()),
                    bytes_str(st["kv_cache_bytes"].get<double>()), bytes_str(st["activation_peak_bytes"].get<double>()),
                    bytes_str(st["required_bytes"].get<double>()), bytes_str(st["capacity_bytes"].get<double>()),
                    st["fits"].get<bool>() ? "yes" : "NO"});
  }
  print_table(rows);
  for (const char* phase : {"prefill", "decode_step"}) {
    const auto& lines = p["communication"][phase];
    if (lines.empty()) continue;
    std::cout << "\nCommunication, " << (std::string(phase) == "prefill" ? "first step" : "one decode step") << "\n";
    std::vector<std::vector<std::string>> c = {{"What", "Collective", "Algorithm", "Devices", "Link", "Calls", "Bytes", "Time"}};
    for (const auto& l : lines)
      c.push_back({l["what"], l["collective"], l["algorithm"], std::to_string(l["participants"].get<int>()), l["link"],
                   num3(l["calls"].get<double>()), bytes_str(l["bytes"].get<double>()), time_str(l["seconds"].get<double>())});
    c.push_back({"Total", "", "", "", "", "", "", time_str(p["communication"][std::string(phase) + "_s"].get<double>())});
    print_table(c);
  }
  std::cout << "\nTTFT " << time_str(p["ttft_s"].get<double>()) << ", TPOT mean " << time_str(p["tpot_s"].get<double>())
            << " (first " << time_str(p["tpot_first_s"].get<double>()) << ", last " << time_str(p["tpot_last_s"].get<double>())
            << "), " << num3(p["tokens_per_s"].get<double>()) << " tok/s per sequence, " << num3(p["total_tokens_per_s"].get<double>())
            << " tok/s in all, " << num3(p["tokens_per_s_per_device"].get<double>()) << " tok/s per device, end-to-end "
            << time_str(p["e2e_s"].get<double>()) << "\n";
  std::cout << "Per device: " << bytes_str(p["device_required_bytes"].get<double>()) << " of "
            << bytes_str(p["device_capacity_bytes"].get<double>()) << (p["fits"].get<bool>() ? " (fits)" : " (DOES NOT FIT)")
            << "; largest batch per replica that fits " << num3(p["max_batch"].get<double>()) << "\n";
  for (const auto& w : p["warnings"]) std::cout << "note: " << w["message"].get<std::string>() << "\n";
  if (r.contains("speculative")) {
    const auto& s = r["speculative"];
    std::cout << "Speculative decoding (" << s["draft"].get<std::string>() << ", " << s["draft_tokens"] << " drafted, acceptance "
              << num3(s["acceptance"].get<double>()) << "): " << num3(s["tokens_per_step"].get<double>()) << " tokens per step, draft "
              << time_str(s["draft_step_s"].get<double>()) << " per token, verification " << time_str(s["verify_step_s"].get<double>())
              << ", TPOT " << time_str(s["tpot_s"].get<double>()) << " (" << num3(s["speedup"].get<double>()) << "x)\n";
  }
}

int cmd_analyze(const Args& a) {
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json" && fmt != "csv") die("--format holds \"" + fmt + "\"; expected table, json or csv");
  json req = analysis_request(a, kMultiFlags);
  add_multi(a, req);
  const json r = unwrap(infercast::call("analyze", req.dump()));
  if (fmt == "json") std::cout << r.dump(2) << "\n";
  else if (fmt == "csv") print_csv(r);
  else {
    print_analysis_table(r);
    if (r.contains("parallel")) print_plan(r);
  }
  return 0;
}

int cmd_batching(const Args& a) {
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json" && fmt != "csv") die("--format holds \"" + fmt + "\"; expected table, json or csv");
  std::vector<std::string> extra = kMultiFlags;
  extra.push_back("--max-batch");
  json req = analysis_request(a, extra);
  add_multi(a, req);
  if (a.opts.count("--max-batch")) req["batching"] = {{"max_batch", integer("--max-batch", one(a, "--max-batch"))}};
  const json v = unwrap(infercast::call("batching", req.dump()));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  const std::vector<std::string> cols = {"batch", "ttft_s", "tpot_s", "e2e_s", "tokens_per_s_per_user", "total_tokens_per_s",
                                         "tokens_per_s_per_device", "device_required_bytes", "fits"};
  if (fmt == "csv") {
    for (std::size_t i = 0; i < cols.size(); ++i) std::cout << (i ? "," : "") << cols[i];
    std::cout << "\n";
    for (const auto& p : v["points"]) {
      for (std::size_t i = 0; i < cols.size(); ++i) std::cout << (i ? "," : "") << p[cols[i]];
      std::cout << "\n";
    }
    return 0;
  }
  std::cout << "System: " << v["system"]["name"].get<std::string>() << ", tp " << v["plan"]["tp"] << " x pp " << v["plan"]["pp"]
            << " x dp " << v["plan"]["dp"] << (v["speculative"].get<bool>() ? ", speculative decoding" : "") << "\n";
  std::vector<std::vector<std::string>> rows = {{"Batch", "TTFT", "TPOT", "End-to-end", "tok/s per user", "tok/s in all", "tok/s per device", "Memory/device", "Fits"}};
  for (const auto& p : v["points"])
    rows.push_back({num3(p["batch"].get<double>()), time_str(p["ttft_s"].get<double>()), time_str(p["tpot_s"].get<double>()),
                    time_str(p["e2e_s"].get<double>()), num3(p["tokens_per_s_per_user"].get<double>()),
                    num3(p["total_tokens_per_s"].get<double>()), num3(p["tokens_per_s_per_device"].get<double>()),
                    bytes_str(p["device_required_bytes"].get<double>()), p["fits"].get<bool>() ? "yes" : "NO"});
  print_table(rows);
  std::cout << "The KV cache stops fitting after a batch of " << num3(v["kv_fit_batch"].get<double>()) << " per replica.\n";
  return 0;
}

int cmd_quant_sweep(const Args& a) {
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json" && fmt != "csv") die("--format holds \"" + fmt + "\"; expected table, json or csv");
  for (const char* f : {"--weights", "--kv"})
    if (a.opts.count(f)) die(std::string(f) + " is what quant-sweep varies; give the list with --sweep" + (f + 1));
  json req = analysis_request(a, {"--sweep-weights", "--sweep-kv"});
  json sweep = json::object();
  if (a.opts.count("--sweep-weights")) sweep["weights"] = split_commas(one(a, "--sweep-weights"));
  if (a.opts.count("--sweep-kv")) sweep["kv"] = split_commas(one(a, "--sweep-kv"));
  req["sweep"] = sweep;
  const json v = unwrap(infercast::call("quant_sweep", req.dump()));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  const bool hw = v.contains("hardware");
  std::vector<std::string> cols = {"weights", "weight_bits", "kv", "kv_bits", "weights_bytes", "kv_cache_bytes", "required_bytes"};
  if (hw) for (const char* c : {"fits", "ttft_s", "tpot_s", "tokens_per_s", "batch_tokens_per_s", "max_batch", "decode_bound"}) cols.push_back(c);
  if (fmt == "csv") {
    for (std::size_t i = 0; i < cols.size(); ++i) std::cout << (i ? "," : "") << cols[i];
    std::cout << "\n";
    for (const auto& r : v["rows"]) {
      for (std::size_t i = 0; i < cols.size(); ++i) {
        const json& x = r[cols[i]];
        std::cout << (i ? "," : "") << (x.is_string() ? x.get<std::string>() : x.dump());
      }
      std::cout << "\n";
    }
    return 0;
  }
  std::cout << "Model: " << v["model"].get<std::string>() << (hw ? ", device: " + v["hardware"].get<std::string>() : "")
            << ", activations " << v["activations"].get<std::string>() << "\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"weights", "bits", "kv", "bits", "weights", "KV cache", "total"};
  if (hw) for (const char* c : {"fits", "TTFT", "TPOT", "tok/s", "batch tok/s", "max batch", "decode bound"}) head.push_back(c);
  rows.push_back(head);
  for (const auto& r : v["rows"]) {
    std::vector<std::string> row = {r["weights"], num3(r["weight_bits"].get<double>()), r["kv"], num3(r["kv_bits"].get<double>()),
                                    bytes_str(r["weights_bytes"].get<double>()), bytes_str(r["kv_cache_bytes"].get<double>()),
                                    bytes_str(r["required_bytes"].get<double>())};
    if (hw) {
      row.push_back(r["fits"].get<bool>() ? "yes" : "NO");
      row.push_back(time_str(r["ttft_s"].get<double>()));
      row.push_back(time_str(r["tpot_s"].get<double>()));
      row.push_back(num3(r["tokens_per_s"].get<double>()));
      row.push_back(num3(r["batch_tokens_per_s"].get<double>()));
      row.push_back(num3(r["max_batch"].get<double>()));
      row.push_back(r["decode_bound"]);
    }
    rows.push_back(row);
  }
  print_table(rows);
  return 0;
}

// --axis PARAM=MIN:MAX:STEPS[:log|linear] or PARAM=V1,V2,...
json parse_axis(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) die("--axis \"" + text + "\": expected PARAM=MIN:MAX:STEPS[:log|linear] or PARAM=V1,V2,...");
  json ax = {{"param", text.substr(0, eq)}};
  const std::string rest = text.substr(eq + 1);
  const auto num = [&](const std::string& v) {
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(x)) die("--axis \"" + text + "\": \"" + v + "\" is not a number");
    return x;
  };
  if (rest.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(rest);
    for (std::string item; std::getline(ss, item, ':');) parts.push_back(item);
    if (parts.size() < 3 || parts.size() > 4) die("--axis \"" + text + "\": expected MIN:MAX:STEPS[:log|linear]");
    ax["min"] = num(parts[0]);
    ax["max"] = num(parts[1]);
    ax["steps"] = integer("--axis steps", parts[2]);
    if (parts.size() == 4) ax["scale"] = parts[3];
  } else {
    json values = json::array();
    for (const auto& v : split_commas(rest)) values.push_back(num(v));
    ax["values"] = values;
  }
  return ax;
}

int cmd_sweep(const Args& a, bool front_only) {
  const std::string fmt = one(a, "--format", front_only ? "table" : "csv");
  if (fmt != "table" && fmt != "json" && fmt != "csv") die("--format holds \"" + fmt + "\"; expected table, json or csv");
  json req = analysis_request(a, {"--axis", "--objectives", "--max-tpot", "--max-ttft", "--max-power", "--allow-spill",
                                  "--sram-bandwidth", "--keep"});
  if (!a.opts.count("--axis")) die("--axis is required: give 1 to 5, e.g. --axis compute_TFLOPS=100:2000:20 --axis bandwidth_GBps=500,1000,3350");
  json axes = json::array();
  for (const auto& t : a.opts.at("--axis")) axes.push_back(parse_axis(t));
  req["axes"] = axes;
  if (a.opts.count("--objectives")) req["objectives"] = split_commas(one(a, "--objectives"));
  json cons = json::object();
  for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{{"--max-tpot", "max_tpot_s"}, {"--max-ttft", "max_ttft_s"}, {"--max-power", "max_power_W"}})
    if (a.opts.count(flag)) cons[key] = number(flag, one(a, flag));
  if (a.opts.count("--allow-spill")) {
    const std::string v = one(a, "--allow-spill");
    if (v != "yes" && v != "no") die("--allow-spill holds \"" + v + "\"; expected yes or no");
    cons["must_fit"] = v == "no";
  }
  if (!cons.empty()) req["constraints"] = cons;
  if (a.opts.count("--sram-bandwidth")) req["sram_bandwidth_GBps"] = number("--sram-bandwidth", one(a, "--sram-bandwidth"));
  if (a.opts.count("--keep")) req["keep_points"] = integer("--keep", one(a, "--keep"));
  if (front_only) req["keep_points"] = 0;
  const json v = unwrap(infercast::call("sweep", req.dump()));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::string> params, objs;
  for (const auto& [k, x] : v["base"]["params"].items()) params.push_back(k);
  for (const char* o : {"tpot_s", "ttft_s", "tokens_per_s", "joules_per_token", "usd_per_million_tokens", "gCO2e_per_million_tokens"}) objs.push_back(o);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = params;
  head.insert(head.end(), objs.begin(), objs.end());
  head.push_back("pareto");
  rows.push_back(head);
  const auto row_of = [&](const json& pp, const json& oo, bool on_front) {
    std::vector<std::string> row;
    for (const auto& k : params) row.push_back(fmt == "csv" ? pp[k].dump() : num3(pp[k].get<double>()));
    for (const auto& k : objs) row.push_back(fmt == "csv" ? oo[k].dump() : num3(oo[k].get<double>()));
    row.push_back(on_front ? "yes" : "no");
    rows.push_back(row);
  };
  for (const auto& f : v["front"]) row_of(f["params"], f["objectives"], true);
  if (!front_only) {
    const auto& sp = v["sample"]["params"];
    const auto& so = v["sample"]["objectives"];
    const std::size_t n = v["sample"]["count"].get<std::size_t>();
    for (std::size_t i = 0; i < n; ++i) {
      json pp = json::object(), oo = json::object();
      for (const auto& k : params) pp[k] = sp[k][i];
      for (const auto& k : objs) oo[k] = so[k][i];
      row_of(pp, oo, false);
    }
  }
  if (fmt == "csv") {
    for (const auto& r : rows) {
      for (std::size_t i = 0; i < r.size(); ++i) std::cout << (i ? "," : "") << r[i];
      std::cout << "\n";
    }
    return 0;
  }
  std::cout << "Model: " << v["model"].get<std::string>() << ", base device: " << v["base"]["name"].get<std::string>() << "\n"
            << v["points"] << " design points, " << v["feasible"] << " feasible, " << v["front"].size()
            << " on the Pareto front of " << v["objectives"].dump() << (v["derived_power"].get<bool>() ? "; power follows compute and bandwidth" : "") << "\n";
  for (const auto& w : v["warnings"]) std::cout << "note: " << w["message"].get<std::string>() << "\n";
  print_table(rows);
  return 0;
}

int cmd_scenarios(const Args& a) {
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json") die("--format holds \"" + fmt + "\"; expected table or json");
  check_known(a, {"--format"});
  const json v = unwrap(infercast::call("scenarios", "{}"));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"name", "weights", "activations", "kv", "attention", "mlp", "description"}};
  for (const auto& s : v) rows.push_back({s["name"], s["weights"], s["activations"], s["kv"], s["attention"], s["mlp"], s["description"]});
  print_table(rows);
  std::cout << "\nSource: " << v[0]["source"].get<std::string>() << ". Use one with analyze --scenario NAME; flags given too override it.\n";
  return 0;
}

int cmd_checkpoint(const Args& a) {
  const std::string fmt = one(a, "--format", "table");
  check_known(a, {"--model", "--format"});
  if (fmt != "table" && fmt != "json") die("--format holds \"" + fmt + "\"; expected table or json");
  const std::string path = one(a, "--model");
  if (path.empty()) die("--model is required; give a folder holding .safetensors files (and its config.json), or one of the files");
  const json v = read_checkpoint(path, infercast::safetensors_files(path));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  report_checkpoint(v, std::cout);
  std::cout << "stored: " << bytes_str(v["tensor_bytes"].get<double>()) << " of tensors";
  for (const auto& t : v["types"]) std::cout << "; " << t["dtype"].get<std::string>() << " " << t["params"] << " elements in " << t["tensors"] << " tensors";
  std::cout << "\nweight formats by class: " << v["precision"]["by_class"].dump() << "\n";
  std::cout << "config: " << v["config"].dump() << "\n";
  return v["matches"].get<bool>() ? 0 : 1;
}

int cmd_list(const Args& a, const std::string& fn) {
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json") die("--format holds \"" + fmt + "\"; expected table or json");
  const json v = unwrap(infercast::call(fn, "{}"));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  if (fn == "systems") {
    rows.push_back({"id", "name", "device", "devices", "intra-node GB/s", "inter-node GB/s"});
    for (const auto& sy : v)
      rows.push_back({sy["id"], sy["name"], sy["device"], std::to_string(sy["devices"].get<int>()),
                      num3(sy["intra"]["bandwidth_GBps"].get<double>()), sy["nodes"].get<int>() > 1 ? num3(sy["inter"]["bandwidth_GBps"].get<double>()) : "-"});
  } else if (fn == "models") {
    rows.push_back({"id", "name", "type", "parameters", "active", "stated"});
    for (const auto& m : v)
      rows.push_back({m["id"], m["name"], m["model_type"], std::to_string(m["params_total"].get<long long>()),
                      std::to_string(m["params_active"].get<long long>()), m["stated_params_total"]});
  } else {
    rows.push_back({"id", "name", "class", "bf16 TFLOPS", "memory", "bandwidth"});
    for (const auto& h : v) {
      const auto& t = h["memory_tiers"][0];
      rows.push_back({h["id"], h["name"], h["class"],
                      h["peak_dense_TFLOPS"].contains("bf16")   ? h["peak_dense_TFLOPS"]["bf16"].dump()
                      : h["peak_dense_TFLOPS"].contains("fp16") ? h["peak_dense_TFLOPS"]["fp16"].dump() + " (fp16)"
                                                                : "-",
                      t["name"].get<std::string>() + " " + t["capacity_GB"].dump() + " GB", t["bandwidth_GBps"].dump() + " GB/s"});
    }
  }
  print_table(rows);
  return 0;
}

void check_known(const Args& a, const std::vector<std::string>& known) {
  for (const auto& [k, v] : a.opts)
    if (std::find(known.begin(), known.end(), k) == known.end()) die("unknown option " + k + "; see infercast --help");
}

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", v * 100);
  return b;
}
std::string num3(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

int cmd_validate(const Args& a) {
  check_known(a, {"--csv", "--format"});
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json" && fmt != "csv") die("--format holds \"" + fmt + "\"; expected table, json or csv");
  json req = json::object();
  if (a.opts.count("--csv")) {
    try {
      req["csv"] = infercast::read_text_file(one(a, "--csv"));
    } catch (const infercast::InputError& e) {
      die(e.what());
    }
  }
  const json v = unwrap(infercast::call("validate", req.dump()));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  if (fmt == "csv") {
    std::cout << "row_id,group,model,hardware,weights,batch,prompt,gen,metric,unit,measured,forecast,error\n";
    for (const auto& r : v["rows"]) {
      if (!r["covered"].get<bool>()) continue;
      std::cout << r["row_id"].get<std::string>() << "," << r["group"].get<std::string>() << "," << r["model_id"].get<std::string>()
                << "," << r["hardware_id"].get<std::string>() << "," << r["weights"].get<std::string>() << "," << r["batch"] << ","
                << r["prompt"] << "," << r["gen"] << "," << r["metric"].get<std::string>() << ",\"" << r["unit"].get<std::string>()
                << "\"," << r["measured"] << "," << r["forecast"] << "," << r["error"] << "\n";
    }
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"row", "hardware", "model", "weights", "B", "prompt", "gen", "metric", "unit", "measured", "forecast", "error"}};
  int skipped = 0;
  for (const auto& r : v["rows"]) {
    if (!r["covered"].get<bool>()) {
      ++skipped;
      continue;
    }
    rows.push_back({r["row_id"], r["hardware_id"], r["model_id"], r["weights"], num3(r["batch"].get<double>()),
                    num3(r["prompt"].get<double>()), num3(r["gen"].get<double>()), r["metric"], r["unit"],
                    num3(r["measured"].get<double>()), num3(r["forecast"].get<double>()), pct(r["error"].get<double>())});
  }
  print_table(rows);
  std::cout << "\nNot covered: " << skipped << " rows";
  std::map<std::string, int> reasons;
  for (const auto& r : v["rows"])
    if (!r["covered"].get<bool>()) ++reasons[r["reason"].get<std::string>()];
  for (const auto& [why, n] : reasons) std::cout << "\n  " << n << " x " << why;
  std::cout << "\n\n";
  std::vector<std::vector<std::string>> sum = {{"group", "rows", "median |error|", "p90 |error|", "median error"}};
  for (const auto& g : v["groups"])
    sum.push_back({g["group"], std::to_string(g["rows"].get<int>()), pct(g["median_abs_error"].get<double>()).substr(1),
                   pct(g["p90_abs_error"].get<double>()).substr(1), pct(g["median_signed_error"].get<double>())});
  print_table(sum);
  return 0;
}

int cmd_calibrate(const Args& a) {
  check_known(a, {"--hardware", "--model", "--point", "--fit", "--save", "--format"});
  const std::string fmt = one(a, "--format", "table");
  if (fmt != "table" && fmt != "json") die("--format holds \"" + fmt + "\"; expected table or json");
  if (!a.opts.count("--hardware")) die("--hardware is required");
  if (!a.opts.count("--point")) die("--point is required: give at least one measured point (see infercast --help)");
  json req = json::object();
  req["hardware"] = load_json_arg(one(a, "--hardware"));
  if (a.opts.count("--model")) req["model"] = load_json_arg(one(a, "--model"));
  if (a.opts.count("--fit")) {
    json fit = json::array();
    std::stringstream ss(one(a, "--fit"));
    for (std::string item; std::getline(ss, item, ',');) fit.push_back(item);
    req["fit"] = fit;
  }
  json points = json::array();
  for (const auto& text : a.opts.at("--point")) {
    json p = json::object(), wl = json::object(), prec = json::object();
    std::stringstream ss(text);
    for (std::string kv; std::getline(ss, kv, ',');) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) die("--point \"" + text + "\": \"" + kv + "\" is not key=value");
      const std::string k = kv.substr(0, eq), val = kv.substr(eq + 1);
      if (k == "metric") p["metric"] = val;
      else if (k == "value") {
        try {
          std::size_t used = 0;
          p["value"] = std::stod(val, &used);
          if (used != val.size()) throw std::invalid_argument(val);
        } catch (...) {
          die("--point \"" + text + "\": value holds \"" + val + "\"; expected a number");
        }
      } else if (k == "batch" || k == "prompt" || k == "gen" || k == "cached") wl[k] = integer("--point " + k, val);
      else if (k == "weights" || k == "activations" || k == "kv") prec[k] = val;
      else if (k == "model") p["model"] = load_json_arg(val);
      else die("--point \"" + text + "\": unknown key \"" + k + "\"; expected metric, value, batch, prompt, gen, cached, weights, activations, kv or model");
    }
    if (!wl.empty()) p["workload"] = wl;
    if (!prec.empty()) p["precision"] = prec;
    points.push_back(p);
  }
  req["points"] = points;
  const json v = unwrap(infercast::call("calibrate", req.dump()));
  if (a.opts.count("--save")) {
    std::ofstream out(one(a, "--save"));
    if (!out) die("cannot write " + one(a, "--save"));
    out << v["hardware"].dump(2) << "\n";
  }
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"efficiency", "start", "fitted"}};
  for (const auto& [k, val] : v["start"].items()) rows.push_back({k, num3(val.get<double>()), num3(v["fitted"][k].get<double>())});
  print_table(rows);
  std::cout << "\n";
  std::vector<std::vector<std::string>> pts = {{"point", "metric", "measured", "before", "after", "error after"}};
  int i = 0;
  for (const auto& p : v["points"])
    pts.push_back({std::to_string(++i), p["metric"], num3(p["measured"].get<double>()), num3(p["forecast_before"].get<double>()),
                   num3(p["forecast_after"].get<double>()), pct(p["error_after"].get<double>())});
  print_table(pts);
  std::cout << "\nRMS log error: " << num3(v["rms_log_error_before"].get<double>()) << " before, "
            << num3(v["rms_log_error_after"].get<double>()) << " after (" << v["evaluations"] << " forecasts)\n";
  if (a.opts.count("--save")) std::cout << "Saved the calibrated device to " << one(a, "--save") << "\n";
  return 0;
}

int cmd_call(const Args& a, const std::string& fn) {
  for (const auto& [k, v] : a.opts)
    if (k != "--request") die("unknown option " + k + "; see infercast --help");
  const std::string src = one(a, "--request", "-");
  std::string text;
  if (src == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    try {
      text = infercast::read_text_file(src);
    } catch (const infercast::InputError& e) {
      die(std::string(e.what()));
    }
  }
  std::cout << unwrap(infercast::call(fn, text)).dump(2) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse_args(argc, argv);
  if (a.command.empty()) {
    std::cout << kHelp;
    return 0;
  }
  if (a.command == "analyze") return cmd_analyze(a);
  if (a.command == "models" || a.command == "hardware" || a.command == "systems") return cmd_list(a, a.command);
  if (a.command == "batching") return cmd_batching(a);
  if (a.command == "checkpoint") return cmd_checkpoint(a);
  if (a.command == "validate") return cmd_validate(a);
  if (a.command == "quant-sweep") return cmd_quant_sweep(a);
  if (a.command == "scenarios") return cmd_scenarios(a);
  if (a.command == "sweep") return cmd_sweep(a, false);
  if (a.command == "pareto") return cmd_sweep(a, true);
  if (a.command == "calibrate") return cmd_calibrate(a);
  if (a.command == "call") {
    if (a.function.empty()) die("call needs a function name, e.g. infercast call analyze --request request.json");
    return cmd_call(a, a.function);
  }
  die("unknown command \"" + a.command + "\"; expected models, hardware, systems, scenarios, analyze, batching, quant-sweep, sweep, pareto, validate, calibrate or call (see infercast --help)");
}
