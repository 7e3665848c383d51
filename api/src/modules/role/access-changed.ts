import type { AuthedContext } from '../../http/request-context';

/**
 * What changed about an account's access: `revoked` ends its sessions (deleted, disabled, a new
 * password, no role any more); `permissions` means its role, or its role's menus, changed while
 * it may still sign in (every call is checked against the permissions as they are now).
 */
export type AccessChange = 'revoked' | 'permissions';

/**
 * The ONE place told that accounts' access changed (account.service.ts, role.service.ts): every
 * caller goes through it after its transaction committed, so a token or permission cache, or the
 * gateway's live re-read of a tab's permissions, is wired here once.
 */
export async function accessChanged(ctx: AuthedContext, accountIds: number[], change: AccessChange): Promise<void> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return;
  if (change === 'revoked') await ctx.services.tokens.revokeAccounts(ids);
  // The api's verified-token cache holds each account's name, role and permissions: drop them on
  // every api process, so the next call of each of these accounts reads them anew (issue 34).
  // Open tabs learn it when the gateway's live re-read lands (issue 30, not built yet).
  else await ctx.services.tokens.invalidateAccess(ids);
}
