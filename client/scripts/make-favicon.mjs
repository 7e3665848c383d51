#!/usr/bin/env node
// Writes client/public/favicon.ico (16, 32 and 48 px PNGs in one ICO) from the SVG below: a
// building on the console's blue. Run once after changing the drawing; the .ico is committed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="12" fill="#2185d0"/>
  <path d="M14 54V24l18-12 18 12v30H38V40H26v14z" fill="#fff"/>
  <rect x="22" y="26" width="6" height="6" fill="#2185d0"/><rect x="36" y="26" width="6" height="6" fill="#2185d0"/>
</svg>`;

const sizes = [16, 32, 48];
const pngs = await Promise.all(sizes.map((s) => sharp(Buffer.from(svg)).resize(s, s).png().toBuffer()));
// ICO: a 6-byte header, a 16-byte entry per image, then the PNGs.
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((s, i) => {
  const at = 6 + 16 * i;
  header.writeUInt8(s, at);
  header.writeUInt8(s, at + 1);
  header.writeUInt16LE(1, at + 4); // colour planes
  header.writeUInt16LE(32, at + 6); // bits per pixel
  header.writeUInt32LE(pngs[i].length, at + 8);
  header.writeUInt32LE(offset, at + 12);
  offset += pngs[i].length;
});
const out = join(import.meta.dirname, '..', 'public', 'favicon.ico');
writeFileSync(out, Buffer.concat([header, ...pngs]));
console.log(`${out}: ${offset} bytes`);
