import type { OwnerChangeRow } from '@pm/shared';
import { call } from './call';

/** Owner replacements (dashboard, SPEC §1): owners who left a house, newest first, with the owner now. */
export type { OwnerChangeRow };

export const fetchOwnerChanges = (limit: number, signal?: AbortSignal) =>
  call('POST /base/personhousehistory/owners', { limit }, { signal });
