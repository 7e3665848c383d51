import { route, type ApiModule } from '../../http/define-route';
import type { LiveIdentity } from '@pm/shared';
import type { Caller } from '../../http/caller';
import { loadCounters } from './live-counters.service';

/** What the gateway binds a tab to; the verified caller carries its token's expiry (TokenService.verify). */
function identityOf(caller: Caller): LiveIdentity {
  const { expiresAt, renews } = caller as Caller & { expiresAt?: number; renews?: boolean };
  return {
    personId: caller.personId,
    accId: caller.accountId,
    roleValue: caller.roleValue,
    perms: [...caller.perms].sort(),
    expiresAt: new Date(expiresAt ?? Date.now()).toISOString(),
    renews: renews === true,
  };
}

/**
 * The calls the gateway makes for a tab (docs/internal-contract.md, "Gateway calls"). `modules`
 * gives the registered modules when asked, for their counters.
 */
export const realtimeModule = (modules: () => readonly ApiModule[]): ApiModule => ({
  name: 'realtime',
  routes: [
    route('GET /realtime/identity', async (ctx) => identityOf(ctx.caller)),
    // Many tabs' tokens in one call (issue 34: a gateway coming back asks about thousands). Each
    // token is checked as the Bearer of GET /realtime/identity would be (the token cache, then
    // the database): a revoked, expired or unknown one answers null, never an error for the rest.
    // Many tabs' tokens in one call (issue 34: a gateway coming back asks about thousands). Each
    // token is checked as the Bearer of GET /realtime/identity would be (the token cache, then
    // the database): a revoked, expired or unknown one answers null, never an error for the rest.
    // Anyone may call it: made-up tokens cost one query for the lot (TokenService.verifyMany).
    route('POST /realtime/identities', async (ctx, { body }) => {
      const callers = await ctx.services.tokens.verifyMany(body.tokens.map((t) => t.replace(/^Bearer\s+/i, '')));
      return { identities: callers.map((caller) => (caller ? identityOf(caller) : null)) };
    }),
    route('GET /realtime/counters', async (ctx) => loadCounters(ctx, modules())),
  ],
});
