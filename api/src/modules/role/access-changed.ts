import { eq, inArray } from 'drizzle-orm';
import { ChannelType } from '@pm/shared';
import { account, sysRole } from '../../db/schema';
import { loadRolePermissions } from '../auth/token.service';
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
 *    like every push) reaches each person's upstream at the gateway, which gives the tabs the
 *    permissions it carries (stopping topics they lost) or, for `revoked`, signs the account's
 *    tabs out.
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
  if (change === 'permissions') await pushPermissions(ctx, ids);
  else await pushRevoked(ctx, ids, personOf);
  if (change === 'revoked') await ctx.services.tokens.revokeAccounts(ids);
}

/**
 * One push per role among the accounts, to their persons: the accounts and the permissions that
 * role gives now (as the api's token check reads them), so the gateway updates the tabs at once.
 */
async function pushPermissions(ctx: AuthedContext, ids: number[]): Promise<void> {
  const rows = await ctx.db
    .select({
      id: account.id,
      personId: account.personId,
      roleId: account.roleId,
      kind: account.kind,
      roleValue: sysRole.roleValue,
    })
    .from(account)
    .leftJoin(sysRole, eq(sysRole.id, account.roleId))
    .where(inArray(account.id, ids));
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    // Residents never hold console permissions (TokenService.load).
    const key = r.kind === 'resident' ? 'resident' : String(r.roleId);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const pushes: { personIds: number[]; accIds: number[]; perms: string[] }[] = [];
  for (const [key, group] of groups) {
    const first = group[0];
    const perms =
      key === 'resident' ? [] : [...(await loadRolePermissions(ctx.db, first.roleId, first.roleValue ?? ''))].sort();
    pushes.push({ personIds: group.map((g) => g.personId), accIds: group.map((g) => g.id), perms });
  }
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      for (const p of pushes)
        pushAfterCommit(tx, p.personIds, {
          channelType: ChannelType.accessChanged,
          change: 'permissions',
          accIds: p.accIds,
          perms: p.perms,
        });
    },
    (err) => ctx.log.error({ err }, 'access change push failed'),
  );
}

/** One push per account, to its person: only the tabs signed in with that account are signed out. */
async function pushRevoked(ctx: AuthedContext, ids: number[], personOf?: ReadonlyMap<number, number>): Promise<void> {
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
  if (persons.size === 0) return;
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      for (const [accId, personId] of persons)
        pushAfterCommit(tx, [personId], { channelType: ChannelType.accessChanged, change: 'revoked', accId });
    },
    (err) => ctx.log.error({ err }, 'access change push failed'),
  );
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
