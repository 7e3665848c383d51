import { z } from 'zod';
import {
  ComplainCompleteSchema,
  ComplainDealSchema,
  ComplainListSchema,
  ComplainReplySaveSchema,
  DashboardListSchema,
  EventOrderCompleteSchema,
  EventOrderDealSchema,
  EventOrderListSchema,
  EventReplySaveSchema,
  IdParamsSchema,
  ReplyPageSchema,
  ReplySchema,
  StatusTotalsAnswerSchema,
  listPage,
} from '@pm/shared';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { COMPLAINT, EVENT_ORDER, type WorkKind } from './work-kinds';
import { dashboardWork, listReplies, listWork, statusTotals } from './work.repository';
import { advance, getWork, replyAsStaff } from './work.service';

/** Body schemas of each kind (their field names differ: complainId / eventOrderId …). */
const SCHEMAS = {
  complaint: {
    list: ComplainListSchema,
    deal: ComplainDealSchema,
    complete: ComplainCompleteSchema,
    reply: ComplainReplySaveSchema,
  },
  eventOrder: {
    list: EventOrderListSchema,
    deal: EventOrderDealSchema,
    complete: EventOrderCompleteSchema,
    reply: EventReplySaveSchema,
  },
} as const;

/** Reads `complainId` or `eventOrderId` from a validated body. */
const idOf = (k: WorkKind, body: object) => (body as Record<string, number>)[k.idField];

/** The calls of SPEC §7 "Complaints" / "Event work orders" for one kind. */
function workModule(k: WorkKind): ApiModule {
  const s = SCHEMAS[k.kind];
  const what = k.kind === 'complaint' ? 'complaints' : 'event work orders';
  return {
    name: k.kind,
    // The live counters' totals, for a person who may list them (others see zero).
    counters: async (db, tenant, caller) =>
      caller.perms.has(k.perms.list) ? { [k.counters]: await statusTotals(db, k, tenant) } : {},
    routes: [
      defineRoute({
        method: 'post',
        path: `${k.path}/query/list`,
        permission: k.perms.list,
        summary: `The estate's ${what}, newest report first; filters: status, ${k.hasType ? 'type, ' : ''}keyword (code, theme, reporter), report days, house type`,
        body: s.list,
        handler: async (ctx, { body }) => {
          const b = body as z.output<typeof EventOrderListSchema> & { complainStatus?: number };
          const status = k.kind === 'complaint' ? b.complainStatus : b.eventStatus;
          const filter = {
            status,
            type: b.type,
            keyword: b.keyword,
            startTime: b.startTime,
            endTime: b.endTime,
            houseType: b.houseType,
          };
          const { rows, total } = await listWork(ctx.db, k, ctx.tenant, filter, b.limit, (b.page - 1) * b.limit);
          return listPage(rows, total, b);
        },
      }),
      defineRoute({
        method: 'post',
        path: `${k.path}/query/listByDashboard`,
        permission: k.perms.list,
        summary: `Unfinished ${what} (untreated and processing), newest first, for the dashboard`,
        body: DashboardListSchema,
        handler: async (ctx, { body }) => dashboardWork(ctx.db, k, ctx.tenant, body.limit),
      }),
      defineRoute({
        method: 'post',
        path: `${k.path}/query/${k.totalsCall}`,
        permission: k.perms.list,
        summary: `How many ${what} are untreated, processing and completed`,
        response: StatusTotalsAnswerSchema,
        handler: async (ctx) => statusTotals(ctx.db, k, ctx.tenant),
      }),
      defineRoute({
        method: 'post',
        path: `${k.path}/query/id/:id`,
        permission: k.perms.view,
        summary:
          'Every field of one (SPEC §3): report, unit display, reporter, deal and complete steps, ratings, reply count',
        params: IdParamsSchema,
        handler: async (ctx, { params }) => getWork(ctx, k, params.id),
      }),
      defineRoute({
        method: 'post',
        path: `${k.path}/updateDeal`,
        permission: k.perms.update,
        summary: 'Deal with it: untreated → processing (409 otherwise); the caller is recorded as the person dealing',
        body: s.deal,
        handler: async (ctx, { body }) => {
          const b = body as z.output<typeof ComplainDealSchema>;
          return advance(ctx, k, idOf(k, body), 1, { note: b.dealNote, img: b.dealImg, personId: b.personDealId });
        },
      }),
      defineRoute({
        method: 'post',
        path: `${k.path}/updateComplete`,
        permission: k.perms.update,
        summary: 'Complete it: processing → completed (409 otherwise)',
        body: s.complete,
        handler: async (ctx, { body }) => {
          const b = body as z.output<typeof ComplainCompleteSchema>;
          return advance(ctx, k, idOf(k, body), 2, {
            note: b.completeNote,
            img: b.completeImg,
            personId: b.personCompleteId,
          });
        },
      }),
      defineRoute({
        method: 'post',
        path: `${k.replyPath}/query/id/:id`,
        permission: k.perms.reply,
        summary: 'Replies, oldest first, with their count',
        params: IdParamsSchema,
        body: ReplyPageSchema,
        response: z.object({ list: z.array(ReplySchema), total: z.number() }),
        handler: async (ctx, { params, body }) => {
          await getWork(ctx, k, params.id);
          const limit = body.limit ?? 100;
          return listReplies(ctx.db, k, params.id, limit, ((body.page ?? 1) - 1) * limit);
        },
      }),
      defineRoute({
        method: 'post',
        path: `${k.replyPath}/save`,
        permission: k.perms.reply,
        summary: 'A staff reply (content, pictures, voice); the reporter is notified',
        body: s.reply,
        response: ReplySchema,
        handler: async (ctx, { body }) => {
          const b = body as z.output<typeof ComplainReplySaveSchema>;
          return replyAsStaff(ctx, k, idOf(k, body), b);
        },
      }),
    ],
  };
}

export const complaintModule = workModule(COMPLAINT);
export const eventOrderModule = workModule(EVENT_ORDER);
