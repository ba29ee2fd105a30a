// The scenario in the link: read into the state (a link names what it changes; the rest is the defaults) and
// written back on every change.
import { ctx, DEFAULTS, state } from './ctx.js';
import { customDevice } from './request.js';

// The state a link describes: what it names, and the defaults for everything it does not (a link opened in a tab
// that already shows the page replaces that tab's scenario whole).
export function readUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  Object.assign(state, DEFAULTS, { config: null });
  for (const k of Object.keys(DEFAULTS)) {
    if (!p.has(k)) continue;
    state[k] = typeof DEFAULTS[k] === 'number' ? Number(p.get(k)) : p.get(k);
  }
  ctx.urlDevice = null;
  if (p.has('device')) {
    try {
      ctx.urlDevice = JSON.parse(decodeURIComponent(escape(atob(p.get('device')))));
    } catch {
      ctx.urlDevice = null;
    }
  }
  if (p.has('config')) {
    try {
      state.config = JSON.parse(decodeURIComponent(escape(atob(p.get('config')))));
      state.model = 'custom';
    } catch {
      state.config = null;
    }
  }
}

export function writeUrl() {
  const p = new URLSearchParams();
  for (const k of Object.keys(DEFAULTS)) if (state[k] !== DEFAULTS[k]) p.set(k, String(state[k]));
  if (state.model === 'custom' && state.config) p.set('config', btoa(unescape(encodeURIComponent(JSON.stringify(state.config)))));
  const dev = customDevice();
  if (dev) p.set('device', btoa(unescape(encodeURIComponent(JSON.stringify(dev)))));
  const hash = p.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}
