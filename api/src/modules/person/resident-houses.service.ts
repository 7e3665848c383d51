import { ChannelType, Identity, JoinStatus, OperationType, joinMessageType } from '@pm/shared';
import type { OwnRequest, PersonHouseJoin, ResidentHouse } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { reserveUsage, settleUsage, HOUR_MS, type UsageLimit } from '../quota/account-usage';
import { storedAnswer, writeOnce } from '../resident/write-once';
import type { ResidentDeps } from '../resident/resident-api';
import { normalizeInviteCode } from './invite-code';
import {
  hasOpenLink,
  houseByInviteCode,
  isRevokedInviteCode,
  houseOf,
  housesOf,
  insertJoinRequest,
  uploadedBy,
  type HouseIds,
  type HouseLink,
} from './person-house.repository';
import { refreshHouseStatus } from './house-status.repository';
import { lockHouse, ownMembers, ownRequests, residentByTel } from './house-people.repository';
import { endLink, houseIdOf, lockedLink, notifyJoined } from './house-people.service';
import { houseStaff } from './person.recipients';

/** A resident's own houses: the list, the house a report comes from, and joining one by invite code. */

/** One of the caller's approved houses, or 403 when the house is not theirs. */
export async function linkedHouse(d: ResidentDeps, houseType: number, houseId: number): Promise<HouseLink> {
  const house = await houseOf(d.db, d.personId, houseType, houseId);
  if (!house) throw new AppError(403, 'resident.errors.houseNotYours');
  return house;
}

/** The unit / parking space / shop columns a report from the house carries. */
export function houseColumns(h: HouseLink): HouseIds {
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

type JoinAnswer = { personHouseId: number; status: number; houseType: number; houseId: number };

/**
 * POST /app/personhouse/join: a request to join a unit, parking space or shop by its invite
 * code. Every request waits for review (status 1) by the house's owner or the estate's staff
 * (POST /base/personhouse/review): until then the caller is no member of the house, does not
 * see it in /app/house/list and cannot report or call SOS from it. The staff who list that
 * kind of house get message 27/28/29 on channel 12.
 */
export async function joinHouse(d: ResidentDeps, body: PersonHouseJoin): Promise<JoinAnswer> {
  // A resend of a join already stored is answered before the limits: resends after lost answers
  // (a cut connection, an api restart) must not use up the resident's join requests of the hour.
  const stored = await storedAnswer<JoinAnswer>(d.db, { personId: d.personId, kind: 'join', clientId: body.clientId });
  if (stored) return stored;
  const { wrongCodeId } = await admitJoin(d);
  const code = normalizeInviteCode(body.inviteCode);
  const house = await houseByInviteCode(d.db, code);
  if (!house)
    throw new AppError(
      400,
      (await isRevokedInviteCode(d.db, code)) ? 'buildings.errors.codeRevoked' : 'resident.errors.inviteCodeInvalid',
    );
  if (body.houseCertImg && !(await uploadedBy(d.db, d.personId, body.houseCertImg)))
    throw new AppError(400, 'owners.errors.certNotYours');
  await settleUsage(d.db, wrongCodeId, 0);
  const ids: HouseIds = {
    unitId: house.houseType === 1 ? house.houseId : null,
    carSpaceId: house.houseType === 2 ? house.houseId : null,
    shopId: house.houseType === 3 ? house.houseId : null,
  };
  const status = JoinStatus.pending;
  return withPushes(
    d.db,
    d.realtime,
    async (tx) =>
      // A join resent with its clientId (a cut connection, an api restart) answers the request
      // already stored instead of 409 "already linked" or a second request (issue 35).
      writeOnce(tx, { personId: d.personId, kind: 'join', clientId: body.clientId }, async () => {
        if (await hasOpenLink(tx, d.personId, house.houseType, house.houseId))
          throw new AppError(409, 'resident.errors.alreadyLinked');
        const { personHouseId, historyId } = await insertJoinRequest(tx, {
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          personId: d.personId,
          houseType: house.houseType,
          ids,
          identity: body.identity,
          status,
          operationType: OPERATION_BY_IDENTITY[body.identity],
          houseCertCode: body.houseCertCode || null,
          houseCertImg: body.houseCertImg ?? null,
        });
        await refreshHouseStatus(tx, house.houseType, [house.houseId]);
        await notify(tx, {
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          messageType: joinMessageType(house.houseType as 1 | 2 | 3),
          channelType: ChannelType.join,
          dataId: personHouseId,
          recipients: await houseStaff(tx, house.housingEstateId, house.houseType),
          personTriggerId: d.personId,
          personHouseHistoryId: historyId,
          ...ids,
          push: { houseType: house.houseType, identity: body.identity, status },
        });
        return { personHouseId, status, houseType: house.houseType, houseId: house.houseId };
      }),
    d.onPushError,
  );
}

/** GET /app/personhouse/requests: the caller's requests and houses, with the state and a refusal's reason. */
export function listOwnRequests(d: ResidentDeps): Promise<OwnRequest[]> {
  return ownRequests(d.db, d.personId);
}

/**
 * POST /app/personhouse/leave: the caller leaves one of their houses; the history row's
 * operation type is the caller's identity there (owner 3, relatives and friends 4, tenant 5).
 */
export async function leaveHouse(
  d: ResidentDeps,
  body: { houseType: number; houseId: number },
): Promise<{ personHouseHistoryId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const link = await lockedLink(tx, house.personHouseId, [JoinStatus.approved]);
      if (!link) throw new AppError(403, 'resident.errors.houseNotYours');
      await lockHouse(tx, link.houseType, body.houseId);
      return { personHouseHistoryId: await endLink(tx, link, d.personId, OPERATION_BY_IDENTITY[link.identity]) };
    },
    d.onPushError,
  );
}

