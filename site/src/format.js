// Number formatting shared by the cards, the table and the charts. Decimal SI prefixes for FLOPs and rates,
// binary prefixes for memory sizes (GiB), as the CLI prints them.

const SI = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

export function si(value, unit, digits = 3) {
  if (!Number.isFinite(value)) return '-';
  let x = value;
  let p = 0;
  while (Math.abs(x) >= 1000 && p < SI.length - 1) {
    x /= 1000;
    p++;
  }
  return `${x.toPrecision(digits)} ${SI[p]}${unit}`;
}

export function bytes(value) {
  if (!Number.isFinite(value)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let x = value;
  let p = 0;
  while (Math.abs(x) >= 1024 && p < units.length - 1) {
    x /= 1024;
    p++;
  }
  return `${p === 0 ? x.toFixed(0) : x.toFixed(2)} ${units[p]}`;
}

// The KV cache's bytes per token in every layer and, where sliding windows or chunks bound some layers, what one
// more token adds past them (the memory block of an analysis).
export function kvPerToken(m) {
  const past = m.kv_bytes_per_token_past_windows;
  return `${bytes(m.kv_bytes_per_token)} per token` + (past !== undefined && past !== m.kv_bytes_per_token ? `, ${bytes(past)} past the windows` : '');
}

// A memory tier's capacity in bytes, and as its document states it: capacity_GiB (DRAM, HBM and SRAM are sold in
// binary units: a "80 GB" H100 holds 80 GiB) or capacity_GB (flash, decimal).
export function tierBytes(t) {
  return t.capacity_GiB != null ? t.capacity_GiB * 2 ** 30 : t.capacity_GB * 1e9;
}

export function tierCapacity(t) {
  return t.capacity_GiB != null ? `${t.capacity_GiB} GiB` : `${t.capacity_GB} GB`;
}

export function seconds(s) {
  if (!Number.isFinite(s)) return '-';
  if (s >= 1) return `${s.toFixed(3)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
  return `${(s * 1e6).toFixed(2)} µs`;
}

export function count(n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-';
}

export function rate(v, unit) {
  if (!Number.isFinite(v)) return '-';
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;
}

// The efficiencies a fit reports (docs/forecast.md, "Calibration"), named as the Settings tab names them; a key
// this list does not know is shown as it is.
export const EFFICIENCY_NAMES = {
  gemm: 'GEMM', gemm_low: 'GEMM in 8 bits or fewer', attention: 'Attention', elementwise: 'Elementwise',
  memory: 'Memory bandwidth', kv_memory: 'KV cache bandwidth', dispatch_us: 'Dispatch gap', graph_dispatch_us: 'Dispatch gap in a replayed graph',
};
