import type { AuditRow, AuditValue, AuditValues } from '@pm/shared';
import { call, type CallInput } from './call';

export type { AuditRow, AuditValue, AuditValues };

/** The audit trail of enterprise management (issue 30): read-only, paged, newest first. */
export const fetchAuditEvents = (body: CallInput<'POST /base/audit/page'>, signal?: AbortSignal) =>
  call('POST /base/audit/page', body, { signal });
