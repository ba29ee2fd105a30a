// sweep and pareto: a hardware design space, its sampled points and its Pareto front.
#include <iostream>
#include <set>
#include <sstream>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

namespace {

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
    const std::vector<std::string> parts = split_items("--axis", rest, ':');
    if (parts.size() < 3 || parts.size() > 4) die("--axis \"" + text + "\": expected MIN:MAX:STEPS[:log|linear]");
    ax["min"] = num(parts[0]);
    ax["max"] = num(parts[1]);
    ax["steps"] = integer("--axis steps", parts[2]);
    if (parts.size() == 4) ax["scale"] = parts[3];
  } else {
    json values = json::array();
    for (const auto& v : split_commas("--axis", rest)) values.push_back(num(v));
    ax["values"] = values;
  }
  return ax;
}

int sweep(const Args& a, const std::string& fmt, bool front_only) {
  json req = analysis_request(a);
  if (!a.has("--axis")) die("--axis is required: give 1 to 5, e.g. --axis compute_TFLOPS=100:2000:20 --axis bandwidth_GBps=500,1000,3350");
  json axes = json::array();
  for (const auto& t : a.values.at("--axis")) axes.push_back(parse_axis(t));
  req["axes"] = axes;
  if (a.has("--allow-spill")) {
    const std::string v = a.one("--allow-spill");
    if (v != "yes" && v != "no") die("--allow-spill holds \"" + v + "\"; expected yes or no");
    req["constraints"]["must_fit"] = v == "no";
  }
  if (front_only) req["keep_points"] = 0;  // pareto lists the front only: no sample (--keep is sweep's alone)
  const json v = unwrap(call("sweep", request_text(req)));
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
  std::set<double> on_front;
  for (const auto& f : v["front"]) {
    row_of(f["params"], f["objectives"], true);
    on_front.insert(f["id"].get<double>());
  }
  if (!front_only) {
    const auto& sp = v["sample"]["params"];
    const auto& so = v["sample"]["objectives"];
    const auto& ids = v["sample"]["id"];
    const std::size_t n = v["sample"]["count"].get<std::size_t>();
    for (std::size_t i = 0; i < n; ++i) {
      if (on_front.count(ids[i].get<double>())) continue;  // a front point is listed once, with the front
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
  std::cout << "Model: " << clean(v["model"].get<std::string>()) << ", base device: " << v["base"]["name"].get<std::string>() << "\n"
            << v["points"] << " design points, " << v["feasible"] << " feasible, " << v["front"].size()
            << " on the Pareto front of " << v["objectives"].dump() << (v["derived_power"].get<bool>() ? "; power follows compute and bandwidth" : "") << "\n";
  for (const auto& w : v["warnings"]) std::cout << "note: " << w["message"].get<std::string>() << "\n";
  print_table(rows);
  return 0;
}

}  // namespace

int run_sweep(const Args& a, const std::string& format) { return sweep(a, format, false); }
int run_pareto(const Args& a, const std::string& format) { return sweep(a, format, true); }

}  // namespace infercast::cli
