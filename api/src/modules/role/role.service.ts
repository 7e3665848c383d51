import { and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import { isAdminRole, listPage, type MenuNode } from '@pm/shared';
import type { z } from 'zod';
import type { RolePageSchema, RolePersonPageSchema, RoleSaveSchema } from '@pm/shared';
import type { Db, DbOrTx } from '../../db/open-database';
import { likePattern, offsetOf, scopedTo } from '../../db/sql';
import { account, sysMenu, sysRole, sysRoleMenu } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { pageAccounts } from '../account/account.repository';
import { accountSnapshots, roleParts, roleSnapshot } from '../audit/audit-snapshots';
import { recordAudit, type AuditEntry } from '../audit/record-audit';
import { accessChanged } from './access-changed';
import { assertMayChangeAccess } from './access-policy';
import { assertAdminRemains, lockCompanyAccess } from './admin-guard';

type MenuRow = typeof sysMenu.$inferSelect;

async function roleInTenant(db: DbOrTx, tenant: TenantScope, roleId: number) {
  const [row] = await db
    .select()
    .from(sysRole)
    .where(and(scopedTo(sysRole, tenant), eq(sysRole.id, roleId)))
    .limit(1);
  if (!row) throw AppError.notFound();
  return row;
}

/** The menus of a role: all of them for an ADMIN role (SPEC §6), otherwise its role↔menu rows. */
async function menusOfRole(db: DbOrTx, role: { id: number; roleValue: string }): Promise<MenuRow[]> {
  if (isAdminRole(role.roleValue)) return db.select().from(sysMenu).orderBy(asc(sysMenu.sort));
  return db
    .select({ menu: sysMenu })
    .from(sysRoleMenu)
    .innerJoin(sysMenu, eq(sysMenu.id, sysRoleMenu.menuId))
    .where(eq(sysRoleMenu.roleId, role.id))
    .orderBy(asc(sysMenu.sort))
    .then((rows) => rows.map((r) => r.menu));
}

/** GET /base/sysrole/infoandmenu/{roleId}: the own role for everybody, any role of the estate with system:role. */
export async function roleInfoAndMenu(ctx: AuthedContext, roleId: number) {
  if (roleId !== ctx.caller.roleId && !ctx.caller.perms.has('system:role')) throw AppError.forbidden();
  const role = await roleInTenant(ctx.db, ctx.tenant, roleId);
  const menus = await menusOfRole(ctx.db, role);
  return {
    roleId: role.id,
    roleName: role.roleName,
    roleValue: role.roleValue,
    remark: role.remark,
    menus: menus.map((m) => ({ menuId: m.id, name: m.name, path: m.path, perms: m.perms })),
  };
}

async function personCounts(db: DbOrTx, roleIds: number[]): Promise<Map<number, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db
    .select({ roleId: account.roleId, n: count() })
    .from(account)
    .where(inArray(account.roleId, roleIds))
    .groupBy(account.roleId);
  return new Map(rows.map((r) => [r.roleId ?? 0, r.n]));
}

function roleRow(role: typeof sysRole.$inferSelect, persons: Map<number, number>) {
  return {
    roleId: role.id,
    roleName: role.roleName,
    roleValue: role.roleValue,
    remark: role.remark,
    personCount: persons.get(role.id) ?? 0,
    createTime: role.createdAt.toISOString(),
  };
}

/** GET /base/sysrole/list/{companyId}: every role of the caller's estate (the company must be the caller's). */
export async function roleList(ctx: AuthedContext, companyId: number) {
  if (companyId !== ctx.tenant.companyId) return [];
  const roles = await ctx.db.select().from(sysRole).where(scopedTo(sysRole, ctx.tenant)).orderBy(asc(sysRole.id));
  const persons = await personCounts(
    ctx.db,
    roles.map((r) => r.id),
  );
  return roles.map((r) => roleRow(r, persons));
}

