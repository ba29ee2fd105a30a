// The adversarial cases (tests/adversarial/cases.json) through the core API, under ASan and UBSan: each gives
// exactly its error (code, path, message) or, for a case marked ok, a result whose every number is finite; the
// core then still answers a good call. Time and memory budgets are asserted on the release wasm build
// (tests/adversarial/wasm.test.mjs); here a case only has to finish. Cases marked heavy (the largest inputs within
// the limits) run there only: under the sanitizers they take minutes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "io/json_reader.hpp"

using infercast::json;

namespace {

// The rules of expand.mjs.
void expand(const json& p, std::string& out) {
  if (p.is_string()) {
    out += p.get<std::string>();
  } else if (p.is_array()) {
    for (const auto& x : p) expand(x, out);
  } else if (p.contains("repeat")) {
    std::string one;
    expand(p["repeat"], one);
    const auto n = p["times"].get<std::size_t>();
    out.reserve(out.size() + one.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += one;
  } else if (p.contains("u8")) {
    out += static_cast<char>(p["u8"].get<int>());
  } else if (p.contains("u32") || p.contains("u64") || p.contains("f32")) {
    char b[8];
    std::size_t n = 4;
    if (p.contains("u32")) {
      const auto v = p["u32"].get<std::uint32_t>();
      std::memcpy(b, &v, 4);
    } else if (p.contains("f32")) {
      const auto v = p["f32"].get<float>();
      std::memcpy(b, &v, 4);
    } else {
      const auto v = p["u64"].is_string() ? std::stoull(p["u64"].get<std::string>()) : p["u64"].get<std::uint64_t>();
      std::memcpy(b, &v, 8);
      n = 8;
    }
    out.append(b, n);  // little-endian, as x86 and ARM
  } else if (p.contains("len64")) {
    std::string body;
    expand(p["len64"], body);
    const std::uint64_t n = body.size();
    char b[8];
    std::memcpy(b, &n, 8);
    out.append(b, 8);
    out += body;
  } else {
    FAIL("unknown part " << p.dump());
  }
}

bool all_finite(const json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured())
    for (const auto& v : j)
      if (!all_finite(v)) return false;
  return true;
}

json cases() {
  std::ifstream in(std::string(INFERCAST_SOURCE_DIR) + "/tests/adversarial/cases.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

}  // namespace

TEST_CASE("adversarial cases: the core refuses each with its exact error, or answers with finite numbers", "[adversarial]") {
  const json all = cases();
  REQUIRE(all.size() > 30);
  for (const auto& c : all) {
    const std::string name = c["name"];
    if (c.contains("runners") && std::find(c["runners"].begin(), c["runners"].end(), "core") == c["runners"].end()) continue;
    if (c.value("heavy", false)) continue;
    INFO("case: " << name);
    std::string input;
    expand(c["input"], input);
    const std::string out = c.contains("bytes") ? infercast::call_bytes(c["bytes"], input) : infercast::call(c["call"], input);
    const json env = json::parse(out);
    if (c.contains("max_bytes")) CHECK(out.size() <= c["max_bytes"].get<std::size_t>());
    if (c.value("ok", false)) {
      INFO(out.substr(0, 600));
      CHECK(env["ok"] == true);
      CHECK(all_finite(env["value"]));
    } else {
      REQUIRE(env["ok"] == false);
      const json& e = env["error"];
      INFO(e.dump());
      CHECK(e["code"] == c.value("code", ""));
      CHECK(e["path"] == c.value("path", ""));
      CHECK(e["message"] == c.value("message", ""));
    }
    const json good = json::parse(infercast::call("analyze", R"({"model": "llama-3.2-1b", "hardware": "nvidia-h100-sxm"})"));
    CHECK(good["ok"] == true);
  }
}

// The `check` call on every case of a search call (heavy ones included: a check runs nothing): a case refused while
// its request is read gets the very same error from the check; a case that runs, or is refused only by a limit that
// needs a forecast first (docs/schema.md, "check"), passes it.
TEST_CASE("adversarial cases: check refuses what the search refuses while reading, and runs nothing", "[adversarial][check]") {
  std::vector<std::string> checkable;
  const json fns = json::parse(infercast::call("functions", "{}"));
  for (const auto& f : fns["value"])
    if (f["checkable"].get<bool>()) checkable.push_back(f["name"]);
  // Limits a search checks once it has set its forecast up (the serving simulation's request-steps and engine steps
  // need the engine's token budget and the steady state's batch; a deploy search's layouts, the model's layers per
  // layout; a call's work over its default plan, which may search a system's nodes): the call's, not the check's.
  const std::vector<std::string> after_check = {"serving.too_large", "serving.too_much_work", "deploy.too_much_work",
                                                "workload.too_much_work"};
  int compared = 0, passed = 0;
  for (const auto& c : cases()) {
    if (c.contains("bytes") || !c.contains("call")) continue;
    const std::string fn = c["call"];
    if (std::find(checkable.begin(), checkable.end(), fn) == checkable.end()) continue;
    if (c.contains("runners") && std::find(c["runners"].begin(), c["runners"].end(), "core") == c["runners"].end()) continue;
    std::string input;
    expand(c["input"], input);
    // A case about the request's text (its size, depth or syntax: no path) is the text's, not the call's.
    if (!c.value("ok", false) && c.value("path", "") == "") continue;
    INFO("case: " << c["name"].get<std::string>());
    const json env = json::parse(infercast::call("check", R"({"function": ")" + fn + R"(", "request": )" + input + "}"));
    INFO(env.dump().substr(0, 600));
    if (c.value("ok", false)) {
      CHECK(env["ok"] == true);
      ++passed;
    } else if (env["ok"] == true) {
      CHECK(std::find(after_check.begin(), after_check.end(), c["code"].get<std::string>()) != after_check.end());
      ++passed;
    } else {
      CHECK(env["error"]["code"] == c["code"]);
      CHECK(env["error"]["path"] == c["path"]);
      CHECK(env["error"]["message"] == c["message"]);
      ++compared;
    }
  }
  CHECK(compared >= 6);
  CHECK(passed >= 8);
}
