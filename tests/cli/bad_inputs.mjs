// The bad-input corpus (tests/bad_inputs/*.json) through the CLI: `infercast call FUNCTION` with the request on
// stdin must exit 2, print nothing on stdout and exactly "infercast: MESSAGE [CODE]" on stderr.
// Usage: node tests/cli/bad_inputs.mjs path/to/infercast   (ctest runs it as cli.bad_inputs)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [bin] = process.argv.slice(2);
const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../bad_inputs');
let n = 0;
const failures = [];
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
  for (const c of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) {
    const input = c.request_text ?? JSON.stringify(c.request);
    const r = spawnSync(bin, ['call', c.function], { input, encoding: 'utf8' });
    const want = `infercast: ${c.message} [${c.code}]\n`;
    if (r.status !== 2 || r.stdout !== '' || r.stderr !== want)
      failures.push(`${f}: ${c.name}\n  status ${r.status}, stdout ${JSON.stringify(r.stdout)}\n  stderr ${JSON.stringify(r.stderr)}\n  want   ${JSON.stringify(want)}`);
    n++;
  }
}
if (failures.length) {
  console.error(failures.join('\n'));
  console.error(`${failures.length} of ${n} cases failed`);
  process.exit(1);
}
console.log(`${n} bad inputs: exit 2 and the exact message on stderr`);
