// The runtime beside the device: the list is the core's `runtimes` call, the first choice is the device's usual
// runtime (named after the `hardware` listing's default_runtime) and sends no `runtime`; a chosen runtime gives the
// CLI's numbers with --runtime, stays in the link, and a link brings it back.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { answerOf } from '../../site/src/answer.js';
import { seconds } from '../../site/src/format.js';
import { cardValue, openPage, root, settled, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (...args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const call = (fn) => JSON.parse(execFileSync(cli, ['call', fn], { input: '{}', encoding: 'utf8' }));

async function sameAsCli(page, args) {
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-rtx-4090', ...args);
  const want = answerOf(r, 'declared').sentence;
  await page.waitForFunction((w) => document.getElementById('answer').textContent === w, want, { timeout: 15000 })
    .catch(async () => assert.equal(await page.textContent('#answer'), want));
  await settled(page);
  assert.equal(await cardValue(page, 'Time to first token'), seconds(r.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(r.decode.tpot_s));
  return r;
}

test('the runtime selector: the device\'s usual one by default, two others equal to the CLI\'s --runtime, kept in the link', async () => {
  const runtimes = call('runtimes');
  const usual = (id) => runtimes.find((rt) => rt.id === call('hardware').find((h) => h.id === id).default_runtime).name;
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-rtx-4090`);
  await settled(page);
  assert.ok(await page.isVisible('#runtime'));
  assert.ok(!(await page.isDisabled('#runtime')));
  const options = await page.$$eval('#runtime option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.equal(options.length, runtimes.length + 1);
  assert.deepEqual(options.slice(1), runtimes.map((rt) => [rt.id, rt.name]));
  assert.deepEqual(options[0], ['', `the device's usual: ${usual('nvidia-rtx-4090')}`]);
  // The default sends no runtime: the CLI without --runtime, which runs the device's usual one.
  const plain = await sameAsCli(page, []);
  assert.equal(plain.execution.runtime, call('hardware').find((h) => h.id === 'nvidia-rtx-4090').default_runtime);

  // Two other runtimes, each what the CLI forecasts with --runtime, and different from each other.
  await page.selectOption('#runtime', 'vllm');
  await page.waitForFunction(() => /(^|&)runtime=vllm(&|$)/.test(location.hash.slice(1)));
  const vllm = await sameAsCli(page, ['--runtime', 'vllm']);
  assert.equal(vllm.execution.runtime, 'vllm');
  await page.selectOption('#runtime', 'pytorch-eager');
  await page.waitForFunction(() => /(^|&)runtime=pytorch-eager(&|$)/.test(location.hash.slice(1)));
  const eager = await sameAsCli(page, ['--runtime', 'pytorch-eager']);
  assert.notEqual(eager.decode.tpot_s, vllm.decode.tpot_s);

  // The link brings the runtime back in a fresh tab.
  const link = page.url();
  const second = await openPage(env.browser, link);
  await settled(second.page);
  assert.equal(await second.page.inputValue('#runtime'), 'pytorch-eager');
  assert.equal(await cardValue(second.page, 'Time per output token'), seconds(eager.decode.tpot_s));
  assert.deepEqual(second.consoleErrors, []);
  await second.context.close();

  // Back to the device's usual runtime: the link forgets it; another device names its own usual runtime.
  await page.selectOption('#runtime', '');
  await page.waitForFunction(() => !/(^|&)runtime=/.test(location.hash.slice(1)));
  await sameAsCli(page, []);
  await page.selectOption('#hardware', 'apple-m2-max');
  await page.waitForFunction((w) => document.querySelector('#runtime option').textContent === w,
    `the device's usual: ${usual('apple-m2-max')}`);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a link naming a runtime the core does not know falls back to the device\'s usual one', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-rtx-4090&runtime=no-such-runtime`);
  await settled(page);
  assert.equal(await page.inputValue('#runtime'), '');
  await sameAsCli(page, []);
  assert.ok(!/(^|&)runtime=/.test(new URL(page.url()).hash.slice(1)));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
