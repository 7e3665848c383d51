import { route, type ApiModule } from '../../http/define-route';
import { loadCounters } from './live-counters.service';

/**
 * The two calls the gateway makes for a tab (docs/internal-contract.md, "Gateway calls"). `modules`
 * gives the registered modules when asked, for their counters.
 */
export const realtimeModule = (modules: () => readonly ApiModule[]): ApiModule => ({
  name: 'realtime',
  routes: [
    route('GET /realtime/identity', async (ctx) => {
      // The verified caller carries its token's expiry (TokenService.verify).
      const { expiresAt, renews } = ctx.caller as { expiresAt?: number; renews?: boolean };
      return {
        personId: ctx.caller.personId,
        accId: ctx.caller.accountId,
        roleValue: ctx.caller.roleValue,
        perms: [...ctx.caller.perms].sort(),
        expiresAt: new Date(expiresAt ?? Date.now()).toISOString(),
        renews: renews === true,
      };
    }),
    route('GET /realtime/counters', async (ctx) => loadCounters(ctx, modules())),
  ],
});
