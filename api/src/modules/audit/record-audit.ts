import { sql } from 'drizzle-orm';
import type { AuditAction, AuditKind, AuditValue, AuditValues } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { auditEvent } from '../../db/schema';
import type { Caller, TenantScope } from '../../http/request-context';

/**
 * The one writer of the audit trail (issue 30). Every change of enterprise management calls it
 * inside the change's own transaction, so an event exists exactly when its change committed: a
 * refused or failed change rolls its event back with it.
 */

export interface AuditEntry {
  kind: AuditKind;
  /** The id of what changed; null for an import. */
  entityId: number | null;
  action: AuditAction;
  /** The values before (null: it did not exist) and after (null: it is gone). */
  before?: object | null;
  after?: object | null;
  /** A short label of what changed (its name), shown in the list. */
  summary?: string | null;
}

/** Field names whose values are secrets: kept out of the trail (a boolean such as `passwordChanged` stays). */
const SECRET = /pass(word)?|hash|token|secret|salt|captcha/i;
export const REDACTED = '[redacted]';

function valueOf(v: unknown): AuditValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' || typeof x === 'number' ? x : JSON.stringify(x)));
  return JSON.stringify(v);
}

/** A record's values as the trail keeps them: scalars or lists of scalars, secrets redacted. */
export function auditValues(values: object | null | undefined): AuditValues | null {
  if (!values) return null;
  const out: AuditValues = {};
  for (const [key, v] of Object.entries(values) as [string, unknown][]) {
    if (v === undefined) continue;
    out[key] = SECRET.test(key) && typeof v !== 'boolean' ? REDACTED : valueOf(v);
  }
  return out;
}

/** Writes one or more events of the caller, in `tx` (the change's transaction). */
export async function recordAudit(
  tx: DbOrTx,
  ctx: { caller: Caller; tenant: TenantScope },
  entries: AuditEntry | AuditEntry[],
): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  // The actor's name as it is now, so the trail still names them after the account is gone.
  const actorName = sql`coalesce((select name from person where id = ${ctx.caller.personId}), '')`;
  for (let i = 0; i < list.length; i += 500)
    await tx.insert(auditEvent).values(
      list.slice(i, i + 500).map((e) => ({
        companyId: ctx.tenant.companyId,
        housingEstateId: ctx.tenant.housingEstateId,
        actorAccountId: ctx.caller.accountId,
        actorName,
        kind: e.kind,
        entityId: e.entityId,
        action: e.action,
        before: auditValues(e.before),
        after: auditValues(e.after),
        summary: e.summary ?? null,
      })),
    );
}
