import { and, eq, inArray } from 'drizzle-orm';
import {
  ChannelType,
  Identity,
  JoinStatus,
  OperationType,
  exitMessageType,
  joinMessageType,
  type HistoryRow,
  type PersonHouseRow,
  type ReviewTotals,
} from '@pm/shared';
import type { Db, DbOrTx, Tx } from '../../db/open-database';
import { personHouse, personHouseHistory } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Caller, TenantScope } from '../../http/request-context';
import { notify } from '../message/notify';
import { queuePush, withPushes, type PushSink } from '../message/push-outbox';
import { refreshHouseStatus } from './house-status.repository';
import {
  certImageOf,
  historyInfo,
  historyPage,
  linkInfo,
  lockHouse,
  memberPage,
  reviewPage,
  reviewTotals,
  type Page,
  type ReviewFilters,
} from './house-people.repository';
import { HOUSE_LIST_PERMISSION, HOUSE_VIEW_PERMISSION, houseStaff } from './person.recipients';

/**
 * Owners and residents (issue 19): reviewing requests to join a house (certify, refuse with a
 * reason, remove, the owner change of SPEC §4) and keeping each house's people (set as history
 * staff, remove a member), for staff and for a house's owner. Every change runs in one
 * transaction that also writes the history row (operator, operation type), recomputes the
 * house's status (`refreshHouseStatus`), stores the notification (27–29 joined / 31–33 exit)
 * and queues the live event (12 / 14) for the house's staff and the person concerned.
 */

export interface PeopleDeps {
  db: Db;
  realtime: PushSink;
  onPushError?: (err: unknown) => void;
}

type Link = typeof personHouse.$inferSelect;

export function houseIdOf(r: { unitId: number | null; carSpaceId: number | null; shopId: number | null }): number {
  return (r.unitId ?? r.carSpaceId ?? r.shopId) as number;
}
function houseColumn(houseType: number) {
  return houseType === 2 ? personHouse.carSpaceId : houseType === 3 ? personHouse.shopId : personHouse.unitId;
}
const idsOf = (r: Link) => ({ unitId: r.unitId, carSpaceId: r.carSpaceId, shopId: r.shopId });

/** Staff with the house type's list permission; a resident or staff without it gets 403. */
export function assertHouseStaff(caller: Caller, houseType: number): void {
  if (caller.kind !== 'staff' || !caller.perms.has(HOUSE_LIST_PERMISSION[houseType])) throw AppError.forbidden();
}

/** The house types the staff may list; 403 for none (and for residents). */
function listableHouseTypes(caller: Caller): number[] {
  const types = caller.kind === 'staff' ? [1, 2, 3].filter((t) => caller.perms.has(HOUSE_LIST_PERMISSION[t])) : [];
  if (types.length === 0) throw AppError.forbidden();
  return types;
}

/** Whether the caller is staff of the link's estate who may act on its house type. */
function isHouseStaffOf(caller: Caller, link: Link): boolean {
  return (
    caller.kind === 'staff' &&
    link.companyId === caller.companyId &&
    link.housingEstateId === caller.housingEstateId &&
    caller.perms.has(HOUSE_LIST_PERMISSION[link.houseType])
  );
}

/** The approved owner link of the house (locked rows come first: call after lockHouse). */
async function ownerOf(tx: DbOrTx, houseType: number, houseId: number): Promise<Link | null> {
  const [row] = await tx
    .select()
    .from(personHouse)
    .where(
      and(
        eq(houseColumn(houseType), houseId),
        eq(personHouse.houseType, houseType),
        eq(personHouse.identity, Identity.owner),
        eq(personHouse.status, JoinStatus.approved),
      ),
    );
  return row ?? null;
}

/** Whether `personId` is the approved owner of the link's house. */
async function isOwnerOfHouse(tx: DbOrTx, personId: number, link: Link): Promise<boolean> {
  const owner = await ownerOf(tx, link.houseType, houseIdOf(link));
  return owner !== null && owner.personId === personId;
}

/** The join / leave push every console of the estate and the person's app receive. */
function pushToPerson(tx: Tx, link: Link, channel: 12 | 14, status: number): void {
  queuePush(tx, [link.personId], {
    channelType: channel === 12 ? ChannelType.join : ChannelType.leave,
    dataId: link.id,
    houseType: link.houseType,
    houseId: houseIdOf(link),
    identity: link.identity,
    status,
  });
}

/**
 * Ends a link (the person leaves the house): deletes it, writes the history row with the
 * operator and operation type, recomputes the house's status, tells the house's staff (31–33)
 * and the person (event 14). Answers the history row's id.
 */
