// The validation report: in-sample errors with the shipped defaults, the class fits every runtime gets from all its
// rows (what presets/defaults/runtime_fits.json holds), and leave-one-source-out errors: for each source group, every
// runtime it measured refitted from its priors on the other groups' rows, then the group's rows forecast.
#include "validation/validation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "io/presets.hpp"
#include "util/error.hpp"
#include "validation/cases.hpp"

namespace infercast {

namespace {

double percentile(std::vector<double> v, double q) {  // nearest rank
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, k == 0 ? 0 : k - 1)];
}

std::vector<ValidationGroup> groups_of(const std::vector<ValidationRow>& rows, bool loso) {
  std::vector<ValidationGroup> out;
  for (const char* g : {"prefill", "decode", "e2e", "serving-ttft", "serving-tpot", "serving-e2e", "serving-throughput", "serving-itl-p99"}) {
    std::vector<double> abs_err, signed_err;
    for (const auto& v : rows) {
      if (!v.covered || v.group != g || (loso && !v.loso)) continue;
      const double e = loso ? v.loso_error : v.error;
      abs_err.push_back(std::fabs(e));
      signed_err.push_back(e);
    }
    out.push_back(ValidationGroup{g, static_cast<int>(abs_err.size()), percentile(abs_err, 0.5), percentile(abs_err, 0.9),
                                  percentile(signed_err, 0.5)});
  }
  return out;
}

// Serving rows are forecast with the runtimes' class fits but never fitted on: a fit times a case thousands of
// times, and a serving case is a simulation.
std::vector<const Case*> static_only(const std::vector<const Case*>& list) {
  std::vector<const Case*> out;
  for (const Case* c : list)
    if (!c->serving) out.push_back(c);
  return out;
}

// Two runtimes' class parameters equal to the 0.1% that native, sanitized and wasm builds' fits agree to.
bool same_params(const RuntimeSpec& a, const RuntimeSpec& b) {
  for (RtParam p : all_rt_params()) {
    const auto x = get_param(a, p), y = get_param(b, p);
    if (x.has_value() != y.has_value()) return false;
    if (x && std::fabs(*x - *y) > 1e-3 * std::max(std::fabs(*x), std::fabs(*y))) return false;
  }
  return true;
}

}  // namespace

ValidationReport validate(const std::vector<CsvRecord>& records, const ValidationOptions& opt) {
  ValidationReport rep;
  std::vector<Case> cases;
  build_cases(records, rep.rows, cases);

  // Cases by runtime, and the source groups each runtime was measured by.
  std::map<const RuntimeSpec*, std::vector<const Case*>> by_runtime;
  for (const auto& c : cases) by_runtime[c.rt].push_back(&c);
  // The fits' work, before any fit runs: each fit times every static case of its runtime (its step blocks) once per
  // evaluation, and leaving each source out fits again per source (docs/schema.md, "Limits").
  double fit_work = 0;
  for (const auto& [rt, all] : by_runtime) {
    double blocks = 0;
    std::set<std::string> groups;
    for (const Case* c : all) {
      groups.insert(rep.rows[c->row].source_group);
      if (c->serving) continue;
      for (const auto& st : c->stages) blocks += static_cast<double>(st.prefill.size() + st.decode.size());
    }
    fit_work += blocks * (1 + (opt.cross_validate ? static_cast<double>(groups.size()) : 0));
  }
  if (fit_work > kFitBlocks)
    throw InputError("csv.too_much_work", "/csv",
                     "CSV: fitting the runtimes would time " + std::to_string(static_cast<long long>(fit_work)) +
                         " step blocks per evaluation over every fit (each source left out refits), past the limit of " +
                         std::to_string(static_cast<long long>(kFitBlocks)) +
                         "; expected fewer rows or fewer distinct source_id values, or cross_validate false");
  std::map<const RuntimeSpec*, RuntimeSpec> fitted_all;  // each runtime fitted on all its static cases
  for (const auto& [rt, all] : by_runtime) {
    const std::vector<const Case*> list = static_only(all);
    if (list.empty()) continue;
    RuntimeFitResult f;
    f.runtime = rt->id;
    f.rows = static_cast<int>(list.size());
    std::set<std::string> groups;
    for (const Case* c : list) groups.insert(rep.rows[c->row].source_group);
    f.sources.assign(groups.begin(), groups.end());
    fitted_all.emplace(rt, fit_runtime(*rt, list, rep.rows, &f.values));
    rep.fits.push_back(f);
  }
  std::sort(rep.fits.begin(), rep.fits.end(), [](const auto& a, const auto& b) { return a.runtime < b.runtime; });

  if (opt.cross_validate) {
    std::set<std::string> all_groups;
    for (const auto& c : cases) all_groups.insert(rep.rows[c.row].source_group);
    for (const auto& g : all_groups) {
      for (const auto& [rt, list] : by_runtime) {
        std::vector<const Case*> train, test;
        for (const Case* c : list) (rep.rows[c->row].source_group == g ? test : train).push_back(c);
        if (test.empty()) continue;
        // A source that measured none of this runtime's static cases (a serving-only source) leaves its fit as it
        // is: the fit over all rows, not fitted again. Where the shipped class fit is that fit (to the 0.1% that
        // builds agree to), the row's in-sample forecast already left its source out: serving rows are never fitted
        // on, so the forecast stands and a serving run is not simulated twice.
        const std::vector<const Case*> static_train = static_only(train);
        const auto all_fit = fitted_all.find(rt);
        const bool unchanged = static_train.size() == static_only(list).size();
        const RuntimeSpec fitted = unchanged && all_fit != fitted_all.end() ? all_fit->second : fit_runtime(*rt, static_train, rep.rows);
        const bool as_shipped = unchanged && same_params(fitted, *rt);
        for (const Case* c : test) {
          ValidationRow& v = rep.rows[c->row];
          v.loso_forecast = as_shipped ? v.forecast : case_value(*c, fitted);
          v.loso_error = v.loso_forecast / v.measured - 1;
          v.loso = std::isfinite(v.loso_error);
        }
      }
    }
  }
  rep.groups = groups_of(rep.rows, false);
  if (opt.cross_validate) rep.loso_groups = groups_of(rep.rows, true);
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> per_source;
  for (const auto& v : rep.rows) {
    if (!v.covered) continue;
    auto& e = per_source[v.source_group];
    e.first.push_back(std::fabs(v.error));
    if (v.loso) e.second.push_back(std::fabs(v.loso_error));
  }
  for (const auto& [g, e] : per_source)
    rep.by_source.push_back(SourceError{g, static_cast<int>(e.first.size()), percentile(e.first, 0.5), percentile(e.second, 0.5)});
  return rep;
}

const std::string& embedded_measurements() {
  static const std::string text = [] {
    for (const auto& f : embedded_files())
      if (std::string(f.kind) == "validation" && std::string(f.name) == "measured_public.csv") return std::string(f.text);
    return std::string();
  }();
  return text;
}

std::vector<ValidationGroup> summarize(const std::vector<ValidationRow>& rows, bool loso) { return groups_of(rows, loso); }

}  // namespace infercast
