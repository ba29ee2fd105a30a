// serving and deploy: continuous batching at a load, and the search over deployments, as tables, CSV or JSON.
#include <iostream>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

namespace {

// The analyze request without its static-batch workload (serving reads its lengths from /serving).
json serving_request(const Args& a) {
  json req = analysis_request(a);
  if (req.contains("workload") && req["workload"].empty()) req.erase("workload");
  if (a.has("--request-rate")) {
    const std::string v = a.one("--request-rate");
    if (v == "inf") {
      // Every request at once: a closed loop with one client per request.
      const json n = a.has("--requests") ? integer("--requests", a.one("--requests")) : json(1000);
      if (a.has("--concurrency")) die("--request-rate inf sends every request at once; it cannot be combined with --concurrency");
      req["serving"]["concurrency"] = n;
      req["serving"]["requests"] = n;
    } else {
      req["serving"]["request_rate"] = number("--request-rate", v);
    }
  }
  if (a.has("--steady")) req["serving"]["simulate"] = false;
  return req;
}

std::string pct_line(const json& p) {
  return time_str(p["p50"].get<double>()) + " / " + time_str(p["p90"].get<double>()) + " / " + time_str(p["p99"].get<double>()) +
         " (mean " + time_str(p["mean"].get<double>()) + ")";
}

}  // namespace

int run_serving(const Args& a, const std::string& fmt) {
  const json v = unwrap(call("serving", request_text(serving_request(a))));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  const auto& l = v["load"];
  const auto& s = v["scheduler"];
  const auto& e = v["engine"];
  std::cout << "Model: " << clean(v["model"]["name"].get<std::string>()) << " on " << v["devices"] << " x "
            << v["system"]["device_name"].get<std::string>() << " (tp " << v["plan"]["tp"] << " x pp " << v["plan"]["pp"]
            << " x dp " << v["plan"]["dp"] << "), runtime " << v["execution"]["runtime_name"].get<std::string>() << "\n";
  std::cout << "Load: " << (l["concurrency"].get<double>() > 0 ? "concurrency " + num3(l["concurrency"].get<double>())
                                                               : num3(l["request_rate"].get<double>()) + " requests/s (Poisson)")
            << ", ISL " << num3(l["isl"].get<double>()) << " (" << l["isl_distribution"].get<std::string>() << "), OSL "
            << num3(l["osl"].get<double>()) << " (" << l["osl_distribution"].get<std::string>() << "), " << num3(l["requests"].get<double>())
            << " requests" << (l["prefix_hit_rate"].get<double>() > 0 ? ", prefix hits " + pct(l["prefix_hit_rate"].get<double>() - 0) : "") << "\n";
  std::cout << "Scheduler: " << s["policy"].get<std::string>() << (s["chunked_prefill"].get<bool>() ? ", chunked prefill" : ", whole prompts")
            << ", up to " << s["max_num_seqs"] << " sequences (0: as the KV cache allows), " << s["max_num_batched_tokens"]
            << " tokens per step, KV blocks of " << s["kv_block_tokens"] << ", preemption " << s["preemption"].get<std::string>()
            << (s["stated"].get<bool>() ? "" : " (assumed: the runtime states none)") << "\n\n";
  std::cout << "Method: " << v["method"].get<std::string>() << " (p50 / p90 / p99)\n";
  print_table({{"Metric", "p50 / p90 / p99", "Steady state (mean)"},
               {"TTFT", pct_line(v["ttft_s"]), time_str(v["steady_state"]["ttft_s"]["mean"].get<double>())},
               {"TPOT", pct_line(v["tpot_s"]), time_str(v["steady_state"]["tpot_s"]["mean"].get<double>())},
               {"ITL", pct_line(v["itl_s"]), time_str(v["steady_state"]["itl_s"]["mean"].get<double>())},
               {"End-to-end", pct_line(v["e2e_s"]), time_str(v["steady_state"]["e2e_s"]["mean"].get<double>())}});
  std::cout << "\nThroughput: " << num3(v["requests_per_s"].get<double>()) << " requests/s, "
            << num3(v["output_tokens_per_s"].get<double>()) << " output tok/s ("
            << num3(v["output_tokens_per_s_per_device"].get<double>()) << " per device, "
            << num3(v["output_tokens_per_s_per_user"].get<double>()) << " per user)\n";
  std::cout << "Engine: " << num3(e["steps"].get<double>()) << " steps (" << num3(e["prefill_steps"].get<double>()) << " prefill, "
            << num3(e["mixed_steps"].get<double>()) << " mixed, " << num3(e["decode_steps"].get<double>()) << " decode), mean batch "
            << num3(e["mean_batch"].get<double>()) << ", mean step " << time_str(e["mean_step_s"].get<double>()) << ", "
            << num3(e["preemptions"].get<double>()) << " preemptions\n";
  const auto& m = v["memory"];
  std::cout << "Memory per device: weights " << bytes_str(m["weights_bytes"].get<double>()) << ", KV pool "
            << bytes_str(m["kv_bytes"].get<double>()) << " (" << num3(m["kv_tokens"].get<double>()) << " tokens, at most "
            << pct(m["kv_peak_fraction"].get<double>()).substr(1) << " used)\n";
  const auto& c = v["cost"];
  if (c["energy_available"].get<bool>())
    std::cout << "Energy: " << num3(c["j_per_output_token"].get<double>()) << " J per output token, "
              << num3(c["avg_power_W"].get<double>()) << " W on all devices\n";
  print_cost_line(c);
  for (const auto& w : v["warnings"]) std::cout << "warning: " << w["message"].get<std::string>() << "\n";
  return 0;
}

