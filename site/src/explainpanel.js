// The explanation panel next to a clicked card or operator cell.
import { $, ctx } from './ctx.js';
import { explainCard } from './cards.js';
import { explainOp } from './explain.js';

// The explanation panel: the formula, the values put in, the convention; next to what was clicked.
export function showExplain(x, anchor) {
  const box = $('explain');
  $('explain-title').textContent = x.title;
  $('explain-formula').textContent = x.formula;
  $('explain-lines').textContent = x.lines.join('\n');
  $('explain-convention').textContent = x.convention || '';
  box.hidden = false;
  const a = anchor.getBoundingClientRect();
  const width = Math.min(640, document.documentElement.clientWidth - 16);
  box.style.width = `${width}px`;
  box.style.left = `${Math.max(8, Math.min(a.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8))}px`;
  box.style.top = `${a.bottom + window.scrollY + 6}px`;
  ctx.explainReturn = anchor;
  $('explain-close').focus();
}

export function hideExplain() {
  if ($('explain').hidden) return;
  $('explain').hidden = true;
  if (ctx.explainReturn && document.contains(ctx.explainReturn)) ctx.explainReturn.focus();
  ctx.explainReturn = null;
}

export function explainTarget(target) {
  if (!ctx.lastResult) return;
  const c = target.closest('.card');
  if (c) {
    showExplain(explainCard(c.dataset.card, ctx.lastResult, c), c);
    return;
  }
  const td = target.closest('td[data-field]');
  if (td) showExplain(explainOp(ctx.shownOps[Number(td.parentElement.dataset.op)], td.dataset.field, ctx.lastResult), td);
}
