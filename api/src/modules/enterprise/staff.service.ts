import { and, eq, inArray } from 'drizzle-orm';
import { listPage, type StaffRow } from '@pm/shared';
import type { z } from 'zod';
import type { StaffSaveSchema } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { person, personCompany, STAFF_NUMBER_UNIQUE } from '../../db/schema';
import { isUniqueViolation, scopedTo } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { staffValues } from '../audit/audit-snapshots';
import { recordAudit, type AuditEntry } from '../audit/record-audit';
import { personsAccessChanged } from '../role/access-changed';
import { departmentOfEstate, departmentWithSubs } from './department.service';
import { pageStaff, staffByIds, staffNumbers, type StaffFilter } from './enterprise.repository';

/** Staff of the estate (`personcompany`): a person and their employment (number, position, department). */

export async function staffPage(
  ctx: AuthedContext,
  view: 'v1' | 'v2' | 'v3' | 'v4',
  body: {
    page: number;
    limit: number;
    keyword?: string;
    gender?: number;
    departmentId?: number;
    direct?: boolean;
    roleId?: number;
  },
) {
  const filter: StaffFilter = { keyword: body.keyword, gender: body.gender };
  if (view === 'v2' && body.departmentId !== undefined)
    filter.departmentIds = body.direct
      ? (await departmentOfEstate(ctx.db, ctx.tenant, body.departmentId))
        ? [body.departmentId]
        : []
      : await departmentWithSubs(ctx.db, ctx.tenant, body.departmentId).catch(() => []);
  if (view === 'v3') filter.withoutDepartment = true;
  if (view === 'v4') Object.assign(filter, { withAccount: true, roleId: body.roleId });
  const { rows, total } = await pageStaff(ctx.db, ctx.tenant, filter, body.page, body.limit);
  return listPage(rows, total, body);
}

export async function staffInfo(db: DbOrTx, tenant: TenantScope, personCompanyId: number): Promise<StaffRow> {
  const [row] = await staffByIds(db, tenant, [personCompanyId]);
  if (!row) throw AppError.notFound();
  return row;
}

/** The answer to a staff number another staff member of the estate holds (the checks and the unique index). */
export const staffNumberTaken = (number: string) => new AppError(409, 'enterprise.errors.staffNumberTaken', { number });

export type StaffInput = Omit<z.output<typeof StaffSaveSchema>, 'personCompanyId'>;

/**
 * Writes one staff member inside the caller's transaction: a new person and employment, or the
 * changes of a known one. The staff number must be unique in the estate (`numbers`: the estate's
 * numbers → personCompanyId, kept up to date for the next row of an import).
 */
export async function writeStaff(
  tx: DbOrTx,
  tenant: TenantScope,
  companyType: number,
  input: StaffInput,
  personCompanyId: number | undefined,
  numbers: Map<string, number>,
): Promise<number> {
  const owner = numbers.get(input.staffNumber.toLowerCase());
  if (owner !== undefined && owner !== personCompanyId) throw staffNumberTaken(input.staffNumber);
  const employment = {
    staffNumber: input.staffNumber,
    position: input.position,
    yearOfBirth: input.yearOfBirth,
    ...(input.departmentId !== undefined ? { departmentId: input.departmentId } : {}),
  };
  if (personCompanyId === undefined) {
    const [p] = await tx
      .insert(person)
      .values({ ...tenant, name: input.name, gender: input.gender, tel: input.tel ?? null, accountType: 4 })
      .returning({ id: person.id });
    const [pc] = await tx
      .insert(personCompany)
      .values({ ...tenant, personId: p.id, companyType, ...employment })
      .returning({ id: personCompany.id });
    numbers.set(input.staffNumber.toLowerCase(), pc.id);
    return pc.id;
  }
  const [pc] = await tx
    .update(personCompany)
    .set(employment)
    .where(and(scopedTo(personCompany, tenant), eq(personCompany.id, personCompanyId)))
    .returning({ personId: personCompany.personId });
  if (!pc) throw AppError.notFound();
  await tx
    .update(person)
    .set({ name: input.name, gender: input.gender, ...(input.tel !== undefined ? { tel: input.tel } : {}) })
    .where(and(scopedTo(person, tenant), eq(person.id, pc.personId)));
  for (const [n, id] of numbers) if (id === personCompanyId) numbers.delete(n);
  numbers.set(input.staffNumber.toLowerCase(), personCompanyId);
  return personCompanyId;
}

