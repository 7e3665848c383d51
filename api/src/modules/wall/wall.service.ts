import { COMPLAINT, EVENT_ORDER, WALL_FEED_LIMITS, WALL_WARNING_DAYS, type WallFeed } from '@pm/shared';
import type { Db } from '../../db/open-database';
import type { AuthedContext } from '../../http/request-context';
import { listOpenSos, listWarnings } from '../disaster/disaster.repository';
import { statusTotals } from '../work-orders/work-orders.repository';

/**
 * The wall screen's picture (issue 22), read in one read-only snapshot so the SOS calls, the
 * warnings and the counts agree with each other. Read-only: the wall role holds no permission
 * that writes.
 */
export async function wallFeed(ctx: AuthedContext): Promise<WallFeed> {
  const { tenant } = ctx;
  return (ctx.db as Db).transaction(
    async (tx) => {
      const sos = await listOpenSos(tx, tenant);
      const { rows } = await listWarnings(tx, tenant, { page: 1, limit: WALL_FEED_LIMITS.warnings });
      const complaints = await statusTotals(tx, COMPLAINT, tenant);
      const eventOrders = await statusTotals(tx, EVENT_ORDER, tenant);
      const since = Date.now() - WALL_WARNING_DAYS * 86_400_000;
      return {
        sos: sos.slice(0, WALL_FEED_LIMITS.sos),
        sosTotal: sos.length,
        warnings: rows.filter((w) => !w.revoked && Date.parse(w.publishTime) >= since),
        complaints: { untreated: complaints.untreated, processing: complaints.processing },
        eventOrders: { untreated: eventOrders.untreated, processing: eventOrders.processing },
        readAt: new Date().toISOString(),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
