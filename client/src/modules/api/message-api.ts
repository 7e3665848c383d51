import { PANEL_LIMIT, PANEL_PAGE, type ListPage } from '@pm/shared';
import { call } from './call';

/** A notification message (SPEC §3). */
export interface NotificationMessage {
  messageId: number;
  messageType: number;
  messageTime: string;
  dataId?: number | null;
  name?: string | null;
  personTrigger?: { name?: string; images?: { url: string }[] } | null;
  unit?: { name?: string; buildName?: string; floorName?: string } | null;
  carpark?: { carparkCode?: string } | null;
  shop?: { shopCode?: string } | null;
  position?: string | null;
}

/** The unread messages of some types, as the panels show them (SPEC §9). */
export const fetchUnreadMessages = (messageTypeList: number[], signal?: AbortSignal) =>
  call(
    'POST /base/message/list',
    { page: PANEL_PAGE, limit: PANEL_LIMIT, messageTypeList, unReadStatus: 0 },
    { signal },
  ) as Promise<ListPage<NotificationMessage>>;

export const markMessageRead = (messageId: number) => call('POST /base/message/hasRead', { messageId });