export async function saveStaff(ctx: AuthedContext, body: z.output<typeof StaffSaveSchema>): Promise<StaffRow> {
  const { tenant } = ctx;
  const saved = await ctx.db
    .transaction(async (tx) => {
      if (body.departmentId && !(await departmentOfEstate(tx, tenant, body.departmentId)))
        throw AppError.badRequest('enterprise.errors.noSuchDepartment');
      const numbers = await staffNumbers(tx, tenant);
      const [before] = body.personCompanyId === undefined ? [] : await staffByIds(tx, tenant, [body.personCompanyId]);
      const id = await writeStaff(tx, tenant, ctx.caller.companyType, body, body.personCompanyId, numbers);
      const row = await staffInfo(tx, tenant, id);
      await recordAudit(tx, ctx, {
        kind: 'staff',
        entityId: id,
        action: before ? 'update' : 'create',
        before: staffValues(before),
        after: staffValues(row),
        summary: row.name,
      });
      return row;
    })
    .catch((err: unknown) => {
      // Another writer took the number after this one checked it: the index refuses it, answered as the check would.
      if (isUniqueViolation(err, STAFF_NUMBER_UNIQUE)) throw staffNumberTaken(body.staffNumber);
      throw err;
    });
  // An account's person changed (name, department): their open tabs take it at once (issue 30).
  if (body.personCompanyId !== undefined && saved.accId !== null) await personsAccessChanged(ctx, [saved.personId]);
  return saved;
}

/** Ends the employment of the selected staff; the persons stay (their names stay on what they did). */
export async function deleteStaff(ctx: AuthedContext, ids: number[]): Promise<{ deleted: number }> {
  const { tenant } = ctx;
  return ctx.db.transaction(async (tx) => {
    const rows = await staffByIds(tx, tenant, [...new Set(ids)]);
    if (rows.length === 0) throw AppError.notFound();
    const withAccount = rows.find((r) => r.accId !== null);
    if (withAccount) throw new AppError(409, 'enterprise.errors.staffHasAccount', { name: withAccount.name });
    await tx.delete(personCompany).where(
      and(
        scopedTo(personCompany, tenant),
        inArray(
          personCompany.id,
          rows.map((r) => r.personCompanyId),
        ),
      ),
    );
    await recordAudit(
      tx,
      ctx,
      rows.map((r): AuditEntry => ({
        kind: 'staff',
        entityId: r.personCompanyId,
        action: 'delete',
        before: staffValues(r),
        summary: r.name,
      })),
    );
    return { deleted: rows.length };
  });
}

/** Moves the selected staff into a department of the estate (null: out of their department). */
export async function moveStaff(ctx: AuthedContext, ids: number[], departmentId: number | null) {
  const { tenant } = ctx;
  if (departmentId !== null && !(await departmentOfEstate(ctx.db, tenant, departmentId))) throw AppError.notFound();
  const moved = await ctx.db.transaction(async (tx) => {
    const before = await staffByIds(tx, tenant, [...new Set(ids)]);
    const rows = await tx
      .update(personCompany)
      .set({ departmentId })
      .where(and(scopedTo(personCompany, tenant), inArray(personCompany.id, ids)))
      .returning({ id: personCompany.id, personId: personCompany.personId });
    if (rows.length === 0) throw AppError.notFound();
    const after = new Map(
      (
        await staffByIds(
          tx,
          tenant,
          before.map((r) => r.personCompanyId),
        )
      ).map((r) => [r.personCompanyId, r]),
    );
    await recordAudit(
      tx,
      ctx,
      before.map((r): AuditEntry => ({
        kind: 'staff',
        entityId: r.personCompanyId,
        action: 'move',
        before: { departmentId: r.departmentId, departmentName: r.departmentName },
        after: {
          departmentId: after.get(r.personCompanyId)?.departmentId ?? null,
          departmentName: after.get(r.personCompanyId)?.departmentName ?? null,
        },
        summary: r.name,
      })),
    );
    return rows;
  });
  await personsAccessChanged(
    ctx,
    moved.map((r) => r.personId),
  );
  return { updated: moved.length };
}
