#!/usr/bin/env node
// `npm run bench [filter]`: runs every benchmark (`<package>/bench/*.bench.{ts,mjs}`), one
// after another so they don't disturb each other. Each prints exactly one JSON line with its
// figures; this runner passes those lines through and reports benchmarks that printed none.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2] ?? '';
const tsx = join(root, 'node_modules', '.bin', 'tsx');
let failed = 0;

for (const pkg of ['api', 'gateway', 'client', 'tests']) {
  const dir = join(root, pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir)
    .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
    .sort()) {
    if (filter && !`${pkg}/${file}`.includes(filter)) continue;
    console.error(`running ${pkg}/bench/${file} …`);
    const r = spawnSync(tsx, [join(dir, file)], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 << 20,
    });
    const lines = (r.stdout ?? '').split('\n').filter((l) => l.trim().startsWith('{'));
    if (r.status !== 0 || lines.length === 0) {
      failed++;
      console.error(`${pkg}/bench/${file} failed (exit ${r.status}) or printed no JSON line`);
    }
    for (const line of lines) console.log(line);
  }
}
process.exit(failed ? 1 : 0);
