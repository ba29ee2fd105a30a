#include "io/measurements.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "io/csv.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace infercast {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

[[noreturn]] void measurements_fail(const std::string& code, const std::string& message) {
  throw InputError("measurements." + code, "/measurements", "/measurements: " + message);
}

// The first number in `s` ("1234.56 ± 7.89" -> 1234.56); false when there is none.
bool leading_number(const std::string& s, double& v) {
  const std::string t = trim(s);
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return end != t.c_str() && std::isfinite(v);
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string t = trim(line);
  if (!t.empty() && t.front() == '|') t.erase(0, 1);
  if (!t.empty() && t.back() == '|') t.pop_back();
  std::stringstream ss(t);
  for (std::string c; std::getline(ss, c, '|');) out.push_back(trim(c));
  return out;
}

std::int64_t whole(const std::string& s, std::size_t& at) {
  std::int64_t v = 0;
  bool any = false;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
    v = v * 10 + (s[at++] - '0');
    any = true;
    if (v > 1000000000) return -1;
  }
  return any ? v : -1;
}

// One llama-bench test: "pp512", "tg128", "pp512 @ d4096", "pp4096+tg128" (and "... @ dD").
bool bench_point(const std::string& test, double tps, MeasuredPoint& p) {
  std::string t = lower(test);
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  std::int64_t depth = 0;
  if (const auto at = t.find("@d"); at != std::string::npos) {
    std::size_t i = at + 2;
    depth = whole(t, i);
    if (depth < 0 || i != t.size()) return false;
    t = t.substr(0, at);
  }
  std::size_t i = 0;
  std::int64_t pp = 0, tg = 0;
  while (i < t.size()) {
    const std::string kind = t.substr(i, 2);
    i += 2;
    const std::int64_t n = whole(t, i);
    if (n <= 0) return false;
    if (kind == "pp") pp = n;
    else if (kind == "tg") tg = n;
    else return false;
    if (i < t.size()) {
      if (t[i] != '+') return false;
      ++i;
    }
  }
  p.label = test;
  p.cached = depth;
  if (pp > 0 && tg > 0) {
    // (prompt + generated) tokens over the whole run: the time of a prefill and tg single-token steps.
    p.metric = "e2e_s";
    p.prompt = pp;
    p.gen = tg + 1;
    p.value = static_cast<double>(pp + tg) / tps;
  } else if (pp > 0) {
    p.metric = "prompt_tokens_per_s";
    p.prompt = pp;
    p.gen = 1;
    p.value = tps;
  } else {
    // tgN: N single-token steps after the context depth (a one-token prompt stands for an empty context).
    p.metric = "decode_tokens_per_s";
    p.prompt = 1;
    p.gen = tg + 1;
    p.value = tps;
  }
  return true;
}

