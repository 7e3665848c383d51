import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { ACCEPTED, type UploadCategory } from './upload-kinds';

export interface SniffedType {
  ext: string;
  mime: string;
}

/** Whether a byte is allowed in plain text (no NUL or other binary control bytes). */
function textByte(byte: number): boolean {
  return !(byte === 0 || (byte < 0x09 && byte !== 0x07) || (byte > 0x0d && byte < 0x20 && byte !== 0x1b));
}

/**
 * Text has no magic bytes: accept valid UTF-8 without binary control bytes in its first 64 KB.
 * The whole file is decoded in 64 KB chunks, so a large upload never sits in memory at once.
 */
async function looksLikeText(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const chunk = Buffer.alloc(64 * 1024);
    let first = true;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, bytesRead);
      if (first && !bytes.every(textByte)) return false;
      first = false;
      decoder.decode(bytes, { stream: true });
    }
    if (first) return false; // empty
    decoder.decode();
    return true;
  } catch (err) {
    if (err instanceof TypeError) return false; // not UTF-8
    throw err;
  } finally {
    await file.close();
  }
}

/**
 * The real format of an upload on disk from its content (magic bytes, read from the start of
 * the file), never from its name or content-type header; null when it is not one the category
 * accepts.
 */
export async function sniffFile(
  path: string,
  category: UploadCategory,
  originalName = '',
): Promise<SniffedType | null> {
  const accepted = ACCEPTED[category];
  const detected = await fileTypeFromFile(path);
  if (detected) {
    // A voice recorded as video/webm or mp4 container is still audio for a chat message.
    const ext = detected.ext === 'opus' ? 'ogg' : detected.ext;
    return accepted[ext] ? { ext, mime: accepted[ext] } : null;
  }
  if (category === 'file' && (await looksLikeText(path))) {
    // The name only chooses between two text types; the content already proved it is text.
    const ext = /\.csv$/i.test(originalName) ? 'csv' : 'txt';
    return { ext, mime: accepted[ext] };
  }
  return null;
}
