import { sniffFile } from './sniff-file';
import { InvalidImageError, type StoredFile, type StoredImage, type UploadStore } from './upload-store';
import { maxBytesFor, normalizeKind, type UploadCategory } from './upload-kinds';

// Recording an upload is the repository's insert as it stands.
export { insertUploadFile } from './upload.repository';

/** One received file, on disk under the incoming directory; only its bytes are trusted, the name is kept for display. */
export interface IncomingFile {
  path: string;
  size: number;
  originalname: string;
}

/** A refused upload: HTTP status and the locale key of the message (with its parameters). */
export class UploadRejected extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly params?: Record<string, string | number>,
  ) {
    super(key);
  }
}

export interface StoredVoice extends StoredFile {
  /** SPEC §3 "Voice source": the file path + "?" + duration in seconds (when known). */
  voicePath: string;
  duration: number | null;
}
export interface StoredChatFile extends StoredFile {
  /** The client's file name, for display only (never used on disk). */
  fileName: string;
}

const MB = 1024 * 1024;

/** Display name of an upload: no directories, no control characters, bounded length. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return clean.slice(-120) || 'file';
}

/** The upload use cases of SPEC §7 "Uploads": check, sniff, store (files arrive on disk, see upload.routes). */
export function createUploadService(store: UploadStore) {
  function kindOf(raw: string): string {
    const kind = normalizeKind(raw);
    if (!kind) throw new UploadRejected(400, 'upload.errors.badKind');
    return kind;
  }

  async function accept(file: IncomingFile | undefined, category: UploadCategory, kind: string) {
    if (!file || file.size === 0) throw new UploadRejected(400, 'upload.errors.noFile');
    const limit = maxBytesFor(category, kind);
    if (file.size > limit) throw new UploadRejected(400, 'upload.errors.tooLarge', { limit: limit / MB });
    const type = await sniffFile(file.path, category, file.originalname);
    if (!type) throw new UploadRejected(400, 'errors.fileFormat');
    return type;
  }

  async function image(file: IncomingFile | undefined, kind: string): Promise<StoredImage> {
    const type = await accept(file, 'image', kind);
    try {
      return await store.saveImage(file!.path, kind, type);
    } catch (err) {
      if (err instanceof InvalidImageError) throw new UploadRejected(400, 'errors.fileFormat');
      throw err;
    }
  }

  return {
    /** POST /upload/uploadimage/{kind}. */
    async uploadImage(file: IncomingFile | undefined, rawKind: string): Promise<StoredImage> {
      return image(file, kindOf(rawKind));
    },

    /** POST /upload/uploadimage/batch/{kind}: all files are checked before any is stored. */
    async uploadImages(files: IncomingFile[], rawKind: string): Promise<StoredImage[]> {
      const kind = kindOf(rawKind);
      if (files.length === 0) throw new UploadRejected(400, 'upload.errors.noFile');
      for (const f of files) await accept(f, 'image', kind);
      const out: StoredImage[] = [];
      for (const f of files) out.push(await image(f, kind));
      return out;
    },

    /** POST /upload/uploadvoice/{kind}, with an optional `duration` (seconds) form field. */
    async uploadVoice(file: IncomingFile | undefined, rawKind: string, rawDuration?: string): Promise<StoredVoice> {
      const kind = kindOf(rawKind);
      const type = await accept(file, 'voice', kind);
      const stored = await store.saveFile(file!.path, kind, type);
      const seconds = Number(rawDuration);
      const duration =
        rawDuration !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds) : null;
      return { ...stored, duration, voicePath: duration === null ? stored.filePath : `${stored.filePath}?${duration}` };
    },

    /** POST /upload/uploadfile/{kind}: a chat attachment. */
    async uploadFile(file: IncomingFile | undefined, rawKind: string): Promise<StoredChatFile> {
      const kind = kindOf(rawKind);
      const type = await accept(file, 'file', kind);
      const stored = await store.saveFile(file!.path, kind, type);
      return { ...stored, fileName: displayName(file!.originalname) };
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
