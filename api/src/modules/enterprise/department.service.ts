import { and, eq, inArray, sql } from 'drizzle-orm';
import { listPage, type DepartmentNode, type DepartmentRow } from '@pm/shared';
import type { z } from 'zod';
import type { DepartmentPageSchema, DepartmentSaveSchema } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { department, personCompany } from '../../db/schema';
import { offsetOf, scopedTo } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { departmentValues } from '../audit/audit-snapshots';
import { recordAudit, type AuditEntry } from '../audit/record-audit';
import { allDepartments } from './enterprise.repository';

/**
 * Departments: a tree per estate (parent, principal, level = depth). A company has hundreds of
 * departments at most, so the tree is read whole and built here.
 */

interface Tree {
  rows: DepartmentRow[];
  byId: Map<number, DepartmentRow>;
  children: Map<number | null, DepartmentRow[]>;
}

async function loadTree(db: DbOrTx, tenant: TenantScope): Promise<Tree> {
  const raw = await allDepartments(db, tenant);
  const children = new Map<number | null, typeof raw>();
  const known = new Set(raw.map((d) => d.departmentId));
  for (const d of raw) {
    // A parent that is gone (never: delete refuses it) would hide the branch: show it at the top.
    const parent = d.parentId !== null && known.has(d.parentId) ? d.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), d]);
  }
  const rows: DepartmentRow[] = [];
  const walk = (parent: number | null, level: number) => {
    for (const d of children.get(parent) ?? []) {
      rows.push({ ...d, level });
      walk(d.departmentId, level + 1);
    }
  };
  walk(null, 1);
  const byId = new Map(rows.map((r) => [r.departmentId, r]));
  const childRows = new Map<number | null, DepartmentRow[]>();
  for (const r of rows) {
    const parent = r.parentId !== null && byId.has(r.parentId) ? r.parentId : null;
    childRows.set(parent, [...(childRows.get(parent) ?? []), r]);
  }
  return { rows, byId, children: childRows };
}

/** A department and every department under it. */
function subtreeIds(tree: Tree, id: number): number[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) for (const c of tree.children.get(ids[i]) ?? []) ids.push(c.departmentId);
  return ids;
}

/** The ids of a department of the estate and its sub-departments (404 when not the estate's). */
export async function departmentWithSubs(db: DbOrTx, tenant: TenantScope, id: number): Promise<number[]> {
  const tree = await loadTree(db, tenant);
  if (!tree.byId.has(id)) throw AppError.notFound();
  return subtreeIds(tree, id);
}

export async function departmentPage(ctx: AuthedContext, body: z.output<typeof DepartmentPageSchema>) {
  const tree = await loadTree(ctx.db, ctx.tenant);
  const keyword = body.keyword?.toLowerCase();
  const rows = tree.rows.filter(
    (r) =>
      (!keyword || r.name.toLowerCase().includes(keyword)) &&
      (body.parentId === undefined || r.parentId === body.parentId),
  );
  const start = offsetOf(body.page, body.limit);
  return listPage(rows.slice(start, start + body.limit), rows.length, body);
}

export async function departmentTree(ctx: AuthedContext, companyId: number): Promise<DepartmentNode[]> {
  if (companyId !== ctx.tenant.companyId) return [];
  const tree = await loadTree(ctx.db, ctx.tenant);
  const build = (parent: number | null): DepartmentNode[] =>
    (tree.children.get(parent) ?? []).map((r) => ({ ...r, children: build(r.departmentId) }));
  return build(null);
}

export async function departmentInfo(db: DbOrTx, tenant: TenantScope, id: number): Promise<DepartmentRow> {
  const row = (await loadTree(db, tenant)).byId.get(id);
  if (!row) throw AppError.notFound();
  return row;
}

/** The principal is a staff member of the estate. */
async function assertStaff(db: DbOrTx, tenant: TenantScope, personId: number) {
  const [row] = await db
    .select({ id: personCompany.id })
    .from(personCompany)
    .where(and(scopedTo(personCompany, tenant), eq(personCompany.personId, personId)))
    .limit(1);
  if (!row) throw AppError.badRequest('enterprise.errors.principalNotStaff');
}

