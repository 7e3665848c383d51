import { and, eq, inArray, sql } from 'drizzle-orm';
import { ChannelType, JoinStatus, MessageType, joinMessageType, type ChannelOf, type MessageTypeOf } from '@pm/shared';
import type { Db } from '../../db/open-database';
import {
  announcement,
  announcementOption,
  announcementRead,
  announcementVote,
  complain,
  complainReply,
  disasterWarn,
  disasterWarnPerson,
  eventOrder,
  eventReply,
  personHouse,
  personHouseHistory,
  sosHelp,
} from '../../db/schema';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes, type PushSink } from '../message/push-outbox';
import { reserveUsage, settleUsage, HOUR_MS, type UsageLimit } from '../quota/account-usage';
import { complaintStaff, eventOrderStaff, handlingStaff, houseStaff, sosStaff } from '../realtime/recipients';
import type {
  AnnouncementVote,
  ComplainSave,
  ComplainSaved,
  DisasterReplyBody,
  EventOrderSave,
  EventOrderSaved,
  PersonHouseJoin,
  ResidentHouse,
  ResidentRate,
  ResidentReply,
  SosHelp,
} from '../../../../shared/src/api/resident';
import {
  estatesOf,
  houseByInviteCode,
  houseOf,
  housesOf,
  nextCode,
  ownRequest,
  type HouseLink,
} from './resident.repository';
import { normalizeInviteCode } from './invite-code';

/** What the resident use cases need: the database, where pushes go, and who is calling. */
export interface ResidentDeps {
  db: Db;
  realtime: PushSink;
  personId: number;
  /** The caller's account (per-account limits). */
  accountId: number;
  onPushError?: (err: unknown) => void;
}

type Kind = 'complaint' | 'eventOrder';
/** The numbers of each kind: push channel, "new" and "reply" message types. */
const NUMBERS: Record<
  Kind,
  { channel: ChannelOf<'workorders'>; created: MessageTypeOf<'workorders'>; reply: MessageTypeOf<'workorders'> }
> = {
  complaint: { channel: ChannelType.complaint, created: MessageType.newComplaint, reply: MessageType.complaintReply },
  eventOrder: { channel: ChannelType.eventOrder, created: MessageType.newEventOrder, reply: MessageType.eventReply },
};

async function linkedHouse(d: ResidentDeps, houseType: number, houseId: number): Promise<HouseLink> {
  const house = await houseOf(d.db, d.personId, houseType, houseId);
  if (!house) throw new AppError(403, 'resident.errors.houseNotYours');
  return house;
}

function houseColumns(h: HouseLink) {
  return { unitId: h.unitId, carSpaceId: h.carSpaceId, shopId: h.shopId };
}

/** GET /app/house/list. */
export async function listHouses(d: ResidentDeps): Promise<ResidentHouse[]> {
  return (await housesOf(d.db, d.personId)).map((h) => ({
    houseType: h.houseType,
    houseId: h.houseId,
    name: h.name,
    identity: h.identity,
  }));
}

/** POST /app/complain/save: the complaint and its type-50 messages commit together, then staff are pushed. */
export async function saveComplaint(d: ResidentDeps, body: ComplainSave): Promise<ComplainSaved> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const code = await nextCode(tx, 'C');
      const [row] = await tx
        .insert(complain)
        .values({
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          name: body.name,
          note: body.note,
          img: body.img || null,
          voice: body.voice || null,
          reportPersonId: d.personId,
          personType: house.houseType,
          personIdentity: house.identity,
          ...houseColumns(house),
          complainCode: code,
          complainStatus: 1,
        })
        .returning({ id: complain.id });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: MessageType.newComplaint,
        channelType: ChannelType.complaint,
        dataId: row.id,
        recipients: await complaintStaff(tx, house.housingEstateId),
        personTriggerId: d.personId,
        name: body.name,
        ...houseColumns(house),
        push: { code, status: 1 },
      });
      return { complainId: row.id, complainCode: code };
    },
    d.onPushError,
  );
}

