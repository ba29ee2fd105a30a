// infercast: the command-line front end. Each command is one entry below: its flag groups (cli/flags.cpp), its
// output formats and its handler; help, unknown-flag errors and --flag=value parsing follow from the tables.
// run() is the whole CLI in-process (cli/entry.cpp holds main).
#include <cstring>
#include <iostream>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

namespace {
const std::vector<std::string> kAnalysis = {"model", "hardware", "runtime", "workload", "precision", "settings", "costs", "format"};
std::vector<std::string> with(std::vector<std::string> groups, std::initializer_list<const char*> more) {
  groups.insert(groups.end(), more.begin(), more.end());
  return groups;
}
}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"models", "[--format table|json]", "list model presets", {"format"}, {"table", "json"}, run_models},
      {"hardware", "[--format table|json]", "list hardware presets", {"format"}, {"table", "json"}, run_hardware},
      {"systems", "[--format table|json]", "list multi-device system presets (nodes, links)", {"format"}, {"table", "json"}, run_systems},
      {"runtimes", "[--format table|json]", "list runtime presets (launches, fusion, kernels, efficiencies)", {"format"}, {"table", "json"}, run_runtimes},
      {"scenarios", "[--format table|json]", "list built-in scenarios (LIFE's Table 3 variants)", {"format"}, {"table", "json"}, run_scenarios},
      {"analyze", "--model ID|PATH [--hardware ID|PATH | --system ID|PATH] [options]",
       "operators, memory, TTFT, TPOT, throughput and costs; plans over several devices; layers offloaded to host memory",
       with(kAnalysis, {"multi", "parallel", "speculative", "offload"}),
       {"table", "json", "csv"}, run_analyze},
      {"batching", "--model ... [analyze options] [--max-batch N]", "throughput against latency as the batch grows",
       with(kAnalysis, {"multi", "parallel", "speculative", "batching"}), {"table", "json", "csv"}, run_batching},
      {"serving", "--model ... (--hardware H | --system S [--tp N --pp N --ep N --dp N]) (--concurrency C | --request-rate R) --isl N --osl N",
       "continuous batching under a runtime's scheduler: TTFT, TPOT and end-to-end percentiles, throughput, memory",
       {"model", "hardware", "runtime", "precision", "settings", "costs", "multi", "parallel", "serving", "serving-lengths", "format"},
       {"table", "json"}, run_serving},
      {"deploy", "--model ... (--hardware H --devices N | --system S) --isl N --osl N [--max-ttft-ms X] [--max-tpot-ms Y]",
       "every deployment (TP, PP, EP, DP, batch cap, chunk, xPyD): the Pareto front, the best under the SLA, how to launch it",
       {"model", "hardware", "runtime", "precision", "settings", "costs", "multi", "serving-lengths", "deploy", "format"},
       {"table", "json", "csv"}, run_deploy},
      {"quant-sweep", "--model ... [analyze options] [--sweep-weights F,F,...] [--sweep-kv F,F,...]",
       "throughput and memory for every weight format x KV format (on one device or a plan)", with(kAnalysis, {"multi", "parallel", "speculative", "offload", "quant"}),
       {"table", "json", "csv"},
       run_quant_sweep},
      {"sweep", "--model ... --hardware BASE --axis PARAM=MIN:MAX:STEPS[:log|linear] [--axis ...] [options]",
       "design points (a sample) and the Pareto front", with(kAnalysis, {"sweep", "sweep-sample"}), {"csv", "json", "table"}, run_sweep},
      {"pareto", "--model ... --hardware BASE --axis ... [--objectives a,b[,c,d]]", "only the Pareto front",
       with(kAnalysis, {"sweep"}), {"table", "csv", "json"}, run_pareto},
      {"validate", "[--csv FILE] [--write-fits FILE] [--class C] [--device ID] [--measured-runtime ID]",
       "forecasts against public measurements, in sample and leaving each source out", {"validate", "format"}, {"table", "json", "csv"}, run_validate},
      {"calibrate", "--hardware ID|PATH [--model ID|PATH] (--point K=V,... [--point ...] | --measurements FILE [--weights F]) [--fit P,...] [--save FILE]",
       "fit a device's efficiencies to measured points or to pasted llama-bench / vllm output",
       {"model", "hardware", "runtime", "precision", "calibrate", "format"}, {"table", "json"}, run_calibrate},
      {"checkpoint", "--model DIR|FILE.safetensors",
       "read a checkpoint's safetensors headers (never the weights): exact parameters, formats, its config.json checked "
       "against the shapes (exit 1 when they disagree) or a config inferred",
       {"model", "format"}, {"table", "json"}, run_checkpoint},
      {"call", "FUNCTION [--request FILE|-] [--envelope]",
       "call a core API function with a JSON request (the calls the page makes; `infercast call functions` lists "
       "them) and print its value",
       {"call"}, {}, run_call},
  };
  return table;
}

