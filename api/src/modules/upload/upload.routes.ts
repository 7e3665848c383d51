import type { Request, Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { uploadFile } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { AuthedContext, PublicContext } from '../../http/request-context';
import {
  ImageUrlQuerySchema,
  UploadKindParamsSchema,
  UploadedFileSchema,
  UploadedImageSchema,
  UploadedVoiceSchema,
} from '../../../../shared/src/api/upload';
import { serveUpload } from './serve-upload';
import { CATEGORY_MAX_BYTES, MAX_BATCH_FILES, type UploadCategory } from './upload-kinds';
import { createUploadStore, type UploadStore } from './upload-store';
import { createUploadService, UploadRejected, type IncomingFile, type UploadService } from './upload.service';

const MB = 1024 * 1024;

/** One store and service per upload directory (each test api has its own). */
const services = new Map<string, { store: UploadStore; service: UploadService }>();
function uploadsOf(ctx: PublicContext) {
  const dir = ctx.services.config.uploadDir;
  let found = services.get(dir);
  if (!found) {
    const store = createUploadStore(dir);
    services.set(dir, (found = { store, service: createUploadService(store) }));
  }
  return found;
}

/** Reads the multipart body into memory within the category's limits; multer's refusals become 4xx. */
async function readFiles(
  req: Request,
  res: Response,
  category: UploadCategory,
  maxFiles: number,
): Promise<IncomingFile[]> {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: CATEGORY_MAX_BYTES[category],
      files: maxFiles,
      fields: 20,
      parts: maxFiles + 20,
      fieldSize: 64 * 1024,
    },
  }).any();
  try {
    await new Promise<void>((resolve, reject) => parse(req, res, (err: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE')
        throw new AppError(413, 'upload.errors.tooLarge', { limit: CATEGORY_MAX_BYTES[category] / MB });
      if (err.code === 'LIMIT_FILE_COUNT') throw new AppError(400, 'upload.errors.tooManyFiles', { count: maxFiles });
      throw new AppError(400, 'validation.invalid', { detail: err.message });
    }
    // A malformed multipart body (busboy) is the client's fault.
    throw new AppError(400, 'validation.invalid', { detail: (err as Error).message ?? 'multipart' });
  }
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  return files.map((f) => ({ buffer: f.buffer, originalname: f.originalname }));
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
  await ctx.db.insert(uploadFile).values({
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
  if (!(await serveUpload(uploadsOf(ctx).store, pathOrKey, ctx.req, ctx.res))) throw AppError.notFound();
}

const multipartNote = 'multipart/form-data; content is checked by its bytes, not its name or type header.';

export const uploadModule: ApiModule = {
  name: 'upload',
  routes: [
    defineRoute({
      method: 'post',
      path: '/upload/uploadimage/batch/:kind',
      permission: 'authenticated',
      summary: `Several images (jpg, png, gif, webp; ≤ ${CATEGORY_MAX_BYTES.image / MB} MB each, ${MAX_BATCH_FILES} at most) → list of { originalImagePath, thumbnailPath }. ${multipartNote}`,
      bodyType: 'multipart',
      params: UploadKindParamsSchema,
      response: z.array(UploadedImageSchema),
      handler: async (ctx, { params }) => {
        const files = await readFiles(ctx.req, ctx.res, 'image', MAX_BATCH_FILES);
        const stored = await run(() => uploadsOf(ctx).service.uploadImages(files, params.kind));
        for (const [i, s] of stored.entries())
          await record(ctx, params.kind, s.originalImagePath, 'image', files[i].buffer.length, s.thumbnailPath);
        return stored;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/upload/uploadimage/:kind',
      permission: 'authenticated',
      summary: `One image in field "file" (jpg, png, gif, webp; ≤ ${CATEGORY_MAX_BYTES.image / MB} MB, avatars of kind "user" ≤ 5 MB) → { originalImagePath, thumbnailPath } (300 px webp). ${multipartNote}`,
      bodyType: 'multipart',
      params: UploadKindParamsSchema,
      response: UploadedImageSchema,
      handler: async (ctx, { params }) => {
        const files = await readFiles(ctx.req, ctx.res, 'image', 1);
        const stored = await run(() => uploadsOf(ctx).service.uploadImage(files[0], params.kind));
        await record(ctx, params.kind, stored.originalImagePath, 'image', files[0].buffer.length, stored.thumbnailPath);
        return stored;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/upload/uploadvoice/:kind',
      permission: 'authenticated',
      summary: `A chat or reply voice message in field "file" (mp3, m4a, aac, amr, wav, ogg, webm; ≤ ${CATEGORY_MAX_BYTES.voice / MB} MB), optional form field "duration" (seconds) → { filePath, voicePath ("<filePath>?<seconds>"), duration, contentType, size }. ${multipartNote}`,
      bodyType: 'multipart',
      params: UploadKindParamsSchema,
      response: UploadedVoiceSchema,
      handler: async (ctx, { params }) => {
        const files = await readFiles(ctx.req, ctx.res, 'voice', 1);
        const duration = (ctx.req.body as Record<string, unknown> | undefined)?.duration;
        const stored = await run(() =>
          uploadsOf(ctx).service.uploadVoice(
            files[0],
            params.kind,
            typeof duration === 'string' ? duration : undefined,
          ),
        );
        await record(ctx, params.kind, stored.filePath, stored.contentType, stored.size);
        return stored;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/upload/uploadfile/:kind',
      permission: 'authenticated',
      summary: `A chat file in field "file" (pdf, office documents, zip, text, images, audio, mp4; ≤ ${CATEGORY_MAX_BYTES.file / MB} MB) → { filePath, fileName, contentType, size }. ${multipartNote}`,
      bodyType: 'multipart',
      params: UploadKindParamsSchema,
      response: UploadedFileSchema,
      handler: async (ctx, { params }) => {
        const files = await readFiles(ctx.req, ctx.res, 'file', 1);
        const stored = await run(() => uploadsOf(ctx).service.uploadFile(files[0], params.kind));
        await record(ctx, params.kind, stored.filePath, stored.contentType, stored.size);
        return stored;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/upload/files/*key',
      permission: 'public',
      summary:
        'A stored upload with its content type, cached for a year (names are never reused). Public so <img> and <audio> can load it; names are random. ?name= downloads it under that name.',
      answer: 'raw',
      handler: async (ctx) => {
        const key = (ctx.req.params as Record<string, string | string[]>).key;
        await serve(ctx, Array.isArray(key) ? key.join('/') : String(key ?? ''));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/upload/image',
      permission: 'public',
      summary:
        'The image-load path of SPEC §7: GET /upload/image?imageUrl=<a path returned by an upload> sends that file.',
      query: ImageUrlQuerySchema,
      answer: 'raw',
      handler: async (ctx, { query }) => serve(ctx, query.imageUrl),
    }),
  ],
};
