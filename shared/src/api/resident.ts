import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { IdSchema, intSchema } from './common';

/**
 * Request bodies of the resident API (DESIGN §5, paths under `/app/`). The api validates with
 * them, the simulator builds its calls from them, and /openapi.json documents them.
 * Numbers also come as decimal-digit strings, so a mobile app sending "12" is understood as 12.
 */

const id = IdSchema;
const houseType = intSchema(1, 3);
/** `;`-joined list of uploaded file paths (SPEC §9). */
const fileList = z.string().max(4000).optional();
const text = (max: number) => z.string().trim().min(1).max(max);
/**
 * The app's own id of a write (8-64 letters, digits, - or _, e.g. a UUID): the same clientId
 * sent again by the same person (a retry after a cut connection or a timeout) answers the write
 * already stored and stores nothing more (docs/internal-contract.md "Resident writes are idempotent").
 */
const clientId = z
  .string()
  .trim()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
  .optional();

export const ResidentHouseSchema = z.object({
  houseType: z.number().int(),
  houseId: z.number().int(),
  /** Unit display (SPEC §3): block/floor/unit name, car park code or shop code. */
  name: z.string(),
  identity: z.number().int(),
});
export type ResidentHouse = z.infer<typeof ResidentHouseSchema>;

export const ComplainSaveSchema = z.object({
  name: text(100),
  note: text(2000),
  img: fileList,
  voice: fileList,
  houseType,
  houseId: id,
  clientId,
});
export type ComplainSave = z.infer<typeof ComplainSaveSchema>;

export const EventOrderSaveSchema = ComplainSaveSchema.extend({ type: intSchema(1, 5) });
export type EventOrderSave = z.infer<typeof EventOrderSaveSchema>;

export const ResidentReplySchema = z.object({ id, content: text(2000), img: fileList, voice: fileList, clientId });
export type ResidentReply = z.infer<typeof ResidentReplySchema>;

const stars = intSchema(1, 3);
export const ResidentRateSchema = z.object({
  id,
  serviceEfficiency: stars,
  serviceAttitude: stars,
  serviceProcess: stars,
  serviceComment: z.string().trim().max(500).optional(),
});
export type ResidentRate = z.infer<typeof ResidentRateSchema>;

export const SosHelpSchema = z.object({
  houseType,
  houseId: id,
  position: z.string().trim().max(200).optional(),
  clientId,
});
export type SosHelp = z.infer<typeof SosHelpSchema>;

/** reply: 1 safe, 2 in danger zone, 3 not in danger zone, 4 wait in place, 5 ask for help, 6 other (DisasterReply). */
export const DisasterReplySchema = z.object({
  disasterWarnId: id,
  reply: intSchema(1, 6),
  note: z.string().trim().max(500).optional(),
});
export type DisasterReplyBody = z.infer<typeof DisasterReplySchema>;

/**
 * A disaster declaration: kind 1 damage, 2 danger; type DisasterType 1 fire … 5 other; content (what
 * happened, ≤ 2000); position (where, ≤ 200, optional); img: pictures of the caller's own uploads
 * (POST /upload/uploadimage/{kind}), `;`-joined, at most 9.
 */
export const DisasterDeclareSchema = z.object({
  houseType,
  houseId: id,
  kind: intSchema(1, 2),
  type: intSchema(1, 5),
  content: text(2000),
  position: z.string().trim().max(200).optional(),
  img: fileList,
});
export type DisasterDeclare = z.infer<typeof DisasterDeclareSchema>;

export const AnnouncementReadSchema = z.object({ id });
export const AnnouncementVoteSchema = z.object({ id, optionIds: z.array(id).min(1).max(50) });
export type AnnouncementVote = z.infer<typeof AnnouncementVoteSchema>;

export const PersonHouseJoinSchema = z.object({
  inviteCode: z.string().trim().min(1).max(64),
  identity: intSchema(1, 3),
  /** The house certificate's code and picture (an upload of kind `housecert`, private: issue 19). */
  houseCertCode: z.string().trim().max(50).optional(),
  houseCertImg: z
    .string()
    .regex(/^(\/api)?\/upload\/files\/housecert\/[A-Za-z0-9/._-]+$/)
    .max(300)
    .optional(),
  clientId,
});
export type PersonHouseJoin = z.infer<typeof PersonHouseJoinSchema>;

/** Answers. */
export interface ComplainSaved {
  complainId: number;
  complainCode: string;
}
export interface EventOrderSaved {
  eventOrderId: number;
  eventCode: string;
}

const Ok = <T extends z.ZodRawShape>(shape: T) => z.object(shape);
const RESIDENT = 'Resident API (DESIGN §5), resident token only.';

