#!/usr/bin/env node
// Sums the gzip size of the JavaScript the login route loads (DESIGN §6 budget: < 250 KB):
// the entry chunk with its static imports, plus the lazily loaded LoginPage chunk with its
// static imports. Reads client/dist/.vite/manifest.json, so run `npm run build -w client` first.
// Prints one JSON line: { route, files, bytes, gzipBytes, gzipKB, budgetKB, withinBudget }.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const LOGIN_PAGE = 'src/modules/auth/components/LoginPage.tsx';
const BUDGET_KB = 250;

const files = new Set();
function add(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) add(dep);
}
add('index.html');
add(LOGIN_PAGE);
if (!manifest[LOGIN_PAGE]) throw new Error(`${LOGIN_PAGE} is not a chunk of the build`);

let bytes = 0;
let gzipBytes = 0;
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const content = readFileSync(join(dist, file));
  bytes += content.length;
  gzipBytes += gzipSync(content, { level: 9 }).length;
}
const gzipKB = Math.round((gzipBytes / 1024) * 10) / 10;
console.log(
  JSON.stringify({
    route: '/login',
    files: [...files].filter((f) => f.endsWith('.js')),
    bytes,
    gzipBytes,
    gzipKB,
    budgetKB: BUDGET_KB,
    withinBudget: gzipKB < BUDGET_KB,
  }),
);
process.exitCode = gzipKB < BUDGET_KB ? 0 : 1;
