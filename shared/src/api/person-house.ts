import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import {
  DayOrTimeSchema,
  IdParamsSchema,
  IdSchema,
  KeywordSchema,
  PageBodySchema,
  intSchema,
  listPageSchema,
} from './common';

/**
 * Owners and residents (issue 19): the owner-review list, each house's people, the history staff
 * and the resident's side of it. The api folder is api/src/modules/person/, the screen
 * client/src/modules/owners/.
 */

const HouseTypeSchema = intSchema(1, 3);

/** The house a link points at, as lists show it (SPEC §3 "Unit display"). */
const HouseFields = {
  houseType: z.number(),
  houseId: z.number(),
  buildName: z.string().nullable(),
  floorName: z.string().nullable(),
  unitName: z.string().nullable(),
  carParkCode: z.string().nullable(),
  shopCode: z.string().nullable(),
};

/** The person of a link. */
const PersonFields = {
  personId: z.number(),
  name: z.string(),
  gender: z.number(),
  tel: z.string().nullable(),
  accountType: z.number(),
  photo: z.string().nullable(),
};

/** POST /base/personhouse/page: the owner-review list's filters. status 1 pending (default), 2 approved, 3 refused. */
export const PersonHousePageSchema = PageBodySchema.extend({
  status: intSchema(1, 3).optional(),
  houseType: HouseTypeSchema.optional(),
  identity: intSchema(1, 3).optional(),
  keyword: KeywordSchema,
  startTime: DayOrTimeSchema.optional(),
  endTime: DayOrTimeSchema.optional(),
});

/** The owner-review tabs' counts (GET /base/personhouse/totals). */
export const ReviewTotalsSchema = z.object({ pending: z.number(), certified: z.number(), refused: z.number() });
export type ReviewTotals = z.infer<typeof ReviewTotalsSchema>;

/** One person↔house link (a request to join, or a member of a house). */
export const PersonHouseRowSchema = z.object({
  personHouseId: z.number(),
  ...PersonFields,
  ...HouseFields,
  identity: z.number(),
  relation: z.number().nullable(),
  status: z.number(),
  authStatus: z.number(),
  houseCertCode: z.string().nullable(),
  /** The private certificate picture route (GET /base/personhouse/certimg/{id}), null without one. */
  houseCertImg: z.string().nullable(),
  joinTime: z.string(),
  refuseReason: z.string().nullable(),
  /** The house's approved owner other than this person, for the owner-change question (SPEC §4). */
  currentOwnerName: z.string().nullable(),
  /** The house's status now (HouseStatus, shared/src/enums.ts). */
  houseStatus: z.number(),
});
export type PersonHouseRow = z.infer<typeof PersonHouseRowSchema>;

/** POST /base/personhouse/member/page: the people of one house; identity filters the tab (1 owner, 2 tenants, 3 members). */
export const MemberPageSchema = PageBodySchema.extend({
  houseType: HouseTypeSchema,
  houseId: IdSchema,
  identity: intSchema(1, 3).optional(),
  /** Pending requests too (default: approved only). */
  withPending: z.boolean().optional(),
});

/** History staff record (SPEC §3): a person who left a house, who made them leave and how. */
export const HistoryRowSchema = z.object({
  personHouseHistoryId: z.number(),
  ...PersonFields,
  ...HouseFields,
  identity: z.number(),
  purchaseTime: z.string().nullable(),
  leaveTime: z.string().nullable(),
  operator: z.object({ name: z.string(), images: z.array(z.object({ url: z.string() })) }).nullable(),
  operationType: z.number(),
});
export type HistoryRow = z.infer<typeof HistoryRowSchema>;

export const HistoryPageParamsSchema = z.object({ typeId: IdSchema, buildingType: HouseTypeSchema });

/** Certify (2) or refuse (3) a pending request; a refusal may say why; `replaceOwner` confirms an owner change. */
export const JoinReviewSchema = z.object({
  personHouseId: IdSchema,
  status: z.union([z.literal(2), z.literal(3)]),
  refuseReason: z.string().trim().max(200).optional(),
  replaceOwner: z.boolean().optional(),
});

export const PersonHouseIdSchema = z.object({ personHouseId: IdSchema });

/** The resident's own requests (GET /app/personhouse/requests). */
export const OwnRequestSchema = z.object({
  personHouseId: z.number(),
  houseType: z.number(),
  houseId: z.number(),
  name: z.string(),
  identity: z.number(),
  status: z.number(),
  refuseReason: z.string().nullable(),
  joinTime: z.string(),
});
export type OwnRequest = z.infer<typeof OwnRequestSchema>;

export const ResidentHouseRefSchema = z.object({ houseType: HouseTypeSchema, houseId: IdSchema });

/** An owner adds a tenant (2) or a relative or friend (3, with relation) by the resident's phone number. */
export const MemberAddSchema = ResidentHouseRefSchema.extend({
  tel: z.string().trim().min(3).max(30),
  identity: intSchema(2, 3),
  relation: intSchema(1, 5).optional(),
});

