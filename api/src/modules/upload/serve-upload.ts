import type { Request, Response } from 'express';
import { stat } from 'node:fs/promises';
import { contentTypeOf } from './upload-kinds';
import type { UploadStore } from './upload-store';

/** Extensions a browser may render inline; everything else is downloaded. */
const INLINE = new Set([
  'jpg',
  'png',
  'gif',
  'webp',
  'mp3',
  'm4a',
  'mp4',
  'aac',
  'amr',
  'wav',
  'ogg',
  'webm',
  'flac',
  'pdf',
]);

/**
 * Sends one stored file. Stored names are random and never reused, so the answer may be
 * cached for a year; `nosniff` keeps a browser from guessing another type than ours.
 * Returns false when the path is not one of ours or the file does not exist.
 */
export async function serveUpload(
  store: UploadStore,
  pathOrKey: string,
  req: Request,
  res: Response,
): Promise<boolean> {
  const found = store.pathOf(pathOrKey);
  if (!found) return false;
  try {
    if (!(await stat(found.file)).isFile()) return false;
  } catch {
    return false;
  }
  const rawName = typeof req.query.name === 'string' ? req.query.name : '';
  const downloadName = rawName.replace(/[^\p{L}\p{N} ._()-]/gu, '').slice(0, 120);
  const disposition = INLINE.has(found.ext) && !downloadName ? 'inline' : 'attachment';
  res.setHeader('Content-Type', contentTypeOf(found.ext));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
  res.setHeader(
    'Content-Disposition',
    downloadName ? `${disposition}; filename*=UTF-8''${encodeURIComponent(downloadName)}` : disposition,
  );
  await new Promise<void>((resolve, reject) =>
    res.sendFile(
      found.file,
      { maxAge: '365d', immutable: true, dotfiles: 'deny', headers: { 'Content-Type': contentTypeOf(found.ext) } },
      (err) => (err && !res.headersSent ? reject(err) : resolve()),
    ),
  );
  return true;
}
