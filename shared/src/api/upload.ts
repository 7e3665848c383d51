import { z } from 'zod';
import { defineEndpoints } from './endpoint';

/**
 * Answers of the upload service (SPEC §7 "Uploads"). Paths are relative to the api base
 * (`/upload/files/<kind>/<yyyymm>/<name>`): through the gateway prefix them with `/api`, or
 * load them with the image-load path `GET /upload/image?imageUrl=<path>`.
 */
export const UploadedImageSchema = z.object({ originalImagePath: z.string(), thumbnailPath: z.string() });
export type UploadedImage = z.infer<typeof UploadedImageSchema>;

export const UploadedVoiceSchema = z.object({
  filePath: z.string(),
  /** SPEC §3 "Voice source": filePath + "?" + duration in seconds, when a duration was sent. */
  voicePath: z.string(),
  duration: z.number().int().nullable(),
  contentType: z.string(),
  size: z.number().int(),
});
export type UploadedVoice = z.infer<typeof UploadedVoiceSchema>;

export const UploadedFileSchema = z.object({
  filePath: z.string(),
  /** The sender's file name, for display; add `?name=` to filePath to download under it. */
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type UploadedFile = z.infer<typeof UploadedFileSchema>;

/** Path parameter `{kind}`: a short lowercase word naming the folder (e.g. user, complain, chat). */
export const UploadKindParamsSchema = z.object({ kind: z.string().min(1).max(32) });
export const ImageUrlQuerySchema = z.object({ imageUrl: z.string().min(1).max(2000) });

/** The bytes of a stored upload (picture, voice, file): not JSON, declared as a binary string. */
export const UploadedBytesSchema = z.string().meta({ format: 'binary' });

/** Multipart bodies of the uploads (read as a stream by the route: `formBody`). */
export const UploadOneFormSchema = z.object({ file: UploadedBytesSchema });
export const UploadBatchFormSchema = z.object({ file: z.array(UploadedBytesSchema).max(9) });
export const UploadVoiceFormSchema = z.object({ file: UploadedBytesSchema, duration: z.string().optional() });

const MULTIPART_NOTE = 'multipart/form-data; content is checked by its bytes, not its name or type header.';

export const uploadEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /upload/uploadimage/batch/{kind}': {
    permission: 'authenticated',
    summary: `Several images (jpg, png, gif, webp; ≤ 10 MB each, 9 at most) → list of { originalImagePath, thumbnailPath }. ${MULTIPART_NOTE}`,
    bodyType: 'multipart',
    formBody: UploadBatchFormSchema,
    params: UploadKindParamsSchema,
    response: z.array(UploadedImageSchema),
  },
  'POST /upload/uploadimage/{kind}': {
    permission: 'authenticated',
    summary: `One image in field "file" (jpg, png, gif, webp; ≤ 10 MB, avatars of kind "user" ≤ 5 MB) → { originalImagePath, thumbnailPath } (300 px webp). ${MULTIPART_NOTE}`,
    bodyType: 'multipart',
    formBody: UploadOneFormSchema,
    params: UploadKindParamsSchema,
    response: UploadedImageSchema,
  },
  'POST /upload/uploadvoice/{kind}': {
    permission: 'authenticated',
    summary: `A chat or reply voice message in field "file" (mp3, m4a, aac, amr, wav, ogg, webm; ≤ 10 MB), optional form field "duration" (seconds) → { filePath, voicePath ("<filePath>?<seconds>"), duration, contentType, size }. ${MULTIPART_NOTE}`,
    bodyType: 'multipart',
    formBody: UploadVoiceFormSchema,
    params: UploadKindParamsSchema,
    response: UploadedVoiceSchema,
  },
  'POST /upload/uploadfile/{kind}': {
    permission: 'authenticated',
    summary: `A chat file in field "file" (pdf, office documents, zip, text, images, audio, mp4; ≤ 20 MB) → { filePath, fileName, contentType, size }. ${MULTIPART_NOTE}`,
    bodyType: 'multipart',
    formBody: UploadOneFormSchema,
    params: UploadKindParamsSchema,
    response: UploadedFileSchema,
  },
  'GET /upload/files/{key}': {
    permission: 'public',
    summary:
      'A stored upload with its content type, cached for a year (names are never reused). Public so <img> and <audio> can load it; names are random. ?name= downloads it under that name.',
    answer: 'raw',
    answerContentType: 'application/octet-stream',
    response: UploadedBytesSchema,
    restParam: true,
  },
  'GET /upload/image': {
    permission: 'public',
    summary:
      'The image-load path of SPEC §7: GET /upload/image?imageUrl=<a path returned by an upload> sends that file.',
    query: ImageUrlQuerySchema,
    answer: 'raw',
    answerContentType: 'application/octet-stream',
    response: UploadedBytesSchema,
  },
});