/** One of the caller's houses that they own, or 403. */
async function ownedHouse(d: ResidentDeps, houseType: number, houseId: number): Promise<HouseLink> {
  const house = await linkedHouse(d, houseType, houseId);
  if (house.identity !== Identity.owner) throw new AppError(403, 'owners.errors.notOwner');
  return house;
}

/** POST /app/personhouse/member/list: the tenants and members of a house the caller owns. */
export async function listOwnMembers(d: ResidentDeps, body: { houseType: number; houseId: number }) {
  await ownedHouse(d, body.houseType, body.houseId);
  return ownMembers(d.db, body.houseType, body.houseId);
}

/**
 * POST /app/personhouse/member/add: the owner adds a tenant or a relative/friend by the
 * resident's phone number. Approved at once (the owner decides their own house's members), a
 * history row of operation type 3 (owner), message 27–29 to the house's staff, event 12.
 */
export async function addOwnMember(
  d: ResidentDeps,
  body: { houseType: number; houseId: number; tel: string; identity: number; relation?: number },
): Promise<{ personHouseId: number }> {
  const house = await ownedHouse(d, body.houseType, body.houseId);
  const member = await residentByTel(d.db, body.tel);
  if (!member || member.id === d.personId) throw new AppError(400, 'owners.errors.noSuchResident');
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      if (await hasOpenLink(tx, member.id, body.houseType, body.houseId))
        throw new AppError(409, 'owners.errors.alreadyMember');
      const { personHouseId, historyId } = await insertJoinRequest(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        personId: member.id,
        houseType: body.houseType,
        ids: houseColumns(house),
        identity: body.identity,
        relation: body.identity === Identity.relativesFriends ? (body.relation ?? null) : null,
        status: JoinStatus.approved,
        operationType: OperationType.owner,
        operatorPersonId: d.personId,
      });
      await refreshHouseStatus(tx, body.houseType, [body.houseId]);
      const link = await lockedLink(tx, personHouseId, [JoinStatus.approved]);
      if (link) await notifyJoined(tx, link, d.personId, historyId);
      return { personHouseId };
    },
    d.onPushError,
  );
}

/** POST /app/personhouse/member/remove: the owner removes a tenant or member (operation type 3). */
export async function removeOwnMember(
  d: ResidentDeps,
  body: { personHouseId: number },
): Promise<{ personHouseHistoryId: number }> {
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const link = await lockedLink(tx, body.personHouseId, [JoinStatus.pending, JoinStatus.approved]);
      if (!link || link.identity === Identity.owner) throw AppError.notFound();
      const owner = await houseOf(tx, d.personId, link.houseType, houseIdOf(link));
      if (!owner || owner.identity !== Identity.owner) throw AppError.notFound();
      return { personHouseHistoryId: await endLink(tx, link, d.personId, OperationType.owner) };
    },
    d.onPushError,
  );
}
