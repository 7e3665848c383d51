import { LiveCountersSchema, LiveIdentitySchema } from '@pm/shared';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { loadCounters } from './live-counters.service';

/** The two calls the gateway makes for a tab (docs/internal-contract.md, "Gateway calls"). */
export const realtimeModule: ApiModule = {
  name: 'realtime',
  routes: [
    defineRoute({
      method: 'get',
      path: '/realtime/identity',
      permission: 'authenticated',
      summary:
        "Who the bearer token belongs to, the person's permission codes and when the token expires (the gateway binds each tab to it)",
      response: LiveIdentitySchema,
      handler: async (ctx) => {
        // The verified caller carries its token's expiry (TokenService.verify).
        const expiresAt = (ctx.caller as { expiresAt?: number }).expiresAt;
        return {
          personId: ctx.caller.personId,
          accId: ctx.caller.accountId,
          roleValue: ctx.caller.roleValue,
          perms: [...ctx.caller.perms].sort(),
          expiresAt: new Date(expiresAt ?? Date.now()).toISOString(),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/realtime/counters',
      permission: 'authenticated',
      summary:
        "The caller's live counters (unread messages by type, chat unread, complaint and work-order totals) as of push number pushSeq",
      response: LiveCountersSchema,
      handler: async (ctx) => loadCounters(ctx),
    }),
  ],
};
