// The `check` call (docs/schema.md, "check"): a search's request read as the call reads it and its up-front limits
// checked, nothing run. The requests of tests/data/requests.json pass; a request the check refuses is refused by the
// call with the same envelope; a request at a search's limits checks in no time and runs nothing.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "io/json_reader.hpp"

using infercast::json;

namespace {

json envelope(const std::string& fn, const json& request) { return json::parse(infercast::call(fn, request.dump())); }
json check(const std::string& fn, const json& request) { return envelope("check", {{"function", fn}, {"request", request}}); }

std::vector<std::string> checkable() {
  std::vector<std::string> v;
  const json fns = envelope("functions", json::object());
  for (const auto& f : fns["value"])
    if (f["checkable"].get<bool>()) v.push_back(f["name"]);
  return v;
}

}  // namespace

TEST_CASE("check: the searches are the checkable calls, and any other is refused by name", "[api][check]") {
  CHECK(checkable() == std::vector<std::string>{"batching", "serving", "deploy", "quant_sweep", "sweep", "tc_tm_map", "validate", "calibrate"});
  const json e = envelope("check", {{"function", "analyze"}, {"request", json::object()}});
  REQUIRE(e["ok"] == false);
  CHECK(e["error"]["code"] == "request.out_of_range");
  CHECK(e["error"]["path"] == "/function");
  CHECK(e["error"]["message"] ==
        "/function holds \"analyze\"; expected a call that searches or simulates: batching, serving, deploy, quant_sweep, "
        "sweep, tc_tm_map, validate or calibrate");
  CHECK(envelope("check", {{"function", "serving"}, {"requests", json::object()}})["error"]["code"] == "request.unknown_field");
  CHECK(envelope("check", json::object())["error"]["message"] == "/function is missing; expected a string");
}

TEST_CASE("check: every search request the schemas test with passes, and its refusals are the call's", "[api][check]") {
  std::ifstream in(std::string(INFERCAST_SOURCE_DIR) + "/tests/data/requests.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const json calls = json::parse(ss.str())["calls"];
  int n = 0;
  for (const std::string& fn : checkable()) {
    REQUIRE(calls.contains(fn));
    for (const json& req : calls[fn]) {
      INFO(fn << " " << req.dump());
      const json ok = check(fn, req);
      CHECK(ok["ok"] == true);
      CHECK(ok["value"]["function"] == fn);
      CHECK(ok["value"]["checked"] == true);
      // The same request with a field no call reads, and with a model no preset names: refused by both alike.
      json unknown = req;
      unknown["nope"] = 1;
      const json a = check(fn, unknown);
      CHECK(a["ok"] == false);
      CHECK(a == envelope(fn, unknown));
      if (req.contains("model")) {
        json model = req;
        model["model"] = "no-such-model";
        const json b = check(fn, model);
        CHECK(b["error"]["path"] == "/model");
        CHECK(b == envelope(fn, model));
      }
      ++n;
    }
  }
  CHECK(n >= 14);
}

TEST_CASE("check: the limits a search knows before it times anything", "[api][check]") {
  // A sweep past its points, a calibration past its evaluations, a validation row past its work: refused alike.
  const json sweep = {{"model", "llama-3.2-1b"},
                      {"hardware", "nvidia-h100-sxm"},
                      {"axes", {{{"param", "compute_TFLOPS"}, {"min", 10}, {"max", 1000}, {"steps", 2001}},
                                {{"param", "bandwidth_GBps"}, {"min", 100}, {"max", 10000}, {"steps", 2000}}}}};
  const json s = check("sweep", sweep);
  CHECK(s["error"]["message"] == "/axes make 4002000 points; expected at most 4000000");
  CHECK(s == envelope("sweep", sweep));
  json cal = {{"hardware", "nvidia-h100-sxm"}, {"model", "llama-3.2-1b"}, {"points", json::array()}};
  for (int i = 0; i < 60; ++i)
    cal["points"].push_back({{"metric", "ttft_s"}, {"value", 1}, {"workload", {{"prompt", 60000}, {"prefill_chunk", 1}, {"gen", 1}}}});
  const json c = check("calibrate", cal);
  CHECK(c["error"]["code"] == "workload.too_much_work");
  CHECK(c["error"]["path"] == "/points");
  CHECK(c == envelope("calibrate", cal));
  // A validation reads, maps and bounds every record without forecasting one: the rows the page shows come from the
  // call. A record whose workload is past an analysis's steps is refused the same way.
  // Record 1 (S1, llama.cpp on an Apple M1) with a prompt of 1e8 tokens: 195,313 prefill chunks.
  std::ifstream f(std::string(INFERCAST_SOURCE_DIR) + "/presets/validation/measured_public.csv");
  std::string header, row;
  std::getline(f, header);
  std::getline(f, row);
  const std::string plain = ",1,512,0,0,prompt_throughput";
  REQUIRE(row.find(plain) != std::string::npos);
  row.replace(row.find(plain), plain.size(), ",1,100000000,0,0,prompt_throughput");
  const json heavy = {{"csv", header + "\n" + row + "\n"}};
  const json v = check("validate", heavy);
  CHECK(v["error"]["code"] == "csv.too_much_work");
  CHECK(v == envelope("validate", heavy));
  CHECK(check("validate", json::object())["ok"] == true);  // the embedded set, 1,620 records: no analysis runs
  // The largest sweep within the limit (4 million points, 0.7 s natively) and a million-request serving load pass the
  // check at once: it times nothing.
  json big = sweep;
  big["axes"][0]["steps"] = 2000;
  CHECK(check("sweep", big)["ok"] == true);
  const json serving = {{"model", "llama-3.1-8b"},
                        {"hardware", "nvidia-h100-sxm"},
                        {"serving", {{"concurrency", 1000000}, {"requests", 1000000}, {"isl", 1024}, {"osl", 256}}}};
  CHECK(check("serving", serving)["ok"] == true);
  CHECK(envelope("serving", serving)["error"]["code"] == "serving.too_large");  // a limit that needs the engine set up
}
