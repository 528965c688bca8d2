// A static file server for the page (web/page) and the package (web/pkg),
// sending the two headers that make the page cross-origin isolated, so the
// engine's worker can share the SharedArrayBuffer through which `stop`
// reaches a running search. Any static server that sends them will do.
//
//   node web/serve.mjs [PORT]      then open http://localhost:PORT/
//
// Also imported by the browser test (`serve(port)`, port 0: any free one).

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Serve web/ on `port`; resolves to the listening server. `isolate: false`
 * leaves the isolation headers out (the test checks the page without them).
 */
export function serve(port = 8000, host = '127.0.0.1', { isolate = true } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/') {
      res.writeHead(302, { Location: '/page/' });
      res.end();
      return;
    }
    // Only files under web/: no `..` out of it.
    const file = normalize(join(ROOT, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep)) {
      res.writeHead(403);
      res.end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        ...(isolate ? ISOLATION_HEADERS : {}),
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(`not found: ${path}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const port = Number(process.argv[2] ?? 8000);
  const server = await serve(port);
  console.log(`serving ${ROOT} on http://127.0.0.1:${server.address().port}/`);
}
