import { and, eq } from 'drizzle-orm';
import { ChannelType, Identity, JoinStatus } from '@pm/shared';
import type { Db, DbOrTx } from '../../db/open-database';
import { personHouse } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Caller } from '../../http/request-context';
import { queuePush, withPushes, type PushSink } from '../message/push-outbox';
import { refreshHouseStatus } from './house-status.repository';
import { HOUSE_LIST_PERMISSION } from './person.recipients';

type JoinRequest = typeof personHouse.$inferSelect;

function houseColumn(houseType: number) {
  return houseType === 2 ? personHouse.carSpaceId : houseType === 3 ? personHouse.shopId : personHouse.unitId;
}
function houseIdOf(r: JoinRequest): number {
  return (r.unitId ?? r.carSpaceId ?? r.shopId) as number;
}

/**
 * Who may decide a join request: staff of the house's own company and estate with that kind of
 * house's list permission; for a tenant or a relative also the house's approved owner. A claim
 * to be the owner is only for the management office to certify.
 */
async function mayReview(db: DbOrTx, caller: Caller, request: JoinRequest): Promise<boolean> {
  if (caller.kind === 'staff') {
    return (
      request.companyId === caller.companyId &&
      request.housingEstateId === caller.housingEstateId &&
      // Staff who list a kind of house review the requests to join it (the same who get message 27/28/29).
      caller.perms.has(HOUSE_LIST_PERMISSION[request.houseType])
    );
  }
  if (request.identity === Identity.owner) return false;
  const owner = await db
    .select({ id: personHouse.id })
    .from(personHouse)
    .where(
      and(
        eq(personHouse.personId, caller.personId),
        eq(houseColumn(request.houseType), houseIdOf(request)),
        eq(personHouse.identity, Identity.owner),
        eq(personHouse.status, JoinStatus.approved),
      ),
    )
    .limit(1);
  return owner.length > 0;
}

/**
 * POST /base/personhouse/review: approves (status 2) or refuses (status 3) a pending join
 * request. A request the caller may not decide looks exactly like a missing one (404). The
 * person who asked gets event 12 with the outcome.
 *
 * The minimal call of issue 14; the owner-review screens of issue 19 build on it (owner
 * changes, moving an old owner to the history, refusal reasons).
 */
export async function reviewJoinRequest(
  deps: { db: Db; realtime: PushSink; onPushError?: (err: unknown) => void },
  caller: Caller,
  body: { personHouseId: number; status: typeof JoinStatus.approved | typeof JoinStatus.refused },
): Promise<{ personHouseId: number; status: number }> {
  return withPushes(
    deps.db,
    deps.realtime,
    async (tx) => {
      const [request] = await tx
        .select()
        .from(personHouse)
        .where(and(eq(personHouse.id, body.personHouseId), eq(personHouse.status, JoinStatus.pending)))
        .for('update');
      if (!request || !(await mayReview(tx, caller, request))) throw AppError.notFound();
      await tx.update(personHouse).set({ status: body.status }).where(eq(personHouse.id, request.id));
      await refreshHouseStatus(tx, request.houseType, [houseIdOf(request)]);
      queuePush(tx, [request.personId], {
        channelType: ChannelType.join,
        dataId: request.id,
        houseType: request.houseType,
        houseId: houseIdOf(request),
        status: body.status,
      });
      return { personHouseId: request.id, status: body.status };
    },
    deps.onPushError,
  );
}
