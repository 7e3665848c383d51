import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns } from './columns';

/**
 * The audit trail of enterprise management (issue 30): one row per change, written in the
 * change's own transaction (modules/audit/record-audit.ts). Append-only: a trigger (migration
 * `audit_append_only`) refuses UPDATE and DELETE, and no retention prunes it.
 */
export const auditEvent = pgTable(
  'audit_event',
  {
    id: id(),
    ...tenantColumns(),
    actorAccountId: integer().notNull(),
    actorName: text().notNull(),
    createdAt: createdAt(),
    kind: text().notNull(),
    entityId: integer(),
    action: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    summary: text(),
  },
  (t) => [
    index().on(t.companyId, t.housingEstateId, t.createdAt.desc(), t.id.desc()),
    index().on(t.companyId, t.actorAccountId, t.createdAt.desc()),
    index().on(t.companyId, t.kind, t.createdAt.desc()),
  ],
);

/**
 * Events per estate, kind and actor (account and the name it had), kept by an insert trigger of
 * `audit_event` (migration `audit_append_only`), so the list's totals unfiltered, by kind, by
 * actor or actor name are a sum of a few rows, not a count of the trail.
 */
export const auditTotal = pgTable(
  'audit_total',
  {
    companyId: integer().notNull(),
    housingEstateId: integer().notNull(),
    kind: text().notNull(),
    actorAccountId: integer().notNull(),
    actorName: text().notNull(),
    n: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.housingEstateId, t.kind, t.actorAccountId, t.actorName] })],
);