export const residentEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /app/house/list': {
    permission: 'authenticated',
    summary: `${RESIDENT} The caller's approved units, parking spaces and shops: [{ houseType, houseId, name, identity }].`,
    response: z.array(ResidentHouseSchema),
  },
  'POST /app/complain/save': {
    permission: 'authenticated',
    summary: `${RESIDENT} Reports a complaint from one of the caller's houses → { complainId, complainCode } (code C + yyyyMMdd + daily sequence). Staff with complain:list get message 50 and a channelType 8 push.`,
    body: ComplainSaveSchema,
    response: Ok({ complainId: z.number(), complainCode: z.string() }),
  },
  'POST /app/eventOrder/save': {
    permission: 'authenticated',
    summary: `${RESIDENT} Reports an event work order (type 1–5) → { eventOrderId, eventCode } (code E + yyyyMMdd + daily sequence). Staff with eventorder:list get message 49 and a channelType 7 push.`,
    body: EventOrderSaveSchema,
    response: Ok({ eventOrderId: z.number(), eventCode: z.string() }),
  },
  'POST /app/complain/reply': {
    permission: 'authenticated',
    summary: `${RESIDENT} The reporter replies on their complaint { id, content, img?, voice? } → { replyId }. The handling staff get message 13 (channelType 8).`,
    body: ResidentReplySchema,
    response: Ok({ replyId: z.number() }),
  },
  'POST /app/eventOrder/reply': {
    permission: 'authenticated',
    summary: `${RESIDENT} The reporter replies on their work order → { replyId }. The handling staff get message 11 (channelType 7).`,
    body: ResidentReplySchema,
    response: Ok({ replyId: z.number() }),
  },
  'POST /app/complain/rate': {
    permission: 'authenticated',
    summary: `${RESIDENT} Rates a completed complaint once (1–3 stars each) → { id, serviceScore }. 409 when not completed or already rated.`,
    body: ResidentRateSchema,
    response: Ok({ id: z.number(), serviceScore: z.number() }),
  },
  'POST /app/eventOrder/rate': {
    permission: 'authenticated',
    summary: `${RESIDENT} Rates a completed work order once → { id, serviceScore }. 409 when not completed or already rated.`,
    body: ResidentRateSchema,
    response: Ok({ id: z.number(), serviceScore: z.number() }),
  },
  'POST /app/sos/help': {
    permission: 'authenticated',
    summary: `${RESIDENT} An SOS help call from one of the caller's houses → { sosHelpId }. Staff with disasterwarn:list get alarm message 7 (channelType 10).`,
    body: SosHelpSchema,
    response: Ok({ sosHelpId: z.number() }),
  },
  'POST /app/disaster/reply': {
    permission: 'authenticated',
    summary: `${RESIDENT} Answers a disaster warning the caller received: reply 1 safe, 2 in danger zone, 3 not in danger zone, 4 wait in place, 5 ask for help, 6 other.`,
    body: DisasterReplySchema,
    response: Ok({ disasterWarnId: z.number(), reply: z.number() }),
  },
  'POST /app/disaster/declare': {
    permission: 'authenticated',
    summary: `${RESIDENT} Declares damage (kind 1) or danger (kind 2) of a disaster type 1–5 from one of the caller's houses { houseType, houseId, kind, type, content, position?, img? } → { declarationId }. img: up to 9 pictures the caller uploaded first with POST /upload/uploadimage/disaster (checked by their bytes), their originalImagePath joined by ';' (400 for any other path). Staff with disasterreport:list get message 71 (channelType 10), list and handle it.`,
    body: DisasterDeclareSchema,
    response: Ok({ declarationId: z.number() }),
  },
  'POST /app/announcement/read': {
    permission: 'authenticated',
    summary: `${RESIDENT} Marks an announcement of the caller's estate read (idempotent).`,
    body: AnnouncementReadSchema,
    response: Ok({ id: z.number() }),
  },
  'POST /app/announcement/vote': {
    permission: 'authenticated',
    summary: `${RESIDENT} Votes on a vote announcement { id, optionIds } (replaces an earlier vote; one option for single choice).`,
    body: AnnouncementVoteSchema,
    response: Ok({ id: z.number(), optionIds: z.array(z.number()) }),
  },
  'POST /app/personhouse/join': {
    permission: 'authenticated',
    summary: `${RESIDENT} Asks to join a unit, parking space or shop by its invite code { inviteCode, identity 1 owner, 2 tenant, 3 relatives } → { personHouseId, status 1 (pending review), houseType, houseId }. Every request waits for the review of the house's owner or the estate's staff (POST /base/personhouse/review); until then the house is not the caller's. Staff with the house's list permission get message 27/28/29 (channelType 12). Per account at most 20 requests and 10 wrong codes an hour, then 429.`,
    body: PersonHouseJoinSchema,
    response: Ok({ personHouseId: z.number(), status: z.number(), houseType: z.number(), houseId: z.number() }),
    successMessage: 'resident.messages.joinPending',
  },
});
