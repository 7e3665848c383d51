import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { DayOrTimeSchema, IdSchema, listPageSchema, PageBodySchema } from './common';

/**
 * The audit trail of enterprise management (issue 30): every change of accounts, roles and their
 * menus, departments, staff, the company and its hotlines and staff imports, written in the same
 * transaction as the change. Read-only: no call changes or deletes an event.
 */

/** What an event is about. */
export const AUDIT_KINDS = [
  'account',
  'role',
  'role-menus',
  'department',
  'staff',
  'company',
  'hotlines',
  'import',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** What was done. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'move', 'assign', 'reset-password', 'import'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One field's value before or after: a scalar or a list of scalars (secrets are never stored). */
export const AuditValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);
export type AuditValue = z.infer<typeof AuditValueSchema>;
export const AuditValuesSchema = z.record(z.string(), AuditValueSchema);
export type AuditValues = z.infer<typeof AuditValuesSchema>;

export const AuditRowSchema = z.object({
  auditId: z.number(),
  /** When the change was made (the database's clock at the start of its transaction), ISO 8601 UTC. */
  time: z.string(),
  actorAccountId: z.number(),
  /** The actor's name when they acted (kept even when the account is deleted later). */
  actorName: z.string(),
  kind: z.enum(AUDIT_KINDS),
  /** The id of what changed (account, role, department, personcompany, company); null for an import. */
  entityId: z.number().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  /** A short label of what changed (a name, a username), in the words it had. */
  summary: z.string().nullable(),
  before: AuditValuesSchema.nullable(),
  after: AuditValuesSchema.nullable(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

/** POST /base/audit/page */
export const AuditPageSchema = PageBodySchema.extend({
  /** Who: one account. */
  actorAccountId: IdSchema.optional(),
  /** Who: part of the actor's name. */
  actor: z.string().trim().max(100).optional(),
  /** What: the kind of thing changed. */
  kind: z.enum(AUDIT_KINDS).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  entityId: IdSchema.optional(),
  /** yyyy-MM-dd days of the estate's time zone (both included), or ISO instants. */
  startTime: DayOrTimeSchema.optional(),
  endTime: DayOrTimeSchema.optional(),
});

export const auditEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/audit/page': {
    permission: 'system:company',
    summary:
      "The audit trail of enterprise management (accounts, roles and their menus, departments, staff, the company and hotlines, imports) of the caller's company and estate, newest first. Filters: actorAccountId or actor (part of the name), kind, action, entityId, startTime / endTime (yyyy-MM-dd days of the estate's time zone, or ISO instants). Read-only: no call edits or deletes an event, and the database refuses UPDATE and DELETE on the table.",
    body: AuditPageSchema,
    response: listPageSchema(AuditRowSchema),
  },
});
