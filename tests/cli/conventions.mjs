// The CLI's conventions, checked on the real binary: every command refuses an unknown flag (exit 2, naming it),
// --flag=value equals --flag value, a flag given twice is an error, each command has its own --help whose choices
// come from the core's option tables, and the unknown-command message lists every command.
// Usage: node tests/cli/conventions.mjs path/to/infercast   (ctest runs it as cli.conventions)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const [bin] = process.argv.slice(2);
const run = (...args) => spawnSync(bin, args, { encoding: 'utf8' });
const commands = ['models', 'hardware', 'systems', 'runtimes', 'scenarios', 'analyze', 'batching', 'serving', 'deploy', 'quant-sweep', 'sweep', 'pareto',
  'validate', 'calibrate', 'checkpoint', 'call'];
let checks = 0;

for (const c of commands) {
  const r = run(c, '--bogus', 'x');
  assert.equal(r.status, 2, c);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `infercast: unknown option --bogus for \`infercast ${c}\`; see infercast ${c} --help\n`, c);
  const h = run(c, '--help');
  assert.equal(h.status, 0, c);
  assert.match(h.stdout, new RegExp(`^Usage: infercast ${c} `), c);
  checks += 2;
}

const json = (...args) => {
  const r = run(...args, '--format=json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const a = json('analyze', '--model', 'llama-2-7b', '--hardware', 'nvidia-h100-sxm', '--prompt=2048', '--batch', '2');
const b = json('analyze', '--model=llama-2-7b', '--hardware=nvidia-h100-sxm', '--prompt', '2048', '--batch=2');
assert.equal(a.prefill.tokens, 2 * 2048);  // two requests of 2048 new tokens (results repeat the requests only when asked)
assert.deepEqual(a, b);
checks += 2;

let r = run('analyze', '--model', 'llama-2-7b', '--batch', '2', '--batch', '3');
assert.equal(r.status, 2);
assert.equal(r.stderr, 'infercast: --batch is given twice; give it once\n');
r = run('analyze', '--model', 'llama-2-7b', '--batch=');
assert.equal(r.stderr, 'infercast: --batch needs a value (N)\n');
r = run('analyze', '--model', 'llama-2-7b', 'extra');
assert.equal(r.stderr, 'infercast: unexpected argument "extra"; see infercast analyze --help\n');
r = run('analyze', '--model', 'llama-2-7b', '--format', 'xml');
assert.equal(r.stderr, 'infercast: --format holds "xml"; expected table, json or csv\n');
checks += 4;

// Choices in the help are the core's: every moe_traffic and attention value the options call lists.
const options = JSON.parse(run('call', 'options', '--request', '/dev/null').stdout || '[]');
const help = run('analyze', '--help').stdout;
for (const path of ['/moe_traffic', '/attention', '/mla', '/timing', '/lora/mode']) {
  const o = options.find((x) => x.path === path);
  assert.ok(o, path);
  assert.ok(help.includes(o.values.map((v) => v.name).join('|')), path);
  checks++;
}
assert.match(help, /--batch N +identical requests \(default 1; 1 to 1000000\)/);
// A flag added as one entry of the flag table (--runtime) is parsed, helped and listed like every other.
assert.match(help, /--runtime ID\|PATH +the software stack/);

r = run('frobnicate');
assert.equal(r.status, 2);
assert.equal(r.stderr, `infercast: unknown command "frobnicate"; expected ${commands.slice(0, -1).join(', ')} or call (see infercast --help)\n`);
r = run('call');
assert.equal(r.status, 2);
// Numbers in tables are rounded like the rest of the table, never printed with six decimals.
const table = run('analyze', '--model', 'llama-2-7b', '--hardware', 'nvidia-h100-sxm').stdout;
assert.doesNotMatch(table, /\d+\.\d{6} tok\/s/);
checks += 3;
console.log(`${checks} CLI conventions hold`);
