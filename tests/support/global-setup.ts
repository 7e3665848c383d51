// Once before the browser and topology tests (vitest.config.ts, projects e2e and e2e-serial):
// build the console when client/dist is missing or older than what it is built from, as
// scripts/start.mjs does (the same check). Files run two at a time, and two products starting
// at once on a stale build would each run the build into the same client/dist.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './product';

/** The newest modification time of a file, or of any file in a directory. */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

export default function setup(): void {
  if (process.env.CLIENT_DIST) return;
  const dist = join(repoRoot, 'client', 'dist', 'index.html');
  const sources = [
    ...['src', 'public', 'build', 'index.html', 'vite.config.ts'].map((p) => join(repoRoot, 'client', p)),
    join(repoRoot, 'shared', 'src'),
    join(repoRoot, 'locales'),
  ].filter((p) => existsSync(p));
  if (existsSync(dist) && Math.max(...sources.map(newest)) <= statSync(dist).mtimeMs) return;
  console.log('Building the console (client/dist) for the browser tests …');
  const r = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the console did not build (npm run build -w client)');
}
