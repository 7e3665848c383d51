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

const COLUMNS = sql`e.id as "auditId", e.created_at as "time", e.actor_account_id as "actorAccountId",
  e.actor_name as "actorName", e.kind, e.entity_id as "entityId", e.action, e.summary, e.before, e.after`;

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
  if (f.kind) conditions.push(sql`e.kind = ${f.kind}`);
  if (f.action) conditions.push(sql`e.action = ${f.action}`);
  if (f.entityId !== undefined) conditions.push(sql`e.entity_id = ${f.entityId}`);
  const where = sql.join(conditions, sql` and `);
  const order = sql`order by e.created_at desc nulls last, e.id desc nulls last`;
  // A name: the (account, name) pairs that acted under a matching name, from the few rows of
  // audit_total, each one's newest events read in the order of the actor index (an account's
  // events are a small part of the trail, and no more than the page's end is read of any), then
  // merged. A semi-join on the trail instead let the planner read every event of the matching
  // accounts and sort them (149 ms for one account among 200,000 events).
  const actors = f.actor
    ? sql`(select distinct t.actor_account_id, t.actor_name from audit_total t
          where t.company_id = ${tenant.companyId} and t.housing_estate_id = ${tenant.housingEstateId}
            and t.actor_name ilike ${likePattern(f.actor)}
            ${f.kind ? sql`and t.kind = ${f.kind}` : sql``}
            ${f.actorAccountId !== undefined ? sql`and t.actor_account_id = ${f.actorAccountId}` : sql``})`
    : null;
  // Unfiltered, by kind, actor account or name: the total is kept by the database (audit_total), not counted.
  const kept = !f.action && f.entityId === undefined && !f.startTime && !f.endTime;
  const { rows, total } = await pageRows<AuditRow & { time: string | Date }>(db, {
    select: (cut) =>
      actors
        ? sql`select x.* from ${actors} a cross join lateral (
                select ${COLUMNS} from audit_event e
                where ${where} and e.actor_account_id = a.actor_account_id and e.actor_name = a.actor_name
                ${order} limit ${page * limit}) x
              order by x."time" desc nulls last, x."auditId" desc nulls last ${cut}`
        : sql`select ${COLUMNS} from audit_event e where ${where} ${order} ${cut}`,
    count: kept
      ? sql`select coalesce(sum(n), 0)::int as n from audit_total
            where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
              ${f.kind ? sql`and kind = ${f.kind}` : sql``}
              ${f.actorAccountId !== undefined ? sql`and actor_account_id = ${f.actorAccountId}` : sql``}
              ${f.actor ? sql`and actor_name ilike ${likePattern(f.actor)}` : sql``}`
      : sql`select count(*)::int as n from audit_event e where ${where}
            ${actors ? sql`and (e.actor_account_id, e.actor_name) in (select * from ${actors} a)` : sql``}`,
    page,
    limit,
  });
  return { rows: rows.map((r) => ({ ...r, time: new Date(r.time).toISOString() })), total };
}