/** POST /app/eventOrder/save: as a complaint, with type 49 messages on channel 7. */
export async function saveEventOrder(d: ResidentDeps, body: EventOrderSave): Promise<EventOrderSaved> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const code = await nextCode(tx, 'E');
      const [row] = await tx
        .insert(eventOrder)
        .values({
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          name: body.name,
          note: body.note,
          img: body.img || null,
          voice: body.voice || null,
          reportPersonId: d.personId,
          personType: house.houseType,
          personIdentity: house.identity,
          ...houseColumns(house),
          eventCode: code,
          eventStatus: 1,
          type: body.type,
        })
        .returning({ id: eventOrder.id });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: MessageType.newEventOrder,
        channelType: ChannelType.eventOrder,
        dataId: row.id,
        recipients: await eventOrderStaff(tx, house.housingEstateId),
        personTriggerId: d.personId,
        name: body.name,
        ...houseColumns(house),
        push: { code, status: 1, type: body.type },
      });
      return { eventOrderId: row.id, eventCode: code };
    },
    d.onPushError,
  );
}

/** POST /app/complain/reply, /app/eventOrder/reply: the reporter adds a reply; handling staff get 13 / 11. */
export async function replyAsResident(d: ResidentDeps, kind: Kind, body: ResidentReply): Promise<{ replyId: number }> {
  const request = await ownRequest(d.db, kind, body.id, d.personId);
  if (!request) throw AppError.notFound();
  const numbers = NUMBERS[kind];
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const common = {
        companyId: request.companyId,
        housingEstateId: request.housingEstateId,
        personId: d.personId,
        content: body.content,
        img: body.img || null,
        voice: body.voice || null,
        companyType: null,
      };
      const [row] =
        kind === 'complaint'
          ? await tx
              .insert(complainReply)
              .values({ ...common, complainId: request.id })
              .returning({ id: complainReply.id })
          : await tx
              .insert(eventReply)
              .values({ ...common, eventOrderId: request.id })
              .returning({ id: eventReply.id });
      await notify(tx, {
        companyId: request.companyId,
        housingEstateId: request.housingEstateId,
        messageType: numbers.reply,
        channelType: numbers.channel,
        dataId: request.id,
        recipients: await handlingStaff(tx, kind, request.id),
        personTriggerId: d.personId,
        name: request.name,
        unitId: request.unitId,
        carSpaceId: request.carSpaceId,
        shopId: request.shopId,
        push: { replyId: row.id },
      });
      return { replyId: row.id };
    },
    d.onPushError,
  );
}

/** POST /app/complain/rate, /app/eventOrder/rate: once, and only when completed. */
export async function rateAsResident(
  d: ResidentDeps,
  kind: Kind,
  body: ResidentRate,
): Promise<{ id: number; serviceScore: number }> {
  const request = await ownRequest(d.db, kind, body.id, d.personId);
  if (!request) throw AppError.notFound();
  if (request.status !== 3) throw new AppError(409, 'resident.errors.notCompleted');
  if (request.rated) throw new AppError(409, 'resident.errors.alreadyRated');
  // The overall score is the rounded mean of the three star ratings (1–3).
  const serviceScore = Math.round((body.serviceEfficiency + body.serviceAttitude + body.serviceProcess) / 3);
  const values = {
    serviceEfficiency: body.serviceEfficiency,
    serviceAttitude: body.serviceAttitude,
    serviceProcess: body.serviceProcess,
    serviceComment: body.serviceComment ?? null,
    serviceScore,
    updatedAt: new Date(),
  };
  // The "not yet rated" condition in the update makes a double submit lose the race cleanly.
  const updated =
    kind === 'complaint'
      ? await d.db
          .update(complain)
          .set(values)
          .where(and(eq(complain.id, request.id), sql`${complain.serviceEfficiency} is null`))
          .returning({ id: complain.id })
      : await d.db
          .update(eventOrder)
          .set(values)
          .where(and(eq(eventOrder.id, request.id), sql`${eventOrder.serviceEfficiency} is null`))
          .returning({ id: eventOrder.id });
  if (updated.length === 0) throw new AppError(409, 'resident.errors.alreadyRated');
  return { id: request.id, serviceScore };
}

