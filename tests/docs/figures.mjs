// The figures the README and docs/ state about the project itself (preset counts, measurement rows, test cases,
// fuzz targets, the version) are checked against the tree, so a doc cannot drift from what it describes.
// Usage: node tests/docs/figures.mjs [repo root]; exit 1 naming every stale figure.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] || path.join(path.dirname(new URL(import.meta.url).pathname), '../..'));
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');
const files = (dir, ext) => fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith(ext));
const csvRows = (f) => read(f).split(/\r?\n/).filter((l) => /^\d+,/.test(l)).length;
const badInputs = () => files('tests/bad_inputs', '.json').reduce((n, f) => n + JSON.parse(read(`tests/bad_inputs/${f}`)).length, 0);
const fuzzTargets = () => (read('tests/fuzz/CMakeLists.txt').match(/^(infercast_fuzz\(|add_executable\(fuzz_)/gm) || []).length;
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const asNumber = (s) => (WORDS.includes(s.toLowerCase()) ? WORDS.indexOf(s.toLowerCase()) : Number(s.replace(/,/g, '')));

const truth = {
  models: files('presets/models', '.json').length,
  hardware: files('presets/hardware', '.json').length,
  systems: files('presets/systems', '.json').length,
  measurements: csvRows('presets/validation/measured_public.csv'),
  badInputs: badInputs(),
  fuzzTargets: fuzzTargets(),
  version: read('CMakeLists.txt').match(/project\(infercast VERSION ([0-9.]+)/)[1],
};

// [file, pattern (its first group is the figure), what it must equal]
const CHECKS = [
  ['README.md', /(\d+) model presets/g, 'models'],
  ['README.md', /(\d+) hardware presets/g, 'hardware'],
  ['README.md', /(\d+) system presets/g, 'systems'],
  ['README.md', /\((\d+) public measurements/g, 'measurements'],
  ['docs/forecast.md', /(\d+) measurements by others/g, 'measurements'],
  ['docs/testing.md', /all (\d+) model presets/g, 'models'],
  ['docs/testing.md', /\((\d+) x \d+ x \d+ analyses\)/g, 'models'],
  ['docs/testing.md', /\(\d+ x (\d+) x \d+ analyses\)/g, 'hardware'],
  ['docs/testing.md', /against (\d+) public measurements/g, 'measurements'],
  ['docs/testing.md', /`tests\/bad_inputs\/\*\.json`, (\d+) cases/g, 'badInputs'],
  ['docs/testing.md', /(\w+) libFuzzer targets/g, 'fuzzTargets'],
  ['README.md', /, (\w+) fuzz targets\)/g, 'fuzzTargets'],
  ['package.json', /"version": "([0-9.]+)"/g, 'version'],
];

let stale = 0;
let checked = 0;
for (const [file, pattern, key] of CHECKS) {
  const text = read(file);
  const found = [...text.matchAll(pattern)];
  if (found.length === 0) {
    console.error(`${file}: no figure matches ${pattern} (${key}); update this check with the doc`);
    stale++;
  }
  for (const m of found) {
    checked++;
    const stated = key === 'version' ? m[1] : asNumber(m[1]);
    if (stated !== truth[key]) {
      const line = text.slice(0, m.index).split('\n').length;
      console.error(`${file}:${line}: says ${m[1]} (${key}); the tree has ${truth[key]}`);
      stale++;
    }
  }
}
if (stale) process.exit(1);
console.log(`figures: ${checked} figures in the docs match the tree (${JSON.stringify(truth)})`);
