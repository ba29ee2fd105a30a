// The scenario a link describes, decoded without the page: any text after '#' gives a state of the right shape
// (numbers finite, strings strings, an embedded device or config a plain object or nothing), never an exception.
// url.js applies it; tests/adversarial/url_state.test.mjs checks it over random links in node.

// A JSON object carried in the link as base64 of its UTF-8 text; null when it is anything else or nests deeper
// than `maxDepth` (the core's limit: the page would only hand it a text it refuses).
export function decodeObject(b64, maxDepth) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return null;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

// {state, named, device, config}: `state` holds every key of `defaults` (the link's value when it has the default's
// type: a finite number for a number), `named` the keys of `defaults` the link names (whatever they hold), `device`
// and `config` the objects the link carries (or null).
export function decodeState(hash, defaults, maxDepth = 64) {
  let p;
  try {
    p = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  } catch {
    p = new URLSearchParams();
  }
  const state = { ...defaults };
  const named = new Set();
  for (const k of Object.keys(defaults)) {
    if (!p.has(k)) continue;
    named.add(k);
    const v = p.get(k);
    if (typeof defaults[k] === 'number') {
      const n = v.trim() === '' ? NaN : Number(v);
      if (Number.isFinite(n)) state[k] = n;
    } else {
      state[k] = v;
    }
  }
  return {
    state,
    named,
    device: p.has('device') ? decodeObject(p.get('device'), maxDepth) : null,
    config: p.has('config') ? decodeObject(p.get('config'), maxDepth) : null,
  };
}

// The text a link carries for an object: base64 of its UTF-8 JSON.
export function encodeObject(v) {
  const bytes = new TextEncoder().encode(JSON.stringify(v));
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
