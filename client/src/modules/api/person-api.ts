import { API_BASE, get, post, request } from './http';

export interface PersonInfo {
  personId?: number;
  name: string;
  gender?: number;
  images?: { url: string }[];
}

export const fetchPerson = (personId: number, signal?: AbortSignal) =>
  get<PersonInfo>(`/base/person/info/${personId}`, { signal });

export const savePerson = (personId: number, name: string, images: { url: string }[]) =>
  post<unknown>(`/base/person/saveorupdate/${personId}`, { personId, name, images }, { notify: true });

/** POST /upload/uploadimage/{kind}, multipart field `file`. */
export async function uploadImage(kind: string, file: Blob, fileName = 'image.png'): Promise<string> {
  const form = new FormData();
  form.append('file', file, fileName);
  const data = await request<{ originalImagePath: string }>(`/upload/uploadimage/${kind}`, { form });
  return data.originalImagePath;
}

/** Upload paths are relative to the api (`/upload/files/…`); the gateway serves them under /api. */
export function imageUrl(path: string | null | undefined): string {
  if (!path) return '';
  if (/^(https?:|data:|blob:)/.test(path) || path.startsWith(API_BASE + '/')) return path;
  return API_BASE + (path.startsWith('/') ? path : '/' + path);
}
