import type { HistoryRow, OwnRequest, PersonHouseRow, ReviewTotals } from '@pm/shared';
import { call, type CallInput } from './call';
import { API_BASE } from './http';
import { httpHooks } from './http-hooks';

/** Owners and residents (issue 19): the review list, a house's people, the history staff. */
export type { HistoryRow, OwnRequest, PersonHouseRow, ReviewTotals };

export type ReviewQuery = CallInput<'POST /base/personhouse/page'>;

export const fetchReviewList = (query: ReviewQuery, signal?: AbortSignal) =>
  call('POST /base/personhouse/page', query, { signal });

/** The review tabs' counts: pending, certified, refused. */
export const fetchReviewTotals = (signal?: AbortSignal) => call('GET /base/personhouse/totals', {}, { signal });

export const fetchHouseMembers = (query: CallInput<'POST /base/personhouse/member/page'>, signal?: AbortSignal) =>
  call('POST /base/personhouse/member/page', query, { signal });

export const fetchPersonHouse = (id: number, signal?: AbortSignal) =>
  call('GET /base/personhouse/info/{id}', { id }, { signal });

export const fetchHouseHistory = (
  houseType: number,
  houseId: number,
  page: number,
  limit: number,
  signal?: AbortSignal,
) =>
  call(
    'POST /base/personhousehistory/page/{typeId}/{buildingType}',
    { typeId: houseId, buildingType: houseType, page, limit },
    { signal },
  );

export const fetchHistoryDetail = (id: number, signal?: AbortSignal) =>
  call('GET /base/personhousehistory/info/{id}', { id }, { signal });

/** Certify (2) or refuse (3); a 409 with owners.errors.hasOwner asks to confirm the owner change. */
export const reviewRequest = (body: CallInput<'POST /base/personhouse/review'>) =>
  call('POST /base/personhouse/review', body, { notify: true, silent: true });

export const removePersonHouse = (personHouseId: number) =>
  call('POST /base/personhouse/remove', { personHouseId }, { notify: true });

export const setAsHistoryStaff = (personHouseId: number) =>
  call('POST /base/personhouse/join/history', { personHouseId }, { notify: true });

/**
 * A house-certificate picture: a staff-only api route (never a public upload URL), so it is
 * fetched with the session's token and shown from an object URL the caller revokes.
 */
export async function fetchCertImage(path: string, signal?: AbortSignal): Promise<string> {
  const token = httpHooks.token();
  const res = await fetch(API_BASE + path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
  if (!res.ok) throw new Error(`certificate picture: ${res.status}`);
  return URL.createObjectURL(await res.blob());
}