ParsedMeasurements llama_bench(const std::vector<std::string>& lines) {
  ParsedMeasurements out;
  out.format = "llama-bench";
  std::vector<std::string> head;
  std::string model_name;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string l = trim(lines[n]);
    if (l.empty() || l.front() != '|') continue;
    const auto c = cells(l);
    if (head.empty()) {
      head = c;
      for (auto& h : head) h = lower(h);
      continue;
    }
    if (!c.empty() && c.front().find("---") != std::string::npos) continue;  // the separator row
    const auto col = [&](const char* name) -> std::string {
      for (std::size_t k = 0; k < head.size() && k < c.size(); ++k)
        if (head[k] == name) return c[k];
      return "";
    };
    const std::string test = col("test"), tps_text = col("t/s");
    double tps = 0;
    if (!leading_number(tps_text, tps) || tps <= 0)
      measurements_fail("bad_value", "line " + std::to_string(n + 1) + ": the t/s column holds \"" + tps_text + "\"; expected a positive number");
    MeasuredPoint p;
    if (!bench_point(test, tps, p))
      measurements_fail("bad_value", "line " + std::to_string(n + 1) + ": the test column holds \"" + test +
                                         "\"; expected ppN, tgN, ppN+tgM, optionally with @ dD");
    // llama-bench prints an fa column where flash attention was set away from its default (or varied): 0/1 in
    // builds before 2025-08, on/off/auto (or enabled/disabled) after, when -fa took on|off|auto.
    const std::string fa = lower(col("fa"));
    if (fa == "1" || fa == "on" || fa == "enabled" || fa == "true") p.attention = "fused";
    else if (fa == "0" || fa == "off" || fa == "disabled" || fa == "false") p.attention = "unfused";
    else if (!fa.empty() && fa != "auto" && fa != "-1")
      measurements_fail("bad_value", "line " + std::to_string(n + 1) + ": the fa column holds \"" + col("fa") +
                                         "\"; expected 0, 1, on, off, enabled, disabled or auto");
    const std::string model = col("model");
    p.weights = llama_ftype_name(model);
    if (model_name.empty()) {
      model_name = model;
      double v = 0;
      const std::string params = col("params");
      if (leading_number(params, v)) {
        const char unit = params.empty() ? ' ' : params.back();
        out.params_stated = v * (unit == 'B' ? 1e9 : unit == 'M' ? 1e6 : unit == 'K' ? 1e3 : 1);
      }
      out.notes.push_back("llama-bench ran \"" + model + "\"" + (params.empty() ? "" : " (" + params + " parameters)") +
                          (p.weights.empty() ? "" : ", read as " + p.weights) +
                          (col("backend").empty() ? "" : " on " + col("backend")) +
                          (col("ngl").empty() ? "" : " with -ngl " + col("ngl")));
    } else if (model != model_name) {
      measurements_fail("bad_value", "line " + std::to_string(n + 1) + ": the table holds a second model (\"" + model + "\" after \"" +
                                         model_name + "\"); expected one model per calibration");
    }
    out.points.push_back(p);
  }
  if (head.empty() || out.points.empty())
    measurements_fail("unreadable", "no llama-bench rows: expected a table with model, test and t/s columns and at least one row");
  // Without an fa column a run used llama-bench's default: flash attention off until llama.cpp's switch to "auto"
  // (on where the backend supports it) in 2025-08. The build line ("build: 93bc3839 (3622)") dates it: builds
  // numbered under 6000 are from before 2025-08 (b6000 was tagged at the end of July 2025), so they ran without it;
  // a later build, or none stated, runs the runtime's default.
  if (std::none_of(head.begin(), head.end(), [](const std::string& h) { return h == "fa"; })) {
    // llama-bench's own last line: "build: <commit> (<number>)".
    long long build = 0;
    for (const auto& line : lines) {
      const std::string l = trim(line);
      if (l.rfind("build:", 0) != 0) continue;
      std::istringstream in(l.substr(6));
      std::string commit, number;
      if (in >> commit >> number && number.size() > 2 && number.front() == '(' && number.back() == ')' &&
          std::all_of(number.begin() + 1, number.end() - 1, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }) &&
          number.size() < 12)
        build = std::stoll(number.substr(1, number.size() - 2));
      break;
    }
    if (build > 0 && build < 6000) {
      for (auto& p : out.points) p.attention = "unfused";
      out.notes.push_back("llama-bench build " + std::to_string(build) +
                          " predates flash attention by default (2025-08) and its table has no fa column: read as -fa 0");
    } else {
      out.notes.push_back(std::string("the table has no fa column: each point runs the runtime's default attention (flash attention, "
                                      "llama.cpp's default since 2025-08); llama-bench builds of 2025 before it adopted -fa auto ran "
                                      "without it: pass -fa 1 or -fa 0 to llama-bench to be sure") +
                          (build > 0 ? " (build " + std::to_string(build) + ")" : ""));
    }
  }
  return out;
}

// The largest request or token count a vllm summary may state.
constexpr double kMaxCount = 1e12;