type Save = z.output<typeof DepartmentSaveSchema>;

/** Creates (no id) or changes a department; a move never puts it under itself or its sub-departments. */
export async function saveDepartment(ctx: AuthedContext, body: Save & { departmentId?: number }) {
  const { tenant } = ctx;
  return ctx.db.transaction(async (tx) => {
    // One writer of the estate's tree at a time: two moves at once cannot make a loop.
    await lockTree(tx, tenant);
    const tree = await loadTree(tx, tenant);
    const parentId = body.parentId ?? null;
    if (parentId !== null && !tree.byId.has(parentId)) throw AppError.badRequest('enterprise.errors.noSuchParent');
    await assertStaff(tx, tenant, body.principalPersonId);
    const values = {
      name: body.name,
      parentId,
      principalPersonId: body.principalPersonId,
      ...(body.sort !== undefined ? { sort: body.sort } : {}),
    };
    let id = body.departmentId;
    if (id === undefined) {
      [{ id }] = await tx
        .insert(department)
        .values({ ...tenant, ...values })
        .returning({ id: department.id });
    } else {
      if (!tree.byId.has(id)) throw AppError.notFound();
      if (parentId !== null && subtreeIds(tree, id).includes(parentId))
        throw AppError.badRequest('enterprise.errors.parentLoop');
      await tx
        .update(department)
        .set(values)
        .where(and(scopedTo(department, tenant), eq(department.id, id)));
    }
    const before = body.departmentId === undefined ? null : (tree.byId.get(body.departmentId) ?? null);
    const saved = await departmentInfo(tx, tenant, id);
    await recordAudit(tx, ctx, {
      kind: 'department',
      entityId: id,
      action: !before ? 'create' : before.parentId !== saved.parentId ? 'move' : 'update',
      before: departmentValues(before),
      after: departmentValues(saved),
      summary: saved.name,
    });
    return saved;
  });
}

/** Deletes departments of the estate; refused while one has staff or sub-departments (outside the deleted ones). */
export async function deleteDepartments(ctx: AuthedContext, ids: number[]): Promise<{ deleted: number }> {
  const { tenant } = ctx;
  return ctx.db.transaction(async (tx) => {
    await lockTree(tx, tenant);
    const tree = await loadTree(tx, tenant);
    const targets = [...new Set(ids)].filter((id) => tree.byId.has(id));
    if (targets.length === 0) throw AppError.notFound();
    const deleting = new Set(targets);
    for (const id of targets) {
      const d = tree.byId.get(id) as DepartmentRow;
      if (d.staffCount > 0) throw new AppError(409, 'enterprise.errors.departmentHasStaff', { name: d.name });
      if ((tree.children.get(id) ?? []).some((c) => !deleting.has(c.departmentId)))
        throw new AppError(409, 'enterprise.errors.departmentHasChildren', { name: d.name });
    }
    await tx.delete(department).where(and(scopedTo(department, tenant), inArray(department.id, targets)));
    await recordAudit(
      tx,
      ctx,
      targets.map((id): AuditEntry => {
        const d = tree.byId.get(id) as DepartmentRow;
        return { kind: 'department', entityId: id, action: 'delete', before: departmentValues(d), summary: d.name };
      }),
    );
    return { deleted: targets.length };
  });
}

/** Serialises changes of one estate's department tree (a row lock on the estate). */
async function lockTree(tx: DbOrTx, tenant: TenantScope) {
  await tx.execute(sql`select id from housing_estate where id = ${tenant.housingEstateId} for update`);
}

/** Departments of the estate among these ids (for moving staff). */
export async function departmentOfEstate(db: DbOrTx, tenant: TenantScope, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: department.id })
    .from(department)
    .where(and(scopedTo(department, tenant), eq(department.id, id)))
    .limit(1);
  return !!row;
}
