// The login route's JavaScript (issue 6, DESIGN §6: under 250 KB gzip), run by `npm run bench login`.
// Builds the console, serves client/dist, opens /login in Chromium and sums, gzipped, every
// JavaScript file the browser actually fetched for that route. Prints exactly one JSON line.
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'client', 'dist');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const build = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) throw new Error('client build failed');

// The built console as the gateway serves it: files, else index.html for client routes; the api is not needed for /login.
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(dist, path);
  if (path.startsWith('/api/')) {
    res
      .writeHead(502, { 'content-type': 'application/json' })
      .end('{"code":502,"msg":"no api in this benchmark","data":null}');
  } else if (file.startsWith(dist) && existsSync(file) && extname(file)) {
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  } else {
    res.writeHead(200, { 'content-type': 'text/html' }).end(readFileSync(join(dist, 'index.html')));
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
});
const page = await browser.newPage();
const scripts = new Set<string>();
page.on('response', (r) => {
  const url = new URL(r.url());
  if (url.origin === base && url.pathname.endsWith('.js')) scripts.add(url.pathname);
});
await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
await page.locator('input[name=account]').waitFor();
await browser.close();
server.close();

let raw = 0;
let gzip = 0;
for (const path of scripts) {
  const body = readFileSync(join(dist, path));
  raw += body.length;
  gzip += gzipSync(body, { level: 9 }).length;
}
console.log(
  JSON.stringify({
    bench: 'login-bundle',
    route: '/login',
    jsFiles: scripts.size,
    rawKB: Math.round(raw / 102.4) / 10,
    gzipKB: Math.round(gzip / 102.4) / 10,
    targetGzipKB: 250,
  }),
);
