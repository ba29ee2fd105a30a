// The validation report: in-sample errors with the shipped defaults, the class fits every runtime gets from all its
// rows (what presets/defaults/runtime_fits.json holds), and leave-one-source-out errors: for each source group, every
// runtime it measured refitted from its priors on the other groups' rows, then the group's rows forecast.
#include "validation/validation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "io/defaults.hpp"
#include "io/presets.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"
#include "validation/cases.hpp"

namespace infercast {

namespace {

constexpr int kWaitFits = 6;         // the most alternations (runtimes fitted, then the wait) one fit of the wait makes
constexpr double kWaitTolUs = 0.05;  // the wait's fit stops when an alternation moves it less than this

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
  if (std::fabs(a.collective_wait_s - b.collective_wait_s) > 1e-3 * std::max(a.collective_wait_s, b.collective_wait_s)) return false;
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
  build_cases(records, rep.rows, cases, opt.check_only);
  if (opt.check_only) return rep;

  // Cases by runtime, and the source groups each runtime was measured by.
  std::map<const RuntimeSpec*, std::vector<const Case*>> by_runtime;
  for (const auto& c : cases) by_runtime[c.rt].push_back(&c);
  // Static cases whose steps wait on collectives (tensor parallelism), and the source groups that measured them.
  std::set<std::string> waiting_groups;
  std::set<const RuntimeSpec*> waiting_runtimes;
  for (const auto& c : cases)
    if (waits_on_collectives(c)) {
      waiting_groups.insert(rep.rows[c.row].source_group);
      waiting_runtimes.insert(c.rt);
    }
  // The fits' work, before any fit runs: each fit times every static case of its runtime (its step blocks) once per
  // evaluation, and leaving each source out fits again per source (docs/schema.md, "Limits"). The pooled wait's
  // fixed point (on all rows, and again without each group that measured waiting collectives) refits the runtimes
  // measured with waiting collectives at most kWaitFits times, each fitting its own wait among its parameters.
  double fit_work = 0;
  const double wait_fits = 1 + (opt.cross_validate ? static_cast<double>(waiting_groups.size()) : 0);
  for (const auto& [rt, all] : by_runtime) {
    double blocks = 0;
    std::set<std::string> groups;
    for (const Case* c : all) {
      groups.insert(rep.rows[c->row].source_group);
      if (!c->serving) blocks += case_blocks(*c);
    }
    const double refits = waiting_runtimes.count(rt) ? wait_fits * kWaitFits : 0;
    fit_work += blocks * (1 + refits + (opt.cross_validate ? static_cast<double>(groups.size()) : 0));
  }
  rep.fit_blocks = fit_work;
  if (fit_work > limit::kFitBlocks)
    throw InputError("csv.too_much_work", "/csv",
                     "CSV: fitting the runtimes would time " + std::to_string(static_cast<long long>(fit_work)) +
                         " step blocks per evaluation over every fit (each source left out refits), past the limit of " +
                         std::to_string(static_cast<long long>(limit::kFitBlocks)) +
                         "; expected fewer rows or fewer distinct source_id values, or cross_validate false");

