import { eq, inArray } from 'drizzle-orm';
import { isAdminRole } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { sysMenu, sysRole } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Caller } from '../../http/request-context';
import { loadRolePermissions } from '../auth/token.service';

/**
 * Who may change which accounts and roles: the ONE rule every route that changes roles or
 * accounts goes through (account.service.ts, role.service.ts). A person's reach is their
 * permission codes, plus ADMIN_REACH when their role value is an ADMIN one (enterprise
 * management, SPEC §6). Nobody can hand out, edit or take over more reach than they hold:
 * - nobody changes their own role, password (use /account/checkpassword), state or deletes
 *   themselves, nor edits or deletes the role they hold (409);
 * - a resident's account never gets a staff role, and the console does not manage resident
 *   accounts, except to take a role away that one was given by mistake (409);
 * - an account whose reach is not within the caller's (it holds permissions the caller lacks)
 *   cannot be changed, reset or deleted by them (403);
 * - a role whose reach, before or after the change, is not within the caller's cannot be given,
 *   created, edited or deleted by them; only an ADMIN names a role value containing ADMIN (403).
 */
export const ADMIN_REACH = 'role:ADMIN';

type Reach = Set<string>;

export type AccountChangeKind = 'details' | 'role' | 'password' | 'enabled' | 'delete';

export interface AccountTarget {
  id: number;
  kind: 'staff' | 'resident';
  roleId: number | null;
}

export interface RoleRef {
  id: number;
  roleValue: string;
}

export interface AccessChange {
  /** Accounts the call changes, and what about them. */
  accounts?: AccountTarget[];
  changes?: AccountChangeKind[];
  /** The role those accounts (or a new account) get; null takes their role away. */
  grant?: RoleRef | null;
  /** A role the call edits or deletes, as it is now. */
  role?: RoleRef;
  /** What a created or edited role will be. */
  roleAfter?: { roleValue: string; menuIds: number[] };
}

function reachOf(perms: Iterable<string>, roleValue: string | null | undefined): Reach {
  const reach = new Set(perms);
  if (isAdminRole(roleValue)) reach.add(ADMIN_REACH);
  return reach;
}

const within = (reach: Reach, of: Reach) => [...reach].every((p) => of.has(p));

export function callerReach(caller: Caller): Reach {
  return reachOf(caller.perms, caller.roleValue);
}

async function roleReach(db: DbOrTx, role: RoleRef): Promise<Reach> {
  return reachOf(await loadRolePermissions(db, role.id, role.roleValue), role.roleValue);
}

async function menusReach(db: DbOrTx, after: { roleValue: string; menuIds: number[] }): Promise<Reach> {
  if (isAdminRole(after.roleValue))
    return reachOf(await loadRolePermissions(db, null, after.roleValue), after.roleValue);
  const rows = after.menuIds.length
    ? await db.select({ perms: sysMenu.perms }).from(sysMenu).where(inArray(sysMenu.id, after.menuIds))
    : [];
  return reachOf(
    rows.map((r) => r.perms).filter((p) => p !== ''),
    after.roleValue,
  );
}

/** The reach of an account: its role's for staff; none for a resident (residents never hold console permissions). */
async function accountReach(db: DbOrTx, target: AccountTarget): Promise<Reach> {
  if (target.kind !== 'staff' || target.roleId === null) return new Set();
  const [role] = await db.select({ roleValue: sysRole.roleValue }).from(sysRole).where(eq(sysRole.id, target.roleId));
  return role ? roleReach(db, { id: target.roleId, roleValue: role.roleValue }) : new Set();
}

/** Throws 409 or 403 (translated) unless the caller may make this change. */
export async function assertMayChangeAccess(db: DbOrTx, caller: Caller, change: AccessChange): Promise<void> {
  const mine = callerReach(caller);
  const changes = change.changes ?? [];
  const givesRole = change.grant !== undefined && change.grant !== null;

  // 409: one's own account and role, and resident accounts.
  for (const target of change.accounts ?? []) {
    if (target.id === caller.accountId) {
      // One's own name, e-mail and language, nothing else.
      if (changes.some((c) => c !== 'details')) throw new AppError(409, 'errors.cannotChangeSelf');
      continue;
    }
    if (target.kind === 'resident') {
      if (givesRole) throw new AppError(409, 'errors.residentNoRole');
      const takesRoleAway = changes.length === 1 && changes[0] === 'role';
      if (!takesRoleAway) throw new AppError(409, 'errors.residentAccount');
    }
  }
  if (change.role && change.role.id === caller.roleId) throw new AppError(409, 'errors.cannotChangeSelf');

  // 403: nothing beyond the caller's own reach.
  for (const target of change.accounts ?? []) {
    if (target.id !== caller.accountId && !within(await accountReach(db, target), mine)) {
      throw new AppError(403, 'errors.outranked');
    }
  }
  if (change.roleAfter && isAdminRole(change.roleAfter.roleValue) && !mine.has(ADMIN_REACH)) {
    throw new AppError(403, 'errors.adminRoleOnly');
  }
  const roles = [
    givesRole ? () => roleReach(db, change.grant as RoleRef) : null,
    change.role ? () => roleReach(db, change.role as RoleRef) : null,
    change.roleAfter ? () => menusReach(db, change.roleAfter as { roleValue: string; menuIds: number[] }) : null,
  ];
  for (const reach of roles) {
    if (reach && !within(await reach(), mine)) throw new AppError(403, 'errors.roleAboveYours');
  }
}
