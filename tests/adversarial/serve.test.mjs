// scripts/serve.mjs, the local server, under malformed requests: a lone or bad percent escape, a NUL, a path that
// climbs out of the root, a request line that is not HTTP. Each gets its answer (400, 404) and the server keeps
// serving: before the fix one '%' killed the process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { accepted, serve } from '../../scripts/serve.mjs';

function raw(port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (d) => { data += d; });
    socket.on('end', () => resolve(data.split('\r\n')[0]));
    socket.on('close', () => resolve(data.split('\r\n')[0]));
    socket.on('error', reject);
    setTimeout(() => socket.end(), 500);
  });
}

test('malformed URLs are answered and the server keeps serving', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infercast-serve-'));
  fs.writeFileSync(path.join(dir, 'index.html'), 'home');
  fs.mkdirSync(path.join(dir, '..', path.basename(dir) + '-secret'), { recursive: true });
  fs.writeFileSync(path.join(dir, '..', path.basename(dir) + '-secret', 'key'), 'secret');
  const server = await serve(dir, 0, '127.0.0.1', '/site/');
  const { port } = server.address();
  try {
    const get = (p) => raw(port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(await get('/site/%'), 'HTTP/1.1 400 Bad Request');
    assert.equal(await get('/site/%E0%A4%A'), 'HTTP/1.1 400 Bad Request');
    assert.equal(await get('/site/%zz'), 'HTTP/1.1 400 Bad Request');
    assert.equal(await get('/site/a%00b'), 'HTTP/1.1 400 Bad Request');
    assert.equal(await get('/site/..%2f..%2fetc%2fpasswd'), 'HTTP/1.1 404 Not Found');
    assert.equal(await get(`/site/..%2f${path.basename(dir)}-secret%2fkey`), 'HTTP/1.1 404 Not Found');
    assert.equal(await raw(port, 'NOT HTTP AT ALL\r\n\r\n'), 'HTTP/1.1 400 Bad Request');
    const res = await fetch(`http://127.0.0.1:${port}/site/`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'home');
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(dir, '..', path.basename(dir) + '-secret'), { recursive: true, force: true });
  }
});

test('Accept-Encoding is read as codings with weights, not as a substring', () => {
  // Found by an audit: "gzip;q=0" (gzip refused) and "notgzip" were sent gzip.
  assert.equal(accepted('gzip, deflate, br', 'br'), true);
  assert.equal(accepted('gzip;q=0', 'gzip'), false);
  assert.equal(accepted('notgzip', 'gzip'), false);
  assert.equal(accepted('br;q=0.5, gzip;q=0', 'gzip'), false);
  assert.equal(accepted('*', 'br'), true);
  assert.equal(accepted('*;q=0, gzip', 'br'), false);
  assert.equal(accepted('GZIP', 'gzip'), true);
  assert.equal(accepted(undefined, 'gzip'), false);
});