/** POST /app/sos/help: an open SOS call and a type-7 alarm (channel 10) for staff with disasterwarn:list. */
export async function sosHelpCall(d: ResidentDeps, body: SosHelp): Promise<{ sosHelpId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const [row] = await tx
        .insert(sosHelp)
        .values({
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          personId: d.personId,
          houseType: house.houseType,
          ...houseColumns(house),
          position: body.position ?? null,
        })
        .returning({ id: sosHelp.id });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: MessageType.sosAlarm,
        channelType: ChannelType.disasterWarning,
        dataId: row.id,
        recipients: await sosStaff(tx, house.housingEstateId),
        personTriggerId: d.personId,
        name: house.name,
        position: body.position ?? null,
        ...houseColumns(house),
        push: { houseType: house.houseType, position: body.position ?? null },
      });
      return { sosHelpId: row.id };
    },
    d.onPushError,
  );
}

/** POST /app/disaster/reply: the resident's answer to a warning they received. */
export async function replyToDisaster(
  d: ResidentDeps,
  body: DisasterReplyBody,
): Promise<{ disasterWarnId: number; reply: number }> {
  const [warn] = await d.db
    .select({ revoked: disasterWarn.revoked })
    .from(disasterWarn)
    .where(eq(disasterWarn.id, body.disasterWarnId));
  if (!warn) throw AppError.notFound();
  if (warn.revoked) throw new AppError(409, 'resident.errors.warningRevoked');
  const now = new Date();
  const updated = await d.db
    .update(disasterWarnPerson)
    .set({
      reply: body.reply,
      note: body.note ?? null,
      replyTime: now,
      readTime: sql`coalesce(${disasterWarnPerson.readTime}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(disasterWarnPerson.disasterWarnId, body.disasterWarnId), eq(disasterWarnPerson.personId, d.personId)))
    .returning({ id: disasterWarnPerson.id });
  if (updated.length === 0) throw AppError.notFound();
  return { disasterWarnId: body.disasterWarnId, reply: body.reply };
}

/** An announcement of one of the resident's estates that is still visible (not revoked). */
async function visibleAnnouncement(d: ResidentDeps, id: number) {
  const estates = await estatesOf(d.db, d.personId);
  if (estates.length === 0) throw AppError.notFound();
  const [row] = await d.db
    .select()
    .from(announcement)
    .where(
      and(eq(announcement.id, id), inArray(announcement.housingEstateId, estates), eq(announcement.revoked, false)),
    );
  if (!row) throw AppError.notFound();
  return row;
}

/** POST /app/announcement/read (idempotent). */
export async function readAnnouncement(d: ResidentDeps, id: number): Promise<{ id: number }> {
  await visibleAnnouncement(d, id);
  await d.db.insert(announcementRead).values({ announcementId: id, personId: d.personId }).onConflictDoNothing();
  return { id };
}

/** POST /app/announcement/vote: replaces the resident's earlier choice; also marks the announcement read. */
export async function voteAnnouncement(
  d: ResidentDeps,
  body: AnnouncementVote,
): Promise<{ id: number; optionIds: number[] }> {
  const a = await visibleAnnouncement(d, body.id);
  if (a.type !== 3) throw new AppError(400, 'resident.errors.notAVote');
  if (a.deadline && a.deadline.getTime() < Date.now()) throw new AppError(409, 'resident.errors.voteClosed');
  const optionIds = [...new Set(body.optionIds)];
  if (a.selectionMode === 1 && optionIds.length > 1) throw new AppError(400, 'resident.errors.singleChoice');
  const options = await d.db
    .select({ id: announcementOption.id })
    .from(announcementOption)
    .where(and(eq(announcementOption.announcementId, a.id), inArray(announcementOption.id, optionIds)));
  if (options.length !== optionIds.length) throw new AppError(400, 'resident.errors.voteOptionInvalid');
  await d.db.transaction(async (tx) => {
    await tx
      .delete(announcementVote)
      .where(and(eq(announcementVote.announcementId, a.id), eq(announcementVote.personId, d.personId)));
    await tx
      .insert(announcementVote)
      .values(optionIds.map((optionId) => ({ announcementId: a.id, personId: d.personId, optionId })));
    await tx.insert(announcementRead).values({ announcementId: a.id, personId: d.personId }).onConflictDoNothing();
  });
  return { id: a.id, optionIds };
}

/** Who joined, for the history record (OperationType): owner 3, relatives and friends 4, tenant 5. */
const OPERATION_BY_IDENTITY: Record<number, number> = { 1: 3, 2: 5, 3: 4 };

/**
 * How often one account may use invite codes (issue 14): join requests of any outcome, and
 * wrong codes — the guessing limit. Codes are 128-bit random, so a wrong code is a typo or a
 * guess, and ten an hour is plenty for typos.
 */
export const JOIN_LIMITS = {
  requests: { windowMs: HOUR_MS, max: 20 },
  wrongCodes: { windowMs: HOUR_MS, max: 10 },
} satisfies Record<string, UsageLimit>;

/** Counts a join request and, until the code proves right, a wrong code; 429 past either limit. */
async function admitJoin(d: ResidentDeps): Promise<{ wrongCodeId: number }> {
  const tooMany = (key: string, r: { limit: UsageLimit; retryAfterSeconds: number }) =>
    new AppError(
      429,
      key,
      { count: r.limit.max, minutes: Math.ceil(r.retryAfterSeconds / 60) },
      { retryAfterSeconds: r.retryAfterSeconds },
    );
  const request = await reserveUsage(d.db, d.accountId, 'invite-join', 1, [JOIN_LIMITS.requests]);
  if (!request.ok) throw tooMany('resident.errors.tooManyJoins', request);
  const wrongCode = await reserveUsage(d.db, d.accountId, 'invite-wrong-code', 1, [JOIN_LIMITS.wrongCodes]);
  if (!wrongCode.ok) throw tooMany('resident.errors.tooManyWrongCodes', wrongCode);
  return { wrongCodeId: wrongCode.id };
}

/**
 * POST /app/personhouse/join: a request to join a unit, parking space or shop by its invite
 * code. Every request waits for review (status 1) by the house's owner or the estate's staff
 * (POST /base/personhouse/review): until then the caller is no member of the house, does not
 * see it in /app/house/list and cannot report or call SOS from it. The staff who list that
 * kind of house get message 27/28/29 on channel 12.
 */
export async function joinHouse(
  d: ResidentDeps,
  body: PersonHouseJoin,
): Promise<{ personHouseId: number; status: number; houseType: number; houseId: number }> {
  const { wrongCodeId } = await admitJoin(d);
  const house = await houseByInviteCode(d.db, normalizeInviteCode(body.inviteCode));
  if (!house) throw new AppError(400, 'resident.errors.inviteCodeInvalid');
  await settleUsage(d.db, wrongCodeId, 0);
  const column =
    house.houseType === 2 ? personHouse.carSpaceId : house.houseType === 3 ? personHouse.shopId : personHouse.unitId;
  const ids = {
    unitId: house.houseType === 1 ? house.houseId : null,
    carSpaceId: house.houseType === 2 ? house.houseId : null,
    shopId: house.houseType === 3 ? house.houseId : null,
  };
  const status = JoinStatus.pending;
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const existing = await tx
        .select({ id: personHouse.id })
        .from(personHouse)
        .where(
          and(
            eq(personHouse.personId, d.personId),
            eq(column, house.houseId),
            inArray(personHouse.status, [JoinStatus.pending, JoinStatus.approved]),
          ),
        );
      if (existing.length > 0) throw new AppError(409, 'resident.errors.alreadyLinked');
      const [link] = await tx
        .insert(personHouse)
        .values({
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          personId: d.personId,
          houseType: house.houseType,
          ...ids,
          identity: body.identity,
          status,
        })
        .returning({ id: personHouse.id });
      const [history] = await tx
        .insert(personHouseHistory)
        .values({
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          personId: d.personId,
          houseType: house.houseType,
          ...ids,
          identity: body.identity,
          purchaseTime: new Date(),
          operatorPersonId: d.personId,
          operationType: OPERATION_BY_IDENTITY[body.identity],
        })
        .returning({ id: personHouseHistory.id });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: joinMessageType(house.houseType as 1 | 2 | 3),
        channelType: ChannelType.join,
        dataId: link.id,
        recipients: await houseStaff(tx, house.housingEstateId, house.houseType),
        personTriggerId: d.personId,
        personHouseHistoryId: history.id,
        ...ids,
        push: { houseType: house.houseType, identity: body.identity, status },
      });
      return { personHouseId: link.id, status, houseType: house.houseType, houseId: house.houseId };
    },
    d.onPushError,
  );
}
