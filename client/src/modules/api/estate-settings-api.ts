import type { EstateInfo, EstateSettings } from '@pm/shared';
import { call, type CallInput, type CallOptions } from './call';

export type { EstateInfo, EstateSettings };

/** The caller's estate as its settings stand (every signed-in console reads it, without a toast on failure). */
export const fetchEstateInfo = (signal?: AbortSignal) => call('GET /base/estate/info', {}, { signal, silent: true });
/** The basic set-up screen's read: the settings, the defaults, the last change. */
export const fetchEstateSettings = (signal?: AbortSignal) => call('GET /base/estate/settings', {}, { signal });
export const updateEstateSettings = (body: CallInput<'POST /base/estate/update'>, options?: CallOptions) =>
  call('POST /base/estate/update', body, options);
