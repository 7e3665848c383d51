import { emptySnapshot, LiveCountersSchema, LiveIdentitySchema, type LiveCounters } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import { currentPushSeq } from './push-journal';

/**
 * Everything the top bar and sidebar count, read in ONE repeatable-read snapshot together with
 * the person's push sequence: the answer counts exactly the pushes numbered up to `pushSeq`
 * (a push is numbered in the transaction of its change). Each module adds its part (its
 * `counters`); what no module adds, or a person may not list, counts as zero.
 */
async function loadCounters(ctx: AuthedContext, modules: readonly ApiModule[]): Promise<LiveCounters> {
  const { caller, tenant } = ctx;
  return (ctx.db as Db).transaction(
    async (tx) => {
      const pushSeq = await currentPushSeq(tx, caller.personId);
      const { version: _version, ...counters } = emptySnapshot();
      // One after the other: a transaction runs one statement at a time.
      for (const m of modules) if (m.counters) Object.assign(counters, await m.counters(tx, tenant, caller));
      return { ...counters, pushSeq };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The two calls the gateway makes for a tab (docs/internal-contract.md, "Gateway calls"). `modules`
 * gives the registered modules when asked, for their counters.
 */
export const realtimeModule = (modules: () => readonly ApiModule[]): ApiModule => ({
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
      handler: async (ctx) => loadCounters(ctx, modules()),
    }),
  ],
});
