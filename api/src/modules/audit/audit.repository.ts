import { sql, type SQL } from 'drizzle-orm';
import type { AuditRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { dayRange, likePattern, pageRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/** The SQL of the audit trail's list (written by record-audit.ts). */

export interface AuditFilter {
  actorAccountId?: number;
  actor?: string;
  kind?: string;
  action?: string;
  entityId?: number;
  startTime?: string;
  endTime?: string;
}

export async function pageAudit(
  db: DbOrTx,
  tenant: TenantScope,
  f: AuditFilter,
  page: number,
  limit: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const conditions: SQL[] = [
    sql`e.company_id = ${tenant.companyId}`,
    sql`e.housing_estate_id = ${tenant.housingEstateId}`,
    ...dayRange(sql`e.created_at`, tenant.housingEstateId, f.startTime, f.endTime),
  ];
  if (f.actorAccountId !== undefined) conditions.push(sql`e.actor_account_id = ${f.actorAccountId}`);
  // A name: the actors who acted under a matching name (few rows of audit_total), so the actor
  // index is used; the name itself is checked per event too.
  if (f.actor)
    conditions.push(
      sql`e.actor_account_id in (select t.actor_account_id from audit_total t
            where t.company_id = ${tenant.companyId} and t.housing_estate_id = ${tenant.housingEstateId}
              and t.actor_name ilike ${likePattern(f.actor)})`,
      sql`e.actor_name ilike ${likePattern(f.actor)}`,
    );
  if (f.kind) conditions.push(sql`e.kind = ${f.kind}`);
  if (f.action) conditions.push(sql`e.action = ${f.action}`);
  if (f.entityId !== undefined) conditions.push(sql`e.entity_id = ${f.entityId}`);
  const where = sql.join(conditions, sql` and `);
  // Unfiltered, by kind, actor account or name: the total is kept by the database (audit_total), not counted.
  const kept = !f.action && f.entityId === undefined && !f.startTime && !f.endTime;
  const { rows, total } = await pageRows<AuditRow & { time: string | Date }>(db, {
    select: (cut) =>
      sql`select e.id as "auditId", e.created_at as "time", e.actor_account_id as "actorAccountId",
            e.actor_name as "actorName", e.kind, e.entity_id as "entityId", e.action, e.summary, e.before, e.after
          from audit_event e where ${where}
          order by e.created_at desc nulls last, e.id desc nulls last ${cut}`,
    count: kept
      ? sql`select coalesce(sum(n), 0)::int as n from audit_total
            where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
              ${f.kind ? sql`and kind = ${f.kind}` : sql``}
              ${f.actorAccountId !== undefined ? sql`and actor_account_id = ${f.actorAccountId}` : sql``}
              ${f.actor ? sql`and actor_name ilike ${likePattern(f.actor)}` : sql``}`
      : sql`select count(*)::int as n from audit_event e where ${where}`,
    page,
    limit,
  });
  return { rows: rows.map((r) => ({ ...r, time: new Date(r.time).toISOString() })), total };
}
