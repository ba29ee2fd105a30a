// How much work an analysis will do, estimated before it starts (docs/schema.md, "Limits"). An analysis makes the
// operators of a step once per prefill chunk, over every request still in that chunk, and twice per decode interval
// (decode.cpp: intervals end where a request's keys cross a sliding window, an attention chunk or a tile). The
// decode keeps running sums over the requests: each request is added once, and at each of its own boundaries (an
// event) only its part is taken out and put back, so its cost is entries + events + intervals, not entries x
// intervals. The check refuses a workload past the limits with a message naming what multiplied, instead of
// running for minutes.
#pragma once

#include <string>

#include "analysis/analysis.hpp"

namespace infercast {

struct WorkEstimate {
  double prefill_steps = 1;          // chunks of the longest request (1 without chunked prefill)
  double prefill_request_steps = 1;  // over every request entry: the sum of its chunks
  double decode_intervals = 1;       // an upper bound on the decode's closed-form intervals (distinct boundaries)
  double decode_events = 0;          // boundaries summed over the request entries (each one's own)
  double entries = 1;                // request entries (each with its count)
  double groups = 1;                 // layer groups: a decode boundary updates each one's running sums
  double ops = 1;                    // operators of one step (the first step's)
  double steps() const { return prefill_steps + decode_intervals; }
  // Operators made over the analysis: what its time and memory grow with (a Gemma 3n step has 191, a Llama's 16).
  double operator_steps() const { return steps() * ops; }
  double request_steps() const { return prefill_request_steps + entries + decode_events * groups; }
};

// The work of `analyses` analyses of `w` (a sweep's formats, a plan's stages): `groups` and `ops` are counted only
// where they could reach a limit (otherwise 1).
WorkEstimate estimate_work(const ModelSpec& m, const Workload& w, double analyses = 1);

// An attention tile that splits `span` decode steps into more than 20000 intervals for one request: refused as
// workload.out_of_range at /attention_tile (decode.cpp checks it too).
void check_tile(i64 tile, double span);

// Everything check_work checks for one analysis of `w`, the tile first.
void check_workload(const ModelSpec& m, const Workload& w);

// Throws InputError workload.too_much_work when one analysis, or `analyses` of them (a sweep, a batching curve, the
// stages of a plan), would exceed the work limits. `what` names the multiplier in the message ("" for one).
void check_work(const WorkEstimate& e, double analyses, const std::string& what);

}  // namespace infercast
