// A design-space sweep split across workers: each runs one part of the grid (the request's `part`), and the parts
// merge here into exactly the whole's result, as the core's dse_merge does (core/dse/sweep.cpp): counts add; the
// Pareto front is decided by the objectives as 32-bit floats (tokens/s negated: every objective minimized) and,
// between equal points, by the lower index; the sample is the points with the lowest indices, at most `keep`.

const MAXIMIZED = new Set(['tokens_per_s']);

function dominates(a, b) {
  let better = false;
  for (let d = 0; d < a.v.length; d++) {
    if (a.v[d] > b.v[d]) return false;
    better = better || a.v[d] < b.v[d];
  }
  return better || a.id < b.id;
}

// The front of the parts' fronts.
export function mergeFronts(objectives, fronts) {
  const signs = objectives.map((o) => (MAXIMIZED.has(o) ? -1 : 1));
  let kept = [];
  for (const front of fronts) {
    for (const p of front) {
      const e = { p, id: p.id, v: objectives.map((o, i) => Math.fround(signs[i] * p.objectives[o])) };
      if (kept.some((k) => dominates(k, e))) continue;
      kept = kept.filter((k) => !dominates(e, k));
      kept.push(e);
    }
  }
  kept.sort((a, b) => a.v[0] - b.v[0] || a.id - b.id);
  return kept.map((k) => k.p);
}

// The parts' samples (columns: params, objectives, id) as one, by index, at most `keep` points. Each part's sample
// is by index already, so the merge is a k-way merge taken in runs: the part with the lowest next index gives every
// point below the other parts' next index at once (a binary search), and each column is then copied run by run.
// Where the parts are ranges of the index (a grid whose last axes do not time, as the page's default sweep), that
// is one run per part. This runs once per sweep, so its code is cold: merging point by point (an array per point,
// a closure call per value) took 30-100 ms of the main thread in Chromium for 20,000 points, more than a second
// worker saved.
export function mergeSamples(samples, keep) {
  const total = samples.reduce((n, s) => n + s.count, 0);
  const n = Math.max(0, Math.min(keep, total));
  const runs = [];  // [part, from, to): consecutive points of one part, in the merged order
  const at = samples.map(() => 0);
  for (let k = 0; k < n;) {
    let best = -1;
    let next = Infinity;  // the lowest next index among the other parts
    for (let p = 0; p < samples.length; p++) {
      if (at[p] >= samples[p].count) continue;
      const id = samples[p].id[at[p]];
      if (best < 0 || id < samples[best].id[at[best]]) {
        if (best >= 0) next = Math.min(next, samples[best].id[at[best]]);
        best = p;
      } else {
        next = Math.min(next, id);
      }
    }
    const ids = samples[best].id;
    let lo = at[best] + 1;
    let hi = Math.min(samples[best].count, at[best] + (n - k));
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ids[mid] < next) lo = mid + 1;
      else hi = mid;
    }
    runs.push([best, at[best], lo]);
    k += lo - at[best];
    at[best] = lo;
  }
  const gather = (cols) => {
    const out = new Float64Array(n);
    let k = 0;
    for (const [p, from, to] of runs) {
      out.set(ArrayBuffer.isView(cols[p]) ? cols[p].subarray(from, to) : cols[p].slice(from, to), k);
      k += to - from;
    }
    return out;
  };
  const columns = (group) => Object.fromEntries(Object.keys(samples[0][group]).map((key) => [key, gather(samples.map((s) => s[group][key]))]));
  return { params: columns('params'), objectives: columns('objectives'), id: gather(samples.map((s) => s.id)), count: n };
}

// The whole sweep's value from its parts' values (each with `part: {index, of}`).
export function mergeSweeps(parts, keep) {
  if (parts.length === 1) return parts[0];
  const [first] = parts;
  return {
    ...first,
    evaluated: parts.reduce((n, p) => n + p.evaluated, 0),
    feasible: parts.reduce((n, p) => n + p.feasible, 0),
    part: { index: 0, of: 1 },
    front: mergeFronts(first.objectives, parts.map((p) => p.front)),
    sample: mergeSamples(parts.map((p) => p.sample), keep),
  };
}
