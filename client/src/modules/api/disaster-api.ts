import type { DeclarationRow, ListPage, SosCall, WarnDetail, WarnPeopleList, WarnPerson, WarnRow } from '@pm/shared';
import { call, type CallInput } from './call';

export type { DeclarationRow, SosCall, WarnDetail, WarnPeopleList, WarnPerson, WarnRow };

/** The SOS calls not yet closed, unacknowledged first (read on every (re)connect). */
export const fetchOpenSos = (signal?: AbortSignal) => call('GET /disaster/sos/open', {}, { signal });
export const fetchSos = (id: number, signal?: AbortSignal) => call('GET /disaster/sos/{id}', { id }, { signal });
export const acknowledgeSos = (id: number) => call('POST /disaster/sos/{id}/acknowledge', { id });
export const closeSos = (id: number, note: string) => call('POST /disaster/sos/{id}/close', { id, note });

export const fetchWarningBlocks = (signal?: AbortSignal) => call('GET /disaster/blocks', {}, { signal });
export const fetchWarnings = (page: number, limit: number, type: number | undefined, signal?: AbortSignal) =>
  call('POST /disaster/warn/page', { page, limit, type }, { signal }) as Promise<ListPage<WarnRow>>;
export const fetchWarning = (id: number, signal?: AbortSignal) => call('GET /disaster/warn/{id}', { id }, { signal });
export const releaseWarning = (body: CallInput<'POST /disaster/warn/save'>) => call('POST /disaster/warn/save', body);
export const revokeWarning = (id: number) => call('POST /disaster/warn/{id}/revoke', { id });
export const fetchWarnPeople = (id: number, list: WarnPeopleList, page: number, limit: number, signal?: AbortSignal) =>
  call('POST /disaster/warn/{id}/people', { id, list, page, limit }, { signal }) as Promise<ListPage<WarnPerson>>;
export const handleHelpRequest = (id: number, note: string) =>
  call('POST /disaster/warn/person/{id}/handle', { id, note });

export const fetchDeclarations = (page: number, limit: number, status: number | undefined, signal?: AbortSignal) =>
  call('POST /disaster/declaration/page', { page, limit, status }, { signal }) as Promise<ListPage<DeclarationRow>>;
export const handleDeclaration = (id: number, note: string) =>
  call('POST /disaster/declaration/{id}/handle', { id, note });
