import { z } from 'zod';
import { IdParamsSchema, IdSchema, PageBodySchema, intSchema, listPageSchema } from './common';
import { defineEndpoints } from './endpoint';

// Disaster warnings, SOS help calls and disaster declarations (issue 21; SPEC §1, §2, §3, §4, §6).
// Staff calls under /disaster/*; the resident's calls are in ./resident.ts (/app/sos/help,
// /app/disaster/reply, /app/disaster/declare) and below (/app/disaster/list, /app/disaster/read).

const note = z.string().trim().min(1).max(500);
const text = (max: number) => z.string().trim().min(1).max(max);

/** A house as SPEC §3's Person asset shows it: type and the unit / car park / shop names. */
export const DisasterHouseSchema = z.object({
  houseType: z.number().nullable(),
  buildName: z.string().nullable(),
  floorName: z.string().nullable(),
  unitName: z.string().nullable(),
  carParkCode: z.string().nullable(),
  shopCode: z.string().nullable(),
});
export type DisasterHouse = z.infer<typeof DisasterHouseSchema>;

/** One SOS help call. state: open (nobody acknowledged), acknowledged, closed. */
export const SosCallSchema = DisasterHouseSchema.extend({
  id: z.number(),
  personId: z.number(),
  personName: z.string().nullable(),
  phone: z.string().nullable(),
  position: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(['open', 'acknowledged', 'closed']),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  handledBy: z.string().nullable(),
  handledAt: z.string().nullable(),
  handledNote: z.string().nullable(),
});
export type SosCall = z.infer<typeof SosCallSchema>;

export const SosCloseSchema = z.object({ note });

export const WarnSaveSchema = z.object({
  type: intSchema(1, 5),
  content: text(2000),
  /** The blocks whose residents are told; none = every resident of the estate. */
  blockIds: z.array(IdSchema).max(500).optional(),
});
export type WarnSave = z.infer<typeof WarnSaveSchema>;

export const WarnPageSchema = PageBodySchema.extend({ type: intSchema(1, 5).optional() });

/** Replies by kind: key = DisasterReply value (1 … 6). */
const ReplyCountsSchema = z.record(z.string(), z.number());

