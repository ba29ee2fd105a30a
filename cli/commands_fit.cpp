// validate and calibrate: forecasts against measurements, and a device's efficiencies fitted to a user's own.
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/output.hpp"

namespace infercast::cli {

namespace {

// Writes a file a flag names, or exits 2 naming the flag, the file and why (a full disk included).
void write_or_die(const std::string& flag, const std::string& path, const std::string& text) {
  const std::string why = write_text_file(path, text);
  if (!why.empty()) die(flag + ": cannot write " + path + " (" + why + ")");
}

// A summary table's row: a group with no rows has no errors to show ("-", never 0.0%).
std::vector<std::string> summary_row(const std::string& name, const json& g) {
  const int n = g["rows"].get<int>();
  if (n == 0) return {name, "0", "-", "-", "-"};
  return {name, std::to_string(n), pct(g["median_abs_error"].get<double>()).substr(1), pct(g["p90_abs_error"].get<double>()).substr(1),
          pct(g["median_signed_error"].get<double>())};
}

// --class, --device and --measured-runtime select rows to summarize apart: a selection of no covered row (a typo)
// would show 0.0% errors, so it is refused, naming the flag that matches nothing and what the rows hold.
void check_selection(const Args& a, const json& v) {
  if (!v.contains("selection")) return;
  int selected = 0;
  for (const auto& g : v["selection"]["groups"]) selected += g["rows"].get<int>();
  if (selected > 0) return;
  const auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  struct Filter {
    const char* flag;
    const char* field;
    bool fold;  // runtimes match whatever their case
  };
  std::vector<std::string> given;
  for (const Filter& f : {Filter{"--class", "hardware_class", false}, Filter{"--device", "hardware_id", false},
                          Filter{"--measured-runtime", "runtime", true}}) {
    if (!a.has(f.flag)) continue;
    given.push_back(std::string(f.flag) + " " + quote_text(a.one(f.flag), 200));
    std::set<std::string> held;
    for (const auto& r : v["rows"])
      if (r["covered"].get<bool>() && r.contains(f.field) && r[f.field].is_string() && !r[f.field].get<std::string>().empty())
        held.insert(f.fold ? lower(r[f.field].get<std::string>()) : r[f.field].get<std::string>());
    const std::string want = f.fold ? lower(a.one(f.flag)) : a.one(f.flag);
    if (held.count(want)) continue;
    std::string list;
    std::size_t i = 0;
    for (const auto& h : held) list += (i++ == 0 ? "" : i == held.size() ? " or " : ", ") + h;
    die(std::string(f.flag) + " holds " + quote_text(a.one(f.flag), 200) + ", which no forecast row has" +
        (held.empty() ? "; these measurements have no forecast row" : "; expected " + list));
  }
  std::string both;
  for (std::size_t i = 0; i < given.size(); ++i) both += (i == 0 ? "" : i + 1 == given.size() ? " and " : ", ") + given[i];
  die(both + " select no forecast row together; each matches rows alone");
}

}  // namespace

int run_validate(const Args& a, const std::string& fmt) {
  json req = json::object();
  if (a.has("--csv")) {
    try {
      req["csv"] = read_text_file(a.one("--csv"));
    } catch (const InputError& e) {
      die(std::string(e.what()) + " [" + e.code() + "]");
    }
  }
  apply_simple_flags(a, req);
  if (a.has("--no-cross-validate")) req["cross_validate"] = false;
  const json v = unwrap(call("validate", request_text(req)));
  check_selection(a, v);
  // --fit FILE: the class fits of every runtime, as presets/defaults/runtime_fits.json holds them.
  if (a.has("--write-fits")) {
    // "N rows from S1, S2": what a fit was made over.
    const auto basis = [](const json& f) {
      std::string b = std::to_string(f["rows"].get<int>()) + " rows from ";
      for (std::size_t i = 0; i < f["sources"].size(); ++i) b += (i ? ", " : "") + f["sources"][i].get<std::string>();
      return b;
    };
    json fits = json::array();
    for (const auto& f : v["fits"]) fits.push_back({{"runtime", f["runtime"]}, {"basis", basis(f)}, {"values", f["values"]}});
    const json& cw = v["collective_wait"];
    const json wait = {{"wait_us", cw["wait_us"]},
                       {"basis", cw["fitted"].get<bool>() ? basis(cw)
                                                          : "not refitted: these measurements have no tensor-parallel static rows, so the shipped value stands"}};
    const json doc = {{"schema_version", 1},
                      {"source", "Fitted over whole classes (one runtime, every memory family it was measured on) against "
                                 "presets/validation/measured_public.csv by `infercast validate --write-fits`, starting from each "
                                 "preset's physics priors, each source group weighted equally; regenerated and checked by the test "
                                 "'runtime fits are what validate gives' (docs/forecast.md, \"Fitted over classes\")."},
                      {"collective_wait", wait},
                      {"fits", fits}};
    write_or_die("--write-fits", a.one("--write-fits"), doc.dump(2) + "\n");
  }
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  if (fmt == "csv") {
    // The text cells come from the user's CSV: quoted as RFC 4180 asks, a formula's first character neutralized.
    const auto cell = [](const json& x) { return csv_text(x.get<std::string>()); };
    std::cout << "row_id,group,model,hardware,weights,batch,prompt,gen,metric,unit,measured,forecast,error\n";
    for (const auto& r : v["rows"]) {
      if (!r["covered"].get<bool>()) continue;
      std::cout << cell(r["row_id"]) << "," << cell(r["group"]) << "," << cell(r["model_id"]) << "," << cell(r["hardware_id"]) << ","
                << cell(r["weights"]) << "," << r["batch"] << "," << r["prompt"] << "," << r["gen"] << "," << cell(r["metric"]) << ","
                << csv_text(r["unit"].get<std::string>(), true) << "," << r["measured"] << "," << r["forecast"] << "," << r["error"] << "\n";
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
  for (const auto& g : v["groups"]) sum.push_back(summary_row(g["group"], g));
  std::cout << "In sample (the shipped defaults, fitted with every source):\n";
  print_table(sum);
  if (v.contains("selection")) {
    const auto& sel = v["selection"];
    std::cout << "\nSelection:" << (sel["hardware_class"] != "" ? " class " + sel["hardware_class"].get<std::string>() : "")
              << (sel["hardware_id"] != "" ? " device " + sel["hardware_id"].get<std::string>() : "")
              << (sel["runtime_id"] != "" ? " runtime " + sel["runtime_id"].get<std::string>() : "") << "\n";
    std::vector<std::vector<std::string>> s2 = {{"group", "rows", "median |error|", "p90 |error|", "median error"}};
    for (const auto& g : sel["groups"]) s2.push_back(summary_row(g["group"], g));
    std::cout << "In sample:\n";
    print_table(s2);
    if (sel.contains("loso_groups")) {
      std::vector<std::vector<std::string>> s3 = {{"group", "rows", "median |error|", "p90 |error|", "median error"}};
      for (const auto& g : sel["loso_groups"]) s3.push_back(summary_row(g["group"], g));
      std::cout << "Leaving each source out:\n";
      print_table(s3);
    }
  }
  if (v.contains("cross_validation")) {
    const json& cv = v["cross_validation"];
    std::vector<std::vector<std::string>> loso = {{"group", "rows", "median |error|", "p90 |error|", "median error"}};
    for (const auto& [name, g] : cv["groups"].items()) loso.push_back(summary_row(name, g));
    std::cout << "\nLeave one source out (each source's rows forecast with every fit made without them; the figure we quote):\n";
    print_table(loso);
    std::vector<std::vector<std::string>> src = {{"source", "rows", "in sample", "left out"}};
    for (const auto& s : cv["by_source"])
      src.push_back({s["source"], std::to_string(s["rows"].get<int>()), pct(s["in_sample_median_abs_error"].get<double>()).substr(1),
                     pct(s["loso_median_abs_error"].get<double>()).substr(1)});
    std::cout << "\nMedian |error| by source:\n";
    print_table(src);
  }
  return 0;
}

int run_calibrate(const Args& a, const std::string& fmt) {
  if (!a.has("--hardware")) die("--hardware is required");
  if (!a.has("--point") && !a.has("--measurements"))
    die("--point or --measurements is required: give measured points (see infercast calibrate --help)");
  if (a.has("--point") && a.has("--measurements")) die("--point cannot be combined with --measurements; give either");
  json req = json::object();
  apply_simple_flags(a, req);
  if (a.has("--model")) req["model"] = document(a.one("--model"));
  if (a.has("--measurements")) {
    try {
      req["measurements"] = read_text_file(a.one("--measurements"));
    } catch (const InputError& e) {
      die("--measurements: " + std::string(e.what()) + " [" + e.code() + "]");
    }
  }
  json points = json::array();
  for (const auto& text : a.has("--point") ? a.values.at("--point") : std::vector<std::string>{}) {
    json p = json::object(), wl = json::object(), prec = json::object();
    std::set<std::string> seen;
    for (const std::string& kv : split_commas("--point", text)) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) die("--point \"" + text + "\": \"" + kv + "\" is not key=value");
      const std::string k = kv.substr(0, eq), val = kv.substr(eq + 1);
      if (!seen.insert(k).second) die("--point \"" + text + "\": key \"" + k + "\" is given twice; give it once");
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
  if (!points.empty()) req["points"] = points;
  const json v = unwrap(call("calibrate", request_text(req)));
  if (a.has("--save")) write_or_die("--save", a.one("--save"), v["hardware"].dump(2) + "\n");
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"efficiency", "start", "fitted"}};
  for (const auto& [k, val] : v["start"].items()) rows.push_back({k, num3(val.get<double>()), num3(v["fitted"][k].get<double>())});
  print_table(rows);
  std::cout << "\n";
  if (v.contains("measurements"))
    for (const auto& n : v["measurements"]["notes"]) std::cout << "note: " << n.get<std::string>() << "\n";
  std::vector<std::vector<std::string>> pts = {{"point", "metric", "measured", "before", "after", "error after"}};
  int i = 0;
  for (const auto& p : v["points"])
    pts.push_back({p.contains("label") ? p["label"].get<std::string>() : std::to_string(i + 1), p["metric"],
                   num3(p["measured"].get<double>()), num3(p["forecast_before"].get<double>()),
                   num3(p["forecast_after"].get<double>()), pct(p["error_after"].get<double>())}),
        ++i;
  print_table(pts);
  std::cout << "\nRMS log error: " << num3(v["rms_log_error_before"].get<double>()) << " before, "
            << num3(v["rms_log_error_after"].get<double>()) << " after (" << v["evaluations"] << " forecasts)\n";
  if (a.has("--save")) std::cout << "Saved the calibrated device to " << a.one("--save") << "\n";
  return 0;
}

}  // namespace infercast::cli
