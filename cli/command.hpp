// The CLI's commands: one table (cli/main.cpp) of name, usage, summary, flag groups, formats and handler. Every
// command builds the same JSON request the page sends and calls the same core API, so both show the same numbers.
#pragma once

#include <string>
#include <vector>

#include "cli/flags.hpp"

namespace infercast::cli {

struct Command {
  const char* name;
  const char* usage;    // after "infercast NAME"
  const char* summary;  // one line
  std::vector<std::string> groups;   // flag groups it takes
  std::vector<std::string> formats;  // --format choices, the first the default
  int (*run)(const Args& a, const std::string& format);
};

const std::vector<Command>& commands();

// The value of an envelope, or exit 2 with its message ("what: " first when `what` names a file).
json unwrap(const std::string& envelope_text, const std::string& what = "");
// A request as the core reads it: JSON text, with text that is not UTF-8 (a flag's bytes) shown as U+FFFD.
std::string request_text(const json& request);

// The whole CLI: argv in, the exit status out (0, 1 for a finding a command reports, 2 for bad input). Output goes
// to std::cout and std::cerr through a filter that keeps control characters from any file out of the terminal.
// Never exits the process and never throws: the fuzz target runs it in-process (tests/fuzz/fuzz_cli.cpp).
int run(int argc, char** argv);

// The analyze request the flags describe: model (from a preset, a config, a GGUF or a checkpoint), device,
// workload, precisions, settings, costs, and /system, /parallel, /speculative.
json analysis_request(const Args& a);

// The handlers, by file: commands_analyze.cpp, commands_sweep.cpp, commands_fit.cpp, commands_catalog.cpp.
int run_analyze(const Args& a, const std::string& format);
int run_batching(const Args& a, const std::string& format);
int run_serving(const Args& a, const std::string& format);
int run_deploy(const Args& a, const std::string& format);
int run_quant_sweep(const Args& a, const std::string& format);
int run_sweep(const Args& a, const std::string& format);
int run_pareto(const Args& a, const std::string& format);
int run_validate(const Args& a, const std::string& format);
int run_calibrate(const Args& a, const std::string& format);
int run_models(const Args& a, const std::string& format);
int run_hardware(const Args& a, const std::string& format);
int run_systems(const Args& a, const std::string& format);
int run_runtimes(const Args& a, const std::string& format);
int run_scenarios(const Args& a, const std::string& format);
int run_checkpoint(const Args& a, const std::string& format);
int run_call(const Args& a, const std::string& format);

}  // namespace infercast::cli
