// The one wrapper over the core's envelope protocol, for the npm package, the page and its workers alike:
// requests go in as objects, envelopes {ok, schema_version, version, value | error} come back, and a typed client
// returns each call's value or throws InfercastError with the core's code, path (a JSON pointer into the request)
// and message. One method per function of the core's registry (the `functions` call), so a new call needs no edit.

export class InfercastError extends Error {
  constructor(code, path, message) {
    super(message);
    this.name = 'InfercastError';
    this.code = code;
    this.path = path;
  }
}

// An envelope's value, or its error thrown.
export function unwrap(envelope) {
  if (envelope.ok) return envelope.value;
  const e = envelope.error;
  throw new InfercastError(e.code, e.path, e.message);
}

// Puts each column of a `callColumns` reply in place: the envelope's "columns" lists [JSON pointer, offset,
// length] into the one Float64Array the module returned; each number column becomes a view of it (no copy), so the
// whole reply can be posted to another thread with that one buffer transferred. An entry marked "strings" is a
// string column: the text holds its distinct strings and the buffer each row's index into them.
// A column's JSON pointer as its keys, unescaped (RFC 6901), kept per pointer: replies name the same few hundred
// pointers call after call, and splitting each anew was half of this function's time (Llama-3.1-8B's reply: 21 ->
// 12 us per call under node, 31 columns). Bounded, since pointers come from replies.
const pathsOfPointers = new Map();
function pathOf(pointer) {
  let path = pathsOfPointers.get(pointer);
  if (path === undefined) {
    path = pointer.split('/').slice(1).map((k) => (k.includes('~') ? k.replace(/~1/g, '/').replace(/~0/g, '~') : k));
    if (pathsOfPointers.size < 4096) pathsOfPointers.set(pointer, path);
  }
  return path;
}

export function placeColumns(envelope, columns) {
  const list = envelope.columns || [];
  for (let c = 0; c < list.length; c++) {
    const [pointer, offset, length, kind] = list[c];
    const path = pathOf(pointer);
    const last = path.length - 1;
    let o = envelope;
    for (let i = 0; i < last; i++) o = o[path[i]];
    const key = last >= 0 ? path[last] : '';  // "" names the document itself, kept as the key "" as before
    if (kind === 'strings') {
      const distinct = o[key];
      const strings = new Array(length);
      for (let i = 0; i < length; i++) strings[i] = distinct[columns[offset + i]];
      o[key] = strings;
    } else {
      o[key] = columns.subarray(offset, offset + length);
    }
  }
  delete envelope.columns;
  return envelope;
}

// A table written as columns ({layout: "columns", rows, <field>: [...]}) as rows [{<field>: value}], for code that
// reads rows; a table already in rows comes back as it is.
export function rows(table) {
  if (!table || Array.isArray(table) || table.layout !== 'columns') return table;
  const keys = Object.keys(table).filter((k) => k !== 'layout' && k !== 'rows');
  const out = new Array(table.rows);
  for (let i = 0; i < table.rows; i++) {
    const r = {};
    for (const k of keys) r[k] = table[k][i];
    out[i] = r;
  }
  return out;
}

// The transport over a loaded core module (the wasm build's `call`, `callBytes` and `callColumns`): synchronous,
// envelopes as objects. A throw from inside the module (it should never) becomes an envelope too: `onFailure(err)`'s
// (the page's worker passes one that throws, to replace its core).
export function moduleTransport(module, onFailure = (err) => ({ ok: false, error: { code: 'core.failed', path: '', message: `the core failed to run: ${err}` } })) {
  const guard = (f) => {
    try {
      return f();
    } catch (err) {
      return onFailure(err);
    }
  };
  // Requests go in as UTF-8 bytes: the module copies them as they are (a string it would encode in JavaScript).
  const encoder = new TextEncoder();
  const text = (request) => encoder.encode(requestText(request));
  return {
    envelope: (fn, request) => guard(() => JSON.parse(module.call(fn, text(request)))),
    // At most the first MAX_FILE_BYTES of a file go in, as the CLI reads them: every function of file bytes reads a
    // header within them, and the module copies what it is given (3 GB would exhaust its memory for good).
    envelopeBytes: (fn, bytes) => guard(() => JSON.parse(module.callBytes(fn, bytes.length > MAX_FILE_BYTES ? bytes.subarray(0, MAX_FILE_BYTES) : bytes))),
    // The request's number columns ("layout": "columns") as Float64Array views of one buffer, not as text.
    envelopeColumns: module.callColumns
      ? (fn, request) => guard(() => {
        const { text: reply, columns } = module.callColumns(fn, text(request));
        return placeColumns(JSON.parse(reply), columns);
      })
      : (fn, request) => guard(() => JSON.parse(module.call(fn, text(request)))),
  };
}

// The bytes of a file a function of file bytes reads at most: the largest header any reads (a safetensors header
// is at most 100,000,000 bytes after its 8-byte length; a GGUF header at most 64 MiB), as the CLI's --request.
export const MAX_FILE_BYTES = 100000008;

// A request as JSON text. JSON.stringify writes NaN and the infinities as null, which the core would read as an
// absent field and fill with its default: `prompt: Infinity` ran with 512 tokens. They are written as the literals
// Python's json writes (NaN, Infinity, -Infinity), which the core reads and refuses by field, as the CLI does.
const NON_FINITE = '\u{10FFFF}infercast-non-finite:';
export function requestText(request) {
  let found = false;
  const text = JSON.stringify(request ?? {}, (key, v) => {
    if (typeof v !== 'number' || Number.isFinite(v)) return v;
    found = true;
    return NON_FINITE + (Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity');
  });
  return found ? text.replace(/"\u{10FFFF}infercast-non-finite:(NaN|Infinity|-Infinity)"/gu, '$1') : text;
}

const isBytes = (x) => x instanceof Uint8Array || x instanceof ArrayBuffer;

// A client over a transport ({envelope(fn, request), envelopeBytes(fn, bytes)}, each returning an envelope or a
// promise of one) and the registry's entries [{name, input}]: `client.analyze(request)` returns the value (or a
// promise of it, over an asynchronous transport) or throws InfercastError; `client.call(fn, request)` is the same
// by name, `client.envelope(fn, request)` never throws for a refused request.
export function createClient(transport, functions) {
  const then = (x, f) => (x && typeof x.then === 'function' ? x.then(f) : f(x));
  const client = {
    functionNames: functions.map((f) => f.name),
    envelope: (fn, request) => transport.envelope(fn, request),
    envelopeBytes: (fn, bytes) => transport.envelopeBytes(fn, bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes),
    call: (fn, request) => then(transport.envelope(fn, request), unwrap),
    callBytes: (fn, bytes) => then(client.envelopeBytes(fn, bytes), unwrap),
  };
  for (const f of functions) {
    if (f.name in client) throw new Error(`infercast: the core's function "${f.name}" would hide a method of the client`);
    client[f.name] = f.input === 'bytes'
      ? (bytes) => {
        if (!isBytes(bytes)) throw new TypeError(`${f.name} reads a file's bytes (a Uint8Array), not ${typeof bytes}`);
        return client.callBytes(f.name, bytes);
      }
      : (request) => client.call(f.name, request);
  }
  return client;
}

// A client over an asynchronous transport (the page's worker backend): asks the core for its functions first.
export async function connect(transport) {
  return createClient(transport, unwrap(await transport.envelope('functions', {})));
}
