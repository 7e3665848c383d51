import { z } from 'zod';
import { IdSchema, KeywordSchema, PageBodySchema, intSchema } from './common';

// Complaints/suggestions and event work orders (SPEC §3, §7; docs/internal-contract.md). One
// shape, configured twice: work orders name their fields eventOrderId / eventCode / eventStatus
// and add `type`, where complaints have complainId / complainCode / complainStatus.

/** `yyyy-MM-dd` (a whole day) or an ISO date-time. */
const DayOrTime = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'not a date' });

/** `;`-joined upload paths (pictures or voice), at most 20 of them. */
export const MediaListSchema = z
  .string()
  .trim()
  .max(4000)
  .refine((v) => v.split(';').filter(Boolean).length <= 20, { message: 'at most 20 files' });

const listFilters = {
  keyword: KeywordSchema,
  startTime: DayOrTime.optional(),
  endTime: DayOrTime.optional(),
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