export async function endLink(tx: Tx, link: Link, operatorPersonId: number, operationType: number): Promise<number> {
  await tx.delete(personHouse).where(eq(personHouse.id, link.id));
  const [history] = await tx
    .insert(personHouseHistory)
    .values({
      companyId: link.companyId,
      housingEstateId: link.housingEstateId,
      personId: link.personId,
      houseType: link.houseType,
      ...idsOf(link),
      identity: link.identity,
      purchaseTime: link.joinTime,
      leaveTime: new Date(),
      operatorPersonId,
      operationType,
    })
    .returning({ id: personHouseHistory.id });
  await refreshHouseStatus(tx, link.houseType, [houseIdOf(link)]);
  await notify(tx, {
    companyId: link.companyId,
    housingEstateId: link.housingEstateId,
    messageType: exitMessageType(link.houseType as 1 | 2 | 3),
    channelType: ChannelType.leave,
    dataId: link.id,
    recipients: await houseStaff(tx, link.housingEstateId, link.houseType),
    personTriggerId: operatorPersonId,
    personHouseHistoryId: history.id,
    ...idsOf(link),
    push: { houseType: link.houseType, houseId: houseIdOf(link), identity: link.identity },
  });
  if (link.personId !== operatorPersonId) pushToPerson(tx, link, 14, link.status);
  return history.id;
}

/** A link locked for change; null when missing. */
async function lockedLink(tx: DbOrTx, personHouseId: number, statuses: number[]): Promise<Link | null> {
  const [row] = await tx
    .select()
    .from(personHouse)
    .where(and(eq(personHouse.id, personHouseId), inArray(personHouse.status, statuses)))
    .for('update');
  return row ?? null;
}

/**
 * POST /base/personhouse/review: certifies (2) or refuses (3, with an optional reason the
 * resident reads) a pending request. Staff of the house's estate decide any request; the
 * house's approved owner decides tenants and relatives. Certifying an owner of a house that
 * has one answers 409 (owners.errors.hasOwner, with the owner's name) unless `replaceOwner`
 * confirms SPEC §4's question: then the old owner moves to the history in the same
 * transaction. The house row is locked first, so two staff certifying two people for one house
 * leave exactly one owner (and a partial unique index holds it on any path).
 */
export async function reviewJoinRequest(
  deps: PeopleDeps,
  caller: Caller,
  body: { personHouseId: number; status: 2 | 3; refuseReason?: string; replaceOwner?: boolean },
): Promise<{ personHouseId: number; status: number }> {
  return withPushes(
    deps.db,
    deps.realtime,
    async (tx) => {
      const request = await lockedLink(tx, body.personHouseId, [JoinStatus.pending]);
      if (!request) throw AppError.notFound();
      if (
        caller.kind === 'staff' &&
        request.companyId === caller.companyId &&
        request.housingEstateId === caller.housingEstateId
      )
        assertHouseStaff(caller, request.houseType);
      const byStaff = isHouseStaffOf(caller, request);
      const byOwner =
        !byStaff &&
        caller.kind === 'resident' &&
        request.identity !== Identity.owner &&
        (await isOwnerOfHouse(tx, caller.personId, request));
      if (!byStaff && !byOwner) throw AppError.notFound();
      const houseId = houseIdOf(request);
      if (body.status === JoinStatus.approved && request.identity === Identity.owner) {
        await lockHouse(tx, request.houseType, houseId);
        const owner = await ownerOf(tx, request.houseType, houseId);
        if (owner && owner.personId !== request.personId) {
          if (!body.replaceOwner) throw new AppError(409, 'owners.errors.hasOwner');
          await endLink(tx, owner, caller.personId, OperationType.managementOffice);
        }
      }
      await tx
        .update(personHouse)
        .set({
          status: body.status,
          refuseReason: body.status === JoinStatus.refused ? body.refuseReason || null : null,
        })
        .where(eq(personHouse.id, request.id));
      await refreshHouseStatus(tx, request.houseType, [houseId]);
      pushToPerson(tx, request, 12, body.status);
      // Every open console of the estate reloads its review list and the house's tabs.
      const staff = (await houseStaff(tx, request.housingEstateId, request.houseType)).filter(
        (p) => p !== caller.personId,
      );
      queuePush(tx, staff, {
        channelType: ChannelType.join,
        dataId: request.id,
        houseType: request.houseType,
        houseId,
        identity: request.identity,
        status: body.status,
      });
      return { personHouseId: request.id, status: body.status };
    },
    deps.onPushError,
  );
}

