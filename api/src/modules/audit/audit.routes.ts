import { route, type ApiModule } from '../../http/define-route';
import { auditPage } from './audit.service';

/** The audit trail of enterprise management (issue 30): read-only, one list call. */
export const auditModule: ApiModule = {
  name: 'audit',
  routes: [route('POST /base/audit/page', async (ctx, { body }) => auditPage(ctx, body))],
};