ParsedMeasurements vllm(const std::vector<std::string>& lines, std::int64_t concurrency) {
  ParsedMeasurements out;
  out.format = "vllm-bench-serve";
  double requests = 0, input = 0, generated = 0, ttft_ms = 0, tpot_ms = 0, conc = 0;
  std::string ttft_kind, tpot_kind;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string l = trim(lines[n]);
    const auto colon = l.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = lower(trim(l.substr(0, colon)));
    double v = 0;
    if (!leading_number(l.substr(colon + 1), v)) continue;
    // The counts become whole numbers of requests and tokens: past a trillion they are not a benchmark's summary
    // (and would not fit the integers they become).
    const bool count = key == "successful requests" || key == "total input tokens" || key == "total generated tokens" ||
                       key == "maximum request concurrency";
    const auto refuse = [&](const char* expected) {
      measurements_fail("bad_value", "line " + std::to_string(n + 1) + ": \"" + trim(l.substr(0, colon)) + "\" holds " +
                                         trim(l.substr(colon + 1)) + "; expected " + expected);
    };
    if (count && v > kMaxCount) refuse("a count of at most 1e12");
    if (key == "successful requests" && v < 1) refuse("at least one request that succeeded");
    if (key == "successful requests") requests = v;
    else if (key == "total input tokens") input = v;
    else if (key == "total generated tokens") generated = v;
    else if (key == "maximum request concurrency") conc = v;
    else if (key == "median ttft (ms)") ttft_ms = v, ttft_kind = "median TTFT";
    else if (key == "mean ttft (ms)" && ttft_kind.empty()) ttft_ms = v, ttft_kind = "mean TTFT";
    else if (key == "median tpot (ms)") tpot_ms = v, tpot_kind = "median TPOT";
    else if (key == "mean tpot (ms)" && tpot_kind.empty()) tpot_ms = v, tpot_kind = "mean TPOT";
  }
  if (requests <= 0 || input <= 0 || generated <= 0)
    measurements_fail("unreadable", "the vllm output lacks \"Successful requests\", \"Total input tokens\" or \"Total generated tokens\"; "
                                    "expected the summary `vllm bench serve` prints");
  MeasuredPoint base;
  base.batch = static_cast<std::int64_t>(conc > 0 ? conc : static_cast<double>(concurrency));
  base.batch = std::max<std::int64_t>(1, std::min<std::int64_t>(base.batch, static_cast<std::int64_t>(requests)));
  base.prompt = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(input / requests)));
  base.gen = std::max<std::int64_t>(2, static_cast<std::int64_t>(std::llround(generated / requests)));
  out.notes.push_back(std::to_string(static_cast<long long>(requests)) + " requests of " + std::to_string(base.prompt) +
                      " prompt and " + std::to_string(base.gen) + " generated tokens on average, " +
                      std::to_string(base.batch) + " at a time" +
                      (conc > 0 ? " (the run's maximum concurrency)" : " (no maximum concurrency in the output: the request's concurrency)"));
  if (ttft_ms > 0) {
    MeasuredPoint p = base;
    p.metric = "ttft_s";
    p.value = ttft_ms / 1000;
    p.label = ttft_kind;
    out.points.push_back(p);
  }
  if (tpot_ms > 0) {
    MeasuredPoint p = base;
    p.metric = "tpot_s";
    p.value = tpot_ms / 1000;
    p.label = tpot_kind;
    out.points.push_back(p);
  }
  if (out.points.empty()) measurements_fail("unreadable", "the vllm output has no TTFT or TPOT lines (\"Median TTFT (ms):\", \"Median TPOT (ms):\")");
  return out;
}

