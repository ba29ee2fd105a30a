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
// is by index already: a k-way merge, stopped at `keep`, kept as (part, position) in typed arrays, then each column
// gathered in one loop. This runs once per sweep, so its code is cold: the first version (an array per point and
// a closure call per value) took 30-100 ms of the main thread in Chromium for 20,000 points, more than the workers
// saved by splitting the sweep.
export function mergeSamples(samples, keep) {
  const total = samples.reduce((n, s) => n + s.count, 0);
  const n = Math.max(0, Math.min(keep, total));
  const part = new Uint8Array(n);
  const pos = new Uint32Array(n);
  const at = new Uint32Array(samples.length);
  for (let k = 0; k < n; k++) {
    let best = -1;
    let bestId = Infinity;
    for (let p = 0; p < samples.length; p++) {
      if (at[p] < samples[p].count && samples[p].id[at[p]] < bestId) {
        bestId = samples[p].id[at[p]];
        best = p;
      }
    }
    part[k] = best;
    pos[k] = at[best]++;
  }
  const gather = (cols) => {
    const out = new Float64Array(n);
    for (let k = 0; k < n; k++) out[k] = cols[part[k]][pos[k]];
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
