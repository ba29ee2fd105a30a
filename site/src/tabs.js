// The details below the answer, in tabs (WAI-ARIA tabs: one tab stop, arrow keys move between tabs, Home/End).
// The tab shown is part of the link (state.tab). Charts drawn while their tab was hidden are redrawn at the width
// they get when it shows; the Validation tab asks the core once, when first shown.
import { $, ctx, DEFAULTS, state } from './ctx.js';
import { writeUrl } from './url.js';

const onShow = new Map();  // tab name -> function run each time it shows

export function whenShown(name, fn) {
  onShow.set(name, fn);
}

function tabs() {
  return [...document.querySelectorAll('#tabs [role="tab"]')];
}

// Shows a tab (the default when the name is unknown); `remember` writes it to the link.
export function showTab(name, remember = true) {
  const all = tabs();
  const chosen = all.find((t) => t.dataset.tab === name) || all.find((t) => t.dataset.tab === DEFAULTS.tab);
  for (const t of all) {
    const on = t === chosen;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !on;
  }
  state.tab = chosen.dataset.tab;
  if (remember) writeUrl();
  const fn = onShow.get(state.tab);
  if (fn && ctx.lastResult) fn();
}

export function bindTabs() {
  const list = $('tabs');
  list.addEventListener('click', (e) => {
    const t = e.target.closest('[role="tab"]');
    if (t) showTab(t.dataset.tab);
  });
  list.addEventListener('keydown', (e) => {
    const all = tabs();
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: all.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const t = all[(next + all.length) % all.length];
    showTab(t.dataset.tab);
    t.focus();
  });
}
