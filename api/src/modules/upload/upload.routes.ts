import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import type { AuthedContext, PublicContext } from '../../http/request-context';

import { serveUpload } from './serve-upload';
import { DAY_MS, HOUR_MS, reserveUsage, settleUsage, type UsageLimit } from '../quota/account-usage';
import { MAX_BATCH_FILES, maxBytesFor, normalizeKind, type UploadCategory } from './upload-kinds';
import { PRIVATE_KINDS } from './upload-kinds';
import { createUploadStore, type UploadStore } from './upload-store';
import {
  createUploadService,
  insertUploadFile,
  UploadRejected,
  type IncomingFile,
  type UploadService,
} from './upload.service';

const MB = 1024 * 1024;
/** Multipart framing and form fields on top of the files themselves. */
const FORM_OVERHEAD_BYTES = MB;
/** Received files older than this in the incoming directory are leftovers of a crashed process. */
const STALE_INCOMING_MS = HOUR_MS;

/** Where uploads are received on disk before they are checked and moved into the store. */
export function incomingDirOf(uploadDir: string): string {
  return join(uploadDir, '.incoming');
}

/** Removes what a crashed process left in the incoming directory (uploads never last an hour). */
async function removeStaleIncoming(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > STALE_INCOMING_MS) await rm(path, { force: true, recursive: true });
  }
}

/** One store and service per upload directory (each test api has its own). */
const services = new Map<string, { store: UploadStore; service: UploadService; incoming: string }>();
function uploadsOf(ctx: PublicContext) {
  const dir = ctx.services.config.uploadDir;
  let found = services.get(dir);
  if (!found) {
    const store = createUploadStore(dir);
    const incoming = incomingDirOf(dir);
    mkdirSync(incoming, { recursive: true });
    removeStaleIncoming(incoming).catch((err: unknown) => ctx.log.warn({ err }, 'upload: stale incoming files'));
    services.set(dir, (found = { store, service: createUploadService(store), incoming }));
  }
  return found;
}

/** The caller's upload quota was reached: 429 naming the limit. */
function quotaError(r: { limit: UsageLimit; retryAfterSeconds: number }): AppError {
  return new AppError(
    429,
    r.limit.windowMs === DAY_MS ? 'upload.errors.quotaDay' : 'upload.errors.quotaHour',
    { limit: Math.round(r.limit.max / MB), minutes: Math.ceil(r.retryAfterSeconds / 60) },
    { retryAfterSeconds: r.retryAfterSeconds },
  );
}

/** Streams the multipart body's files to the incoming directory within the limits; multer's refusals become 4xx. */
async function receiveFiles(
  req: Request,
  res: Response,
  incoming: string,
  maxBytes: number,
  maxFiles: number,
): Promise<Express.Multer.File[]> {
  const parse = multer({
    storage: multer.diskStorage({ destination: incoming }),
    limits: { fileSize: maxBytes, files: maxFiles, fields: 20, parts: maxFiles + 20, fieldSize: 64 * 1024 },
  }).any();
  try {
    await new Promise<void>((resolve, reject) => parse(req, res, (err: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') throw new AppError(413, 'upload.errors.tooLarge', { limit: maxBytes / MB });
      if (err.code === 'LIMIT_FILE_COUNT') throw new AppError(400, 'upload.errors.tooManyFiles', { count: maxFiles });
      throw new AppError(400, 'validation.invalid', { detail: err.message });
    }
    // A malformed multipart body (busboy) or an aborted request is the client's doing.
    throw new AppError(400, 'validation.invalid', { detail: (err as Error).message ?? 'multipart' });
  }
  return (req.files as Express.Multer.File[] | undefined) ?? [];
}

/**
 * Receives an upload: the caller's quota (bytes per hour and per day) is taken for the declared
 * body size before a byte is read, the files stream to disk (never whole in memory), `work` gets
 * them, and whatever is left of them in the incoming directory is removed afterwards — after
 * success, refusal or an aborted request. The quota keeps the bytes that really arrived.
 */
async function withUploadedFiles<T>(
  ctx: AuthedContext,
  category: UploadCategory,
  rawKind: string,
  maxFiles: number,
  work: (files: IncomingFile[], kind: string) => Promise<T>,
): Promise<T> {
  const kind = normalizeKind(rawKind);
  if (!kind) throw new AppError(400, 'upload.errors.badKind');
  const maxBytes = maxBytesFor(category, kind);
  const most = maxBytes * maxFiles + FORM_OVERHEAD_BYTES;
  const declared = Number(ctx.req.headers['content-length']);
  if (declared > most) throw new AppError(413, 'upload.errors.tooLarge', { limit: maxBytes / MB });
  const { bytesPerHour, bytesPerDay } = ctx.services.config.uploadQuota;
  const reservation = await reserveUsage(ctx.db, ctx.caller.accountId, 'upload-bytes', declared > 0 ? declared : most, [
    { windowMs: HOUR_MS, max: bytesPerHour },
    { windowMs: DAY_MS, max: bytesPerDay },
  ]);
  if (!reservation.ok) throw quotaError(reservation);
  const { incoming } = uploadsOf(ctx);
  let received = 0;
  const count = (chunk: Buffer) => (received += chunk.length);
  ctx.req.on('data', count);
  let files: Express.Multer.File[] = [];
  try {
    files = await receiveFiles(ctx.req, ctx.res, incoming, maxBytes, maxFiles);
    return await work(
      files.map((f) => ({ path: f.path, size: f.size, originalname: f.originalname })),
      kind,
    );
  } finally {
    ctx.req.off('data', count);
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
    await settleUsage(ctx.db, reservation.id, received).catch((err: unknown) =>
      ctx.log.error({ err }, 'upload: settling the quota failed'),
    );
  }
}

/** Runs a use case, turning its refusals into the api's error. */
async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UploadRejected) throw new AppError(err.status, err.key, err.params);
    throw err;
  }
}

