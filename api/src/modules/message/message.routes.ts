import { LIVE_MESSAGE_TYPES } from '@pm/shared';
import { route, type ApiModule } from '../../http/define-route';
import type { Caller } from '../../http/request-context';
import {
  countUnread,
  listMessages,
  readMessage,
  readUnread,
  unreadShape,
  unreadSql,
  unreadValues,
  type MessageOwner,
} from './message.service';

/** A person's own messages; staff see only those of their company and estate. */
function ownerOf({ caller }: { caller: Caller }): MessageOwner {
  return caller.kind === 'staff'
    ? { personId: caller.personId, companyId: caller.companyId, housingEstateId: caller.housingEstateId }
    : { personId: caller.personId };
}

export const messageModule: ApiModule = {
  name: 'message',
  // Unread messages of every type a live topic takes.
  counters: (_tenant, caller) => {
    const owner = ownerOf({ caller });
    return {
      key: `message.unread.${unreadShape(owner, LIVE_MESSAGE_TYPES.length)}`,
      sql: (p) => unreadSql(owner, LIVE_MESSAGE_TYPES.length, p),
      values: unreadValues(owner, LIVE_MESSAGE_TYPES),
      read: (rows) => ({
        unreadByType: readUnread(LIVE_MESSAGE_TYPES, rows as { message_type: unknown; n: unknown }[]),
      }),
    };
  },
  routes: [
    route('POST /base/message/list', async (ctx, { body }) => {
      const { rows, total } = await listMessages(ctx.db, ownerOf(ctx), {
        types: body.messageTypeList,
        read: body.unReadStatus === undefined ? undefined : body.unReadStatus === 1,
        startTime: body.startTime,
        endTime: body.endTime,
        limit: body.limit,
        offset: (body.page - 1) * body.limit,
      });
      return { list: rows, total, page: body.page, limit: body.limit, totalPage: Math.ceil(total / body.limit) };
    }),
    route('POST /base/message/unRead', async (ctx, { body }) => {
      const byType = await countUnread(ctx.db, ownerOf(ctx), body.messageTypeList);
      return { total: Object.values(byType).reduce((a, b) => a + b, 0), byType };
    }),
    route('POST /base/message/hasRead', async (ctx, { body }) => {
      await readMessage(ctx, ownerOf(ctx), body.messageId);
      return { messageId: body.messageId, readStatus: 1 };
    }),
  ],
};
