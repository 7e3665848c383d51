import { PANEL_LIMIT, PANEL_PAGE, type ListPage, type MessageRow } from '@pm/shared';
import { call } from './call';

/** A notification message (SPEC §3). */
export type NotificationMessage = MessageRow;

/** The unread messages of some types, as the panels show them (SPEC §9). */
export const fetchUnreadMessages = (messageTypeList: number[], signal?: AbortSignal) =>
  call(
    'POST /base/message/list',
    { page: PANEL_PAGE, limit: PANEL_LIMIT, messageTypeList, unReadStatus: 0 },
    { signal },
  ) as Promise<ListPage<NotificationMessage>>;

export const markMessageRead = (messageId: number) => call('POST /base/message/hasRead', { messageId });

/** Every message of the person, read and unread (the historical messages screen). */
export const fetchMessages = (
  page: number,
  limit: number,
  filter: { messageTypeList?: number[]; unReadStatus?: 0 | 1; startTime?: string; endTime?: string },
  signal?: AbortSignal,
) => call('POST /base/message/list', { page, limit, ...filter }, { signal }) as Promise<ListPage<NotificationMessage>>;