  // Every runtime fitted on its static cases without `left_out` (a source group; "" for none), its collectives
  // waiting `wait_us`; `only` limits the fits to the runtimes measured with waiting collectives.
  const auto fit_all = [&](const std::string& left_out, double wait_us, bool only_waiting,
                           std::map<const RuntimeSpec*, std::vector<std::pair<RtParam, double>>>* values) {
    std::map<const RuntimeSpec*, RuntimeSpec> out;
    for (const auto& [rt, all] : by_runtime) {
      if (only_waiting && !waiting_runtimes.count(rt)) continue;
      std::vector<const Case*> list;
      for (const Case* c : static_only(all))
        if (rep.rows[c->row].source_group != left_out) list.push_back(c);
      RuntimeSpec base = *rt;
      // The pooled wait is each runtime's starting point and prior; a runtime measured with waiting collectives
      // fits its own (fit.cpp), the others keep the pooled one.
      base.collective_wait_s = wait_us * 1e-6;
      base.prior.resize(all_rt_params().size());
      base.prior[static_cast<std::size_t>(RtParam::CollectiveWait)] = wait_us;
      if (list.empty()) {
        if (left_out.empty()) continue;
        out.emplace(rt, fit_runtime(base, list, rep.rows));  // the priors
        continue;
      }
      out.emplace(rt, fit_runtime(base, list, rep.rows, values ? &(*values)[rt] : nullptr));
    }
    return out;
  };
  // The collectives' wait over the cases without `left_out`, fitted with the runtimes measured with waiting
  // collectives. Where no case waits, nothing measures it and the shipped wait stands.
  const auto fit_wait = [&](const std::string& left_out) {
    // The runtimes whose cases without `left_out` wait on collectives: those fit a wait of their own.
    std::set<const RuntimeSpec*> measured;
    for (const auto& c : cases)
      if (rep.rows[c.row].source_group != left_out && waits_on_collectives(c)) measured.insert(c.rt);
    double x = collective_wait_fit().wait_us;
    if (measured.empty()) return x;
    // Each runtime measured with waiting collectives fits its own wait beside its other parameters (a host loop's
    // skew across ranks is the runtime's: TensorRT-LLM's C++ executor, vLLM's Python workers); the pooled wait,
    // which the runtimes without such measurements keep, is the median of theirs, so that one runtime's class (a
    // ROCm build of 2024 on MI300X) does not set every other's. The median is each fit's prior too: iterate until
    // it moves less than the tolerance, at most kWaitFits fits.
    // g(x): the median of the runtimes' own waits, each fitted from the prior x.
    const auto g = [&](double at) {
      const auto fitted = fit_all(left_out, at, true, nullptr);
      std::vector<double> waits;
      for (const auto& [rt, spec] : fitted)
        if (measured.count(rt)) waits.push_back(spec.collective_wait_s * 1e6);
      if (waits.empty()) return at;
      std::sort(waits.begin(), waits.end());
      const std::size_t n = waits.size();
      return n % 2 ? waits[n / 2] : (waits[n / 2 - 1] + waits[n / 2]) / 2;
    };
    // Towards the fixed point g(x) = x from the shipped wait, each pair of steps extrapolated (Aitken) as they
    // converge geometrically; until a step moves less than the tolerance, at most kWaitFits evaluations.
    int fits = 0;
    double last = x;
    while (fits < kWaitFits) {
      const double x1 = last = g(x);
      ++fits;
      if (std::fabs(x1 - x) < kWaitTolUs || fits >= kWaitFits) break;
      const double x2 = last = g(x1);
      ++fits;
      if (std::fabs(x2 - x1) < kWaitTolUs) break;
      const double d1 = x1 - x, d2 = x2 - x1, r = d2 / d1;
      x = r > 0 && r < 1 ? std::clamp(x2 + d2 * r / (1 - r), 0.5, 200.0) : x2;
    }
    return last;
  };

  const double wait_us = fit_wait("");
  rep.collective_wait_us = wait_us;
  rep.collective_wait_fitted = !waiting_groups.empty();
  rep.collective_wait_sources.assign(waiting_groups.begin(), waiting_groups.end());
  for (const auto& c : cases) rep.collective_wait_rows += waits_on_collectives(c);
  std::map<const RuntimeSpec*, std::vector<std::pair<RtParam, double>>> values;
  const std::map<const RuntimeSpec*, RuntimeSpec> fitted_all = fit_all("", wait_us, false, &values);
  for (const auto& [rt, spec] : fitted_all) {
    RuntimeFitResult f;
    f.runtime = rt->id;
    std::set<std::string> groups;
    for (const Case* c : static_only(by_runtime[rt])) {
      groups.insert(rep.rows[c->row].source_group);
      ++f.rows;
    }
    f.sources.assign(groups.begin(), groups.end());
    f.values = values[rt];
    rep.fits.push_back(f);
  }
  std::sort(rep.fits.begin(), rep.fits.end(), [](const auto& a, const auto& b) { return a.runtime < b.runtime; });

  if (opt.cross_validate) {
    std::set<std::string> all_groups;
    for (const auto& c : cases) all_groups.insert(rep.rows[c.row].source_group);
    for (const auto& g : all_groups) {
      // A group that measured waiting collectives refits the wait without itself; any other leaves it as fitted on
      // all rows (its cases move the wait only through the runtimes' fits, a second-order effect not refitted).
      const double wait_g = waiting_groups.count(g) ? fit_wait(g) : wait_us;
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
        const bool unchanged = static_train.size() == static_only(list).size() && wait_g == wait_us;
        RuntimeSpec base = *rt;
        base.collective_wait_s = wait_g * 1e-6;
        const RuntimeSpec fitted = unchanged && all_fit != fitted_all.end() ? all_fit->second : fit_runtime(base, static_train, rep.rows);
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
