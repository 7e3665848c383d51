import type {
  BlockRow,
  BuildLogRow,
  CarParkRow,
  FloorRow,
  ShopInfo,
  ShopRow,
  SpaceInfo,
  SpaceRow,
  UnitInfo,
  UnitRow,
} from '@pm/shared';
import { ApiError } from './ApiError';
import { call, type CallInput } from './call';
import { API_BASE } from './http';
import { httpHooks } from './http-hooks';

/** Buildings (issue 18): blocks, floors, units, car parks, spaces, shops and their codes. */
export type { BlockRow, BuildLogRow, CarParkRow, FloorRow, ShopInfo, ShopRow, SpaceInfo, SpaceRow, UnitInfo, UnitRow };

/** The three house kinds of the buildings screens, by their path in SPEC §7. */
export type HouseKindName = 'unit' | 'carpark' | 'shop';

export const fetchBlocks = (signal?: AbortSignal) => call('POST /base/block/list', {}, { signal });
export const saveBlock = (b: CallInput<'POST /base/block/save'>) => call('POST /base/block/save', b);
export const updateBlock = (b: CallInput<'POST /base/block/update'>) => call('POST /base/block/update', b);
export const deleteBlock = (id: number) => call('POST /base/block/delete/{id}', { id });
export const updateFloor = (floorId: number, name: string) => call('POST /base/floor/update', { floorId, name });
export const deleteFloor = (id: number) => call('POST /base/floor/delete/{id}', { id });

export const fetchUnits = (input: CallInput<'POST /base/unit/page'>, signal: AbortSignal) =>
  call('POST /base/unit/page', input, { signal });
export const fetchUnit = (id: number, signal?: AbortSignal) => call('GET /base/unit/info/{id}', { id }, { signal });
export const modifyUnit = (
  unitId: number,
  v: { room: number; livingRoom: number; restroom: number; invitePerson: number },
) => call('POST /base/unit/modify/{unitId}/{room}/{livingRoom}/{restroom}/{invitePerson}', { unitId, ...v });
export const renameUnit = (unitId: number, name: string) => call('POST /base/unit/update', { unitId, name });

export const fetchCarParks = (signal?: AbortSignal) => call('POST /base/carpark/park/list', {}, { signal });
export const saveCarPark = (name: string, carParkId?: number) =>
  call('POST /base/carpark/park/save', { name, carParkId });
export const deleteCarPark = (id: number) => call('POST /base/carpark/park/delete/{id}', { id });
export const fetchSpaces = (input: CallInput<'POST /base/carpark/pageAdvancedSearch'>, signal: AbortSignal) =>
  call('POST /base/carpark/pageAdvancedSearch', input, { signal });
export const fetchSpace = (id: number, signal?: AbortSignal) => call('GET /base/carpark/info/{id}', { id }, { signal });
export const saveSpace = (s: CallInput<'POST /base/carpark/save'>) => call('POST /base/carpark/save', s);

export const fetchShops = (input: CallInput<'POST /base/shop/page'>, signal: AbortSignal) =>
  call('POST /base/shop/page', input, { signal });
export const fetchShop = (id: number, signal?: AbortSignal) => call('GET /base/shop/info/{id}', { id }, { signal });
export const saveShop = (s: CallInput<'POST /base/shop/save'>) => call('POST /base/shop/save', s);

/** Sets the invite-member count of a space or shop. */
export const modifyInvitePerson = (kind: 'carpark' | 'shop', id: number, invitePerson: number) =>
  kind === 'carpark'
    ? call('POST /base/carpark/modify/{id}/{invitePerson}', { id, invitePerson })
    : call('POST /base/shop/modify/{id}/{invitePerson}', { id, invitePerson });

export const regenerateCode = (kind: HouseKindName, id: number) => call(`POST /base/${kind}/regenerate/{id}`, { id });
export const revokeCode = (kind: HouseKindName, id: number) => call(`POST /base/${kind}/revoke/{id}`, { id });
export const deleteHouse = (kind: HouseKindName, id: number) => call(`POST /base/${kind}/delete/{id}`, { id });

/**
 * A file the api answers (QR PNG, PDF, Excel) as a Blob, with the token and language of the
 * session; an error envelope is toasted and thrown like any call's.
 */
