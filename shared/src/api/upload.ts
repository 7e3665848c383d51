import { z } from 'zod';

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
