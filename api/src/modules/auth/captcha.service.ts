import { randomInt, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import sharp from 'sharp';
import type { CaptchaPuzzle } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { captcha } from '../../db/schema';

const WIDTH = 300;
const HEIGHT = 150;
const PIECE = 50;
const CORNER = 6;
/** How far (px) the dragged offset may be from the gap and still pass. */
export const CAPTCHA_TOLERANCE_PX = 6;
export const CAPTCHA_TTL_MS = 2 * 60_000;
/** Pictures rendered once per process and reused with a new gap each time. */
const BACKGROUND_POOL = 24;
/** Expired puzzles are swept at most this often (not on every request). */
const SWEEP_EVERY_MS = 30_000;

function backgroundSvg(): string {
  const hue = randomInt(0, 360);
  const shapes = Array.from({ length: 14 }, () => {
    const h = (hue + randomInt(-60, 60) + 360) % 360;
    const cx = randomInt(0, WIDTH);
    const cy = randomInt(0, HEIGHT);
    return randomInt(0, 2)
      ? `<circle cx="${cx}" cy="${cy}" r="${randomInt(8, 40)}" fill="hsl(${h},70%,${randomInt(40, 75)}%)" opacity="0.8"/>`
      : `<rect x="${cx}" y="${cy}" width="${randomInt(10, 60)}" height="${randomInt(10, 60)}" fill="hsl(${h},60%,${randomInt(35, 70)}%)" opacity="0.7" transform="rotate(${randomInt(0, 90)} ${cx} ${cy})"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},55%,45%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
}

/** The piece's shape, a rounded square: 0 outside, 1 its 2-px rim, 2 inside. */
const SHAPE = (() => {
  const shape = new Uint8Array(PIECE * PIECE);
  const distanceOutside = (i: number, j: number) => {
    const cx = Math.min(Math.max(i + 0.5, CORNER), PIECE - CORNER);
    const cy = Math.min(Math.max(j + 0.5, CORNER), PIECE - CORNER);
    return Math.hypot(i + 0.5 - cx, j + 0.5 - cy) - CORNER;
  };
  for (let j = 0; j < PIECE; j++) {
    for (let i = 0; i < PIECE; i++) {
      const d = distanceOutside(i, j);
      const edge = Math.min(i, j, PIECE - 1 - i, PIECE - 1 - j);
      shape[j * PIECE + i] = d > 0 ? 0 : edge < 2 || d > -2 ? 1 : 2;
    }
  }
  return shape;
})();

/**
 * Backgrounds as raw RGB pixels. Rendering the SVG was most of a puzzle's cost; now each of the
 * BACKGROUND_POOL pictures is rendered once (on first need) and every puzzle only copies one,
 * darkens the gap and encodes two small PNGs.
 */
const backgrounds: Promise<Buffer>[] = [];
function background(): Promise<Buffer> {
  if (backgrounds.length < BACKGROUND_POOL) {
    const rendered = sharp(Buffer.from(backgroundSvg())).removeAlpha().raw().toBuffer();
    backgrounds.push(rendered);
    rendered.catch(() => backgrounds.splice(backgrounds.indexOf(rendered), 1));
    return rendered;
  }
  return backgrounds[randomInt(0, backgrounds.length)];
}

/** The background with a darkened, white-rimmed gap at (x, y), and the piece cut from there (RGBA). */
function cutPuzzle(base: Buffer, x: number, y: number): { picture: Buffer; piece: Buffer } {
  const picture = Buffer.from(base);
  const piece = Buffer.alloc(PIECE * PIECE * 4);
  for (let j = 0; j < PIECE; j++) {
    for (let i = 0; i < PIECE; i++) {
      const kind = SHAPE[j * PIECE + i];
      if (kind === 0) continue;
      const at = ((y + j) * WIDTH + x + i) * 3;
      const to = (j * PIECE + i) * 4;
      for (let c = 0; c < 3; c++) {
        piece[to + c] = base[at + c];
        picture[at + c] = kind === 2 ? Math.round(base[at + c] * 0.45) : Math.round(base[at + c] * 0.1 + 230);
      }
      piece[to + 3] = 255;
    }
  }
  return { picture, piece };
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
let lastSweep = 0;

/**
 * A picture-drag puzzle (SPEC §5): a background with a gap at (x, y) and the piece cut from
 * there. Only x is secret; it is kept in the database for CAPTCHA_TTL_MS and used once. The
 * slider is a convenience against casual guessing, not a control: a script solves it, so the
 * sign-in limits never depend on it.
 */
export async function createPuzzle(db: Db): Promise<CaptchaPuzzle> {
  const x = randomInt(PIECE + 20, WIDTH - PIECE - 10);
  const y = randomInt(10, HEIGHT - PIECE - 10);
  const { picture, piece } = cutPuzzle(await background(), x, y);
  const [backgroundPng, piecePng] = await Promise.all([
    sharp(picture, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .png()
      .toBuffer(),
    sharp(piece, { raw: { width: PIECE, height: PIECE, channels: 4 } })
      .png()
      .toBuffer(),
  ]);
  const captchaId = randomUUID();
  if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
    lastSweep = Date.now();
    await db.delete(captcha).where(lt(captcha.expiresAt, new Date()));
  }
  await db.insert(captcha).values({ id: captchaId, x, expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS) });
  return {
    captchaId,
    background: dataUrl(backgroundPng),
    piece: dataUrl(piecePng),
    y,
    width: WIDTH,
    height: HEIGHT,
    pieceSize: PIECE,
    expiresIn: CAPTCHA_TTL_MS / 1000,
  };
}

async function findLive(db: Db, captchaId: string) {
  const [row] = await db
    .select()
    .from(captcha)
    .where(and(eq(captcha.id, captchaId), isNull(captcha.usedAt), gt(captcha.expiresAt, new Date())));
  return row;
}

/** POST /captcha/check: a miss uses the puzzle up (no guessing); a hit leaves it for the login. */
export async function checkPuzzle(db: Db, captchaId: string, offsetX: number): Promise<boolean> {
  const row = await findLive(db, captchaId);
  if (!row) return false;
  const passed = Math.abs(row.x - offsetX) <= CAPTCHA_TOLERANCE_PX;
  if (!passed) await db.update(captcha).set({ usedAt: new Date() }).where(eq(captcha.id, captchaId));
  return passed;
}

/** The login's check: passes at most once per puzzle, whatever the outcome. */
export async function consumePuzzle(db: Db, captchaId: string, offsetX: number): Promise<boolean> {
  const [row] = await db
    .update(captcha)
    .set({ usedAt: new Date() })
    .where(and(eq(captcha.id, captchaId), isNull(captcha.usedAt), gt(captcha.expiresAt, new Date())))
    .returning({ x: captcha.x });
  return !!row && Math.abs(row.x - offsetX) <= CAPTCHA_TOLERANCE_PX;
}
