#!/usr/bin/env node
// Writes client/public/sounds/sos-alarm.wav, the SOS alarm sound the product ships (issue 21):
// three rising two-tone beeps synthesised here, so the product owns it (no third-party file).
// usage: node scripts/make-sos-sound.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RATE = 16000;
const seconds = 1.2;
const samples = Math.round(RATE * seconds);
const data = Buffer.alloc(samples * 2);
for (let i = 0; i < samples; i++) {
  const t = i / RATE;
  const beep = Math.floor(t / 0.4); // three beeps of 0.4 s: 0.3 s tone, 0.1 s silence
  const inBeep = t - beep * 0.4 < 0.3;
  const freq = (t - beep * 0.4 < 0.15 ? 880 : 1320) * (1 + beep * 0.12);
  const fade = Math.min(1, (t - beep * 0.4) / 0.01, (0.3 - (t - beep * 0.4)) / 0.01);
  const v = inBeep ? Math.sin(2 * Math.PI * freq * t) * 0.6 * Math.max(0, fade) : 0;
  data.writeInt16LE(Math.round(v * 32767), i * 2);
}
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVEfmt ', 8);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(RATE, 24);
header.writeUInt32LE(RATE * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(data.length, 40);
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'client', 'public', 'sounds', 'sos-alarm.wav');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat([header, data]));
console.log(`wrote ${out}`);