export async function rolePage(ctx: AuthedContext, body: z.output<typeof RolePageSchema>) {
  const where = and(
    scopedTo(sysRole, ctx.tenant),
    body.keyword
      ? or(ilike(sysRole.roleName, likePattern(body.keyword)), ilike(sysRole.roleValue, likePattern(body.keyword)))
      : undefined,
  );
  const [{ total }] = await ctx.db.select({ total: count() }).from(sysRole).where(where);
  const roles = await ctx.db
    .select()
    .from(sysRole)
    .where(where)
    .orderBy(desc(sysRole.id))
    .limit(body.limit)
    .offset(offsetOf(body.page, body.limit));
  const persons = await personCounts(
    ctx.db,
    roles.map((r) => r.id),
  );
  return listPage(
    roles.map((r) => roleRow(r, persons)),
    total,
    body,
  );
}

/** Creates or changes a role and replaces its menus, in one transaction. */
export async function saveRole(ctx: AuthedContext, body: z.output<typeof RoleSaveSchema>): Promise<{ roleId: number }> {
  const menuIds = [...new Set(body.menuIds)];
  if (menuIds.length) {
    const known = await ctx.db.select({ id: sysMenu.id }).from(sysMenu).where(inArray(sysMenu.id, menuIds));
    if (known.length !== menuIds.length) throw AppError.badRequest('validation.invalid', { detail: 'menuIds' });
  }
  const saved = await ctx.db.transaction(async (tx) => {
    await lockCompanyAccess(tx, ctx.tenant.companyId);
    let roleId = body.roleId;
    const before = roleParts(roleId === undefined ? null : await roleSnapshot(tx, ctx.tenant, roleId));
    if (roleId === undefined) {
      const roleValue = body.roleValue ?? `ROLE_${Date.now().toString(36).toUpperCase()}`;
      await assertMayChangeAccess(tx, ctx.caller, { roleAfter: { roleValue, menuIds } });
      [{ id: roleId }] = await tx
        .insert(sysRole)
        .values({ ...ctx.tenant, roleName: body.roleName, roleValue, remark: body.remark ?? null })
        .returning({ id: sysRole.id });
    } else {
      const role = await roleInTenant(tx, ctx.tenant, roleId);
      await assertMayChangeAccess(tx, ctx.caller, {
        role,
        roleAfter: { roleValue: body.roleValue ?? role.roleValue, menuIds },
      });
      await tx
        .update(sysRole)
        .set({
          roleName: body.roleName,
          remark: body.remark ?? role.remark,
          ...(body.roleValue ? { roleValue: body.roleValue } : {}),
        })
        .where(eq(sysRole.id, role.id));
      await tx.delete(sysRoleMenu).where(eq(sysRoleMenu.roleId, role.id));
    }
    if (menuIds.length)
      await tx.insert(sysRoleMenu).values(menuIds.map((menuId) => ({ roleId: roleId as number, menuId })));
    const after = roleParts(await roleSnapshot(tx, ctx.tenant, roleId));
    const summary = after.role?.roleName ?? null;
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    // A new role is one event with its menus; a changed one an event per part that changed.
    await recordAudit(
      tx,
      ctx,
      before.role === null
        ? [{ kind: 'role', entityId: roleId, action: 'create', after: { ...after.role, ...after.menus }, summary }]
        : [
            ...(!same(before.role, after.role) || same(before.menus, after.menus)
              ? [
                  {
                    kind: 'role',
                    entityId: roleId,
                    action: 'update',
                    before: before.role,
                    after: after.role,
                    summary,
                  } as const,
                ]
              : []),
            ...(!same(before.menus, after.menus)
              ? [
                  {
                    kind: 'role-menus',
                    entityId: roleId,
                    action: 'update',
                    before: before.menus,
                    after: after.menus,
                    summary,
                  } as const,
                ]
              : []),
          ],
    );
    await assertAdminRemains(tx, ctx.tenant.companyId);
    const holders = await tx.select({ id: account.id }).from(account).where(eq(account.roleId, roleId));
    return { roleId, holders: holders.map((h) => h.id) };
  });
  await accessChanged(ctx, saved.holders, 'permissions');
  return { roleId: saved.roleId };
}

/**
 * Deletes roles of the estate (not the caller's own). While someone holds one of them the delete
 * is refused (409, naming the role and how many hold it), unless `moveTo` names another role of
 * the estate: the holders get it in the same transaction, so nobody is left without a role and
 * nobody signs out; their open tabs follow the new role's permissions.
 */
