#!/usr/bin/env node
// Writes tests/support/file-times.json, the seconds each browser file took, from the report of a
// vitest run (`npm test` writes .tmp/vitest.json; or `npx vitest run --project e2e --reporter=json
// --outputFile.json=<file>`). tests/support/file-order.ts starts the longest first on a fresh clone.
// `node scripts/file-times.mjs [report]`: files of the report replace their entries; others stay.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? join(root, '.tmp', 'vitest.json'), 'utf8'));
const out = join(root, 'tests', 'support', 'file-times.json');
const times = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
// The browser and topology files only: they run two at a time (the api and gateway files one at a
// time, where the order changes nothing). A file that failed keeps its last time.
for (const file of report.testResults) {
  const path = relative(root, file.name);
  if (!path.startsWith('tests/') || file.status !== 'passed') continue;
  times[path] = Math.round((file.endTime - file.startTime) / 1000);
}
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(out, JSON.stringify(sorted, null, 2) + '\n');
console.log(`${Object.keys(sorted).length} files in ${relative(root, out)}`);
