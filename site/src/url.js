// The scenario in the link: read into the state (a link names what it changes; the rest is the defaults) and
// written back on every change.
import { ctx, DEFAULTS, state } from './ctx.js';
import { systemFields } from './parallel.js';
import { customDevice } from './request.js';
import { linkDeviceApart } from './store.js';
import { decodeState, encodeObject } from './urlstate.js';

// The link's keys of a plan over several devices (parallel.js sends them as /parallel).
const PLAN_KEYS = ['tp', 'pp', 'ep', 'dp', 'algo'];

// A link that names a system preset takes the device and links it does not name from the preset, as choosing the
// system in the page does (a link written by hand may name the system alone: its fields were left at the page's
// defaults, an intra-node bandwidth of 0 that the core refuses). Needs the presets (ctx.presets).
function fillSystem(named) {
  if (!state.system) return;
  const sys = ctx.presets.systems.find((s) => s.id === state.system);
  if (!sys) {
    // A system the page does not know is left out, as an unknown runtime is: the page has no links to send for it.
    state.system = '';
    ctx.autoPlan = ctx.planByCore = false;
    return;
  }
  for (const [k, v] of Object.entries(systemFields(sys))) if (!named.has(k)) state[k] = v;
}

// The state a link describes: what it names, and the defaults for everything it does not (a named system's for
// its device and links); a link opened in a tab that already shows the page replaces that tab's scenario whole.
export function readUrl() {
  cancelWrite();
  ctx.urlHash = location.hash;
  const { state: decoded, named, device, config } = decodeState(location.hash, DEFAULTS);
  Object.assign(state, decoded, { config: null });
  // A link that names a system and no plan leaves the plan to the core, as a request without /parallel does (the
  // CLI's --system without --tp); the link the page writes for a system always names tp (writeUrl).
  ctx.autoPlan = Boolean(state.system) && !PLAN_KEYS.some((k) => named.has(k));
  ctx.planByCore = false;  // a plan the link names is the link's
  fillSystem(named);
  ctx.urlDevice = device;
  document.getElementById('hardware-notice').textContent = '';
  keepLinkDeviceApart();
  if (config) {
    state.config = config;
    state.model = 'custom';
  }
}

// A link's device that differs from the device stored here under the same id (two people who tuned the same
// preset) is the one analyzed, as its sender saw it: it is listed beside the stored one, renamed "... (from the
// link)", and the page says so. Also when another tab saves a different device under the id of the link's device
// shown here (main.js). Needs the store (ctx.store).
export function keepLinkDeviceApart() {
  const d = ctx.urlDevice;
  const apart = linkDeviceApart(ctx.store.doc, d);
  if (!apart) return;
  ctx.urlDevice = apart;
  if (state.hardware === `custom:${d.id}`) state.hardware = `custom:${apart.id}`;
  const held = ctx.store.doc.devices.find((x) => x.doc.id === d.id).doc;
  document.getElementById('hardware-notice').textContent = `The link's device differs from "${held.name}", saved here under the same id `
    + `("${d.id}"): the link's is analyzed, listed as "${apart.name}". Save it in the device editor (Settings) to keep it; yours is unchanged.`;
}

// The link follows the state once the page is idle: history.replaceState costs the page's thread 3-5 ms in
// Chromium, more than painting the numbers, and a user typing a value writes one link, not one per key. Until it is
// written the results section carries data-link="pending" (the browser tests wait for it to go). Whoever reads the
// link (copying it, the page being left) writes it first: flushUrl(). `ctx.urlWrite` is the write scheduled.
const idle = typeof requestIdleCallback === 'function';

function cancelWrite() {
  if (ctx.urlWrite === null) return;
  if (idle) cancelIdleCallback(ctx.urlWrite);
  else clearTimeout(ctx.urlWrite);
  ctx.urlWrite = null;
  delete document.querySelector('section.results').dataset.link;
}

export function writeUrl() {
  if (ctx.urlWrite !== null) return;  // the write scheduled already writes the state as it is then
  ctx.urlWrite = idle ? requestIdleCallback(flushUrl, { timeout: 300 }) : setTimeout(flushUrl, 50);
  document.querySelector('section.results').dataset.link = 'pending';
}

export function flushUrl() {
  if (ctx.urlWrite === null) return;
  cancelWrite();
  // A link opened since the page last read or wrote one (its hashchange not handled yet) is the scenario now:
  // writing the page's older one over it would make the page read that back.
  if (location.hash !== ctx.urlHash) return;
  const p = new URLSearchParams();
  for (const k of Object.keys(DEFAULTS)) if (state[k] !== DEFAULTS[k]) p.set(k, String(state[k]));
  // With a system, a plan of the user's or one the core picked names tp even at 1: a link without it means "the
  // core picks the plan" (readUrl).
  if (state.system && !ctx.autoPlan && !p.has('tp')) p.set('tp', String(state.tp));
  if (state.model === 'custom' && state.config) p.set('config', encodeObject(state.config));
  const dev = customDevice();
  if (dev) p.set('device', encodeObject(dev));
  const hash = p.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
  ctx.urlHash = location.hash;
}