export async function deleteRoles(
  ctx: AuthedContext,
  roleIds: number[],
  moveTo: number | undefined,
): Promise<{ moved: number }> {
  const moved = await ctx.db.transaction(async (tx) => {
    await lockCompanyAccess(tx, ctx.tenant.companyId);
    const roles = await tx
      .select({ id: sysRole.id, roleName: sysRole.roleName, roleValue: sysRole.roleValue })
      .from(sysRole)
      .where(and(scopedTo(sysRole, ctx.tenant), inArray(sysRole.id, roleIds)));
    if (roles.length === 0) throw AppError.notFound();
    for (const role of roles) await assertMayChangeAccess(tx, ctx.caller, { role });
    const ids = roles.map((r) => r.id);
    const before = new Map<number, Awaited<ReturnType<typeof roleSnapshot>>>();
    for (const id of ids) before.set(id, await roleSnapshot(tx, ctx.tenant, id));
    const holders = await tx
      .select()
      .from(account)
      .where(and(scopedTo(account, ctx.tenant), inArray(account.roleId, ids)));
    if (holders.length > 0) {
      if (moveTo === undefined) {
        const held = roles.find((r) => holders.some((h) => h.roleId === r.id)) ?? roles[0];
        const count = holders.filter((h) => h.roleId === held.id).length;
        throw new AppError(409, 'enterprise.errors.roleHeld', { name: held.roleName, count });
      }
      if (ids.includes(moveTo)) throw new AppError(409, 'enterprise.errors.moveToDeleted');
      const target = await roleInTenant(tx, ctx.tenant, moveTo);
      // A resident given a staff role by mistake loses it rather than getting another.
      const staff = holders.filter((h) => h.kind === 'staff');
      const residents = holders.filter((h) => h.kind !== 'staff').map((h) => h.id);
      await assertMayChangeAccess(tx, ctx.caller, { accounts: staff, changes: ['role'], grant: target });
      if (staff.length)
        await tx
          .update(account)
          .set({ roleId: target.id, updatedAt: new Date() })
          .where(
            inArray(
              account.id,
              staff.map((h) => h.id),
            ),
          );
      if (residents.length)
        await tx.update(account).set({ roleId: null, updatedAt: new Date() }).where(inArray(account.id, residents));
      // Each holder's new role is an account change of its own in the trail.
      await recordAudit(
        tx,
        ctx,
        holders.map((h): AuditEntry => {
          const from = roles.find((r) => r.id === h.roleId);
          const to = h.kind === 'staff' ? target : null;
          return {
            kind: 'account',
            entityId: h.id,
            action: 'assign',
            before: { roleId: from?.id ?? null, roleName: from?.roleName ?? null },
            after: { roleId: to?.id ?? null, roleName: to?.roleName ?? null },
            summary: h.username,
          };
        }),
      );
    }
    await tx.delete(sysRoleMenu).where(inArray(sysRoleMenu.roleId, ids));
    await tx.delete(sysRole).where(inArray(sysRole.id, ids));
    // The role's event lists who held it (they lost it with the role).
    await recordAudit(
      tx,
      ctx,
      ids.map((id): AuditEntry => {
        const role = before.get(id) ?? null;
        return {
          kind: 'role',
          entityId: id,
          action: 'delete',
          before: role && {
            ...role,
            holders: holders.filter((h) => h.roleId === id).map((h) => h.username),
          },
          summary: role?.roleName ?? null,
        };
      }),
    );
    await assertAdminRemains(tx, ctx.tenant.companyId);
    return holders.map((a) => a.id);
  });
  await accessChanged(ctx, moved, 'permissions');
  return { moved: moved.length };
}

/** POST /base/sysrole/person/page: the staff accounts holding a role of the estate, or (holding: false) not holding it. */
export async function rolePersonPage(ctx: AuthedContext, body: z.output<typeof RolePersonPageSchema>) {
  await roleInTenant(ctx.db, ctx.tenant, body.roleId);
  const { rows, total } = await pageAccounts(ctx.db, ctx.tenant, {
    keyword: body.keyword,
    ...(body.holding ? { roleId: body.roleId } : { notRoleId: body.roleId }),
    limit: body.limit,
    offset: offsetOf(body.page, body.limit),
  });
  return listPage(
    rows.map((r) => ({
      accId: r.accId,
      personId: r.personId,
      username: r.username,
      name: r.name,
      roleId: r.roleId,
      roleName: r.roleName,
      enabled: r.enabled,
    })),
    total,
    body,
  );
}

