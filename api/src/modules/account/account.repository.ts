import { and, count, desc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AccountRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { account, company, housingEstate, person, sysRole } from '../../db/schema';
import { likePattern, scopedTo } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

export async function findAccountInTenant(db: DbOrTx, tenant: TenantScope, accId: number) {
  const [row] = await db
    .select()
    .from(account)
    .where(and(scopedTo(account, tenant), eq(account.id, accId)))
    .limit(1);
  return row;
}

export async function findAccountByPerson(db: DbOrTx, tenant: TenantScope, personId: number) {
  const [row] = await db
    .select()
    .from(account)
    .where(and(scopedTo(account, tenant), eq(account.personId, personId)))
    .limit(1);
  return row;
}

export async function findRoleInTenant(db: DbOrTx, tenant: TenantScope, roleId: number) {
  const [row] = await db
    .select()
    .from(sysRole)
    .where(and(scopedTo(sysRole, tenant), eq(sysRole.id, roleId)))
    .limit(1);
  return row;
}

/** Account, company, role and person of one account (GET /account/info). */
export async function loadAccountInfo(db: DbOrTx, tenant: TenantScope, accId: number) {
  const [row] = await db
    .select({ account, company, role: sysRole, person, timeZone: housingEstate.timeZone })
    .from(account)
    .innerJoin(company, eq(company.id, account.companyId))
    .innerJoin(housingEstate, eq(housingEstate.id, account.housingEstateId))
    .innerJoin(person, eq(person.id, account.personId))
    .leftJoin(sysRole, eq(sysRole.id, account.roleId))
    .where(and(scopedTo(account, tenant), eq(account.id, accId)))
    .limit(1);
  return row;
}

/**
 * Staff accounts of the estate, newest first, filtered by a keyword (username or name) and role.
 * The filters are on `account` alone (the keyword against account.search: the account name and the
 * person's name, kept by triggers, migration account_search_triggers, trigram-indexed), so the
 * page's ids are chosen and counted without a join, and only the page's rows are joined to their
 * person and role (a deferred join, as the staff list does).
 */
export async function pageAccounts(
  db: DbOrTx,
  tenant: TenantScope,
  filter: { keyword?: string; roleId?: number; notRoleId?: number; limit: number; offset: number },
): Promise<{ rows: AccountRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [scopedTo(account, tenant), eq(account.kind, 'staff')];
  // Lower-cased as `ilike` would, against the one column.
  if (filter.keyword) conditions.push(sql`${account.search} like lower(${likePattern(filter.keyword)}::text)`);
  if (filter.roleId) conditions.push(eq(account.roleId, filter.roleId));
  // Accounts without a role are "not holding" it too.
  if (filter.notRoleId) conditions.push(or(isNull(account.roleId), ne(account.roleId, filter.notRoleId)));
  const where = and(...conditions);
  const page = db
    .$with('page')
    .as(
      db
        .select({ pageId: account.id })
        .from(account)
        .where(where)
        .orderBy(desc(account.id))
        .limit(filter.limit)
        .offset(filter.offset),
    );
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: count() }).from(account).where(where),
    db
      .with(page)
      .select({
        accId: account.id,
        username: account.username,
        email: account.email,
        personId: account.personId,
        name: person.name,
        roleId: account.roleId,
        roleName: sysRole.roleName,
        roleValue: sysRole.roleValue,
        language: account.language,
        enabled: account.enabled,
        createdAt: account.createdAt,
      })
      .from(page)
      .innerJoin(account, eq(account.id, page.pageId))
      .innerJoin(person, eq(person.id, account.personId))
      .leftJoin(sysRole, eq(sysRole.id, account.roleId))
      .orderBy(desc(account.id)),
  ]);
  return { rows: rows.map(({ createdAt, ...r }) => ({ ...r, createTime: createdAt.toISOString() })), total };
}
