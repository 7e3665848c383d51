import type { AdRow, ListPage } from '@pm/shared';
import { call, type CallInput } from './call';

export type { AdRow };

export const fetchAds = (body: CallInput<'POST /base/ad/page'>, signal?: AbortSignal) =>
  call('POST /base/ad/page', body, { signal }) as Promise<ListPage<AdRow>>;
export const fetchAd = (id: number, signal?: AbortSignal) => call('GET /base/ad/info/{id}', { id }, { signal });
export const saveAd = (body: CallInput<'POST /base/ad/saveorupdate'>) => call('POST /base/ad/saveorupdate', body);
export const deleteAds = (adIds: number[]) => call('POST /base/ad/delete', { adIds });
/** The listed ads take the places they hold among themselves, in the order given (a swap of two neighbours). */
export const sortAds = (adIds: number[]) => call('POST /base/ad/sort', { adIds });
export const switchAd = (adId: number, enabled: boolean) => call('POST /base/ad/switch', { adId, enabled });
