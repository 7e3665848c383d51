import type { CallAnswer, CallInput } from './call';
import { call } from './call';
import { API_BASE } from './http';
import { httpHooks } from './http-hooks';

/** Announcements (issue 20): the staff's calls. Types come from the declarations in @pm/shared. */
export type AnnouncementListRow = CallAnswer<'POST /announcement/query/list'>['list'][number];
export type AnnouncementDetail = CallAnswer<'POST /announcement/query/id/{id}'>;
export type AnnouncementReader = CallAnswer<'POST /announcement/query/readers/{id}'>['list'][number];
export type AnnouncementDraft = CallInput<'POST /announcement/save'>;
export type RecipientChoices = CallAnswer<'GET /announcement/recipients/choices'>;
export type RecipientFields = CallInput<'POST /announcement/recipients/count'>;

export interface AnnouncementFilter {
  type?: number;
  revoked?: number;
  keyword?: string;
}

export const fetchAnnouncements = (page: number, limit: number, f: AnnouncementFilter, signal?: AbortSignal) =>
  call('POST /announcement/query/list', { page, limit, ...f }, { signal });

export const fetchAnnouncement = (id: number, signal?: AbortSignal) =>
  call('POST /announcement/query/id/{id}', { id }, { signal });

export const fetchReaders = (id: number, read: 0 | 1, page: number, limit: number, signal?: AbortSignal) =>
  call('POST /announcement/query/readers/{id}', { id, read, page, limit }, { signal });

export const fetchRecipientChoices = (signal?: AbortSignal) =>
  call('GET /announcement/recipients/choices', {}, { signal });

export const countRecipients = (r: RecipientFields, signal?: AbortSignal) =>
  call('POST /announcement/recipients/count', r, { signal });

export const publishAnnouncement = (draft: AnnouncementDraft) => call('POST /announcement/save', draft);

export const revokeAnnouncement = (id: number) => call('POST /announcement/revoke', { id });

/** GET /announcement/export/{id}: the results workbook, saved by the browser as announcement-{id}.xlsx. */
export async function downloadResults(id: number): Promise<void> {
  const token = httpHooks.token();
  const response = await fetch(`${API_BASE}/announcement/export/${id}`, {
    headers: { lang: httpHooks.language(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) {
    httpHooks.toast('error', httpHooks.text('generic'));
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `announcement-${id}.xlsx`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type AnnouncementCommentRow = CallAnswer<'POST /announcement/query/comments/{id}'>[number];

export const fetchComments = (id: number, signal?: AbortSignal) =>
  call('POST /announcement/query/comments/{id}', { id }, { signal });

export const hideComment = (id: number, hidden: boolean) => call('POST /announcement/comment/hide', { id, hidden });
