import { listPage } from '@pm/shared';
import type { z } from 'zod';
import type { AuditPageSchema } from '@pm/shared';
import type { AuthedContext } from '../../http/request-context';
import { pageAudit } from './audit.repository';

/** POST /base/audit/page: the caller's company and estate only; reading is all the api offers. */
export async function auditPage(ctx: AuthedContext, body: z.output<typeof AuditPageSchema>) {
  const { page, limit, ...filter } = body;
  const { rows, total } = await pageAudit(ctx.db, ctx.tenant, filter, page, limit);
  return listPage(rows, total, body);
}