export const WarnRowSchema = z.object({
  id: z.number(),
  type: z.number(),
  content: z.string(),
  blockIds: z.array(z.number()),
  publisherName: z.string().nullable(),
  publishTime: z.string(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
  recipients: z.number(),
  read: z.number(),
  replied: z.number(),
  askHelp: z.number(),
  helpOpen: z.number(),
});
export type WarnRow = z.infer<typeof WarnRowSchema>;
export const WarnDetailSchema = WarnRowSchema.extend({ replies: ReplyCountsSchema });
export type WarnDetail = z.infer<typeof WarnDetailSchema>;

/** Which people of a warning: read, unread, help (replied "ask for help"), safe (replied "safety"). */
export const WarnPeopleListSchema = z.enum(['read', 'unread', 'help', 'safe']);
export type WarnPeopleList = z.infer<typeof WarnPeopleListSchema>;
export const WarnPeopleSchema = PageBodySchema.extend({ list: WarnPeopleListSchema });

export const WarnPersonSchema = DisasterHouseSchema.extend({
  id: z.number(),
  personId: z.number(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  reply: z.number().nullable(),
  note: z.string().nullable(),
  readTime: z.string().nullable(),
  replyTime: z.string().nullable(),
  handledBy: z.string().nullable(),
  handledAt: z.string().nullable(),
  handledNote: z.string().nullable(),
});
export type WarnPerson = z.infer<typeof WarnPersonSchema>;

export const HandleSchema = z.object({ note });

export const DeclarationPageSchema = PageBodySchema.extend({ status: intSchema(1, 2).optional() });
export const DeclarationRowSchema = DisasterHouseSchema.extend({
  id: z.number(),
  personName: z.string().nullable(),
  phone: z.string().nullable(),
  kind: z.number(),
  type: z.number(),
  content: z.string(),
  position: z.string().nullable(),
  img: z.string().nullable(),
  status: z.number(),
  createdAt: z.string(),
  handledBy: z.string().nullable(),
  handledAt: z.string().nullable(),
  handledNote: z.string().nullable(),
});
export type DeclarationRow = z.infer<typeof DeclarationRowSchema>;

export const DisasterBlockSchema = z.object({ id: z.number(), name: z.string() });

/**
 * A warning as its resident recipient sees it (GET /app/disaster/list). `readTime`: when the
 * resident read it (POST /app/disaster/read, or answered it); `reply` 1 … 6 (DisasterReply) or null.
 */
export const ResidentWarnSchema = z.object({
  id: z.number(),
  type: z.number(),
  content: z.string(),
  publishTime: z.string(),
  readTime: z.string().nullable(),
  reply: z.number().nullable(),
  note: z.string().nullable(),
  replyTime: z.string().nullable(),
});
export type ResidentWarn = z.infer<typeof ResidentWarnSchema>;
export const ResidentWarnReadSchema = z.object({ id: IdSchema });

/** The most warnings GET /app/disaster/list answers (newest first). */
export const RESIDENT_WARN_LIMIT = 100;

export const disasterEndpoints = /* @__PURE__ */ defineEndpoints({
  // Why not POST /base/block/list (the property area's block list, issue 21 review): that call
  // declares unit:list, and a call declares one permission. The people who release warnings
  // (disasterwarn:list, e.g. a management-committee role) need not see the unit screens, and
  // granting them unit:list to fill one select would open the units, their owners and invite
  // codes to them. So the warning form reads the estate's block names under its own permission.
  'GET /disaster/blocks': {
    permission: 'disasterwarn:list',
    summary:
      'The blocks of the estate a warning can be narrowed to: [{ id, name }]. For the warning form, under disasterwarn:list (POST /base/block/list needs unit:list).',
    response: z.array(DisasterBlockSchema),
  },
  'GET /disaster/sos/open': {
    permission: 'disasterwarn:list',
    summary:
      'The SOS help calls not yet closed, unacknowledged first (oldest first), then acknowledged. A console or wall screen reads it on every (re)connect and merges live pushes into it by id, so no call is lost.',
    response: z.array(SosCallSchema),
  },
  'GET /disaster/sos/{id}': {
    permission: 'disasterwarn:view',
    summary: 'One SOS help call: person, house, position, time, who acknowledged and closed it.',
    params: IdParamsSchema,
    response: SosCallSchema,
  },
  'POST /disaster/sos/{id}/acknowledge': {
    permission: 'disasterwarn:list',
    summary:
      'Acknowledges an open SOS call (409 when someone already did): the alarm messages of every recipient are read and every console is told.',
    params: IdParamsSchema,
    response: SosCallSchema,
  },
  'POST /disaster/sos/{id}/close': {
    permission: 'disasterwarn:list',
    summary: 'Closes an acknowledged SOS call with a note { note } (409 when not acknowledged or already closed).',
    params: IdParamsSchema,
    body: SosCloseSchema,
    response: SosCallSchema,
  },
  'POST /disaster/warn/page': {
    permission: 'disasterwarn:list',
    summary: 'Disaster warnings of the estate, newest first, with their read and reply counts.',
    body: WarnPageSchema,
    response: listPageSchema(WarnRowSchema),
  },
  'POST /disaster/warn/save': {
    permission: 'disasterwarn:list',
    summary:
      'Releases a warning { type 1 fire … 5 other, content, blockIds? } to every resident of the estate (of those blocks) and every management-committee and management-office staff member; pushes event 10.',
    body: WarnSaveSchema,
    response: WarnDetailSchema,
    successMessage: 'disaster.messages.released',
  },
  'GET /disaster/warn/{id}': {
    permission: 'disasterwarn:view',
    summary: 'One warning with its read counts and replies by kind (1 safety … 6 other).',
    params: IdParamsSchema,
    response: WarnDetailSchema,
  },
  'POST /disaster/warn/{id}/revoke': {
    permission: 'disasterwarn:list',
    summary: 'Revokes a warning: residents no longer see it nor answer it (409 when already revoked).',
    params: IdParamsSchema,
    response: WarnDetailSchema,
    successMessage: 'disaster.messages.revoked',
  },
  'POST /disaster/warn/{id}/people': {
    permission: 'disasterwarn:view',
    summary: 'The recipients of a warning: list read, unread, help (asked for help) or safe, paged.',
    params: IdParamsSchema,
    body: WarnPeopleSchema,
    response: listPageSchema(WarnPersonSchema),
  },
  'POST /disaster/warn/person/{id}/handle': {
    permission: 'disasterwarn:list',
    summary: 'Marks a help request (a recipient who answered "ask for help") handled with a note { note }.',
    params: IdParamsSchema,
    body: HandleSchema,
    response: WarnPersonSchema,
  },
  'POST /disaster/declaration/page': {
    permission: 'disasterreport:list',
    summary: "Residents' disaster declarations (damage or danger), newest first; status 1 open, 2 handled.",
    body: DeclarationPageSchema,
    response: listPageSchema(DeclarationRowSchema),
  },
  'GET /app/disaster/list': {
    permission: 'authenticated',
    summary: `Resident API (DESIGN §5), resident token only. The disaster warnings the caller received, not revoked, newest first (at most ${RESIDENT_WARN_LIMIT}), with when they read it and their reply.`,
    response: z.array(ResidentWarnSchema),
  },
  'POST /app/disaster/read': {
    permission: 'authenticated',
    summary:
      "Resident API (DESIGN §5), resident token only. Marks a warning the caller received read { id } (idempotent; answering it reads it too) → { id, readTime }: it moves from the warning's unread list to its read list on every console. 404 when not received or revoked.",
    body: ResidentWarnReadSchema,
    response: z.object({ id: z.number(), readTime: z.string() }),
  },
  'POST /disaster/declaration/{id}/handle': {
    permission: 'disasterreport:list',
    summary:
      'Marks a declaration handled with a note { note } (409 when already handled): who and when are recorded, every console listing declarations is told.',
    params: IdParamsSchema,
    body: HandleSchema,
    response: DeclarationRowSchema,
  },
});
