import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { SniffedType } from './sniff-file';

/** Public path prefix of stored files; answers carry `/upload/files/<key>`. */
export const FILES_PREFIX = '/upload/files/';
const THUMB_SUFFIX = '_thumb';
const THUMB_SIZE = 300;
/** Decompression-bomb guard: no image larger than this many pixels is decoded. */
const MAX_PIXELS = 40_000_000;

/**
 * A stored key is `<kind>/<yyyymm>/<uuid>[_thumb].<ext>`, generated here. Anything a client
 * sends is matched against this pattern before it becomes a path, so `..`, absolute paths and
 * other tricks can never reach the file system.
 */
const KEY_PATTERN =
  /^([a-z][a-z0-9_-]{0,31})\/(\d{6})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(_thumb)?\.([a-z0-9]{1,5})$/;

export interface StoredImage {
  originalImagePath: string;
  thumbnailPath: string;
}
export interface StoredFile {
  filePath: string;
  contentType: string;
  size: number;
}

export class InvalidImageError extends Error {}

function newKey(kind: string, ext: string): { key: string; base: string } {
  const now = new Date();
  const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const base = `${kind}/${month}/${randomUUID()}`;
  return { key: `${base}.${ext}`, base };
}

/** The stored key inside a public path or key; null for anything this store did not generate. */
export function parseStoredKey(pathOrKey: string): { key: string; ext: string } | null {
  let value = pathOrKey.trim().split(/[?#]/)[0];
  // Full URLs of this api (or the gateway's /api prefix) are accepted; only the path part counts.
  value = value.replace(/^https?:\/\/[^/]+/i, '');
  const at = value.indexOf(FILES_PREFIX);
  if (at >= 0) value = value.slice(at + FILES_PREFIX.length);
  const m = KEY_PATTERN.exec(value);
  return m ? { key: value, ext: m[5] } : null;
}

/**
 * Uploaded files under `root` (the api's upload directory), with generated names only. Uploads
 * arrive as files on disk (see INCOMING_DIR) and are moved or re-encoded from there, so no
 * upload is ever held in memory whole.
 */
export function createUploadStore(root: string) {
  /** Moves a received file into the store (a rename: the incoming directory is inside `root`). */
  async function moveInto(key: string, source: string): Promise<void> {
    const target = join(root, key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(source, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(source, target);
      await rm(source, { force: true });
    }
  }

  return {
    root,

    /**
     * Stores an image and its thumbnail from a file on disk. Photos are re-encoded upright
     * without their metadata (a phone photo's EXIF carries where it was taken); GIFs are kept as
     * sent.
     */
    async saveImage(source: string, kind: string, type: SniffedType): Promise<StoredImage> {
      const { key, base } = newKey(kind, type.ext);
      const thumbKey = `${base}${THUMB_SUFFIX}.webp`;
      const target = join(root, key);
      const thumbTarget = join(root, thumbKey);
      try {
        const meta = await sharp(source, { limitInputPixels: MAX_PIXELS, animated: type.ext === 'gif' }).metadata();
        if (!meta.width || !meta.height) throw new InvalidImageError('image without dimensions');
        const thumbnail = await sharp(source, { limitInputPixels: MAX_PIXELS })
          .rotate()
          .resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer();
        await mkdir(dirname(target), { recursive: true });
        if (type.ext === 'gif') {
          await moveInto(key, source);
        } else {
          const upright = sharp(source, { limitInputPixels: MAX_PIXELS }).rotate();
          await (
            type.ext === 'png'
              ? upright.png()
              : type.ext === 'webp'
                ? upright.webp({ quality: 90 })
                : upright.jpeg({ quality: 90, mozjpeg: true })
          ).toFile(target);
        }
        await writeFile(thumbTarget, thumbnail, { flag: 'wx' });
      } catch (err) {
        await rm(target, { force: true });
        await rm(thumbTarget, { force: true });
        // The magic bytes matched but the image does not decode: it is not the format it claims.
        throw err instanceof InvalidImageError ? err : new InvalidImageError(String(err));
      }
      return { originalImagePath: FILES_PREFIX + key, thumbnailPath: FILES_PREFIX + thumbKey };
    },

    /** Stores a voice message or a chat file as sent (moved from where it was received). */
    async saveFile(source: string, kind: string, type: SniffedType): Promise<StoredFile> {
      const { key } = newKey(kind, type.ext);
      const { size } = await stat(source);
      await moveInto(key, source);
      return { filePath: FILES_PREFIX + key, contentType: type.mime, size };
    },

    /** Absolute path of a stored file, or null when the key is not one of ours. */
    pathOf(pathOrKey: string): { file: string; ext: string; key: string } | null {
      const parsed = parseStoredKey(pathOrKey);
      return parsed ? { file: join(root, parsed.key), ext: parsed.ext, key: parsed.key } : null;
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;
