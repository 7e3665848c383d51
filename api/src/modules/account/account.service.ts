import { and, eq, inArray } from 'drizzle-orm';
import { listPage, parseLanguage, LANGUAGE_PATH_CODE, LANGUAGES, type AccountInfo, type Language } from '@pm/shared';
import type { z } from 'zod';
import type { AccountPageSchema, AccountUpdateSchema } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { account, person, personCompany } from '../../db/schema';
import { offsetOf, scopedTo } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { hashPassword, randomPassword, verifyPassword } from '../auth/password';
import type { TokenService } from '../auth/token.service';
import { accountSnapshot, accountSnapshots, accountValues } from '../audit/audit-snapshots';
import { recordAudit, type AuditEntry } from '../audit/record-audit';
import { estateSettings } from '../estate-settings/estate-settings.service';
import { accessChanged } from '../role/access-changed';
import { assertMayChangeAccess, type AccountChangeKind } from '../role/access-policy';
import { assertAdminRemains, lockCompanyAccess } from '../role/admin-guard';
import {
  findAccountByPerson,
  findAccountInTenant,
  findRoleInTenant,
  loadAccountInfo,
  pageAccounts,
} from './account.repository';

/** Own account, or any account of the estate with system:account. */
export function assertMayManage(ctx: AuthedContext, accId: number): void {
  if (ctx.caller.accountId !== accId && !ctx.caller.perms.has('system:account')) throw AppError.forbidden();
}

export async function accountInfo(db: Db, tenant: TenantScope, accId: number): Promise<AccountInfo> {
  const row = await loadAccountInfo(db, tenant, accId);
  if (!row) throw AppError.notFound();
  const language = (LANGUAGES as readonly string[]).includes(row.account.language)
    ? (row.account.language as Language)
    : 'en';
  return {
    accId: row.account.id,
    username: row.account.username,
    email: row.account.email,
    company: {
      companyId: row.company.id,
      housingEstateId: row.account.housingEstateId,
      companyType: row.company.companyType,
      companyName: row.company.name,
      timeZone: row.timeZone,
    },
    role: row.role ? { roleId: row.role.id, roleValue: row.role.roleValue, roleName: row.role.roleName } : null,
    personCompany: {
      language,
      person: {
        personId: row.person.id,
        name: row.person.name,
        gender: row.person.gender,
        tel: row.person.tel,
        images: row.person.images,
      },
    },
  };
}

/** `ZH_TW` / `zh-TW` / `EN` … → a language, or 400. */
export function languageFromPath(code: string): Language {
  const byCode = (Object.entries(LANGUAGE_PATH_CODE) as [Language, string][]).find(([, c]) => c === code.toUpperCase());
  const lang = byCode?.[0] ?? parseLanguage(code);
  if (!lang) throw AppError.badRequest('validation.invalid', { detail: `lang: ${code.slice(0, 20)}` });
  return lang;
}

export async function updateLanguage(ctx: AuthedContext, accId: number, lang: Language): Promise<void> {
  const target = await findAccountInTenant(ctx.db, ctx.tenant, accId);
  if (!target) throw AppError.notFound();
  await assertMayChangeAccess(ctx.db, ctx.caller, { accounts: [target], changes: ['details'] });
  await ctx.db.update(account).set({ language: lang, updatedAt: new Date() }).where(eq(account.id, target.id));
}

export async function accountPage(db: Db, tenant: TenantScope, body: z.output<typeof AccountPageSchema>) {
  const { rows, total } = await pageAccounts(db, tenant, {
    keyword: body.keyword,
    roleId: body.roleId,
    limit: body.limit,
    offset: offsetOf(body.page, body.limit),
  });
  return listPage(rows, total, body);
}

/**
 * Account names are unique within a company (a unique index on company and name backs this
 * check), so the answer never depends on another company's accounts. A name ending in
 * `@<digits>` is how sign-in names an account of a given company (login.service.ts) and cannot
 * be an account's own name. Both are answered like any other unusable name.
 */
async function usernameTaken(db: Db, companyId: number, username: string, exceptId?: number): Promise<boolean> {
  if (/@\d+$/.test(username)) return true;
  const [row] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.companyId, companyId), eq(account.username, username)))
    .limit(1);
  return !!row && row.id !== exceptId;
}

