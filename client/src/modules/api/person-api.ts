import { call } from './call';
import { API_BASE } from './http';

export interface PersonInfo {
  personId?: number;
  name: string;
  gender?: number;
  images?: { url: string }[];
}

export const fetchPerson = (personId: number, signal?: AbortSignal) =>
  call('GET /base/person/info/{id}', { id: personId }, { signal }) as Promise<PersonInfo>;

export const savePerson = (personId: number, name: string, images: { url: string }[]) =>
  call('POST /base/person/saveorupdate/{id}', { id: personId, name, images }, { notify: true });

/** POST /upload/uploadimage/{kind}, multipart field `file`. */
export async function uploadImage(kind: string, file: Blob, fileName = 'image.png'): Promise<string> {
  const form = new FormData();
  form.append('file', file, fileName);
  const data = await call('POST /upload/uploadimage/{kind}', { kind }, { form });
  return data.originalImagePath;
}

/** Upload paths are relative to the api (`/upload/files/…`); the gateway serves them under /api. */
export function imageUrl(path: string | null | undefined): string {
  if (!path) return '';
  if (/^(https?:|data:|blob:)/.test(path) || path.startsWith(API_BASE + '/')) return path;
  return API_BASE + (path.startsWith('/') ? path : '/' + path);
}
