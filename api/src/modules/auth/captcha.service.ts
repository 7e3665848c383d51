import { randomInt, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import sharp from 'sharp';
import type { CaptchaPuzzle } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { captcha } from '../../db/schema';

const WIDTH = 300;
const HEIGHT = 150;
const PIECE = 50;
/** How far (px) the dragged offset may be from the gap and still pass. */
export const CAPTCHA_TOLERANCE_PX = 6;
export const CAPTCHA_TTL_MS = 2 * 60_000;

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

const gapSvg = (x: number, y: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect x="${x}" y="${y}" width="${PIECE}" height="${PIECE}" rx="6" fill="black" fill-opacity="0.55" stroke="white" stroke-opacity="0.9" stroke-width="2"/></svg>`,
  );
const pieceMask = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE}" height="${PIECE}"><rect width="${PIECE}" height="${PIECE}" rx="6" fill="white"/></svg>`,
);

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/**
 * A picture-drag puzzle (SPEC §5): a background with a gap at (x, y) and the piece cut from
 * there. Only x is secret; it is kept in the database for CAPTCHA_TTL_MS and used once.
 */
export async function createPuzzle(db: Db): Promise<CaptchaPuzzle> {
  const x = randomInt(PIECE + 20, WIDTH - PIECE - 10);
  const y = randomInt(10, HEIGHT - PIECE - 10);
  const base = await sharp(Buffer.from(backgroundSvg())).png().toBuffer();
  const [background, piece] = await Promise.all([
    sharp(base)
      .composite([{ input: gapSvg(x, y) }])
      .png()
      .toBuffer(),
    sharp(base)
      .extract({ left: x, top: y, width: PIECE, height: PIECE })
      .composite([{ input: pieceMask, blend: 'dest-in' }])
      .png()
      .toBuffer(),
  ]);
  const captchaId = randomUUID();
  await db.delete(captcha).where(lt(captcha.expiresAt, new Date()));
  await db.insert(captcha).values({ id: captchaId, x, expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS) });
  return {
    captchaId,
    background: dataUrl(background),
    piece: dataUrl(piece),
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