/** POST /account/update: change an account, or create a staff account with its person when accId is absent. */
export async function saveAccount(
  ctx: AuthedContext,
  body: z.output<typeof AccountUpdateSchema>,
): Promise<{ accId: number }> {
  const { db, tenant } = ctx;
  const role = body.roleId ? await findRoleInTenant(db, tenant, body.roleId) : null;
  if (body.roleId && !role) throw AppError.notFound();
  if (body.accId === undefined) {
    if (!body.username) throw AppError.badRequest('validation.accountRequired');
    if (!body.password) throw AppError.badRequest('validation.passwordRequired');
    if (!body.name) throw AppError.badRequest('validation.nameRequired');
    await assertMayChangeAccess(db, ctx.caller, { grant: role });
    if (await usernameTaken(db, tenant.companyId, body.username)) throw new AppError(409, 'errors.usernameTaken');
    const passwordHash = await hashPassword(body.password);
    const { username, name, email, roleId } = body;
    return db.transaction(async (tx) => {
      const [p] = await tx
        .insert(person)
        .values({ ...tenant, name, email, accountType: 4 })
        .returning({ id: person.id });
      await tx.insert(personCompany).values({ ...tenant, personId: p.id, companyType: ctx.caller.companyType });
      // A new account speaks the estate's default language (basic set-up) until its person chooses.
      const { defaultLanguage: language } = await estateSettings(
        tx,
        tenant.housingEstateId,
        ctx.services.config.estateDefaults,
      );
      const [a] = await tx
        .insert(account)
        .values({
          ...tenant,
          personId: p.id,
          username,
          email,
          passwordHash,
          roleId: roleId ?? null,
          kind: 'staff',
          language,
        })
        .returning({ id: account.id });
      const created = accountValues(await accountSnapshot(tx, tenant, a.id));
      await recordAudit(tx, ctx, {
        kind: 'account',
        entityId: a.id,
        action: 'create',
        after: created,
        summary: username,
      });
      return { accId: a.id };
    });
  }
  const existing = await findAccountInTenant(db, tenant, body.accId);
  if (!existing) throw AppError.notFound();
  const what: AccountChangeKind[] = [];
  if (body.username || body.email !== undefined || body.name) what.push('details');
  if (body.roleId !== undefined) what.push('role');
  if (body.password) what.push('password');
  if (body.enabled !== undefined) what.push('enabled');
  await assertMayChangeAccess(db, ctx.caller, {
    accounts: [existing],
    changes: what,
    grant: body.roleId === undefined ? undefined : role,
  });
  if (body.username && (await usernameTaken(db, tenant.companyId, body.username, existing.id)))
    throw new AppError(409, 'errors.usernameTaken');
  const changes: Partial<typeof account.$inferInsert> = { updatedAt: new Date() };
  if (body.username) changes.username = body.username;
  if (body.email !== undefined) changes.email = body.email;
  if (body.roleId !== undefined) changes.roleId = body.roleId;
  if (body.enabled !== undefined) changes.enabled = body.enabled;
  if (body.password) changes.passwordHash = await hashPassword(body.password);
  await db.transaction(async (tx) => {
    await lockCompanyAccess(tx, tenant.companyId);
    const before = accountValues(await accountSnapshot(tx, tenant, existing.id));
    await tx.update(account).set(changes).where(eq(account.id, existing.id));
    if (body.name)
      await tx
        .update(person)
        .set({ name: body.name })
        .where(and(scopedTo(person, tenant), eq(person.id, existing.personId)));
    const after = accountValues(await accountSnapshot(tx, tenant, existing.id));
    await recordAudit(tx, ctx, {
      kind: 'account',
      entityId: existing.id,
      action: 'update',
      before: body.password ? { ...before, passwordChanged: false } : before,
      after: body.password ? { ...after, passwordChanged: true } : after,
      summary: after?.username ?? existing.username,
    });
    await assertAdminRemains(tx, tenant.companyId);
  });
  // A new password, a disabled account or a lost role ends the account's sessions; any other
  // change (name, role) reaches its open sessions at their next call.
  if (body.password || body.enabled === false || body.roleId === null)
    await accessChanged(ctx, [existing.id], 'revoked');
  else await accessChanged(ctx, [existing.id], 'permissions');
  return { accId: existing.id };
}

export async function deleteAccounts(ctx: AuthedContext, accIds: number[]): Promise<void> {
  if (accIds.includes(ctx.caller.accountId)) throw new AppError(409, 'errors.cannotChangeSelf');
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockCompanyAccess(tx, ctx.tenant.companyId);
    const targets = await tx
      .select()
      .from(account)
      .where(and(scopedTo(account, ctx.tenant), inArray(account.id, accIds)));
    if (targets.length === 0) throw AppError.notFound();
    await assertMayChangeAccess(tx, ctx.caller, { accounts: targets, changes: ['delete'] });
    const before = await accountSnapshots(
      tx,
      ctx.tenant,
      targets.map((t) => t.id),
    );
    const rows = await tx
      .delete(account)
      .where(
        inArray(
          account.id,
          targets.map((t) => t.id),
        ),
      )
      .returning({ id: account.id, personId: account.personId });
    await recordAudit(
      tx,
      ctx,
      targets.map((t): AuditEntry => ({
        kind: 'account',
        entityId: t.id,
        action: 'delete',
        before: accountValues(before.get(t.id) ?? null),
        summary: t.username,
      })),
    );
    await assertAdminRemains(tx, ctx.tenant.companyId);
    return rows;
  });
  await accessChanged(
    ctx,
    deleted.map((d) => d.id),
    'revoked',
    new Map(deleted.map((d) => [d.id, d.personId])),
  );
}

