// Measurements pasted as a tool prints them, read into calibration points: llama-bench's markdown table (ppN, tgN,
// "ppN @ dD", ppN+tgM), `vllm bench serve`'s summary (TTFT and TPOT at a concurrency), or a CSV with metric and value
// columns (and batch, prompt, gen, cached, weights). docs/schema.md, "calibrate".
#pragma once

#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast {

struct MeasuredPoint {
  std::string metric;   // a calibrate metric: prompt_tokens_per_s, decode_tokens_per_s, ttft_s, tpot_s, e2e_s ...
  double value = 0;
  std::int64_t batch = 1, prompt = 1, gen = 2, cached = 0;
  std::string weights;  // a llama.cpp file type or dtype the tool names ("" when it names none)
  std::string label;    // what the tool called it ("tg128 @ d4096", "median TPOT")
  // The attention kernels the tool says it ran: "fused" (llama-bench's fa column 1, on or enabled), "unfused" (0,
  // off, disabled); "" where it says nothing or "auto": the runtime's default.
  std::string attention;
};

struct ParsedMeasurements {
  std::string format;   // llama-bench | vllm-bench-serve | csv
  std::vector<MeasuredPoint> points;
  std::vector<std::string> notes;  // what was read and assumed (e.g. the model the table names and its parameters)
  double params_stated = 0;        // llama-bench's params column (e.g. 8.03e9), 0 when absent
};

// `concurrency`: the batch of a vllm run whose output does not state "Maximum request concurrency".
// Throws InputError (measurements.unreadable / measurements.bad_value, path /measurements) naming the line.
ParsedMeasurements parse_measurements(const std::string& text, std::int64_t concurrency);

// llama.cpp's file-type names as llama-bench prints them ("Q4_K - Medium") to our names ("q4_k_m"); "" if unknown.
std::string llama_ftype_name(const std::string& printed);

}  // namespace infercast
