import { z } from 'zod';
import type { Permission } from '../permissions';
import {
  DayOrTimeSchema,
  IdParamsSchema,
  IdSchema,
  KeywordSchema,
  PageBodySchema,
  intSchema,
  listPageSchema,
} from './common';
import { defineEndpoints, type EndpointSpec } from './endpoint';

// Complaints/suggestions and event work orders (SPEC §3, §7; docs/internal-contract.md). One
// shape, configured twice: work orders name their fields eventOrderId / eventCode / eventStatus
// and add `type`, where complaints have complainId / complainCode / complainStatus.

/** `;`-joined upload paths (pictures or voice), at most 20 of them. */
export const MediaListSchema = z
  .string()
  .trim()
  .max(4000)
  .refine((v) => v.split(';').filter(Boolean).length <= 20, { message: 'at most 20 files' });

const listFilters = {
  keyword: KeywordSchema,
  startTime: DayOrTimeSchema.optional(),
  endTime: DayOrTimeSchema.optional(),
  houseType: intSchema(1, 3).optional(),
};
export const ComplainListSchema = PageBodySchema.extend({
  complainStatus: intSchema(1, 3).optional(),
  ...listFilters,
});
export const EventOrderListSchema = PageBodySchema.extend({
  eventStatus: intSchema(1, 3).optional(),
  type: intSchema(1, 5).optional(),
  ...listFilters,
});
export const DashboardListSchema = z.object({ limit: intSchema(1, 50).default(10) });

export const ComplainDealSchema = z.object({
  complainId: IdSchema,
  dealNote: z.string().trim().min(1).max(2000),
  dealImg: MediaListSchema.optional(),
  personDealId: IdSchema.optional(),
});
export const EventOrderDealSchema = ComplainDealSchema.omit({ complainId: true }).extend({ eventOrderId: IdSchema });
export const ComplainCompleteSchema = z.object({
  complainId: IdSchema,
  completeNote: z.string().trim().min(1).max(2000),
  completeImg: MediaListSchema.optional(),
  personCompleteId: IdSchema.optional(),
});
export const EventOrderCompleteSchema = ComplainCompleteSchema.omit({ complainId: true }).extend({
  eventOrderId: IdSchema,
});

export const ReplyPageSchema = PageBodySchema.partial();
export const ComplainReplySaveSchema = z.object({
  complainId: IdSchema,
  content: z.string().trim().min(1).max(2000),
  img: MediaListSchema.optional(),
  voice: MediaListSchema.optional(),
  personId: IdSchema.optional(),
  companyType: intSchema(1, 2).optional(),
});
export const EventReplySaveSchema = ComplainReplySaveSchema.omit({ complainId: true }).extend({
  eventOrderId: IdSchema,
});

export const StatusTotalsAnswerSchema = z.object({
  untreated: z.number(),
  processing: z.number(),
  completed: z.number(),
});

/** A list row; `id`/`code`/`status` appear under the kind's own names (complainId …). */
export const WorkRowFields = z.object({
  name: z.string(),
  reportPersonId: z.number(),
  reportPersonName: z.string(),
  reportPersonPhoto: z.string().nullable(),
  personType: z.number(),
  personIdentity: z.number().nullable(),
  unitId: z.number().nullable(),
  unitName: z.string().nullable(),
  floorName: z.string().nullable(),
  buildName: z.string().nullable(),
  carParkId: z.number().nullable(),
  carParkCode: z.string().nullable(),
  shopId: z.number().nullable(),
  shopCode: z.string().nullable(),
  reportTime: z.string(),
});

export const ReplySchema = z.object({
  replyId: z.number(),
  personId: z.number(),
  personName: z.string(),
  personPhoto: z.string().nullable(),
  replyTime: z.string(),
  content: z.string(),
  img: z.string().nullable(),
  voice: z.string().nullable(),
  companyType: z.number().nullable(),
});
export type Reply = z.infer<typeof ReplySchema>;

