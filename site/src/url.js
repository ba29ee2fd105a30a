// The scenario in the link: read into the state (a link names what it changes; the rest is the defaults) and
// written back on every change.
import { ctx, DEFAULTS, state } from './ctx.js';
import { customDevice } from './request.js';
import { decodeState, encodeObject } from './urlstate.js';

// The state a link describes: what it names, and the defaults for everything it does not (a link opened in a tab
// that already shows the page replaces that tab's scenario whole).
export function readUrl() {
  const { state: decoded, device, config } = decodeState(location.hash, DEFAULTS);
  Object.assign(state, decoded, { config: null });
  ctx.urlDevice = device;
  if (config) {
    state.config = config;
    state.model = 'custom';
  }
}

export function writeUrl() {
  const p = new URLSearchParams();
  for (const k of Object.keys(DEFAULTS)) if (state[k] !== DEFAULTS[k]) p.set(k, String(state[k]));
  if (state.model === 'custom' && state.config) p.set('config', encodeObject(state.config));
  const dev = customDevice();
  if (dev) p.set('device', encodeObject(dev));
  const hash = p.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}