namespace {

const Command* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

std::string command_names() {
  std::string s;
  const auto& cs = commands();
  for (std::size_t i = 0; i < cs.size(); ++i) s += (i == 0 ? "" : i + 1 == cs.size() ? " or " : ", ") + std::string(cs[i].name);
  return s;
}

void print_help() {
  std::cout << "infercast " << kVersion << " - forecast LLM inference performance from a model config and a device\n\nUsage:\n";
  for (const auto& c : commands()) {
    std::string head = std::string("  infercast ") + c.name;
    if (head.size() < 26) head += std::string(26 - head.size(), ' ');
    std::cout << head << " " << c.summary << "\n";
  }
  std::cout << "  infercast COMMAND --help   the command's flags, with their defaults, ranges and choices\n"
               "  infercast --version\n\n"
               "Exit status: 0 on success, 1 for a finding the command reports (checkpoint: the config disagrees with\n"
               "the shapes), 2 on bad input (a message on stderr names the field) or output that could not be written\n"
               "(a full disk: the message names the file, or says the output). --format json prints the result\n"
               "with its schema_version and version (docs/schema.md, \"Versions\").\n";
}

void print_command_help(const Command& c) {
  std::cout << "Usage: infercast " << c.name << " " << c.usage << "\n\n" << c.summary << "\n\n";
  std::vector<std::string> groups;
  for (const auto& g : c.groups)
    if (g != "format") groups.push_back(g);
  std::cout << flags_help(groups);
  if (!c.formats.empty()) {
    std::string f;
    for (const auto& x : c.formats) f += (f.empty() ? "" : "|") + x;
    std::string head = "  --format " + f;
    if (head.size() < 30) head += std::string(30 - head.size(), ' ');
    else head += "\n" + std::string(30, ' ');
    std::cout << head << "output format (default " << c.formats.front() << ")\n";
  }
}

}  // namespace

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_help();
    return 0;
  }
  const std::string name = argv[1];
  if (name == "--version") {
    std::cout << "infercast " << kVersion << "\n";
    return 0;
  }
  const Command* c = find_command(name);
  if (!c) die("unknown command " + quote_text(name, 200) + "; expected " + command_names() + " (see infercast --help)");
  const Args a = parse_args(argc, argv, 2, c->name, c->groups);
  if (a.help) {
    print_command_help(*c);
    return 0;
  }
  if (!a.positional.empty() && std::string(c->name) != "call")
    die("unexpected argument " + quote_text(a.positional.front(), 200) + "; see infercast " + c->name + " --help");
  std::string format = c->formats.empty() ? "" : c->formats.front();
  if (a.has("--format")) {
    format = a.one("--format");
    std::string list;
    bool ok = false;
    for (std::size_t i = 0; i < c->formats.size(); ++i) {
      ok = ok || format == c->formats[i];
      list += (i == 0 ? "" : i + 1 == c->formats.size() ? " or " : ", ") + c->formats[i];
    }
    if (!ok) die("--format holds " + quote_text(format, 200) + "; expected " + list);
  }
  return c->run(a, format);
}

}  // namespace

int run(int argc, char** argv) {
  // Everything written goes through the terminal filter (cli/output.hpp), restored when the command ends.
  TerminalFilter out(std::cout), err(std::cerr);
  try {
    const int status = dispatch(argc, argv);
    // A result that did not reach stdout (a full disk, a closed pipe) is a failure, never exit 0.
    if (const int e = out.flush()) {
      std::cerr << "infercast: could not write the output (" << std::strerror(e) << ")\n";
      return 2;
    }
    return status;
  } catch (const Exit& e) {
    std::cout.flush();
    std::cerr << "infercast: " << e.message << "\n";
    return e.status;
  } catch (const InputError& e) {
    std::cerr << "infercast: " << e.what() << " [" << e.code() << "]\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "infercast: out of memory; expected inputs within the limits (infercast call limits)\n";
    return 2;
  } catch (const std::exception& e) {
    // A bug, not bad input: said plainly rather than aborting (the fuzz target counts it as a finding).
    std::cerr << "infercast: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace infercast::cli