export async function resetPassword(ctx: AuthedContext, accId: number): Promise<{ password: string }> {
  const existing = await findAccountInTenant(ctx.db, ctx.tenant, accId);
  if (!existing) throw AppError.notFound();
  // The own password is changed with the old one (/account/checkpassword), never reset blind.
  await assertMayChangeAccess(ctx.db, ctx.caller, { accounts: [existing], changes: ['password'] });
  const password = randomPassword();
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(account).set({ passwordHash, updatedAt: new Date() }).where(eq(account.id, accId));
    await recordAudit(tx, ctx, {
      kind: 'account',
      entityId: accId,
      action: 'reset-password',
      before: { passwordChanged: false },
      after: { passwordChanged: true },
      summary: existing.username,
    });
  });
  await accessChanged(ctx, [accId], 'revoked');
  return { password };
}

/**
 * Ends every session of an account of the estate ("Wall sessions" in the README): a wall screen's
 * self-renewing session, or a lost device's. The tokens are revoked in the database (so no api
 * process accepts them again), dropped from every api process's cache through the real-time bus,
 * and the open upstreams of those tokens are closed, which closes the tabs at the gateway.
 */
export async function endSessions(ctx: AuthedContext, accId: number): Promise<void> {
  const existing = await findAccountInTenant(ctx.db, ctx.tenant, accId);
  if (!existing) throw AppError.notFound();
  // The own sessions end with sign-out; an account above the caller's reach is not theirs to end.
  await assertMayChangeAccess(ctx.db, ctx.caller, { accounts: [existing], changes: ['password'] });
  await accessChanged(ctx, [accId], 'revoked');
}

/** Gives an account (found by account id or by person id) a role of the same estate. */
export async function setRole(ctx: AuthedContext, by: 'account' | 'person', id: number, roleId: number): Promise<void> {
  const target =
    by === 'account'
      ? await findAccountInTenant(ctx.db, ctx.tenant, id)
      : await findAccountByPerson(ctx.db, ctx.tenant, id);
  const role = await findRoleInTenant(ctx.db, ctx.tenant, roleId);
  if (!target || !role) throw AppError.notFound();
  await assertMayChangeAccess(ctx.db, ctx.caller, { accounts: [target], changes: ['role'], grant: role });
  await ctx.db.transaction(async (tx) => {
    await lockCompanyAccess(tx, ctx.tenant.companyId);
    const before = await accountSnapshot(tx, ctx.tenant, target.id);
    await tx.update(account).set({ roleId, updatedAt: new Date() }).where(eq(account.id, target.id));
    await recordAudit(tx, ctx, {
      kind: 'account',
      entityId: target.id,
      action: 'assign',
      before: { roleId: before?.roleId ?? null, roleName: before?.roleName ?? null },
      after: { roleId: role.id, roleName: role.roleName },
      summary: target.username,
    });
    await assertAdminRemains(tx, ctx.tenant.companyId);
  });
  await accessChanged(ctx, [target.id], 'permissions');
}

/** POST /account/checkpassword: old password (objStr) → new password; every older token is revoked, a new one answered. */
export async function changePassword(
  ctx: AuthedContext,
  body: { personId: number; objStr: string; newPassword: string },
  tokens: TokenService,
): Promise<{ token: string; expires_in: number }> {
  if (body.personId !== ctx.caller.personId) throw AppError.forbidden();
  const [acc] = await ctx.db.select().from(account).where(eq(account.id, ctx.caller.accountId));
  if (!acc || !(await verifyPassword(body.objStr, acc.passwordHash)))
    throw AppError.badRequest('errors.oldPasswordWrong');
  if (body.objStr === body.newPassword) throw AppError.badRequest('validation.newPasswordSame');
  await ctx.db
    .update(account)
    .set({ passwordHash: await hashPassword(body.newPassword), updatedAt: new Date() })
    .where(eq(account.id, acc.id));
  await tokens.revoke(ctx.token);
  await tokens.revokeAccount(acc.id, null);
  const issued = await tokens.issue(acc.id);
  return { token: issued.accessToken, expires_in: issued.expiresIn };
}
