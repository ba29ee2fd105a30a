// How the CLI takes arguments and files and writes its output, checked on the real binary, one case per ctest test
// (cli.args_files.CASE): flags looked up within the command's own groups, write errors (a full disk) reported and
// never exit 0, validate's CSV cells quoted and kept from spreadsheets' formulas, bytes that are not UTF-8 kept off
// the terminal, folders refused and pipes read as files, a validate selection of no row refused, pareto without
// --keep, lists with an empty item refused, and a --point key given twice refused.
// Usage: node tests/cli/args_files.mjs path/to/infercast CASE   (ctest runs every case)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [bin, only] = process.argv.slice(2);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const data = (f) => path.join(root, 'tests/data', f);
const run = (args, opts = {}) => spawnSync(bin, args, { encoding: 'utf8', ...opts });
// Through a shell, for bytes no JS string holds ($(printf '\233')) and for process substitution (<(cat FILE)).
const shell = (script, ...args) => spawnSync('bash', ['-c', script, bin, ...args], { encoding: 'buffer' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infercast-args-'));
const refused = (r, stderr) => {
  assert.equal(r.status, 2, `status ${r.status}; stderr ${r.stderr}`);
  assert.equal(r.stdout, '');
  if (stderr instanceof RegExp) assert.match(r.stderr, stderr);
  else assert.equal(r.stderr, stderr);
};
// Fields of one CSV line (RFC 4180, no line breaks inside a field).
const csvFields = (line) => {
  const out = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') cur += '"', i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out;
};
const threeSources = data('validate-three-sources.csv');

const cases = {
  // #3: --concurrency is serving's flag and calibrate's; each command gets its own (it was refused for calibrate).
  concurrency() {
    const m = path.join(tmp, 'vllm.txt');
    fs.writeFileSync(m, fs.readFileSync(data('vllm-bench-serve-no-concurrency.txt')));
    const base = ['calibrate', '--hardware', 'apple-m2-ultra', '--model', 'llama-2-7b', '--measurements', m, '--format', 'json'];
    const one = run(base);
    const four = run([...base, '--concurrency', '4']);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(four.status, 0, four.stderr);
    assert.notDeepEqual(JSON.parse(four.stdout).points, JSON.parse(one.stdout).points);
    assert.match(run(['calibrate', '--help']).stdout, /--concurrency N +requests at a time in a vllm run/);
    // With --point it reaches the core's /concurrency (not /serving/concurrency), which says where it applies.
    refused(run(['calibrate', '--hardware', 'apple-m2-ultra', '--model', 'llama-2-7b', '--concurrency', '4', '--point', 'metric=tpot_s,value=0.02']),
      /^infercast: \/concurrency applies to pasted \/measurements/);
    // serving's --concurrency is still serving's.
    const s = run(['serving', '--model', 'llama-3.2-1b', '--hardware', 'nvidia-h100-sxm', '--concurrency', '3', '--isl', '64', '--osl', '8', '--format', 'json']);
    assert.equal(s.status, 0, s.stderr);
    assert.match(s.stdout, /"concurrency": 3\b/);
  },

  // #4: a file or stdout that cannot be written (a full disk) fails with a message naming it, never exit 0.
  write_errors() {
    if (!fs.existsSync('/dev/full')) return console.log('no /dev/full: skipped');
    const full = fs.openSync('/dev/full', 'w');
    const r = run(['models', '--format', 'json'], { stdio: ['ignore', full, 'pipe'] });
    assert.equal(r.status, 2);
    assert.equal(r.stderr, 'infercast: could not write the output (No space left on device)\n');
    const t = run(['models'], { stdio: ['ignore', full, 'pipe'] });
    assert.equal(t.status, 2);
    const c = run(['calibrate', '--hardware', 'nvidia-h100-sxm', '--model', 'llama-3.2-1b', '--point', 'metric=tpot_s,value=0.002', '--save', '/dev/full']);
    refused(c, 'infercast: --save: cannot write /dev/full (No space left on device)\n');
    const w = run(['validate', '--csv', threeSources, '--no-cross-validate', '--write-fits', '/dev/full']);
    refused(w, 'infercast: --write-fits: cannot write /dev/full (No space left on device)\n');
    refused(run(['validate', '--csv', threeSources, '--no-cross-validate', '--write-fits', path.join(tmp, 'no/such/dir.json')]),
      /^infercast: --write-fits: cannot write .*no\/such\/dir\.json \(No such file or directory\)\n$/);
    // A file that can be written still is, and says so.
    const saved = path.join(tmp, 'mine.json');
    const ok = run(['calibrate', '--hardware', 'nvidia-h100-sxm', '--model', 'llama-3.2-1b', '--point', 'metric=tpot_s,value=0.002', '--save', saved]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /Saved the calibrated device to /);
    assert.equal(typeof JSON.parse(fs.readFileSync(saved, 'utf8')), 'object');
  },

  // #7: validate --format csv: cells from the user's CSV quoted (RFC 4180) and never a spreadsheet formula.
  validate_csv_cells() {
    const lines = fs.readFileSync(threeSources, 'utf8').split('\n');
    const ids = ['"1,=HYPERLINK(""x"")"', '=1+1', '"@SUM(A1) ""q"""', '-2+3'];
    for (let i = 0; i < ids.length; i++) lines[i + 1] = ids[i] + lines[i + 1].slice(lines[i + 1].indexOf(','));
    const f = path.join(tmp, 'inj.csv');
    fs.writeFileSync(f, lines.slice(0, ids.length + 1).join('\n') + '\n');
    const r = run(['validate', '--csv', f, '--no-cross-validate', '--format', 'csv']);
    assert.equal(r.status, 0, r.stderr);
    const out = r.stdout.trimEnd().split('\n');
    const head = csvFields(out[0]);
    assert.equal(head.length, 13);
    const rows = out.slice(1).map(csvFields);
    assert.equal(rows.length, ids.length);
    for (const row of rows) assert.equal(row.length, head.length, JSON.stringify(row));
    assert.deepEqual(rows.map((x) => x[0]), ['1,=HYPERLINK("x")', "'=1+1", `'@SUM(A1) "q"`, "'-2+3"]);
    assert.ok(out[1].startsWith('"1,=HYPERLINK(""x"")",'), out[1]);
    assert.ok(out[3].startsWith(`"'@SUM(A1) ""q""",`), out[3]);
    for (const row of rows) assert.doesNotMatch(row.slice(1).join(','), /(^|,)[=+@]/);
  },

  // #8: a byte that is not part of valid UTF-8 (a bare 0x9B is an 8-bit CSI) never reaches the terminal.
  raw_c1_bytes() {
    const a = shell('"$0" analyze --model llama-3.2-1b --batch "$(printf \'\\233[31m\')"');
    assert.equal(a.status, 2);
    assert.ok(!a.stderr.includes(0x9b), a.stderr.toString('hex'));
    assert.equal(a.stderr.toString('utf8'), 'infercast: --batch holds "?[31m"; expected an integer\n');
    const b = shell('"$0" analyze "$(printf -- \'--bo\\23331mgus\')"');
    assert.equal(b.status, 2);
    assert.ok(!b.stderr.includes(0x9b), b.stderr.toString('hex'));
    assert.match(b.stderr.toString('utf8'), /^infercast: unknown option --bo\?31mgus for/);
    // A truncated sequence, an overlong form, a surrogate, a stray continuation, F8 and C1: one '?' a byte; whole characters (é, €, an emoji) pass as they are.
    const c = shell('"$0" analyze --model llama-3.2-1b --batch "$(printf \'\\342\\202x\\300\\257\\355\\240\\200\\370é€😀\\302\\233\')"');
    assert.equal(c.status, 2);
    assert.equal(c.stderr.toString('utf8'), 'infercast: --batch holds "??x??????é€😀?"; expected an integer\n');
  },

  // #9: a folder is refused (it was read as an empty file); a pipe (process substitution) is read like a file.
  not_regular_files() {
    const dir = path.join(tmp, 'adir');
    fs.mkdirSync(dir);
    const folder = `cannot read ${dir}: it is a folder; expected a file [cli.unreadable_file]`;
    refused(run(['call', 'analyze', '--request', dir]), `infercast: ${folder}\n`);
    refused(run(['call', 'gguf', '--request', dir]), `infercast: ${folder}\n`);
    refused(run(['validate', '--csv', dir]), `infercast: ${folder}\n`);
    refused(run(['calibrate', '--hardware', 'apple-m2-ultra', '--model', 'llama-2-7b', '--measurements', dir]), `infercast: --measurements: ${folder}\n`);
    const gguf = path.join(tmp, 'x.gguf');
    fs.mkdirSync(gguf);
    refused(run(['analyze', '--model', gguf]), `infercast: cannot read ${gguf}: it is a folder; expected a file\n`);
    refused(run(['call', 'analyze', '--request', path.join(tmp, 'missing.json')]),
      `infercast: cannot read ${path.join(tmp, 'missing.json')} (No such file or directory) [cli.unreadable_file]\n`);
    // A file, its bytes through a pipe (bash's <(cat FILE) is /dev/fd/N), and /dev/stdin: the same result.
    const hw = path.join(root, 'presets/hardware/nvidia-h100-sxm.json');
    const args = '--model llama-3.2-1b --format json';
    const file = shell(`"$0" analyze ${args} --hardware "$1"`, hw);
    const pipe = shell(`"$0" analyze ${args} --hardware <(cat "$1")`, hw);
    const stdin = shell(`"$0" analyze ${args} --hardware /dev/stdin < "$1"`, hw);
    assert.equal(file.status, 0, file.stderr.toString());
    assert.equal(pipe.status, 0, pipe.stderr.toString());
    assert.equal(stdin.status, 0, stdin.stderr.toString());
    assert.equal(pipe.stdout.toString(), file.stdout.toString());
    assert.equal(stdin.stdout.toString(), file.stdout.toString());
    const req = path.join(tmp, 'req.json');
    fs.writeFileSync(req, '{"model": "llama-3.2-1b", "hardware": "nvidia-h100-sxm"}');
    const viaPipe = shell('"$0" call analyze --request <(cat "$1")', req);
    assert.equal(viaPipe.status, 0, viaPipe.stderr.toString());
    assert.equal(viaPipe.stdout.toString(), run(['call', 'analyze', '--request', req]).stdout);
    const meas = shell('"$0" calibrate --hardware apple-m2-ultra --model llama-2-7b --measurements <(cat "$1") --format json',
      data('vllm-bench-serve-no-concurrency.txt'));
    assert.equal(meas.status, 0, meas.stderr.toString());
  },

  // #10: --device, --class or --measured-runtime selecting no row is refused (it showed 0.0% errors).
  validate_empty_selection() {
    const v = ['validate', '--csv', threeSources, '--no-cross-validate'];
    refused(run([...v, '--device', 'nope']),
      /^infercast: --device holds "nope", which no forecast row has; expected [a-z0-9-]+(, [a-z0-9-]+)* or [a-z0-9-]+\n$/);
    refused(run([...v, '--measured-runtime', 'nope']), /^infercast: --measured-runtime holds "nope", which no forecast row has; expected .*tensorrt-llm\n$/);
    refused(run([...v, '--class', 'nope']), /^infercast: --class holds "nope", which no forecast row has; expected /);
    const all = JSON.parse(run([...v, '--format', 'json']).stdout);
    const row = (f) => all.rows.find((r) => r.covered && r[f]);
    const other = all.rows.find((r) => r.covered && r.runtime.toLowerCase() !== row('runtime').runtime.toLowerCase() && r.hardware_id !== row('hardware_id').hardware_id);
    refused(run([...v, '--device', row('hardware_id').hardware_id, '--measured-runtime', other.runtime]),
      /^infercast: --device "[^"]+" and --measured-runtime "[^"]+" select no forecast row together; each matches rows alone\n$/);
    const ok = run([...v, '--device', row('hardware_id').hardware_id]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /Selection: device /);
  },

  // #11: --keep (how many sampled points a sweep lists) is sweep's; pareto lists only the front and refuses it.
  pareto_keep() {
    const base = ['--model', 'llama-3.2-1b', '--hardware', 'nvidia-h100-sxm', '--axis', 'compute_TFLOPS=1,2', '--keep', '7'];
    refused(run(['pareto', ...base]), 'infercast: unknown option --keep for `infercast pareto`; see infercast pareto --help\n');
    assert.doesNotMatch(run(['pareto', '--help']).stdout, /--keep/);
    assert.match(run(['sweep', '--help']).stdout, /--keep N/);
    const s = run(['sweep', ...base.slice(0, -1), '1', '--format', 'json']);
    assert.equal(s.status, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).sample.count, 1);
  },

  // #12: a list with an empty item (a separator at an end, or two together) is refused, naming the flag.
  empty_items() {
    const lm = ['--model', 'llama-3.2-1b', '--hardware', 'nvidia-h100-sxm'];
    const gemma = ['analyze', '--model', 'gemma-3n-e4b', '--hardware', 'nvidia-h100-sxm'];
    const empty = (flag, value, sep) =>
      `infercast: ${flag} holds "${value}", which has an empty item; expected items separated by a single '${sep}', none at either end\n`;
    refused(run([...gemma, '--images', '896x896x']), empty('--images', '896x896x', 'x'));
    refused(run([...gemma, '--images', '896x896x1x']), empty('--images', '896x896x1x', 'x'));
    refused(run([...gemma, '--images', '896x896,']), empty('--images', '896x896,', ','));
    refused(run(['quant-sweep', ...lm, '--sweep-kv', 'int4,']), empty('--sweep-kv', 'int4,', ','));
    refused(run(['quant-sweep', ...lm, '--sweep-kv', ',int4']), empty('--sweep-kv', ',int4', ','));
    refused(run(['quant-sweep', ...lm, '--sweep-kv', '']), empty('--sweep-kv', '', ','));
    refused(run(['sweep', ...lm, '--axis', 'compute_TFLOPS=1:2:3:']), empty('--axis', '1:2:3:', ':'));
    refused(run(['sweep', ...lm, '--axis', 'compute_TFLOPS=1,2,']), empty('--axis', '1,2,', ','));
    refused(run(['sweep', ...lm, '--objectives', 'tpot_s,,power_W']), empty('--objectives', 'tpot_s,,power_W', ','));
    const ok = run([...gemma, '--images', '896x896x2', '--format', 'json']);
    assert.equal(ok.status, 0, ok.stderr);
  },

  // #13: a key given twice in one --point is refused (the last one silently won).
  point_repeated_key() {
    const c = ['calibrate', '--hardware', 'nvidia-h100-sxm', '--model', 'llama-3.2-1b'];
    refused(run([...c, '--point', 'metric=tpot_s,value=0.002,value=0.5']),
      'infercast: --point "metric=tpot_s,value=0.002,value=0.5": key "value" is given twice; give it once\n');
    refused(run([...c, '--point', 'metric=tpot_s,value=0.002,batch=1,batch=64']),
      'infercast: --point "metric=tpot_s,value=0.002,batch=1,batch=64": key "batch" is given twice; give it once\n');
    refused(run([...c, '--point', 'metric=tpot_s,value=0.002,']), /^infercast: --point holds "metric=tpot_s,value=0.002,", which has an empty item/);
    const ok = run([...c, '--point', 'metric=tpot_s,value=0.002,batch=1', '--point', 'metric=tpot_s,value=0.004,batch=8']);
    assert.equal(ok.status, 0, ok.stderr);
  },
};

try {
  const names = only ? [only] : Object.keys(cases);
  for (const n of names) {
    assert.ok(cases[n], `no case ${n}`);
    cases[n]();
    console.log(`${n}: ok`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
