#!/usr/bin/env node
// Merges new translation keys into locales/{en,zh-CN,zh-TW}.json without clobbering
// concurrent edits: takes a lock, re-reads the files, deep-merges, writes them back sorted.
// usage: node scripts/add-locale-keys.mjs keys.json
//   keys.json = { "en": { "complaints": { ... } }, "zh-CN": { ... }, "zh-TW": { ... } }
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const lock = join(dir, '.lock');

function acquire() {
  for (let i = 0; i < 600; i++) {
    try {
      closeSync(openSync(lock, 'wx'));
      return;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  throw new Error('locales/.lock is held for too long; remove it if no merge is running');
}

const merge = (a, b) => {
  for (const [k, v] of Object.entries(b)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) a[k] = merge(a[k] && typeof a[k] === 'object' ? a[k] : {}, v);
    else a[k] = v;
  }
  return a;
};

acquire();
try {
  for (const lang of ['en', 'zh-CN', 'zh-TW']) {
    if (!input[lang]) throw new Error(`keys for ${lang} missing: every key needs all three languages`);
    const file = join(dir, `${lang}.json`);
    const current = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(merge(current, input[lang]), null, 2) + '\n');
  }
} finally {
  rmSync(lock, { force: true });
}
console.log('merged', process.argv[2]);
