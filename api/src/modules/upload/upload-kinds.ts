/**
 * What the upload service accepts. The category comes from the endpoint (image, voice, file);
 * the `{kind}` of the path only names a folder (SPEC: "kind user") and may lower the limit.
 */
export type UploadCategory = 'image' | 'voice' | 'file';

const MB = 1024 * 1024;

/** Default size limit per category. */
export const CATEGORY_MAX_BYTES: Record<UploadCategory, number> = {
  image: 10 * MB,
  voice: 10 * MB,
  file: 20 * MB,
};

/** Kinds with a tighter image limit (an avatar never needs 10 MB). */
const KIND_MAX_BYTES: Record<string, number> = {
  user: 5 * MB,
};

/** Largest request body multer must accept for any upload (the per-kind check comes after). */
export const MAX_UPLOAD_BYTES = Math.max(...Object.values(CATEGORY_MAX_BYTES));
/** Files in one batch upload. */
export const MAX_BATCH_FILES = 9;

/** A kind is a short lowercase word; anything else never reaches the file system. */
export const KIND_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * Kinds whose files are never served by the public file routes (issue 19): house-certificate
 * pictures go out only through GET /base/personhouse/certimg/{id}, to the estate's staff.
 */
export const PRIVATE_KINDS: ReadonlySet<string> = new Set(['housecert']);

export function normalizeKind(raw: string): string | null {
  const kind = raw.trim().toLowerCase();
  return KIND_PATTERN.test(kind) ? kind : null;
}

export function maxBytesFor(category: UploadCategory, kind: string): number {
  const byKind = category === 'image' ? KIND_MAX_BYTES[kind] : undefined;
  return Math.min(byKind ?? Infinity, CATEGORY_MAX_BYTES[category]);
}

/** Formats accepted per category, by sniffed extension, with the content type they are served with. */
export const ACCEPTED: Record<UploadCategory, Record<string, string>> = {
  image: {
    jpg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
  },
  voice: {
    mp3: 'audio/mpeg',
    m4a: 'audio/mp4',
    mp4: 'audio/mp4',
    aac: 'audio/aac',
    amr: 'audio/amr',
    wav: 'audio/wav',
    ogg: 'audio/ogg',
    opus: 'audio/ogg',
    webm: 'audio/webm',
    flac: 'audio/flac',
  },
  file: {
    pdf: 'application/pdf',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    doc: 'application/msword',
    xls: 'application/vnd.ms-excel',
    ppt: 'application/vnd.ms-powerpoint',
    cfb: 'application/x-cfb',
    zip: 'application/zip',
    '7z': 'application/x-7z-compressed',
    rar: 'application/vnd.rar',
    txt: 'text/plain; charset=utf-8',
    csv: 'text/csv; charset=utf-8',
    jpg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    mp3: 'audio/mpeg',
    m4a: 'audio/mp4',
    mp4: 'video/mp4',
    mov: 'video/quicktime',
  },
};

/** Content type of a stored file, by its extension (the thumbnails are webp). */
export function contentTypeOf(ext: string): string {
  for (const table of Object.values(ACCEPTED)) if (table[ext]) return table[ext];
  return 'application/octet-stream';
}
