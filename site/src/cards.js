// The headline cards.
import { $ } from './ctx.js';

export function card(label, value, sub, title, bad = false) {
  const d = document.createElement('div');
  d.className = bad ? 'card bad' : 'card';
  d.title = `${title} (click for the numbers)`;
  d.dataset.formula = title;
  d.tabIndex = 0;
  d.setAttribute('role', 'button');
  d.setAttribute('aria-haspopup', 'dialog');
  const l = document.createElement('div');
  l.className = 'label';
  l.textContent = label;
  const v = document.createElement('div');
  v.className = 'value';
  v.textContent = value;
  const s = document.createElement('div');
  s.className = 'sub';
  s.textContent = sub;
  d.append(l, v, s);
  return d;
}

export function boundOf(r, phase) {
  const ops = r.ops.filter((o) => o.phase === phase && o.time_s !== undefined);
  const t = { compute: 0, memory: 0, dispatch: 0 };
  for (const o of ops) t[o.bound] += o.time_s;
  const total = t.compute + t.memory + t.dispatch;
  const top = Object.entries(t).sort((a, b) => b[1] - a[1])[0];
  return total > 0 ? `${top[0]}-bound (${((100 * top[1]) / total).toFixed(0)}% of time)` : '-';
}

// The weight formats the model is published in, as the "as published" choice shows them: "fp8_block128 (bf16:
// embedding, lm_head, router)". The classes are listed only while that choice is the one analyzed.
export function publishedLabel(p, analyzed) {
  const main = p.declared_weights || 'bf16';
  const byDtype = new Map();
  if (analyzed) for (const [cls, d] of Object.entries(p.by_class)) byDtype.set(d.dtype, [...(byDtype.get(d.dtype) || []), cls]);
  const rest = [...byDtype].filter(([d]) => d !== main).map(([d, cls]) => `${d}: ${cls.join(', ')}`);
  return `as published: ${main}${rest.length ? ` (${rest.join('; ')})` : ''}`;
}
