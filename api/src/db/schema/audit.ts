import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
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