/**
 * Gives (roleId) or takes away (null) a role from the accounts of these persons of the estate.
 * Taking away works on any account, so a role once given to a resident by mistake can be undone.
 */
export async function setPersonsRole(
  ctx: AuthedContext,
  personIds: number[],
  roleId: number | null,
  fromRoleId?: number,
): Promise<number> {
  const rows = await ctx.db.transaction(async (tx) => {
    await lockCompanyAccess(tx, ctx.tenant.companyId);
    const grant = roleId === null ? null : await roleInTenant(tx, ctx.tenant, roleId);
    // The role taken away must be one of the estate's (another's answers 404, as everywhere).
    if (fromRoleId !== undefined) await roleInTenant(tx, ctx.tenant, fromRoleId);
    const targets = await tx
      .select()
      .from(account)
      .where(
        and(
          scopedTo(account, ctx.tenant),
          inArray(account.personId, personIds),
          fromRoleId !== undefined ? eq(account.roleId, fromRoleId) : undefined,
        ),
      );
    await assertMayChangeAccess(tx, ctx.caller, { accounts: targets, changes: ['role'], grant });
    if (targets.length === 0) return [];
    const before = await accountSnapshots(
      tx,
      ctx.tenant,
      targets.map((t) => t.id),
    );
    const changed = await tx
      .update(account)
      .set({ roleId, updatedAt: new Date() })
      .where(
        inArray(
          account.id,
          targets.map((t) => t.id),
        ),
      )
      .returning({ id: account.id });
    await recordAudit(
      tx,
      ctx,
      targets.map((t): AuditEntry => ({
        kind: 'account',
        entityId: t.id,
        action: 'assign',
        before: { roleId: before.get(t.id)?.roleId ?? null, roleName: before.get(t.id)?.roleName ?? null },
        after: { roleId: grant?.id ?? null, roleName: grant?.roleName ?? null },
        summary: t.username,
      })),
    );
    await assertAdminRemains(tx, ctx.tenant.companyId);
    return changed;
  });
  await accessChanged(
    ctx,
    rows.map((r) => r.id),
    roleId === null ? 'revoked' : 'permissions',
  );
  return rows.length;
}

/** GET /base/sysmenu/all/menu/{roleId}: the whole menu tree, with the menus of that role checked. */
export async function menuTree(db: Db, tenant: TenantScope, roleId: number): Promise<MenuNode[]> {
  const role = await roleInTenant(db, tenant, roleId);
  const all = await db.select().from(sysMenu).orderBy(asc(sysMenu.sort));
  const checked = new Set((await menusOfRole(db, role)).map((m) => m.id));
  const nodes = new Map<number, MenuNode>(
    all.map((m) => [
      m.id,
      {
        menuId: m.id,
        parentId: m.parentId,
        name: m.name,
        path: m.path,
        perms: m.perms,
        hidden: m.hidden,
        checked: checked.has(m.id),
        children: [],
      },
    ]),
  );
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export async function menuPage(db: Db, body: { keyword?: string; page: number; limit: number }) {
  const where = body.keyword
    ? or(
        ilike(sysMenu.name, likePattern(body.keyword)),
        ilike(sysMenu.path, likePattern(body.keyword)),
        ilike(sysMenu.perms, likePattern(body.keyword)),
      )
    : undefined;
  const [{ total }] = await db.select({ total: count() }).from(sysMenu).where(where);
  const rows = await db
    .select()
    .from(sysMenu)
    .where(where)
    .orderBy(asc(sysMenu.sort))
    .limit(body.limit)
    .offset(offsetOf(body.page, body.limit));
  return listPage(
    rows.map((m) => ({
      menuId: m.id,
      parentId: m.parentId,
      name: m.name,
      path: m.path,
      perms: m.perms,
      hidden: m.hidden,
      sort: m.sort,
    })),
    total,
    body,
  );
}
