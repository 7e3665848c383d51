import { route, type ApiModule } from '../../http/define-route';
import { chatUnreadTotal } from './chat.service';

/**
 * The chat unread total the sidebar badge shows (SPEC §7 "Instant messaging"). The rest of
 * instant messaging arrives with its own issue; the gateway loads this counter at every upstream open.
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