async function record(
  ctx: AuthedContext,
  kind: string,
  path: string,
  contentType: string,
  size: number,
  thumbnailPath: string | null = null,
) {
  await insertUploadFile(ctx.db, {
    companyId: ctx.caller.companyId,
    housingEstateId: ctx.caller.housingEstateId,
    personId: ctx.caller.personId,
    kind,
    path,
    thumbnailPath,
    contentType,
    size,
  });
}

async function serve(ctx: PublicContext, pathOrKey: string): Promise<void> {
  const key = uploadsOf(ctx).store.pathOf(pathOrKey)?.key;
  if (key && PRIVATE_KINDS.has(key.split('/')[0])) throw AppError.notFound();
  if (!(await serveUpload(uploadsOf(ctx).store, pathOrKey, ctx.req, ctx.res))) throw AppError.notFound();
}

export const uploadModule: ApiModule = {
  name: 'upload',
  routes: [
    route('POST /upload/uploadimage/batch/{kind}', async (ctx, { params }) =>
      withUploadedFiles(ctx, 'image', params.kind, MAX_BATCH_FILES, async (files, kind) => {
        const stored = await run(() => uploadsOf(ctx).service.uploadImages(files, kind));
        for (const [i, s] of stored.entries())
          await record(ctx, kind, s.originalImagePath, 'image', files[i].size, s.thumbnailPath);
        return stored;
      }),
    ),
    route('POST /upload/uploadimage/{kind}', async (ctx, { params }) =>
      withUploadedFiles(ctx, 'image', params.kind, 1, async (files, kind) => {
        const stored = await run(() => uploadsOf(ctx).service.uploadImage(files[0], kind));
        await record(ctx, kind, stored.originalImagePath, 'image', files[0].size, stored.thumbnailPath);
        return stored;
      }),
    ),
    route('POST /upload/uploadvoice/{kind}', async (ctx, { params }) =>
      withUploadedFiles(ctx, 'voice', params.kind, 1, async (files, kind) => {
        const duration = (ctx.req.body as Record<string, unknown> | undefined)?.duration;
        const stored = await run(() =>
          uploadsOf(ctx).service.uploadVoice(files[0], kind, typeof duration === 'string' ? duration : undefined),
        );
        await record(ctx, kind, stored.filePath, stored.contentType, stored.size);
        return stored;
      }),
    ),
    route('POST /upload/uploadfile/{kind}', async (ctx, { params }) =>
      withUploadedFiles(ctx, 'file', params.kind, 1, async (files, kind) => {
        const stored = await run(() => uploadsOf(ctx).service.uploadFile(files[0], kind));
        await record(ctx, kind, stored.filePath, stored.contentType, stored.size);
        return stored;
      }),
    ),
    route('GET /upload/files/{key}', async (ctx) => {
      const key = (ctx.req.params as Record<string, string | string[]>).key;
      await serve(ctx, Array.isArray(key) ? key.join('/') : String(key ?? ''));
    }),
    route('GET /upload/image', async (ctx, { query }) => serve(ctx, query.imageUrl)),
  ],
};
