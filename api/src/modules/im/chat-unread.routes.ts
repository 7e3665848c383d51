import { route, type ApiModule } from '../../http/define-route';
import { chatUnreadTotal } from './chat.service';

/**
 * The chat unread total the sidebar badge shows (SPEC §7 "Instant messaging"): the module's part of
 * the live counters, which the gateway loads at every upstream open. The other calls: chat.routes.ts.
 */
export const chatUnreadModule: ApiModule = {
  name: 'chat-unread',
  counters: async (db, tenant, caller) => ({ chatUnread: await chatUnreadTotal(db, caller.personId, tenant) }),
  routes: [
    route('POST /im/chatrecord/query/total/unread', async (ctx) =>
      chatUnreadTotal(ctx.db, ctx.caller.personId, ctx.tenant),
    ),
  ],
};
