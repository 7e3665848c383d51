import { inArray } from 'drizzle-orm';
import { ChannelType } from '@pm/shared';
import { account } from '../../db/schema';
import type { AuthedContext } from '../../http/request-context';
import { withPushes } from '../message/push-outbox';
import { pushAfterCommit } from '../message/notify';

/**
 * What changed about an account's access: `revoked` ends its sessions (deleted, disabled, a new
 * password, no role any more); `permissions` means its role, or its role's menus, its department
 * or its details changed while it may still sign in (every call is checked against the
 * permissions as they are now).
 */
export type AccessChange = 'revoked' | 'permissions';

/**
 * The ONE place told that accounts' access changed (account.service.ts, role.service.ts,
 * staff.service.ts): every caller goes through it after its transaction committed.
 *
 * 1. The api's verified-token cache drops these accounts on every api process (issue 34), before
 *    anything is pushed: the gateway's re-read below never meets a stale cache.
 * 2. The persons' open tabs follow at once (issue 30): an `access` push (channel 3960, journaled
 *    like every push) reaches each person's upstream at the gateway, which re-reads the tabs'
 *    permissions (stopping topics they lost) or, for `revoked`, signs the account's tabs out.
 * 3. `revoked` then revokes the tokens, which closes their upstream connections (code 4001).
 *
 * `personOf` names the person of accounts already deleted (their rows cannot be read any more).
 */
export async function accessChanged(
  ctx: AuthedContext,
  accountIds: number[],
  change: AccessChange,
  personOf?: ReadonlyMap<number, number>,
): Promise<void> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return;
  await ctx.services.tokens.invalidateAccess(ids);
  const persons = new Map<number, number>();
  for (const id of ids) {
    const known = personOf?.get(id);
    if (known !== undefined) persons.set(id, known);
  }
  const unknown = ids.filter((id) => !persons.has(id));
  if (unknown.length > 0) {
    const rows = await ctx.db
      .select({ id: account.id, personId: account.personId })
      .from(account)
      .where(inArray(account.id, unknown));
    for (const r of rows) persons.set(r.id, r.personId);
  }
  if (persons.size > 0) {
    await withPushes(
      ctx.db,
      ctx.services.realtime,
      async (tx) => {
        if (change === 'permissions') {
          // One push for all the persons: each gateway re-reads what each tab may now see.
          pushAfterCommit(tx, persons.values(), { channelType: ChannelType.accessChanged, change });
        } else {
          // Per account: only the tabs signed in with that account are signed out.
          for (const [accId, personId] of persons)
            pushAfterCommit(tx, [personId], { channelType: ChannelType.accessChanged, change, accId });
        }
      },
      (err) => ctx.log.error({ err }, 'access change push failed'),
    );
  }
  if (change === 'revoked') await ctx.services.tokens.revokeAccounts(ids);
}

/** The same for the accounts of these persons (a staff member moved to another department). */
export async function personsAccessChanged(ctx: AuthedContext, personIds: number[]): Promise<void> {
  if (personIds.length === 0) return;
  const rows = await ctx.db
    .select({ id: account.id })
    .from(account)
    .where(inArray(account.personId, [...new Set(personIds)]));
  await accessChanged(
    ctx,
    rows.map((r) => r.id),
    'permissions',
  );
}