ParsedMeasurements csv(const std::string& text) {
  ParsedMeasurements out;
  out.format = "csv";
  std::string body;
  for (const auto& l : lines_of(text))
    if (trim(l).empty() || trim(l).front() != '#') body += l + "\n";
  const auto records = parse_csv(body);
  std::size_t row = 1;
  for (const auto& r : records) {
    ++row;
    const auto get = [&](const char* k) -> std::string {
      const auto it = r.find(k);
      return it == r.end() ? "" : trim(it->second);
    };
    MeasuredPoint p;
    p.metric = get("metric");
    if (p.metric.empty()) measurements_fail("bad_value", "CSV row " + std::to_string(row) + ": metric is empty; expected ttft_s, tpot_s, decode_tokens_per_s, prompt_tokens_per_s, e2e_s ...");
    if (!leading_number(get("value"), p.value) || p.value <= 0)
      measurements_fail("bad_value", "CSV row " + std::to_string(row) + ": value holds \"" + get("value") + "\"; expected a positive number");
    for (auto [key, slot] : {std::pair<const char*, std::int64_t*>{"batch", &p.batch}, {"prompt", &p.prompt}, {"gen", &p.gen}, {"cached", &p.cached}}) {
      const std::string v = get(key);
      if (v.empty()) continue;
      std::size_t at = 0;
      const std::int64_t x = whole(v, at);
      if (x < 0 || at != v.size())
        measurements_fail("bad_value", "CSV row " + std::to_string(row) + ": " + key + " holds \"" + v + "\"; expected a whole number");
      *slot = x;
    }
    p.weights = lower(get("weights"));
    p.label = "row " + std::to_string(row);
    out.points.push_back(p);
  }
  if (out.points.empty()) measurements_fail("unreadable", "the CSV has no rows; expected a header with metric and value, then one row per measurement");
  return out;
}

}  // namespace

std::string llama_ftype_name(const std::string& printed) {
  // llama.cpp's llama_model_ftype_name(), as llama-bench prints it after the model's type and size.
  static const std::vector<std::pair<const char*, const char*>> names = {
      {"q4_k - medium", "q4_k_m"}, {"q4_k - small", "q4_k_s"}, {"q5_k - medium", "q5_k_m"}, {"q5_k - small", "q5_k_s"},
      {"q3_k - small", "q3_k_s"},  {"q3_k - medium", "q3_k_m"}, {"q3_k - large", "q3_k_l"}, {"q2_k - medium", "q2_k"},
      {"iq4_xs", "iq4_xs"},        {"iq4_nl", "iq4_nl"},        {"q6_k", "q6_k"},           {"q8_0", "q8_0"},
      {"q5_1", "q5_1"},            {"q5_0", "q5_0"},            {"q4_1", "q4_1"},           {"q4_0", "q4_0"},
      {"bf16", "bf16"},            {"f16", "fp16"},             {"all f32", "fp32"}};
  const std::string p = lower(printed);
  for (const auto& [text, name] : names)
    if (p.find(text) != std::string::npos) return name;
  return "";
}

ParsedMeasurements parse_measurements(const std::string& text, std::int64_t concurrency) {
  if (text.size() > 1000000) measurements_fail("unreadable", "the measurements hold " + std::to_string(text.size()) + " characters; expected at most 1000000");
  const auto lines = lines_of(text);
  const std::string low = lower(text);
  if (low.find("serving benchmark result") != std::string::npos || low.find("ttft (ms)") != std::string::npos) return vllm(lines, concurrency);
  for (const auto& l : lines) {
    const std::string t = lower(trim(l));
    if (!t.empty() && t.front() == '|' && t.find("test") != std::string::npos && t.find("t/s") != std::string::npos) return llama_bench(lines);
  }
  for (const auto& l : lines) {
    const std::string t = lower(trim(l));
    if (t.empty() || t.front() == '#') continue;
    if (t.find("metric") != std::string::npos && t.find("value") != std::string::npos && t.find(',') != std::string::npos) return csv(text);
    break;
  }
  measurements_fail("unreadable", "could not read the measurements: expected llama-bench's table (| model | ... | test | t/s |), the "
                                  "summary of `vllm bench serve`, or a CSV with metric and value columns");
}

}  // namespace infercast
