import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CompanyInfo, CompanyProfileSchema, HotlineInputSchema } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { company, hotline } from '../../db/schema';
import { scopedTo } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { estateStaffPictures } from '../estate-settings/estate-settings.repository';
import { uploadPath } from '../estate-settings/estate-settings.service';
import { recordAudit } from '../audit/record-audit';
import { findCompany, hotlinesOf } from './enterprise.repository';

/** The company of the caller (another company's id is not found) with the estate's hotlines. */
export async function companyInfo(db: DbOrTx, tenant: TenantScope, companyId: number): Promise<CompanyInfo> {
  if (companyId !== tenant.companyId) throw AppError.notFound();
  const row = await findCompany(db, companyId);
  if (!row) throw AppError.notFound();
  return { ...row, hotlines: await hotlinesOf(db, tenant) };
}

/** GET /base/hotline/list/{companyId}: the estate's hotlines; another company's id gets none. */
export async function hotlineList(ctx: AuthedContext, companyId: number) {
  if (companyId !== ctx.tenant.companyId) return [];
  return hotlinesOf(ctx.db, ctx.tenant);
}

type Profile = z.output<typeof CompanyProfileSchema>;

/** The logo to store: null (none), the current one, or a picture the estate's staff uploaded. */
async function logoOf(db: DbOrTx, tenant: TenantScope, value: string | null, current: string | null) {
  if (value === null) return null;
  const path = uploadPath(value);
  if (path && path === current) return current;
  if (!path || !(await estateStaffPictures(db, tenant, [path]))) throw AppError.badRequest('enterprise.errors.logo');
  return path;
}

/**
 * Saves the profile and, when given, replaces the estate's hotlines (in the order sent), in one
 * transaction. The company must be the caller's.
 */
export async function saveCompany(
  ctx: AuthedContext,
  companyId: number,
  profile: Profile,
  hotlines?: z.output<typeof HotlineInputSchema>[],
): Promise<CompanyInfo> {
  const { tenant } = ctx;
  if (companyId !== tenant.companyId) throw AppError.notFound();
  return ctx.db.transaction(async (tx) => {
    const current = await findCompany(tx, companyId);
    if (!current) throw AppError.notFound();
    const before = await hotlinesOf(tx, tenant);
    const logo = profile.logo === undefined ? current.logo : await logoOf(tx, tenant, profile.logo, current.logo);
    await tx
      .update(company)
      .set({
        name: profile.name,
        companyType: profile.companyType ?? current.companyType,
        contactPerson: profile.contactPerson,
        contactTel: profile.contactTel,
        address: profile.address === undefined ? current.address : profile.address || null,
        logo,
      })
      .where(eq(company.id, companyId));
    if (hotlines) {
      await tx.delete(hotline).where(and(scopedTo(hotline, tenant)));
      if (hotlines.length)
        await tx.insert(hotline).values(hotlines.map((h, sort) => ({ ...tenant, name: h.name, tel: h.tel, sort })));
    }
    const saved = await companyInfo(tx, tenant, companyId);
    const lines = (list: typeof before) => list.map((h) => `${h.name} ${h.tel}`);
    const { hotlines: _h, ...after } = saved;
    await recordAudit(tx, ctx, [
      { kind: 'company', entityId: companyId, action: 'update', before: current, after, summary: saved.name },
      ...(hotlines
        ? [
            {
              kind: 'hotlines' as const,
              entityId: companyId,
              action: 'update' as const,
              before: { hotlines: lines(before) },
              after: { hotlines: lines(saved.hotlines) },
              summary: saved.name,
            },
          ]
        : []),
    ]);
    return saved;
  });
}
