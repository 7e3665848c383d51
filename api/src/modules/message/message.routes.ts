import { z } from 'zod';
import { LIVE_MESSAGE_TYPES, listPageSchema } from '@pm/shared';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { Caller } from '../../http/request-context';
import {
  MessageHasReadSchema,
  MessageListQuerySchema,
  MessageRowSchema,
  MessageUnreadQuerySchema,
  MessageUnreadSchema,
} from '../../../../shared/src/api/message';
import { countUnread, listMessages, type MessageOwner } from './message.repository';
import { readMessage } from './message.service';

/** A person's own messages; staff see only those of their company and estate. */
function ownerOf({ caller }: { caller: Caller }): MessageOwner {
  return caller.kind === 'staff'
    ? { personId: caller.personId, companyId: caller.companyId, housingEstateId: caller.housingEstateId }
    : { personId: caller.personId };
}

export const messageModule: ApiModule = {
  name: 'message',
  // Unread messages of every type a live topic takes.
  counters: async (db, _tenant, caller) => ({
    unreadByType: await countUnread(db, ownerOf({ caller }), LIVE_MESSAGE_TYPES),
  }),
  routes: [
    defineRoute({
      method: 'post',
      path: '/base/message/list',
      permission: 'authenticated',
      summary:
        "The caller's notification messages, newest first. unReadStatus 0 = unread only, 1 = read only, absent = all; messageTypeList absent or empty = every type.",
      body: MessageListQuerySchema,
      response: listPageSchema(MessageRowSchema),
      handler: async (ctx, { body }) => {
        const { rows, total } = await listMessages(ctx.db, ownerOf(ctx), {
          types: body.messageTypeList,
          read: body.unReadStatus === undefined ? undefined : body.unReadStatus === 1,
          limit: body.limit,
          offset: (body.page - 1) * body.limit,
        });
        return { list: rows, total, page: body.page, limit: body.limit, totalPage: Math.ceil(total / body.limit) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/message/unRead',
      permission: 'authenticated',
      summary:
        'Unread message counts of the given types: { total, byType: { "<type>": count } } (every requested type present).',
      body: MessageUnreadQuerySchema,
      response: MessageUnreadSchema,
      handler: async (ctx, { body }) => {
        const byType = await countUnread(ctx.db, ownerOf(ctx), body.messageTypeList);
        return { total: Object.values(byType).reduce((a, b) => a + b, 0), byType };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/message/hasRead',
      permission: 'authenticated',
      summary: "Marks one of the caller's messages read (idempotent). 404 when it is not the caller's.",
      body: MessageHasReadSchema,
      response: z.object({ messageId: z.number(), readStatus: z.number() }),
      handler: async (ctx, { body }) => {
        await readMessage(ctx, ownerOf(ctx), body.messageId);
        return { messageId: body.messageId, readStatus: 1 };
      },
    }),
  ],
};