export async function fetchFile(path: string, body?: object): Promise<Blob> {
  const headers: Record<string, string> = { lang: httpHooks.language() };
  const token = httpHooks.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method: body ? 'POST' : 'GET',
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    const error = new ApiError(httpHooks.text('network'), 0);
    httpHooks.toast('error', error.message);
    throw error;
  }
  if (!response.ok) {
    const envelope = (await response.json().catch(() => null)) as { msg?: string; code?: number } | null;
    const error = new ApiError(envelope?.msg ?? httpHooks.text('generic'), response.status, envelope?.code);
    httpHooks.toast('error', error.message);
    throw error;
  }
  return response.blob();
}

/** Saves a Blob under a file name (the browser's download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The QR code PNG of one house. */
export const fetchQrPng = (kind: HouseKindName, id: number) => fetchFile(`/base/${kind}/download/qrcode/${id}`);
/** The selected houses' QR codes (A4 PDF) or invite codes (Excel). */
export const fetchCodesFile = (kind: HouseKindName, what: 'qrcodes' | 'invitecodes', ids: number[]) =>
  fetchFile(`/base/${kind}/download/${what}`, { ids });

/** The import template of a kind, headers in the person's language. */
export const fetchImportTemplate = (kind: HouseKindName) => fetchFile(`/base/${kind}/import/template`);

/** What a refused import answers as `data`: the rows read and each problem. */
export interface ImportRefusal {
  total: number;
  errors: { row: number; column: string; reason: string }[];
}

/**
 * Uploads an import file (XMLHttpRequest, for its upload progress: `onProgress(sentBytes, totalBytes)`); resolves
 * with the counts, or rejects with an ApiError whose `data` is an {@link ImportRefusal} when rows
 * were refused (nothing written).
 */
export function importHouses(
  kind: HouseKindName,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<{ total: number; written: number }> {
  return uploadImport(`/base/${kind}/import`, file, onProgress);
}

/** Any Excel import of the api (field "file"), with its upload progress; rejects with an ApiError (data: an {@link ImportRefusal}). */
export function uploadImport<T>(
  path: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    const token = httpHooks.token();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('lang', httpHooks.language());
    // The body is the file plus a little multipart framing: count the file's bytes, never over.
    xhr.upload.onprogress = (e) => onProgress(Math.min(e.loaded, file.size), file.size);
    xhr.onerror = () => reject(new ApiError(httpHooks.text('network'), 0));
    xhr.onload = () => {
      type Envelope = { code?: number; msg?: string; data?: unknown };
      let body: Envelope | null;
      try {
        body = JSON.parse(xhr.responseText) as Envelope;
      } catch {
        body = null;
      }
      if (xhr.status === 200 && body?.code === 200) resolve(body.data as T);
      else reject(new ApiError(body?.msg ?? httpHooks.text('generic'), xhr.status, body?.code, body?.data));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

export const fetchBuildLog = (kind: 1 | 2 | 3, signal?: AbortSignal) =>
  call('POST /build-log/v1', { kind, page: 1, limit: 20 }, { signal });

/**
 * Exports a list with its filters to Excel, read as it streams in: `onProgress(bytes, rows)`
 * (rows from the api's X-Total-Rows). Resolves with the file.
 */
export const exportList = (
  kind: HouseKindName,
  filters: object,
  onProgress: (bytes: number, rows: number) => void,
): Promise<Blob> => exportFile(`/base/${kind}/export`, filters, onProgress);

/** Any streamed Excel export (`answer: 'raw'`, X-Total-Rows) of the api, read as it streams in. */
export async function exportFile(
  path: string,
  filters: object,
  onProgress: (bytes: number, rows: number) => void,
): Promise<Blob> {
  const headers: Record<string, string> = { lang: httpHooks.language(), 'Content-Type': 'application/json' };
  const token = httpHooks.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${API_BASE}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(filters),
  });
  if (!response.ok || !response.body) {
    const envelope = (await response.json().catch(() => null)) as { msg?: string } | null;
    const error = new ApiError(envelope?.msg ?? httpHooks.text('generic'), response.status);
    httpHooks.toast('error', error.message);
    throw error;
  }
  const rows = Number(response.headers.get('X-Total-Rows') ?? 0);
  onProgress(0, rows);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    onProgress(bytes, rows);
  }
  return new Blob(chunks as BlobPart[], { type: response.headers.get('Content-Type') ?? undefined });
}