/** A member of the resident's own house, as the owner's app lists them. */
export const OwnMemberSchema = z.object({
  personHouseId: z.number(),
  personId: z.number(),
  name: z.string(),
  identity: z.number(),
  relation: z.number().nullable(),
  status: z.number(),
});

const RESIDENT = 'Resident API (DESIGN §5), resident token only.';
const STAFF_HOUSE =
  "Staff of the caller's estate with the house type's list permission (unit:list, carpark:list, shop:list); another estate's ids answer 404.";

export const personHouseEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/personhouse/page': {
    permission: 'authenticated',
    summary: `Owner review (SPEC §2): requests to join a house, filtered and paged, newest first. Only the house types the staff may list. ${STAFF_HOUSE}`,
    body: PersonHousePageSchema,
    response: listPageSchema(PersonHouseRowSchema),
  },
  'GET /base/personhouse/totals': {
    permission: 'authenticated',
    summary: `Owner review's tab counts: requests pending, certified and refused, of the house types the staff may list (read from counters kept by the database, not counted). ${STAFF_HOUSE}`,
    response: ReviewTotalsSchema,
  },
  'POST /base/personhouse/member/page': {
    permission: 'authenticated',
    summary: `The people of one house (owner, tenants, members), paged, with the house's status (HouseStatus). ${STAFF_HOUSE}`,
    body: MemberPageSchema,
    response: listPageSchema(PersonHouseRowSchema).extend({ houseStatus: z.number().nullable() }),
  },
  'GET /base/personhouse/info/{id}': {
    permission: 'authenticated',
    summary: `One person↔house link with its person (owner info). ${STAFF_HOUSE}`,
    params: IdParamsSchema,
    response: PersonHouseRowSchema,
  },
  'GET /base/personhouse/certimg/{id}': {
    permission: 'authenticated',
    summary: `The house-certificate picture of link {id}, streamed only to staff of the house's estate with the house type's view permission (unit:view, carpark:view, shop:view); never a public upload URL.`,
    params: IdParamsSchema,
    response: z.string().meta({ format: 'binary' }),
    answer: 'raw',
    answerContentType: 'application/octet-stream',
  },
  'POST /base/personhouse/remove': {
    permission: 'authenticated',
    summary: `Removes a request or a member from a house { personHouseId }: the link ends, a history row (operation type 1) is written, staff get message 31–33 and the person event 14. ${STAFF_HOUSE}`,
    body: PersonHouseIdSchema,
    response: z.object({ personHouseHistoryId: z.number() }),
  },
  'POST /base/personhouse/join/history': {
    permission: 'authenticated',
    summary: `Sets an approved member or owner as history staff { personHouseId }: the link ends with a history row (operation type 1), message 31–33 and event 14. ${STAFF_HOUSE}`,
    body: PersonHouseIdSchema,
    response: z.object({ personHouseHistoryId: z.number() }),
  },
  'POST /base/personhousehistory/page/{typeId}/{buildingType}': {
    permission: 'authenticated',
    summary: `History staff of house {typeId} of type {buildingType} (1 unit, 2 parking space, 3 shop): who left, newest first. ${STAFF_HOUSE}`,
    params: HistoryPageParamsSchema,
    body: PageBodySchema,
    response: listPageSchema(HistoryRowSchema),
  },
  'GET /base/personhousehistory/info/{id}': {
    permission: 'authenticated',
    summary: `History staff detail by personHouseHistoryId (SPEC §2). ${STAFF_HOUSE}`,
    params: IdParamsSchema,
    response: HistoryRowSchema,
  },
  'GET /app/personhouse/requests': {
    permission: 'authenticated',
    summary: `${RESIDENT} The caller's requests to join houses and their state (1 pending, 2 approved, 3 refused with the reason).`,
    response: z.array(OwnRequestSchema),
  },
  'POST /app/personhouse/leave': {
    permission: 'authenticated',
    summary: `${RESIDENT} The caller leaves one of their houses { houseType, houseId } (history operation type by identity: owner 3, relatives and friends 4, tenant 5).`,
    body: ResidentHouseRefSchema,
    response: z.object({ personHouseHistoryId: z.number() }),
  },
  'POST /app/personhouse/member/list': {
    permission: 'authenticated',
    summary: `${RESIDENT} The tenants and members of a house the caller owns.`,
    body: ResidentHouseRefSchema,
    response: z.array(OwnMemberSchema),
  },
  'POST /app/personhouse/member/add': {
    permission: 'authenticated',
    summary: `${RESIDENT} The owner adds a tenant or a relative/friend of their house by the resident's phone number (approved at once, history operation type 3, message 27–29).`,
    body: MemberAddSchema,
    response: z.object({ personHouseId: z.number() }),
  },
  'POST /app/personhouse/member/remove': {
    permission: 'authenticated',
    summary: `${RESIDENT} The owner removes a tenant or member of their house { personHouseId } (history operation type 3, message 31–33).`,
    body: PersonHouseIdSchema,
    response: z.object({ personHouseHistoryId: z.number() }),
  },
});