int run_deploy(const Args& a, const std::string& fmt) {
  json req = analysis_request(a);
  if (req.contains("workload") && req["workload"].empty()) req.erase("workload");
  const json v = unwrap(call("deploy", request_text(req)));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  if (fmt == "csv") {
    std::cout << "mode,xPyD,tp,pp,ep,dp,prefill_tp,devices,batch,max_num_batched_tokens,ttft_s,tpot_s,tokens_per_s_per_user,"
                 "tokens_per_s_per_device,output_tokens_per_s\n";
    for (const auto& c : v["front"])
      std::cout << c["mode"].get<std::string>() << "," << c.value("xPyD", "") << "," << c["plan"]["tp"] << "," << c["plan"]["pp"]
                << "," << c["plan"]["ep"] << "," << c["plan"]["dp"] << "," << (c.contains("prefill") ? c["prefill"]["tp"] : json(""))
                << "," << c["devices"] << "," << c["batch"] << "," << c["max_num_batched_tokens"] << "," << c["ttft_s"] << ","
                << c["tpot_s"] << "," << c["tokens_per_s_per_user"] << "," << c["tokens_per_s_per_device"] << ","
                << c["output_tokens_per_s"] << "\n";
    return 0;
  }
  std::cout << "Searched " << v["evaluated"] << " configurations over " << v["layouts"] << " parallel layouts on " << v["devices"]
            << " x " << v["system"]["device_name"].get<std::string>() << " (runtime " << v["runtime"].get<std::string>()
            << "); " << v["feasible"] << " meet the SLA\n\nPareto front (tokens/s per user against tokens/s per device):\n";
  std::vector<std::vector<std::string>> rows = {{"Deployment", "Devices", "Batch", "Tokens/step", "TTFT", "TPOT", "tok/s/user", "tok/s/device"}};
  for (const auto& c : v["front"]) {
    std::string d = c["mode"] == "disaggregated"
                        ? c["xPyD"].get<std::string>() + " P:TP" + std::to_string(c["prefill"]["tp"].get<int>()) + " D:TP" +
                              std::to_string(c["plan"]["tp"].get<int>())
                        : "TP" + std::to_string(c["plan"]["tp"].get<int>()) + " PP" + std::to_string(c["plan"]["pp"].get<int>()) +
                              (c["plan"]["ep"].get<int>() > 1 ? " EP" + std::to_string(c["plan"]["ep"].get<int>()) : "") + " x" +
                              std::to_string(c["plan"]["dp"].get<int>());
    rows.push_back({d, std::to_string(c["devices"].get<int>()), std::to_string(c["batch"].get<long long>()),
                    std::to_string(c["max_num_batched_tokens"].get<long long>()), time_str(c["ttft_s"].get<double>()),
                    time_str(c["tpot_s"].get<double>()), num3(c["tokens_per_s_per_user"].get<double>()),
                    num3(c["tokens_per_s_per_device"].get<double>())});
  }
  print_table(rows);
  if (v["best"].is_null()) {
    std::cout << "\nNo configuration meets the SLA.\n";
  } else {
    const auto& b = v["best"];
    std::cout << "\nBest under the SLA: " << b["explanation"].get<std::string>() << "\n\nLaunch it:\n  vLLM:\n"
              << b["launch"]["vllm"].get<std::string>() << "\n  SGLang:\n" << b["launch"]["sglang"].get<std::string>()
              << "\n  TensorRT-LLM:\n" << b["launch"]["trtllm"].get<std::string>() << "\n";
  }
  for (const auto& w : v["warnings"]) std::cout << "warning: " << w["message"].get<std::string>() << "\n";
  return 0;
}

}  // namespace infercast::cli
