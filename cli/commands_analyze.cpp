// analyze, batching and quant-sweep: one device or a plan over several, as tables, CSV or JSON.
#include <iostream>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

namespace {

// The core's memory.remedies (core/analysis/remedies.hpp) as this command's flags say them: "a, b or c".
std::string remedies_text(const json& codes) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"raise_memory_fraction", "a larger memory fraction (--memory-fraction)"},
      {"smaller_format", "a smaller format (--weights)"},
      {"offload_layers", "layers in system RAM (--gpu-layers)"},
      {"fewer_requests", "fewer or shorter requests"},
      {"more_devices", "several devices (--system)"}};
  std::vector<std::string> said;
  for (const auto& c : codes)
    for (const auto& [code, words] : kWords)
      if (c == code) said.emplace_back(words);
  std::string out;
  for (std::size_t i = 0; i < said.size(); ++i) out += (i == 0 ? "" : i + 1 == said.size() ? ", or " : ", ") + said[i];
  return out;
}

// What the KV cache holds per sequence whatever its context: recurrent state, the images' keys and values.
std::string state_note(const json& mem) {
  const double image = mem.value("image_kv_bytes", 0.0), recurrent = mem["state_bytes"].get<double>() - image;
  std::string out;
  if (recurrent > 0) out += "; of which " + bytes_str(recurrent) + " recurrent state, constant per sequence";
  if (image > 0) out += "; of which " + bytes_str(image) + " the images' keys and values (cross-attention), constant per sequence";
  return out;
}

void print_offload(const json& o) {
  const auto& d = o["device"];
  const auto& h = o["host_part"];
  const int L = o["layers"].get<int>();
  std::cout << "Offload: " << o["gpu_layers"] << " of " << L + 1 << " layers on the device (llama.cpp -ngl "
            << o["gpu_layers"] << (o["chosen"].get<bool>() ? ", the most that fit" : "") << "): layers " << d["first_layer"] << "-"
            << L - 1 << (d["output"].get<bool>() ? " and the output layer" : "") << "; the host ("
            << o["host"]["name"].get<std::string>() << ", " << num3(o["host"]["memory_tiers"][0]["bandwidth_GBps"].get<double>())
            << " GB/s) holds the token embedding" << (h["layers"].get<int>() > 0 ? ", layers 0-" + std::to_string(h["layers"].get<int>() - 1) : "")
            << (h["output"].get<bool>() ? " and the output layer" : "") << "\n";
  std::cout << "  device: " << bytes_str(d["required_bytes"].get<double>()) << " of " << bytes_str(d["capacity_bytes"].get<double>())
            << (d["fits"].get<bool>() ? " (fits)" : " (DOES NOT FIT)") << ", prefill " << time_str(d["prefill_s"].get<double>())
            << ", TPOT " << time_str(d["tpot_s"].get<double>()) << "\n";
  std::cout << "  host:   " << bytes_str(h["required_bytes"].get<double>()) << " of " << bytes_str(h["capacity_bytes"].get<double>())
            << (h["fits"].get<bool>() ? " (fits)" : " (DOES NOT FIT)") << ", prefill " << time_str(h["prefill_s"].get<double>())
            << (h["prefill_streamed"].get<bool>() ? " (on the device, weights copied over the " + num3(o["link_GBps"].get<double>()) +
                                                         " GB/s link: " + time_str(h["stream_s"].get<double>()) + ")"
                                                   : " (on the host)")
            << ", TPOT " << time_str(h["tpot_s"].get<double>()) << "\n";
}

