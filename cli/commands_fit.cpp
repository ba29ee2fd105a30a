// validate and calibrate: forecasts against measurements, and a device's efficiencies fitted to a user's own.
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

int run_validate(const Args& a, const std::string& fmt) {
  json req = json::object();
  if (a.has("--csv")) {
    try {
      req["csv"] = read_text_file(a.one("--csv"));
    } catch (const InputError& e) {
      die(e.what());
    }
  }
  const json v = unwrap(call("validate", request_text(req)));
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

int run_calibrate(const Args& a, const std::string& fmt) {
  if (!a.has("--hardware")) die("--hardware is required");
  if (!a.has("--point")) die("--point is required: give at least one measured point (see infercast calibrate --help)");
  json req = json::object();
  apply_simple_flags(a, req);
  if (a.has("--model")) req["model"] = document(a.one("--model"));
  json points = json::array();
  for (const auto& text : a.values.at("--point")) {
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
          const double d = std::stod(val, &used);
          if (used != val.size() || !std::isfinite(d)) throw std::invalid_argument(val);
          p["value"] = d;
        } catch (...) {
          die("--point \"" + text + "\": value holds \"" + val + "\"; expected a number");
        }
      } else if (k == "batch" || k == "prompt" || k == "gen" || k == "cached") wl[k] = integer("--point " + k, val);
      else if (k == "weights" || k == "activations" || k == "kv") prec[k] = val;
      else if (k == "model") p["model"] = document(val);
      else die("--point \"" + text + "\": unknown key \"" + k + "\"; expected metric, value, batch, prompt, gen, cached, weights, activations, kv or model");
    }
    if (!wl.empty()) p["workload"] = wl;
    if (!prec.empty()) p["precision"] = prec;
    points.push_back(p);
  }
  req["points"] = points;
  const json v = unwrap(call("calibrate", request_text(req)));
  if (a.has("--save")) {
    std::ofstream out(a.one("--save"));
    if (!out) die("cannot write " + a.one("--save"));
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
  if (a.has("--save")) std::cout << "Saved the calibrated device to " << a.one("--save") << "\n";
  return 0;
}

}  // namespace infercast::cli
