// One engine step's seconds, fast enough for a simulation of millions of steps and a search over thousands of
// deployments (docs/serving.md, "Step time"). A step's operators (core/ops step_ops) depend on the step only through
// its new tokens T, its LM-head rows R and, per attention geometry (window, chunk), the (query, key) pairs P and the
// cached keys read K of its requests. Every operator that does not see P or K is a function of T (the LM head of R):
// its compute and memory seconds are tabulated from exact steps on a grid of T and interpolated. The attention
// operators' seconds are linear in (P, K, T) (their FLOPs and bytes are): three exact probe steps give their
// coefficients. Each step is then timed as the analysis times a block (analysis/trace.cpp): per operator
// max(compute / efficiency, memory / memory efficiency) plus its kernels' gaps, the host's launches as a floor when
// the step is not replayed as a graph, the runtime's per-step cost, and the plan's communication. Two tables are
// kept: decode-only steps (one new token per request after a cache: MLA runs absorbed) and steps with prefill work.
// Operators the two tables do not share (MLA's absorbed and expanded forms) split a step with prefill work: its
// decode tokens run the decode table's own operators and the rest the prefill table's, as the step's operators do
// (ops/mla.cpp).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/steps.hpp"  // Timer and TierCost: the step model times operators as the analysis does
#include "parallel/parallel.hpp"

namespace infercast {

constexpr int kMaxGeometries = 4;  // distinct (window, chunk) attention geometries a model may have

// What one step holds, accumulated request by request (StepModel::add).
struct StepLoad {
  double tokens = 0;        // new tokens
  double rows = 0;          // LM-head rows: requests with new tokens
  bool prefill = false;     // a request with more than one new token, or one starting from an empty cache
  std::array<double, kMaxGeometries> pairs{}, keys{};
  // Its decode tokens (one new token after a cache) and their share of pairs and keys: counted only for a model whose
  // decode and prefill steps run different operators (StepModel::splits()).
  double decode_tokens = 0;
  std::array<double, kMaxGeometries> decode_pairs{}, decode_keys{};
  double seqs = 0, seqs_with_state = 0;  // requests with new tokens, and those of them with a cache (recurrent state)
};

class StepModel {
 public:
  // The model's steps on one replica of `plan` over `sys` (its stages and their collectives), under the workload's
  // settings and runtime, for steps of up to `max_tokens` new tokens and decode steps of up to `max_decode`
  // requests (larger steps are extrapolated from the last two grid points).
  StepModel(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan, double max_tokens,
            double max_decode);

  // Adds `count` requests with `cached` tokens in their cache and `input` new tokens to a step.
  void add(StepLoad& l, double cached, double input, double count) const;
  // The step's seconds under `x` (the runtime resolved on the device, or a refitted one).
  double seconds(const StepLoad& l, const Execution& x) const;
  // The step's work, summed over the replica's devices: compute seconds at every operator's peak and memory seconds
  // at the first tier's bandwidth, both at efficiency 1 (what energy is computed from, cost/cost.hpp).
  void work(const StepLoad& l, double& compute_s, double& memory_s) const;
  // The same step through the whole operator path (step_ops, each stage timed as a block, the plan's
  // communication): what the surrogate is tested against.
  double exact_seconds(const std::vector<Request>& step, const Execution& x) const;

  // Whether the decode tokens of a step with prefill run operators of their own (MLA's absorbed form).
  bool splits() const { return split_; }
  const Execution& execution() const { return x_; }
  const std::vector<Stage>& stages() const { return stages_; }
  int geometries() const { return static_cast<int>(geo_.size()); }
  // Operators a decode step walks over every stage (what timing one step costs grows with).
  double operators() const;

 private:
  struct Dense {  // operators that see only T (or R): their raw terms at every grid point
    std::vector<OpTerms> at;  // grid-major: at[j * ops + i]; a GEMM's c0 without its wave factor
    std::vector<GemmRows> rows;  // a GEMM's rows at each grid point (M 0: no wave factor), routing included
    std::vector<double> n;            // per operator: a GEMM's N
    std::vector<char> split;          // per operator: one the other table does not have (its form's own)
    std::vector<std::string> ids;     // per operator: name and group, to find those
    std::size_t ops = 0;
  };
  struct Attn {  // an operator linear in (P, K, T) of one geometry
    OpTerms unit;  // cls, low, kernels
    int geo = 0;
    double cp = 0, ck = 0, ct = 0, mp = 0, mk = 0, mt = 0;
    double kp = 0, kk = 0, kt = 0;  // KV-cache traffic (at the runtime's KV efficiency)
    bool split = false;  // one the other table does not have: it sees only its own part of a mixed step
    std::string id;      // name and group
  };
  struct State {  // a recurrent mixer's operator in steps with prefill work: linear in (T, sequences, with a state)
    OpTerms unit;
    double ct = 0, cs = 0, cw = 0, mt = 0, ms = 0, mw = 0, kt = 0, ks = 0, kw = 0;
    std::string id;
  };
  struct StageTables {
    Dense dense;       // on the mode's token grid
    Dense head;        // steps with prefill: the LM head on the row grid
    std::vector<Attn> attn;
    std::vector<State> state;  // steps with prefill: recurrent mixers (decode steps tabulate them with the dense ones)
    double kernels = 0;  // every operator's launches per step
  };
  struct Mode {
    std::vector<double> grid, row_grid;
    std::vector<StageTables> stages;
    // The plan's communication on each grid (rows: the LM head's gather) without the collectives' waits, and the calls
    // that wait (each the Execution's collective_wait_s, so that a refitted wait re-times the step).
    std::vector<double> comm, row_comm, comm_waits, row_comm_waits;
  };
  void build(Mode& mode, bool decode, double max_tokens);
  template <class Begin, class DenseTerm, class LinearTerm, class End>
  void walk(const StepLoad& l, Begin begin, DenseTerm dense, LinearTerm linear, End end) const;
  double time_of(const OpTerms& t, double c, double m, double k, const Execution& x, double gap) const;

  std::vector<Stage> stages_;
  std::vector<std::vector<LayerGroup>> groups_;  // per stage
  System sys_;
  ParallelPlan plan_;
  Workload w_;
  Execution x_;
  TierCost inv_;
  int units_ = 0;  // compute units GEMM tiles wave over (0: no wave factor)
  // Routed experts' row tiles at the step sizes the simulation asks for again. It makes the const methods write:
  // one StepModel is not to be shared between threads (the core starts none; each call builds its own).
  mutable RowTileMemo memo_;
  std::vector<std::pair<i64, i64>> geo_;          // (window, chunk) of each geometry
  std::vector<AttentionSpec> geo_spec_;
  bool causal_ = true;
  bool split_ = false;  // some operators belong to one table only (StepLoad::decode_tokens)
  Mode decode_, mixed_;
};

}  // namespace infercast