/**
 * POST /base/personhouse/remove (a request or a member) and /join/history (set as history
 * staff): the link ends with a history row of operation type 1 (management office).
 */
export async function endLinkAsStaff(
  deps: PeopleDeps,
  caller: Caller,
  personHouseId: number,
  statuses: number[],
): Promise<{ personHouseHistoryId: number }> {
  return withPushes(
    deps.db,
    deps.realtime,
    async (tx) => {
      const link = await lockedLink(tx, personHouseId, [JoinStatus.pending, JoinStatus.approved, JoinStatus.refused]);
      if (!link || link.companyId !== caller.companyId || link.housingEstateId !== caller.housingEstateId)
        throw AppError.notFound();
      assertHouseStaff(caller, link.houseType);
      if (!statuses.includes(link.status)) throw new AppError(409, 'owners.errors.wrongState');
      await lockHouse(tx, link.houseType, houseIdOf(link));
      return { personHouseHistoryId: await endLink(tx, link, caller.personId, OperationType.managementOffice) };
    },
    deps.onPushError,
  );
}

/** The owner-review list (POST /base/personhouse/page). */
export function listRequests(
  db: Db,
  caller: Caller,
  tenant: TenantScope,
  f: ReviewFilters,
): Promise<Page<PersonHouseRow>> {
  return reviewPage(db, tenant, listableHouseTypes(caller), f);
}

/** The owner-review tabs' counts (GET /base/personhouse/totals), over the house types the staff may list. */
export function countRequests(db: Db, caller: Caller, tenant: TenantScope): Promise<ReviewTotals> {
  return reviewTotals(db, tenant, listableHouseTypes(caller));
}

/** A house's people (POST /base/personhouse/member/page). */
export function listMembers(
  db: Db,
  caller: Caller,
  tenant: TenantScope,
  f: Parameters<typeof memberPage>[2],
): Promise<Page<PersonHouseRow> & { houseStatus: number | null }> {
  assertHouseStaff(caller, f.houseType);
  return memberPage(db, tenant, f);
}

/** One link (GET /base/personhouse/info/{id}). */
export async function getLink(db: Db, caller: Caller, tenant: TenantScope, id: number): Promise<PersonHouseRow> {
  listableHouseTypes(caller);
  const row = await linkInfo(db, tenant, id);
  if (!row) throw AppError.notFound();
  assertHouseStaff(caller, row.houseType);
  return row;
}

/** The history staff of a house (POST /base/personhousehistory/page/{typeId}/{buildingType}). */
export function listHistory(
  db: Db,
  caller: Caller,
  tenant: TenantScope,
  f: { houseType: number; houseId: number; page: number; limit: number },
): Promise<Page<HistoryRow>> {
  assertHouseStaff(caller, f.houseType);
  return historyPage(db, tenant, f);
}

/** History staff detail (GET /base/personhousehistory/info/{id}). */
export async function getHistory(db: Db, caller: Caller, tenant: TenantScope, id: number): Promise<HistoryRow> {
  listableHouseTypes(caller);
  const row = await historyInfo(db, tenant, id);
  if (!row) throw AppError.notFound();
  assertHouseStaff(caller, row.houseType);
  return row;
}

/**
 * The stored path of a link's certificate picture, for staff of its estate with the house
 * type's view permission only (GET /base/personhouse/certimg/{id}); 404 otherwise.
 */
export async function certImagePath(db: Db, caller: Caller, tenant: TenantScope, id: number): Promise<string> {
  if (caller.kind !== 'staff') throw AppError.forbidden();
  const found = await certImageOf(db, tenant, id);
  if (!found || !found.path) throw AppError.notFound();
  if (!caller.perms.has(HOUSE_VIEW_PERMISSION[found.houseType])) throw AppError.forbidden();
  return found.path;
}

/** The join notification (27–29) of a member the owner added. */
export async function notifyJoined(tx: Tx, link: Link, operatorPersonId: number, historyId: number): Promise<void> {
  await notify(tx, {
    companyId: link.companyId,
    housingEstateId: link.housingEstateId,
    messageType: joinMessageType(link.houseType as 1 | 2 | 3),
    channelType: ChannelType.join,
    dataId: link.id,
    recipients: await houseStaff(tx, link.housingEstateId, link.houseType),
    personTriggerId: operatorPersonId,
    personHouseHistoryId: historyId,
    ...idsOf(link),
    push: { houseType: link.houseType, houseId: houseIdOf(link), identity: link.identity, status: link.status },
  });
  pushToPerson(tx, link, 12, link.status);
}

export { lockedLink };
