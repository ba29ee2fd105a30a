// A minimal static server for dist/site on 127.0.0.1 (no dependencies; correct MIME types for .wasm and .mjs;
// precompressed files sent as such; hashed files cached for good).
// Usage: node scripts/serve.mjs [dir] [port]. Also imported by the browser tests.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

// Whether an Accept-Encoding header takes `name`: a listed coding (or *) whose q is not 0 (RFC 9110 12.5.3), not a
// substring ("notgzip" is not gzip; "gzip;q=0" refuses it).
export function accepted(header, name) {
  let star = false;
  for (const part of String(header || '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === name) return weight > 0;
    if (coding === '*') star = weight > 0;
  }
  return star;
}

export function serve(dir, port = 8000, host = '127.0.0.1', prefix = '/') {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    // A malformed URL (a lone '%', a bad escape) is the client's error: answered 400, and the server keeps serving.
    let url;
    try {
      url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request: the URL is not well formed');
      return;
    }
    if (url.includes('\0')) {
      res.writeHead(400).end('bad request: the URL is not well formed');
      return;
    }
    if (!url.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    url = '/' + url.slice(prefix.length);
    let file = path.join(root, path.normalize(url));
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    } catch {
      // not there: readFile answers 404
    }
    // The file's precompressed form when the browser takes it (build-site.mjs writes .br and .gz beside each).
    const encoding = [['br', '.br'], ['gzip', '.gz']].find(([name, ext]) => accepted(req.headers['accept-encoding'], name) && fs.existsSync(file + ext));
    fs.readFile(encoding ? file + encoding[1] : file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', Vary: 'Accept-Encoding',
        // Files named by a hash of their content never change: cached for good; the rest revalidated.
        'Cache-Control': /\.[0-9a-f]{12}\./.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache' };
      if (encoding) headers['Content-Encoding'] = encoding[0];
      headers['Content-Length'] = data.length;
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  // A malformed request line or header closes that connection only.
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'dist/site';
  const port = Number(process.argv[3] || 8000);
  serve(dir, port).then(() => console.log(`Infercast is served at http://127.0.0.1:${port}/ (Ctrl-C to stop)`));
}
