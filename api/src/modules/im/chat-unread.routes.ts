import { route, type ApiModule } from '../../http/define-route';
import { chatUnreadTotal, readUnreadTotal, unreadTotalSql, unreadTotalValues } from './chat.service';

/**
 * The chat unread total the sidebar badge shows (SPEC §7 "Instant messaging"): the module's part of
 * the live counters, which the gateway loads at every upstream open. The other calls: chat.routes.ts.
 */
export const chatUnreadModule: ApiModule = {
  name: 'chat-unread',
  counters: (tenant, caller) => ({
    key: 'chat.unread-total',
    sql: unreadTotalSql,
    values: unreadTotalValues(caller.personId, tenant),
    read: (rows) => ({ chatUnread: readUnreadTotal(rows) }),
  }),
  routes: [
    route('POST /im/chatrecord/query/total/unread', async (ctx) =>
      chatUnreadTotal(ctx.db, ctx.caller.personId, ctx.tenant),
    ),
  ],
};
