// The input of an adversarial case (cases.json) as bytes. The same rules as expand.hpp (the core's runner):
//   "text"                          its UTF-8 bytes
//   [part, ...]                     the parts one after another
//   {"repeat": part, "times": N}    the part N times
//   {"u8" | "u32" | "u64": N}       little-endian integers (u64 may be a decimal string, for values past 2^53)
//   {"f32": x}                      a little-endian float
//   {"len64": part}                 the part's length as a u64, then the part (GGUF strings, safetensors headers)
export function expand(part) {
  const chunks = [];
  const walk = (p) => {
    if (typeof p === 'string') chunks.push(Buffer.from(p, 'utf8'));
    else if (Array.isArray(p)) p.forEach(walk);
    else if ('repeat' in p) {
      const one = expand(p.repeat);
      chunks.push(p.times > 0 ? Buffer.alloc(one.length * p.times, one) : Buffer.alloc(0));
    } else if ('u8' in p) chunks.push(Buffer.from([p.u8]));
    else if ('u32' in p) { const b = Buffer.alloc(4); b.writeUInt32LE(p.u32); chunks.push(b); }
    else if ('u64' in p) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(p.u64)); chunks.push(b); }
    else if ('f32' in p) { const b = Buffer.alloc(4); b.writeFloatLE(p.f32); chunks.push(b); }
    else if ('len64' in p) {
      const body = expand(p.len64);
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(BigInt(body.length));
      chunks.push(b, body);
    } else throw new Error(`unknown part ${JSON.stringify(p)}`);
  };
  walk(part);
  return Buffer.concat(chunks);
}
