import { createHash } from 'node:crypto';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { FILES_PREFIX } from '../modules/upload/upload-store';

/**
 * The demo estate's pictures (avatars, report photos, house certificates, ads). They are drawn
 * at start into the upload directory under keys of the upload store's own shape
 * (`demo/<yyyymm>/<uuid>.png`), so they are served like any upload. The uuid is derived from
 * the name: the same name always gives the same path, in the seed and on disk. House
 * certificates are private like real ones: they go to the `housecert/` folder, which the public
 * file routes never serve (PRIVATE_KINDS), only GET /base/personhouse/certimg/{id}.
 */
const MONTH = '202601';
const CERTIFICATE_FOLDER = 'housecert';

function uuidOf(name: string): string {
  const h = createHash('sha1').update(`demo-image:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const isCertificate = (name: string) => name.startsWith('cert-');
const keyIn = (folder: string, name: string) => `${folder}/${MONTH}/${uuidOf(name)}.png`;
const keyOf = (name: string) => keyIn(isCertificate(name) ? CERTIFICATE_FOLDER : 'demo', name);

/** Public path of a demo picture, as stored in the seeded rows. */
export function demoImagePath(name: string): string {
  return FILES_PREFIX + keyOf(name);
}

/** Every picture the seed refers to, with how it is drawn. */
function demoImages(): { name: string; width: number; height: number; color: string; label: string }[] {
  const palette = ['#1b4f72', '#117a65', '#7d3c98', '#b9770e', '#a93226', '#2e4053', '#1e8449', '#5b2c6f'];
  const list = [];
  for (let i = 0; i < 4; i++)
    list.push({ name: `avatar-staff-${i}`, width: 300, height: 300, color: palette[i], label: `S${i + 1}` });
  for (let i = 0; i < 8; i++)
    list.push({ name: `avatar-${i}`, width: 300, height: 300, color: palette[(i + 3) % 8], label: `R${i + 1}` });
  list.push({ name: 'cert-1', width: 640, height: 440, color: '#f4f6f7', label: 'House certificate' });
  for (let k = 0; k < 3; k++)
    list.push({ name: `cert-p${k}`, width: 640, height: 440, color: '#fdfefe', label: `House certificate ${k + 1}` });
  list.push({ name: 'report-1', width: 800, height: 600, color: '#5d6d7e', label: 'Leaking pipe' });
  list.push({ name: 'report-2', width: 800, height: 600, color: '#6e2c00', label: 'Broken light' });
  for (let k = 1; k <= 3; k++)
    list.push({ name: `ad-${k}`, width: 750, height: 300, color: palette[k], label: `Ad ${k}` });
  for (let k = 1; k <= 2; k++)
    list.push({ name: `ad-${k}-detail`, width: 750, height: 1000, color: palette[k + 4], label: `Ad ${k} details` });
  // Ads and the estate's logo of basic set-up (issue 33, seed-setup.ts).
  for (let k = 3; k <= 5; k++) {
    list.push({ name: `ad-${k}`, width: 750, height: 300, color: palette[k], label: `Ad ${k}` });
    list.push({
      name: `ad-${k}-detail`,
      width: 750,
      height: 1000,
      color: palette[(k + 4) % 8],
      label: `Ad ${k} details`,
    });
  }
  list.push({ name: 'estate-logo', width: 256, height: 256, color: '#0e6655', label: 'HV' });
  return list;
}

function svg(width: number, height: number, color: string, label: string): Buffer {
  const light = /^#f|^#e|^#d/i.test(color);
  const size = Math.round(Math.min(width, height) / (label.length > 4 ? 9 : 3));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="100%" height="100%" fill="${color}"/>` +
      `<text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif" font-size="${size}" fill="${light ? '#34495e' : '#ffffff'}">${label}</text>` +
      `</svg>`,
  );
}

/** Draws the demo pictures that are not on disk yet (a second start draws nothing). */
export async function ensureDemoImages(uploadDir: string): Promise<void> {
  for (const image of demoImages()) {
    const file = join(uploadDir, keyOf(image.name));
    try {
      await access(file);
      continue;
    } catch {
      // missing: draw it
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      await sharp(svg(image.width, image.height, image.color, image.label))
        .png()
        .toBuffer(),
    );
  }
}

/**
 * Moves certificate pictures that an older seed drew into the public `demo/` folder to the
 * private one (the migration that adds person_house_total rewrote their rows' paths), so an old demo install stops serving
 * them as public files. Cheap: a few file checks; run at every start.
 */
export async function hideDemoCertificates(uploadDir: string): Promise<void> {
  for (const image of demoImages().filter((i) => isCertificate(i.name))) {
    const from = join(uploadDir, keyIn('demo', image.name));
    const to = join(uploadDir, keyOf(image.name));
    try {
      await access(from);
    } catch {
      continue;
    }
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
  }
}
