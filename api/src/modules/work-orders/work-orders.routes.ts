import type { z } from 'zod';
import {
  type EndpointKey,
  type ComplainCompleteSchema,
  type ComplainDealSchema,
  type ComplainReplySaveSchema,
  type EventOrderListSchema,
  COMPLAINT,
  EVENT_ORDER,
  type WorkKind,
} from '@pm/shared';
import { route, type ApiModule } from '../../http/define-route';
import {
  advance,
  dashboardWork,
  getListPage,
  getWork,
  listReplies,
  readStatusTotals,
  replyAsStaff,
  statusTotals,
  statusTotalsSql,
  workStats,
} from './work-orders.service';

/**
 * The repository answers rows as records under the kind's field names (complainId …); the
 * declaration in shared names their shape, and the api tests check every answer against it.
 */
const asDeclared = <T>(answer: unknown) => answer as T;

/** The totals call of each kind (its name differs: getComplainStatusTotalVo / getEventOrderStatusTotalVo). */
type TotalsKey = Extract<EndpointKey, `POST ${WorkKind['path']}/query/get${string}StatusTotalVo`>;

/** Reads `complainId` or `eventOrderId` from a validated body. */
const idOf = (k: WorkKind, body: object) => (body as Record<string, number>)[k.idField];

/** The calls of SPEC §7 "Complaints" / "Event work orders" for one kind. */
function workModule(k: WorkKind): ApiModule {
  return {
    name: k.kind,
    // The live counters' totals, for a person who may list them or a wall screen (others see zero).
    counters: (tenant, caller) =>
      caller.perms.has(k.perms.list) || caller.perms.has('wall:view')
        ? {
            key: `work.status-totals.${k.kind}`,
            sql: (p) => statusTotalsSql(k, p),
            values: { companyId: tenant.companyId, housingEstateId: tenant.housingEstateId },
            read: (rows) => ({ [k.totalsKey]: readStatusTotals(rows as { status: unknown; n: unknown }[]) }),
          }
        : null,
    routes: [
      route(`POST ${k.path}/query/list`, async (ctx, { body }) => {
        const b = body as z.output<typeof EventOrderListSchema> & { complainStatus?: number };
        const filter = {
          status: b[k.statusField],
          type: b.type,
          keyword: b.keyword,
          startTime: b.startTime,
          endTime: b.endTime,
          houseType: b.houseType,
        };
        return asDeclared(await getListPage(ctx, k, filter, b.page, b.limit));
      }),
      route(`POST ${k.path}/query/listByDashboard`, async (ctx, { body }) =>
        asDeclared(await dashboardWork(ctx.db, k, ctx.tenant, body.limit)),
      ),
      route(`POST ${k.path}/query/stats`, async (ctx, { body }) => workStats(ctx.db, k, ctx.tenant, body.days)),
      route(`POST ${k.path}/query/${k.totalsCall}` as TotalsKey, async (ctx) => statusTotals(ctx.db, k, ctx.tenant)),
      route(`POST ${k.path}/query/id/{id}`, async (ctx, { params }) => asDeclared(await getWork(ctx, k, params.id))),
      route(`POST ${k.path}/updateDeal`, async (ctx, { body }) => {
        const b = body as z.output<typeof ComplainDealSchema>;
        return asDeclared(
          await advance(ctx, k, idOf(k, body), 1, { note: b.dealNote, img: b.dealImg, personId: b.personDealId }),
        );
      }),
      route(`POST ${k.path}/updateComplete`, async (ctx, { body }) => {
        const b = body as z.output<typeof ComplainCompleteSchema>;
        return asDeclared(
          await advance(ctx, k, idOf(k, body), 2, {
            note: b.completeNote,
            img: b.completeImg,
            personId: b.personCompleteId,
          }),
        );
      }),
      route(`POST ${k.replyPath}/query/id/{id}`, async (ctx, { params, body }) => {
        await getWork(ctx, k, params.id);
        const limit = body.limit ?? 100;
        return listReplies(ctx.db, k, params.id, limit, ((body.page ?? 1) - 1) * limit);
      }),
      route(`POST ${k.replyPath}/save`, async (ctx, { body }) => {
        const b = body as z.output<typeof ComplainReplySaveSchema>;
        return replyAsStaff(ctx, k, idOf(k, body), b);
      }),
    ],
  };
}

export const complaintModule = workModule(COMPLAINT);
export const eventOrderModule = workModule(EVENT_ORDER);
