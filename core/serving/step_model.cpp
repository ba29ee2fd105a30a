#include "serving/step_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/gemm_shape.hpp"
#include "analysis/steps.hpp"
#include "ops/geometry.hpp"

namespace infercast {

namespace {

// Token counts the tables are exact at: every count to 16, then steps of 12%, the graph-capture boundary on both
// sides, and the largest.
std::vector<double> token_grid(double max, double graph) {
  max = std::max(1.0, std::ceil(max));
  std::set<double> g;
  for (double i = 1; i <= std::min(16.0, max); ++i) g.insert(i);
  for (double v = 16; v < max;) {
    v = std::ceil(v * 1.12);
    g.insert(std::min(v, max));
  }
  g.insert(max);
  if (graph > 0 && graph <= max) g.insert(graph);
  if (graph > 0 && graph + 1 <= max) g.insert(graph + 1);
  return {g.begin(), g.end()};
}

// Where `v` falls on `grid`: the lower index and the fraction towards the next (beyond the ends: extrapolated from
// the last two points, clamped at the first).
void locate(const std::vector<double>& grid, double v, std::size_t& j, double& f) {
  if (grid.size() < 2) {
    j = 0;
    f = 0;
    return;
  }
  if (v <= grid.front()) {
    j = 0;
    f = 0;
    return;
  }
  const auto it = std::upper_bound(grid.begin(), grid.end(), v);
  j = it == grid.end() ? grid.size() - 2 : static_cast<std::size_t>(it - grid.begin()) - 1;
  f = (v - grid[j]) / (grid[j + 1] - grid[j]);
}

// A one-point grid (a run whose steps never exceed one token or one request) has no next point to read.
double lerp(const std::vector<double>& y, std::size_t j, double f) {
  if (y.empty()) return 0;
  return j + 1 < y.size() ? y[j] + f * (y[j + 1] - y[j]) : y[j];
}

double efficiency_of(const Execution& x, const OpTerms& o) {
  if (o.low) return x.eff.gemm_low;
  switch (o.cls) {
    case OpClass::GEMM: return x.eff.gemm;
    case OpClass::Attention: return x.eff.attention;
    default: return x.eff.elementwise;
  }
}

bool same_costs(const Op& a, const Op& b) {
  return a.flops == b.flops && a.weight_bytes == b.weight_bytes && a.act_read_bytes == b.act_read_bytes &&
         a.act_write_bytes == b.act_write_bytes && a.kv_read_bytes == b.kv_read_bytes && a.kv_write_bytes == b.kv_write_bytes;
}

// Solves the 3x3 system A x = b (Cramer's rule); false when singular.
bool solve3(const double A[3][3], const double b[3], double x[3]) {
  const auto det = [](const double M[3][3]) {
    return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
           M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  };
  const double d = det(A);
  if (std::fabs(d) < 1e-300) return false;
  for (int k = 0; k < 3; ++k) {
    double M[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) M[r][c] = c == k ? b[r] : A[r][c];
    x[k] = det(M) / d;
  }
  return true;
}

}  // namespace

StepModel::StepModel(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan, double max_tokens,
                     double max_decode)
    : sys_(sys), plan_(plan), w_(w) {
  ParallelPlan one = plan;
  one.dp = 1;
  plan_ = one;
  stages_ = plan_stages(m, one, sys);
  const HardwareSpec& hw = sys.device;
  x_ = resolve_execution(hw, w.runtime);
  const double bw = hw.tiers.empty() ? 0 : hw.tiers.front().bandwidth_bytes_per_s;
  const double inv = bw > 0 ? 1 / bw : 0;
  inv_ = TierCost{inv, inv, inv};
  causal_ = w.settings.convention.causal_pairs && w.settings.attention == AttnImpl::Fused;
  for (const auto& st : stages_) {
    groups_.push_back(group_layers(st.model));
    for (const auto& g : groups_.back()) {
      const std::pair<i64, i64> key{g.spec.attn.window, g.spec.attn.chunk};
      if (std::find(geo_.begin(), geo_.end(), key) != geo_.end()) continue;
      if (geo_.size() >= kMaxGeometries)
        throw InputError("serving.unsupported", "/model",
                         m.name + " has more than " + std::to_string(kMaxGeometries) +
                             " distinct attention windows; the serving model handles at most that many");
      geo_.push_back(key);
      geo_spec_.push_back(g.spec.attn);
    }
  }
  build(decode_, true, std::max(1.0, max_decode));
  build(mixed_, false, std::max(1.0, max_tokens));
  // Operators one table has and the other does not (MLA: absorbed in decode, expanded in prefill) are the two forms
  // of one computation: in a step with prefill work the decode tokens run their table's own, the rest the other's.
  for (std::size_t si = 0; si < decode_.stages.size() && si < mixed_.stages.size(); ++si) {
    StageTables& d = decode_.stages[si];
    StageTables& x = mixed_.stages[si];
    std::set<std::string> in_decode(d.dense.ids.begin(), d.dense.ids.end()), in_mixed(x.dense.ids.begin(), x.dense.ids.end());
    in_mixed.insert(x.head.ids.begin(), x.head.ids.end());
    for (const auto& a : d.attn) in_decode.insert(a.id);
    for (const auto& a : x.attn) in_mixed.insert(a.id);
    // A recurrent mixer's operators run the one-token kernel for the decode tokens and the chunked one for the rest:
    // in a step with prefill work the decode table times them at the decode tokens, the state terms the rest.
    std::set<std::string> state_ids;
    for (const auto& st : x.state) state_ids.insert(st.id);
    d.dense.split.assign(d.dense.ops, 0);
    for (std::size_t i = 0; i < d.dense.ops; ++i)
      split_ |= (d.dense.split[i] = in_mixed.count(d.dense.ids[i]) == 0 || state_ids.count(d.dense.ids[i]) > 0) != 0;
    for (auto& a : d.attn) split_ |= (a.split = in_mixed.count(a.id) == 0);
    for (auto& a : x.attn) split_ |= (a.split = in_decode.count(a.id) == 0);
  }
}

double StepModel::operators() const {
  double n = 0;
  for (const auto& st : decode_.stages) n += static_cast<double>(st.dense.ops + st.head.ops + st.attn.size() + st.state.size());
  return n;
}

void StepModel::add(StepLoad& l, double cached, double input, double count) const {
  if (input <= 0 || count <= 0) return;
  l.tokens += input * count;
  l.rows += w_.settings.convention.lm_head_all_tokens ? input * count : count;
  if (input > 1 || cached <= 0) l.prefill = true;
  l.seqs += count;
  if (cached > 0) l.seqs_with_state += count;
  const bool decode_token = split_ && input == 1 && cached > 0;
  if (decode_token) l.decode_tokens += count;
  for (std::size_t g = 0; g < geo_.size(); ++g) {
    double pairs = 0, keys = 0;
    if (input == 1 && geo_[g].first == 0 && geo_[g].second == 0) {  // a decode token over a full cache
      pairs = keys = count * (cached + 1);
    } else {
      pairs = count * attention_pairs(geo_spec_[g], cached, input, causal_);
      keys = count * attention_keys_read(geo_spec_[g], cached, input);
    }
    l.pairs[g] += pairs;
    l.keys[g] += keys;
    if (decode_token) {
      l.decode_pairs[g] += pairs;
      l.decode_keys[g] += keys;
    }
  }
}

// As time_block: weights and activations at the memory efficiency, the KV cache at the runtime's KV efficiency.
double StepModel::time_of(const OpTerms& t, double c, double m, double k, const Execution& x, double gap) const {
  return std::max(c / efficiency_of(x, t), m / x.eff.memory + k / x.kv_memory) + t.kernels * gap;
}

void StepModel::build(Mode& mode, bool decode, double max_tokens) {
  const HardwareSpec& hw = sys_.device;
  const StepSettings& s = w_.settings;
  mode.grid = token_grid(max_tokens, static_cast<double>(x_.graph_max_tokens));
  // Probe sizes below the smallest window or chunk, so that each probe's (P, K, T) stay independent.
  double span = 1e9;
  for (const auto& [win, chunk] : geo_) {
    if (win > 0) span = std::min(span, static_cast<double>(win));
    if (chunk > 0) span = std::min(span, static_cast<double>(chunk));
  }
  const i64 sc = static_cast<i64>(std::clamp(std::floor(span / 64), 1.0, 64.0));
  const i64 n = 16 * sc, c = 32 * sc;
  for (std::size_t si = 0; si < stages_.size(); ++si) {
    const ModelSpec& sm = stages_[si].model;
    const auto& groups = groups_[si];
    const Timer timer(hw, x_, inv_, nullptr);
    std::vector<std::vector<Request>> probes;
    if (decode) probes = {{Request{c / 2, 1, 1}}, {Request{3 * c / 2, 1, 1}}};
    else probes = {{Request{0, n, 1}}, {Request{c, n, 1}}, {Request{0, 2 * n, 1}}};
    std::vector<std::vector<Op>> pops;
    for (const auto& p : probes) pops.push_back(step_ops(sm, groups, p, s));
    const std::size_t nops = pops[0].size();
    for (const auto& p : pops)
      if (p.size() != nops) throw std::logic_error("serving: a step's operator list changed with its requests");
    // Operators that see the cache (differ between the first two probes, same T and R) are the attention ones.
    // A recurrent mixer's operators read the state of the sequences that have one: in steps with prefill work they
    // are linear in (T, sequences, sequences with a state), not in (P, K, T) (kind 3); decode steps tabulate them.
    std::vector<int> kind(nops, 0);  // 0 dense, 1 attention, 2 LM head (steps with prefill), 3 recurrent state
    std::vector<std::string> ids(nops);  // each operator's name and group: how the two modes' tables are matched
    for (std::size_t i = 0; i < nops; ++i) ids[i] = pops[0][i].name + '\x1f' + pops[0][i].group;
    StageTables tab;
    for (std::size_t i = 0; i < nops; ++i) {
      tab.kernels += pops[0][i].dispatches;
      if (!decode && pops[0][i].state) kind[i] = 3;
      else if (!same_costs(pops[0][i], pops[1][i])) kind[i] = 1;
      else if (!decode && pops[0][i].name == "lm_head") kind[i] = 2;
    }
    // Recurrent state operators from the probes: one prompt of n and of 2n tokens (T), and one of n after a cache
    // (its state read); each probe is one sequence, so the per-sequence term is what T leaves.
    for (std::size_t i = 0; i < nops; ++i) {
      if (kind[i] != 3) continue;
      const OpTerms t0 = timer.terms(pops[0][i]), t1 = timer.terms(pops[1][i]), t2 = timer.terms(pops[2][i]);
      const double N = static_cast<double>(n);
      State st;
      st.unit = t0;
      st.id = ids[i];
      st.ct = (t2.c0 - t0.c0) / N, st.cs = t0.c0 - st.ct * N, st.cw = t1.c0 - t0.c0;
      st.mt = (t2.m0 - t0.m0) / N, st.ms = t0.m0 - st.mt * N, st.mw = t1.m0 - t0.m0;
      st.kt = (t2.k0 - t0.k0) / N, st.ks = t0.k0 - st.kt * N, st.kw = t1.k0 - t0.k0;
      tab.state.push_back(st);
    }
    // Attention operators: coefficients from the probes.
    for (std::size_t i = 0; i < nops; ++i) {
      if (kind[i] != 1) continue;
      const std::string& label = pops[0][i].group;
      int geo = 0;
      for (const auto& g : groups)
        if (g.label == label)
          geo = static_cast<int>(std::find(geo_.begin(), geo_.end(), std::pair<i64, i64>{g.spec.attn.window, g.spec.attn.chunk}) - geo_.begin());
      const AttentionSpec& a = geo_spec_[static_cast<std::size_t>(geo)];
      Attn at;
      at.geo = geo;
      at.unit = timer.terms(pops[0][i]);
      at.id = ids[i];
      if (decode) {
        const double k1 = attention_keys_read(a, static_cast<double>(c / 2), 1), k2 = attention_keys_read(a, static_cast<double>(3 * c / 2), 1);
        const OpTerms t1 = timer.terms(pops[0][i]), t2 = timer.terms(pops[1][i]);
        at.ck = (t2.c0 - t1.c0) / (k2 - k1);
        at.ct = t1.c0 - at.ck * k1;
        at.mk = (t2.m0 - t1.m0) / (k2 - k1);
        at.mt = t1.m0 - at.mk * k1;
        at.kk = (t2.k0 - t1.k0) / (k2 - k1);
        at.kt = t1.k0 - at.kk * k1;
      } else {
        double A[3][3], bc[3], bm[3], bk[3], xc[3], xm[3], xk[3];
        for (int r = 0; r < 3; ++r) {
          const Request& q = probes[static_cast<std::size_t>(r)][0];
          A[r][0] = attention_pairs(a, static_cast<double>(q.cached), static_cast<double>(q.input), causal_);
          A[r][1] = attention_keys_read(a, static_cast<double>(q.cached), static_cast<double>(q.input));
          A[r][2] = static_cast<double>(q.input);
          const OpTerms t = timer.terms(pops[static_cast<std::size_t>(r)][i]);
          bc[r] = t.c0;
          bm[r] = t.m0;
          bk[r] = t.k0;
        }
        if (!solve3(A, bc, xc) || !solve3(A, bm, xm) || !solve3(A, bk, xk)) throw std::logic_error("serving: attention probes are singular");
        at.cp = xc[0], at.ck = xc[1], at.ct = xc[2];
        at.mp = xm[0], at.mk = xm[1], at.mt = xm[2];
        at.kp = xk[0], at.kk = xk[1], at.kt = xk[2];
      }
      tab.attn.push_back(at);
    }
    // Dense operators on the token grid; the LM head of steps with prefill on the row grid.
    units_ = timer.tile_units();
    // A GEMM's wave factor is a step function of its rows M: tables keep c0 without it (linear in T) and M, and
    // the factor is applied at the step's own M.
    const auto record = [&](Dense& d, const Op& op) {
      OpTerms t = timer.terms(op);
      GemmRows g;
      g.M = g.matrices = 0;
      if (timer.waves(op)) {
        g = Timer::gemm_rows(op);
        t.c0 *= gemm_shape_efficiency(g, op.gemm_n, units_, &memo_);
      }
      if (d.n.size() < d.ops) d.n.push_back(op.gemm_n);
      d.at.push_back(t);
      d.rows.push_back(g);
    };
    for (std::size_t i = 0; i < nops; ++i) {
      if (kind[i] == 0) tab.dense.ids.push_back(ids[i]);
      if (kind[i] == 2) tab.head.ids.push_back(ids[i]);
      tab.dense.ops += kind[i] == 0;
    }
    // Each table's rows grow grid point by grid point: sized once (a large MoE's tables are megabytes, and
    // growing them by doubling was a third of a serving row's time in `validate`).
    const auto reserve = [](Dense& d, std::size_t points) {
      d.at.reserve(points * d.ops);
      d.rows.reserve(points * d.ops);
      d.n.reserve(d.ops);
    };
    reserve(tab.dense, mode.grid.size());
    for (double T : mode.grid) {
      const auto t = static_cast<i64>(T);
      const std::vector<Op> ops = step_ops(sm, groups, decode ? std::vector<Request>{Request{1, 1, t}} : std::vector<Request>{Request{0, t, 1}}, s);
      for (std::size_t i = 0; i < nops && i < ops.size(); ++i)
        if (kind[i] == 0) record(tab.dense, ops[i]);
    }
    if (!decode) {
      mode.row_grid = token_grid(max_tokens, 0);  // a step has at most as many LM-head rows as new tokens
      tab.head.ops = static_cast<std::size_t>(std::count(kind.begin(), kind.end(), 2));
      reserve(tab.head, mode.row_grid.size());
      for (double R : mode.row_grid) {
        const std::vector<Op> ops = step_ops(sm, groups, {Request{0, 1, static_cast<i64>(R)}}, s);
        for (std::size_t i = 0; i < nops && i < ops.size(); ++i)
          if (kind[i] == 2) record(tab.head, ops[i]);
      }
    }
    mode.stages.push_back(std::move(tab));
  }
  // The plan's communication.
  if (plan_.tp > 1 || plan_.pp > 1) {
    for (double T : mode.grid) {
      const StepComm c = step_communication(stages_, sys_, plan_, w_, T, decode ? T : 0);
      mode.comm.push_back(c.plain_s());
      mode.comm_waits.push_back(c.waits);
    }
    if (!decode) {
      const StepComm base = step_communication(stages_, sys_, plan_, w_, 1, 0);
      for (double R : mode.row_grid) {
        const StepComm c = step_communication(stages_, sys_, plan_, w_, 1, R);
        mode.row_comm.push_back(c.plain_s() - base.plain_s());
        mode.row_comm_waits.push_back(c.waits - base.waits);
      }
    }
  }
}

// Every term of a step, stage by stage: `begin(tab)`, then `dense(d, at, hi, frac, i)` for each tabulated operator
// (table `d`, its grid rows `at` and `hi`, the fraction between them), `linear(unit, c, m, k)` for each operator
// linear in the step's load (attention in its pairs, keys and tokens; a recurrent mixer in its tokens, sequences and
// sequences with a state) with its compute, memory and KV seconds, then `end(tab)`. A step with prefill work and
// decode tokens, on a model whose decode tokens run operators of their own (split_: MLA's absorbed form, the
// recurrent one-token kernel), gives the prefill mode's operators the rest of the step and times the decode mode's at
// the decode tokens. seconds() and work() add the terms up differently.
template <class Begin, class DenseTerm, class LinearTerm, class End>
void StepModel::walk(const StepLoad& l, Begin begin, DenseTerm dense, LinearTerm linear, End end) const {
  const Mode& mode = l.prefill ? mixed_ : decode_;
  std::size_t j = 0, jr = 0, jd = 0;
  double f = 0, fr = 0, fd = 0;
  locate(mode.grid, l.tokens, j, f);
  if (l.prefill) locate(mode.row_grid, l.rows, jr, fr);
  const bool split = split_ && l.prefill && l.decode_tokens > 0;
  if (split) locate(decode_.grid, l.decode_tokens, jd, fd);
  const auto table = [&](const Dense& d, std::size_t at, double frac, bool only_split) {
    if (d.ops == 0) return;
    const std::size_t hi = at + 1 < d.at.size() / d.ops ? at + 1 : at;
    for (std::size_t i = 0; i < d.ops; ++i)
      if (!only_split || d.split[i]) dense(d, at, hi, frac, i);
  };
  const auto attention = [&](const Attn& a, double P, double K, double T) {
    linear(a.unit, a.cp * P + a.ck * K + a.ct * T, a.mp * P + a.mk * K + a.mt * T, a.kp * P + a.kk * K + a.kt * T);
  };
  // The part of the step the prefill mode's own operators see: all of it, or all but the decode tokens (each a
  // sequence with a state).
  const double dt = split ? l.decode_tokens : 0;
  for (std::size_t si = 0; si < mode.stages.size(); ++si) {
    const StageTables& tab = mode.stages[si];
    begin(tab);
    table(tab.dense, j, f, false);
    if (l.prefill) table(tab.head, jr, fr, false);
    for (const auto& a : tab.attn) {
      const auto g = static_cast<std::size_t>(a.geo);
      if (split && a.split) attention(a, l.pairs[g] - l.decode_pairs[g], l.keys[g] - l.decode_keys[g], l.tokens - l.decode_tokens);
      else attention(a, l.pairs[g], l.keys[g], l.tokens);
    }
    const double T = l.tokens - dt, S = l.seqs - dt, W = std::max(0.0, l.seqs_with_state - dt);
    for (const auto& st : tab.state)
      linear(st.unit, st.ct * T + st.cs * S + st.cw * W, st.mt * T + st.ms * S + st.mw * W, st.kt * T + st.ks * S + st.kw * W);
    if (split && si < decode_.stages.size()) {
      const StageTables& dtab = decode_.stages[si];
      table(dtab.dense, jd, fd, true);
      for (const auto& a : dtab.attn)
        if (a.split) attention(a, l.decode_pairs[static_cast<std::size_t>(a.geo)], l.decode_keys[static_cast<std::size_t>(a.geo)], l.decode_tokens);
    }
    end(tab);
  }
}

double StepModel::seconds(const StepLoad& l, const Execution& x) const {
  if (l.tokens <= 0) return 0;
  const bool graph = replayed(x, l.tokens);
  const double gap = graph ? x.graph_gap_s : x.eff.dispatch_s;
  double total = 0, st = 0, slowest = 0;
  walk(
      l, [&](const StageTables&) { st = 0; },
      [&](const Dense& d, std::size_t at, std::size_t hi, double frac, std::size_t i) {
        const OpTerms& lo = d.at[at * d.ops + i];
        const OpTerms& up = d.at[hi * d.ops + i];
        double c = std::max(0.0, lo.c0 + frac * (up.c0 - lo.c0));
        const GemmRows& glo = d.rows[at * d.ops + i];
        if (glo.M > 0) {
          const GemmRows& ghi = d.rows[hi * d.ops + i];
          GemmRows g = glo;  // at the step's own load: the routed tokens too, so the expected padding is the step's
          g.M = std::max(1.0, glo.M + frac * (ghi.M - glo.M));
          g.matrices = std::max(1.0, glo.matrices + frac * (ghi.matrices - glo.matrices));
          g.tokens = glo.tokens + frac * (ghi.tokens - glo.tokens);
          c /= gemm_shape_efficiency(g, d.n[i], units_, &memo_);
        }
        const double m = std::max(0.0, lo.m0 + frac * (up.m0 - lo.m0));
        const double k = std::max(0.0, lo.k0 + frac * (up.k0 - lo.k0));
        st += time_of(lo, c, m, k, x, gap);
      },
      [&](const OpTerms& unit, double c, double m, double k) {
        st += time_of(unit, std::max(0.0, c), std::max(0.0, m), std::max(0.0, k), x, gap);
      },
      [&](const StageTables& tab) {
        if (!graph) st = std::max(st, tab.kernels * x.launch_s);
        total += st + x.step_overhead_s;
        slowest = std::max(slowest, st + x.step_overhead_s);
      });
  const Mode& mode = l.prefill ? mixed_ : decode_;
  std::size_t j = 0, jr = 0;
  double f = 0, fr = 0;
  locate(mode.grid, l.tokens, j, f);
  double comm = std::max(0.0, lerp(mode.comm, j, f) + lerp(mode.comm_waits, j, f) * x.collective_wait_s);
  if (l.prefill) {
    locate(mode.row_grid, l.rows, jr, fr);
    comm += std::max(0.0, lerp(mode.row_comm, jr, fr) + lerp(mode.row_comm_waits, jr, fr) * x.collective_wait_s);
  }
  // Micro-batches in flight through the stages: each stage works on them in turn, so one comes round every
  // in_flight slowest stages (its communication spread over the stages), or its own pass when that is longer.
  const double stages = static_cast<double>(mode.stages.size());
  if (x.pipeline_in_flight > 1 && stages > 1)
    return std::max(total + comm, std::min(x.pipeline_in_flight, stages) * (slowest + comm / stages));
  return total + comm;
}

void StepModel::work(const StepLoad& l, double& compute_s, double& memory_s) const {
  compute_s = memory_s = 0;
  if (l.tokens <= 0) return;
  const double devices = static_cast<double>(std::max(1, plan_.tp));
  walk(
      l, [](const StageTables&) {},
      [&](const Dense& d, std::size_t at, std::size_t hi, double frac, std::size_t i) {
        const OpTerms& lo = d.at[at * d.ops + i];
        const OpTerms& up = d.at[hi * d.ops + i];
        compute_s += devices * std::max(0.0, lo.c0 + frac * (up.c0 - lo.c0));
        memory_s += devices * std::max(0.0, lo.m0 + frac * (up.m0 - lo.m0) + lo.k0 + frac * (up.k0 - lo.k0));
      },
      [&](const OpTerms&, double c, double m, double k) {
        compute_s += devices * std::max(0.0, c);
        memory_s += devices * std::max(0.0, m + k);
      },
      [](const StageTables&) {});
}

double StepModel::exact_seconds(const std::vector<Request>& step, const Execution& x) const {
  double T = 0, R = 0;
  for (const auto& r : step) {
    T += static_cast<double>(r.input * r.count);
    if (r.input > 0) R += static_cast<double>(w_.settings.convention.lm_head_all_tokens ? r.input * r.count : r.count);
  }
  double t = 0;
  for (std::size_t si = 0; si < stages_.size(); ++si) {
    const Timer timer(sys_.device, x, inv_, nullptr);
    const std::vector<Op> ops = step_ops(stages_[si].model, groups_[si], step, w_.settings);
    t += time_block(block_of(ops, timer, T), x, Timing::PerOp).first;
  }
  if (plan_.tp > 1 || plan_.pp > 1) {
    const StepComm c = step_communication(stages_, sys_, plan_, w_, T, R);
    t += c.plain_s() + c.waits * x.collective_wait_s;
  }
  return t;
}

}  // namespace infercast