void print_analysis_table(const json& r) {
  const auto& m = r["model"];
  std::cout << "Model: " << clean(m["name"].get<std::string>()) << " (" << m["model_type"].get<std::string>() << "), "
            << m["params_total"].get<long long>() << " parameters, " << m["params_active"].get<long long>()
            << " active per token (input embedding included)\n";
  for (const auto& w : m["warnings"]) std::cout << "warning: " << clean(w["message"].get<std::string>()) << "\n";
  const auto& wl = r["workload"];
  if (wl["image_tokens"].get<long long>() > 0) {
    // Each image's tokens join every new prompt; the encoder runs before the prefill (docs/formulas.md, "Vision encoders").
    std::cout << "Images: " << wl["images"].size() << " per new prompt (" << m["vision_encoder"].get<std::string>() << " encoder):";
    const char* sep = " ";
    for (const auto& im : wl["images"]) {
      std::cout << sep << im["width"].get<long long>() << "x" << im["height"].get<long long>() << " " << im["tokens"].get<long long>()
                << " tokens";
      sep = ", ";
    }
    std::cout << "; " << wl["image_tokens"].get<long long>() << " tokens join each prompt";
    std::cout << "\n";
  }
  for (const auto& w : r["warnings"]) std::cout << "note: " << clean(w["message"].get<std::string>()) << "\n";
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
            << bytes_str(mem["kv_cache_bytes"].get<double>()) << " (at the end of the workload"
            << state_note(mem)
            << ") + activations "
            << bytes_str(mem["activation_peak_bytes"].get<double>())
            << (mem["compute_buffer_bytes"].is_number() ? " (the compute buffer " + (r.contains("execution") ? r["execution"]["runtime_name"].get<std::string>() : std::string("the runtime")) + " reserves)" : std::string())
            << " = " << bytes_str(mem["required_bytes"].get<double>()) << "\n";
  if (hw && r.contains("parallel")) {
    std::cout << "(The whole model, counted above, is split as the plan below says; on one "
              << r["hardware"]["name"].get<std::string>() << " it would need " << bytes_str(mem["required_bytes"].get<double>())
              << " of " << bytes_str(mem["capacity_bytes"].get<double>()) << ".)\n";
  } else if (hw) {
    std::cout << "Device: " << r["hardware"]["name"].get<std::string>() << ", usable "
              << bytes_str(mem["capacity_bytes"].get<double>()) << " of " << bytes_str(mem["physical_capacity_bytes"].get<double>())
              << (mem["reserve_bytes"].get<double>() > 0 ? " (" + bytes_str(mem["reserve_bytes"].get<double>()) + " kept by the driver and OS)" : "")
              << (mem["runtime_usable_bytes"].is_null() ? std::string()
                                                        : ", within " + r["execution"]["runtime_name"].get<std::string>() + "'s memory fraction")
              << (mem["fits"].get<bool>()
                      ? (mem["fits_first_tier"].get<bool>() ? ": fits" : ": fits only by spilling to slower tiers")
                      // What would make it fit: the core's list (memory.remedies), in this command's flags.
                      : ": DOES NOT FIT (the times below as if it spilled to the slowest tier); try " + remedies_text(mem["remedies"]))
              << "\n";
    // The user's first question's other half: how many such requests, and how long a context (audit H).
    const double mb = mem["max_batch"].get<double>(), mc = mem["max_context"].get<double>();
    const auto whole = [](double v) { return std::to_string(static_cast<long long>(v)); };
    if (mb >= 1)
      std::cout << "Holds at most " << whole(mb) << (mb == 1 ? " request" : " requests") << " like these; at a batch of "
                << whole(r["workload"]["batch_requests"].get<double>()) << ", "
                << (mc >= 1 ? whole(mc) + " tokens of context each (bounded by " +
                                  (mem["max_context_limit"] == "window" ? std::string("the model's window") : std::string("memory")) + ")"
                            : std::string("no context")) << "\n";
    else
      std::cout << "Holds no request like these\n";
    const auto& pk = r["peak"];
    if (pk["memory_only"].get<bool>()) {
      std::cout << "Peak: none (times count memory and dispatch only: a lower bound, not a forecast)\n";
    } else {
      // A CPU's vector units (the runtime keeps the type off its matrix engine): their rate, derived.
      const bool vector = pk.contains("units") && pk["units"] == "vector";
      std::cout << "Peak: " << pk["dtype"].get<std::string>() << " " << num3(pk["TFLOPS"].get<double>()) << " TFLOPS dense"
                << (vector ? " on the vector units (estimated)" : pk["estimated"].get<bool>() ? " (estimated)" : " (published)") << "\n";
      if (pk["estimated"].get<bool>()) {
        // The arithmetic for the type used: its segment of the derivation ("bf16: 48 SMs x 512 FLOP/clock x ...",
        // "vector bf16: ...").
        const std::string d = pk["derivation"].get<std::string>(),
                          key = (vector ? "vector " : "") + pk["dtype"].get<std::string>() + ": ";
        const auto at = d.find(key);
        if (at != std::string::npos) std::cout << "  derived: " << d.substr(at + key.size(), d.find("; ", at) - at - key.size()) << "\n";
      }
    }
    std::cout << "TTFT " << time_str(r["ttft_s"].get<double>()) << ", TPOT mean " << time_str(r["decode"]["tpot_s"].get<double>())
              << " (first " << time_str(r["decode"]["tpot_first_s"].get<double>()) << ", last "
              << time_str(r["decode"]["tpot_last_s"].get<double>()) << "), " << num3(r["decode"]["tokens_per_s"].get<double>())
              << " tok/s per sequence, " << num3(r["decode"]["batch_tokens_per_s"].get<double>()) << " tok/s batch, end-to-end "
              << time_str(r["e2e_s"].get<double>()) << "\n";
    if (r.contains("offload")) print_offload(r["offload"]);
    if (!r.contains("cost")) return;
    const auto& c = r["cost"];
    if (c["energy_available"].get<bool>()) {
      std::cout << "Energy: prefill " << num3(c["prefill"]["j_per_token"].get<double>()) << " J/token, decode "
                << num3(c["decode"]["j_per_token"].get<double>()) << " J/token (" << num3(c["decode"]["tokens_per_j"].get<double>())
                << " tokens/J), " << num3(c["busy_power_W"].get<double>()) << " W while busy\n";
    }
    print_cost_line(c);
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
    std::vector<std::vector<std::string>> c = {{"What", "Collective", "Algorithm", "Devices", "Link", "Calls", "Bytes", "Waits", "Time"}};
    double waits = 0;
    for (const auto& l : lines) {
      waits += l["wait_s"].get<double>();
      c.push_back({l["what"], l["collective"], l["algorithm"], std::to_string(l["participants"].get<int>()), l["link"],
                   num3(l["calls"].get<double>()), bytes_str(l["bytes"].get<double>()), time_str(l["wait_s"].get<double>()),
                   time_str(l["seconds"].get<double>())});
    }
    c.push_back({"Total", "", "", "", "", "", "", time_str(waits), time_str(p["communication"][std::string(phase) + "_s"].get<double>())});
    print_table(c);
  }
  std::cout << "\nTTFT " << time_str(p["ttft_s"].get<double>()) << ", TPOT mean " << time_str(p["tpot_s"].get<double>())
            << " (first " << time_str(p["tpot_first_s"].get<double>()) << ", last " << time_str(p["tpot_last_s"].get<double>())
            << "), " << num3(p["tokens_per_s"].get<double>()) << " tok/s per sequence, " << num3(p["total_tokens_per_s"].get<double>())
            << " tok/s in all, " << num3(p["tokens_per_s_per_device"].get<double>()) << " tok/s per device, end-to-end "
            << time_str(p["e2e_s"].get<double>()) << "\n";
  std::cout << "Per device: " << bytes_str(p["device_required_bytes"].get<double>()) << " of "
            << bytes_str(p["device_capacity_bytes"].get<double>()) << (p["fits"].get<bool>() ? " (fits)" : " (DOES NOT FIT)")
            << "; largest batch per replica that fits " << num3(p["max_batch"].get<double>())
            << (p["max_context"].is_number() && p["max_context"].get<double>() >= 1
                    ? "; at a batch of " + std::to_string(static_cast<long long>(r["workload"]["batch_requests"].get<double>())) + ", " +
                          std::to_string(static_cast<long long>(p["max_context"].get<double>())) + " tokens of context each"
                    : std::string())
            << "\n";
  for (const auto& w : p["warnings"]) std::cout << "note: " << w["message"].get<std::string>() << "\n";
  if (r.contains("speculative")) {
    const auto& s = r["speculative"];
    std::cout << "Speculative decoding (" << s["draft"].get<std::string>() << ", " << s["draft_tokens"] << " drafted, acceptance "
              << num3(s["acceptance"].get<double>()) << "): " << num3(s["tokens_per_step"].get<double>())
              << " tokens per step (mean acceptance length; " << num3(100 * s["draft_acceptance_rate"].get<double>())
              << "% of drafted tokens accepted), draft " << time_str(s["draft_step_s"].get<double>()) << " per token, verification "
              << time_str(s["verify_step_s"].get<double>()) << ", TPOT " << time_str(s["tpot_s"].get<double>()) << " ("
              << num3(s["speedup"].get<double>()) << "x); the draft's prefill " << time_str(s["draft_prefill_s"].get<double>())
              << " is in TTFT\n";
  }
  // The plan's energy and cost, over every stage's devices and replicas (the JSON's `cost`).
  if (r.contains("cost")) {
    const auto& c = r["cost"];
    if (c["energy_available"].get<bool>())
      std::cout << "Energy: prefill " << num3(c["prefill"]["j_per_token"].get<double>()) << " J/token, decode "
                << num3(c["decode"]["j_per_token"].get<double>()) << " J/token, " << num3(c["busy_power_W"].get<double>())
                << " W while busy (all devices)\n";
    print_cost_line(c);
  }
}

}  // namespace

