// The runtime beside the device: the core's `runtimes` listing (a catalog built into the page, catalog-names.js)
// names the stacks; the first choice sends no `runtime`, so the core picks the device's usual one (the `hardware`
// listing's default_runtime), as the CLI without --runtime.
import { $, ctx, option, state } from './ctx.js';
import { setProp, setText } from './dom.js';
import { selectedDeviceDoc } from './request.js';

export const nameOf = (id) => (ctx.runtimes.find((rt) => rt.id === id) || {}).name || id;

// The first choice, named after the device's usual runtime when it is known (under the label "Runtime": "the
// device's usual runtime: vLLM (V1 engine)" was 340 px in a 306 px select).
export const usualRuntimeText = (usual) => (usual ? `the device's usual: ${usual}` : "the device's usual runtime");

export function fillRuntimes(list) {
  if (!Array.isArray(list) || !list.length) return;  // the field stays hidden
  ctx.runtimes = list;
  const sel = $('runtime');
  sel.textContent = '';
  sel.appendChild(option('', "the device's usual runtime"));
  for (const rt of ctx.runtimes) {
    const o = option(rt.id, rt.name);
    o.title = rt.source ? `${rt.id}: ${rt.source}` : rt.id;
    sel.appendChild(o);
  }
  sel.disabled = false;
  $('runtime-field').hidden = false;
  syncRuntime();
}

// The selection from the state (a link may name a runtime this core does not list: then the device's usual one),
// and the first choice named after the selected device's usual runtime. A custom device is not in the listing: its
// usual runtime is the one the last analysis ran with when no runtime was chosen.
export function syncRuntime(result) {
  const sel = $('runtime');
  if (!ctx.runtimes.length) return;
  if (state.runtime && !ctx.runtimes.some((rt) => rt.id === state.runtime)) state.runtime = '';
  setProp(sel, 'value', state.runtime);
  const doc = state.hardware ? selectedDeviceDoc() : null;
  let usual = doc && doc.default_runtime ? nameOf(doc.default_runtime) : '';
  const r = result || ctx.lastResult;
  if (!usual && doc && !state.runtime && r && r.execution && r.hardware && r.hardware.id === doc.id) usual = r.execution.runtime_name;
  setText(sel.options[0], usualRuntimeText(usual));
  // The Serving tab's first choice sends no runtime of its own: the request then carries the Device panel's choice
  // (request.js), or none and the core takes the device's usual one. It is named after the runtime that will run.
  const srv = $('srv-runtime');
  if (srv) {
    setText(srv.options[0], state.runtime ? `as the Device panel: ${nameOf(state.runtime)}` : usual ? `the device's usual: ${usual}` : "the device's usual one");
    setProp(srv.options[0], 'title', state.runtime ? 'the runtime chosen under Device' : "the device's usual runtime (none is chosen under Device)");
  }
}