/** GET /base/personhouse/list/{personId}: a person's houses (SPEC §3 "Person asset", "more industries"). */
export const PersonAssetSchema = z.object({
  personHouseId: z.number(),
  type: z.number(),
  identity: z.number(),
  unit: z
    .object({
      buildName: z.string(),
      floorName: z.string(),
      name: z.string(),
      room: z.number().nullable(),
      livingRoom: z.number().nullable(),
      restroom: z.number().nullable(),
      invitePerson: z.number().nullable(),
    })
    .nullable(),
  carpark: z.object({ carparkCode: z.string(), invitePerson: z.number().nullable() }).nullable(),
  shop: z.object({ shopCode: z.string(), invitePerson: z.number().nullable() }).nullable(),
  person: z.object({ name: z.string(), gender: z.number(), images: z.array(z.object({ url: z.string() })) }),
  houseCertCode: z.string().nullable(),
  houseCertImg: z.string().nullable(),
});
export type PersonAsset = z.infer<typeof PersonAssetSchema>;

/** Complaint list row (docs/internal-contract.md "Complaints and event work orders"). */
export const ComplainRowSchema = WorkRowFields.extend({
  complainId: z.number(),
  complainCode: z.string(),
  complainStatus: z.number(),
});
export type ComplainRow = z.infer<typeof ComplainRowSchema>;
/** Event work-order list row: the complaint's fields under their own names, plus `type` (1–5). */
export const EventOrderRowSchema = WorkRowFields.extend({
  eventOrderId: z.number(),
  eventCode: z.string(),
  eventStatus: z.number(),
  type: z.number().nullable(),
});
export type EventOrderRow = z.infer<typeof EventOrderRowSchema>;

/** What a detail adds to a row: the report, the deal and complete steps (null until done), the rating, the reply count. */
export const WorkDetailFields = z.object({
  note: z.string(),
  img: z.string().nullable(),
  voice: z.string().nullable(),
  personDealId: z.number().nullable(),
  personDealName: z.string().nullable(),
  personDealPhoto: z.string().nullable(),
  dealTime: z.string().nullable(),
  dealNote: z.string().nullable(),
  dealImg: z.string().nullable(),
  personCompleteId: z.number().nullable(),
  personCompleteName: z.string().nullable(),
  personCompletePhoto: z.string().nullable(),
  completeTime: z.string().nullable(),
  completeNote: z.string().nullable(),
  completeImg: z.string().nullable(),
  serviceComment: z.string().nullable(),
  serviceScore: z.number().nullable(),
  serviceEfficiency: z.number().nullable(),
  serviceAttitude: z.number().nullable(),
  serviceProcess: z.number().nullable(),
  replyCount: z.number(),
});
export const ComplainDetailSchema = ComplainRowSchema.extend(WorkDetailFields.shape);
export type ComplainDetail = z.infer<typeof ComplainDetailSchema>;
export const EventOrderDetailSchema = EventOrderRowSchema.extend(WorkDetailFields.shape);
/**
 * The fields both kinds share, under neutral names: the one source of the row and detail types
 * of the api (work-orders.repository.ts) and the console (modules/api/work-orders-api.ts).
 */
export type WorkRowData = z.infer<typeof WorkRowFields>;
export type WorkDetailData = z.infer<typeof WorkDetailFields>;
export type EventOrderDetail = z.infer<typeof EventOrderDetailSchema>;
export const ReplyPageAnswerSchema = z.object({ list: z.array(ReplySchema), total: z.number() });

/** The dashboard's charts: the last 7 or 30 days of the estate (today included). */
export const WorkStatsQuerySchema = z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) });

/**
 * The dashboard's charts of one kind over the chosen days: reports per day of the estate by
 * their status now (every day present, zeros included), work orders by type, and the average
 * minutes from report to deal and to completion of those reported in the period (null: none yet).
 */
export const WorkStatsSchema = z.object({
  days: z.array(z.object({ day: z.string(), untreated: z.number(), processing: z.number(), completed: z.number() })),
  byType: z.array(z.object({ type: z.number(), count: z.number() })),
  avgDealMinutes: z.number().nullable(),
  avgCompleteMinutes: z.number().nullable(),
});
export type WorkStats = z.infer<typeof WorkStatsSchema>;

/** The nine calls of one kind; the keys are spelled out below so each stays greppable. */
function workCalls<
  L extends z.ZodType,
  D extends z.ZodType,
  C extends z.ZodType,
  R extends z.ZodType,
  Row extends z.ZodType,
  Detail extends z.ZodType,
