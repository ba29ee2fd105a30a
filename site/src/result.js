// An analyze value as the page reads it: its tables (written as columns) turned into rows, and each operator's
// overhead work (dequantization, LoRA and padding) summed. The page's every analysis goes through it, and so does
// the first one when the page is built (scripts/build-site.mjs), whose cards are built into the page's HTML.
import { rows } from '../../npm/client.js';

export function readResult(r) {
  r.ops = rows(r.ops);
  if (r.decode.timeline) r.decode.timeline = rows(r.decode.timeline);
  if (r.parallel) r.parallel.timeline = rows(r.parallel.timeline);
  for (const o of r.ops) o.overhead_flops = (o.dequant_flops || 0) + (o.lora_flops || 0) + (o.padded_flops || 0);
  return r;
}
