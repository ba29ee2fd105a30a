// The adversarial cases (cases.json) through the real infercast binary (run by ctest as cli.adversarial, on the
// ASan + UBSan build). A case with a `cli` entry runs its own arguments ({file} is a file holding the case's input,
// or cli.input); any other JSON case runs `infercast call FUNCTION --request FILE`. Each must exit with its status
// (2 for an error, 0 for a case marked ok) and print exactly its message on stderr, and neither stream may carry a
// control character (ESC and the rest of C0 but newline and tab, DEL, C1). Usage: node cli.mjs path/to/infercast
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expand } from './expand.mjs';

const bin = path.resolve(process.argv[2]);
const here = path.dirname(new URL(import.meta.url).pathname);
const cases = JSON.parse(fs.readFileSync(path.join(here, 'cases.json'), 'utf8'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infercast-adversarial-'));

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/;

let failures = 0;
let ran = 0;
for (const c of cases) {
  if (c.runners && !c.runners.includes('cli')) continue;
  if (c.heavy) continue;
  if (c.bytes && !c.cli) continue;
  const file = path.join(dir, c.cli?.file ?? 'request.json');
  if (c.cli?.input !== undefined || c.input !== undefined) fs.writeFileSync(file, expand(c.cli?.input ?? c.input));
  // Run inside the temporary folder, so messages name the file as the case does ({file} is its name).
  const args = (c.cli?.args ?? ['call', c.call, '--request', '{file}']).map((a) => (a === '{file}' ? path.basename(file) : a));
  let r;
  if (args.some((a) => typeof a === 'object')) {
    // Raw bytes in an argument: built by the shell (node passes strings as UTF-8).
    const words = args.map((a, i) => (typeof a === 'object' ? `"$(printf '${a.printf}')"` : `"\${${i + 1}}"`));
    r = spawnSync('bash', ['-c', `exec "$0" ${words.join(' ')}`, bin, ...args.map((a) => (typeof a === 'object' ? '' : a))], { cwd: dir, maxBuffer: 1 << 30, timeout: 600000 });
  } else {
    r = spawnSync(bin, args, { cwd: dir, maxBuffer: 1 << 30, timeout: 600000 });
  }
  ran++;
  if (process.env.ADVERSARIAL_PRINT) console.log(JSON.stringify({ name: c.name, status: r.status, stderr: r.stderr.toString('utf8') }));
  const stdout = r.stdout.toString('utf8');
  const stderr = r.stderr.toString('utf8');
  try {
    const status = c.cli?.status ?? (c.ok ? 0 : 2);
    assert.equal(r.status, status, `exit status (stderr: ${stderr.slice(0, 500)})`);
    if (status === 2) {
      const expected = c.cli?.stderr ?? `infercast: ${c.message} [${c.code}]\n`;
      assert.equal(stderr, expected);
      assert.equal(stdout, '');
    }
    assert.ok(!CONTROL.test(stdout), 'stdout holds no control characters');
    assert.ok(!CONTROL.test(stderr), 'stderr holds no control characters');
    if (c.cli?.stdout) assert.match(stdout, new RegExp(c.cli.stdout));
  } catch (err) {
    failures++;
    console.error(`FAIL ${c.name}: ${err.message}`);
  }
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(`${ran} adversarial cases through the CLI, ${failures} failed`);
process.exit(failures ? 1 : 0);