int run_analyze(const Args& a, const std::string& fmt) {
  const json r = unwrap(call("analyze", request_text(analysis_request(a))));
  if (fmt == "json") std::cout << r.dump(2) << "\n";
  else if (fmt == "csv") print_csv(r);
  else {
    print_analysis_table(r);
    if (r.contains("parallel")) print_plan(r);
  }
  return 0;
}

int run_batching(const Args& a, const std::string& fmt) {
  const json v = unwrap(call("batching", request_text(analysis_request(a))));
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
  for (const auto& w : v["warnings"]) std::cout << "note: " << clean(w["message"].get<std::string>()) << "\n";
  return 0;
}

int run_quant_sweep(const Args& a, const std::string& fmt) {
  for (const char* f : {"--weights", "--kv"})
    if (a.has(f)) die(std::string(f) + " is what quant-sweep varies; give the list with --sweep" + (f + 1));
  json req = analysis_request(a);
  if (!req.contains("sweep")) req["sweep"] = json::object();
  const json v = unwrap(call("quant_sweep", request_text(req)));
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
  std::cout << "Model: " << clean(v["model"].get<std::string>()) << (hw ? ", device: " + v["hardware"].get<std::string>() : "")
            << ", activations " << v["activations"].get<std::string>() << "\n";
  if (v.contains("plan"))
    std::cout << "Plan: tp " << v["plan"]["tp"] << " x pp " << v["plan"]["pp"] << " x dp " << v["plan"]["dp"] << " on "
              << v["system"].get<std::string>() << "; memory per device, throughput of every replica\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"weights", "bits", "kv", "bits", "weights", "KV cache", v.contains("plan") ? "per device" : "total"};
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

}  // namespace infercast::cli
