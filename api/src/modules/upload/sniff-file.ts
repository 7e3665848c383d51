import { fileTypeFromBuffer } from 'file-type';
import { ACCEPTED, type UploadCategory } from './upload-kinds';

export interface SniffedType {
  ext: string;
  mime: string;
}

/** Text has no magic bytes: accept valid UTF-8 without NUL or other binary control bytes. */
function looksLikeText(buffer: Buffer): boolean {
  if (buffer.length === 0) return false;
  const sample = buffer.subarray(0, 64 * 1024);
  for (const byte of sample)
    if (byte === 0 || (byte < 0x09 && byte !== 0x07) || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

/**
 * The real format of an upload from its content (magic bytes), never from its name or
 * content-type header; null when it is not one the category accepts.
 */
export async function sniffFile(
  buffer: Buffer,
  category: UploadCategory,
  originalName = '',
): Promise<SniffedType | null> {
  const accepted = ACCEPTED[category];
  const detected = await fileTypeFromBuffer(buffer);
  if (detected) {
    // A voice recorded as video/webm or mp4 container is still audio for a chat message.
    const ext = detected.ext === 'opus' ? 'ogg' : detected.ext;
    return accepted[ext] ? { ext, mime: accepted[ext] } : null;
  }
  if (category === 'file' && looksLikeText(buffer)) {
    // The name only chooses between two text types; the content already proved it is text.
    const ext = /\.csv$/i.test(originalName) ? 'csv' : 'txt';
    return { ext, mime: accepted[ext] };
  }
  return null;
}