>(w: {
  what: string;
  perms: { list: Permission; view: Permission; update: Permission; reply: Permission };
  list: L;
  deal: D;
  complete: C;
  reply: R;
  row: Row;
  detail: Detail;
  filters: string;
}) {
  return {
    list: {
      permission: w.perms.list,
      summary: `The estate's ${w.what}, newest report first; filters: ${w.filters}`,
      body: w.list,
      response: listPageSchema(w.row),
    },
    dashboard: {
      permission: w.perms.list,
      summary: `Unfinished ${w.what} (untreated and processing), newest first, for the dashboard`,
      body: DashboardListSchema,
      response: z.array(w.row),
    },
    stats: {
      permission: w.perms.list,
      summary: `The dashboard's charts of ${w.what} over the last 7 or 30 days: per day by status, by type, average minutes to deal and to complete`,
      body: WorkStatsQuerySchema,
      response: WorkStatsSchema,
    },
    totals: {
      permission: w.perms.list,
      summary: `How many ${w.what} are untreated, processing and completed`,
      response: StatusTotalsAnswerSchema,
    },
    detail: {
      permission: w.perms.view,
      summary:
        'Every field of one (SPEC §3): report, unit display, reporter, deal and complete steps, ratings, reply count',
      params: IdParamsSchema,
      response: w.detail,
    },
    deal: {
      permission: w.perms.update,
      summary: 'Deal with it: untreated → processing (409 otherwise); the caller is recorded as the person dealing',
      body: w.deal,
      response: w.detail,
    },
    complete: {
      permission: w.perms.update,
      summary: 'Complete it: processing → completed (409 otherwise)',
      body: w.complete,
      response: w.detail,
    },
    replies: {
      permission: w.perms.reply,
      summary: 'Replies, oldest first, with their count',
      params: IdParamsSchema,
      body: ReplyPageSchema,
      response: ReplyPageAnswerSchema,
    },
    reply: {
      permission: w.perms.reply,
      summary: 'A staff reply (content, pictures, voice); the reporter is notified',
      body: w.reply,
      response: ReplySchema,
    },
  } satisfies Record<string, EndpointSpec>;
}

const complaint = /* @__PURE__ */ workCalls({
  what: 'complaints',
  perms: { list: 'complain:list', view: 'complain:view', update: 'complain:update', reply: 'complain:reply' },
  filters: 'status, keyword (code, theme, reporter), report days, house type',
  list: ComplainListSchema,
  deal: ComplainDealSchema,
  complete: ComplainCompleteSchema,
  reply: ComplainReplySaveSchema,
  row: ComplainRowSchema,
  detail: ComplainDetailSchema,
});
export const complaintEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /complain/query/list': complaint.list,
  'POST /complain/query/listByDashboard': complaint.dashboard,
  'POST /complain/query/stats': complaint.stats,
  'POST /complain/query/getComplainStatusTotalVo': complaint.totals,
  'POST /complain/query/id/{id}': complaint.detail,
  'POST /complain/updateDeal': complaint.deal,
  'POST /complain/updateComplete': complaint.complete,
  'POST /complainReply/query/id/{id}': complaint.replies,
  'POST /complainReply/save': complaint.reply,
});

const eventOrder = /* @__PURE__ */ workCalls({
  what: 'event work orders',
  perms: { list: 'eventorder:list', view: 'eventorder:view', update: 'eventorder:update', reply: 'eventorder:reply' },
  filters: 'status, type, keyword (code, theme, reporter), report days, house type',
  list: EventOrderListSchema,
  deal: EventOrderDealSchema,
  complete: EventOrderCompleteSchema,
  reply: EventReplySaveSchema,
  row: EventOrderRowSchema,
  detail: EventOrderDetailSchema,
});
export const eventOrderEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /eventOrder/query/list': eventOrder.list,
  'POST /eventOrder/query/listByDashboard': eventOrder.dashboard,
  'POST /eventOrder/query/stats': eventOrder.stats,
  'POST /eventOrder/query/getEventOrderStatusTotalVo': eventOrder.totals,
  'POST /eventOrder/query/id/{id}': eventOrder.detail,
  'POST /eventOrder/updateDeal': eventOrder.deal,
  'POST /eventOrder/updateComplete': eventOrder.complete,
  'POST /eventReply/query/id/{id}': eventOrder.replies,
  'POST /eventReply/save': eventOrder.reply,
});
