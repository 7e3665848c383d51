import { ChannelType, MessageType, listPage } from '@pm/shared';
import type { WarnPeopleList, WarnSave } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { pushAfterCommit } from '../message/notify';
import { queuePush, withPushes, type PushSink } from '../message/push-outbox';
import { declarationStaff, disasterWarningStaff, sosStaff, warningFollowers } from './disaster.recipients';
import * as repo from './disaster.repository';

/** The staff's use cases of the disaster domain (issue 21): SOS calls, warnings, declarations. */

const pushError = (ctx: AuthedContext) => (err: unknown) => ctx.log.error({ err }, 'push after commit failed');

// --- SOS ---------------------------------------------------------------------------------------

export const openSosCalls = (ctx: AuthedContext) => repo.listOpenSos(ctx.db, ctx.tenant);

export async function getSos(ctx: AuthedContext, id: number) {
  const call = await repo.findSos(ctx.db, ctx.tenant, id);
  if (!call) throw AppError.notFound();
  return call;
}

/**
 * Acknowledges or closes a call, then tells every console of the estate's alarm staff (event 10,
 * message type 7, `sos`), and on acknowledgement reads every recipient's alarm message (their
 * alarm bells go down).
 */
async function changeSos(ctx: AuthedContext, id: number, step: 'acknowledged' | 'closed', note?: string) {
  await getSos(ctx, id);
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const done =
        step === 'acknowledged'
          ? await repo.acknowledgeSos(tx, ctx.tenant, id, ctx.caller.personId)
          : await repo.closeSos(tx, ctx.tenant, id, ctx.caller.personId, note ?? '');
      if (!done)
        throw new AppError(
          409,
          step === 'acknowledged' ? 'disaster.errors.sosNotOpen' : 'disaster.errors.sosNotAcknowledged',
        );
      if (step === 'acknowledged')
        for (const personId of await repo.readSosMessages(tx, ctx.tenant.housingEstateId, id))
          queuePush(tx, [personId], {
            channelType: ChannelType.countersChanged,
            unreadByType: { [MessageType.sosAlarm]: -1 },
          });
      pushAfterCommit(tx, await sosStaff(tx, ctx.tenant.housingEstateId), {
        channelType: ChannelType.disasterWarning,
        messageType: MessageType.sosAlarm,
        dataId: id,
        sos: step,
      });
    },
    pushError(ctx),
  );
  return getSos(ctx, id);
}

export const acknowledgeSos = (ctx: AuthedContext, id: number) => changeSos(ctx, id, 'acknowledged');
export const closeSos = (ctx: AuthedContext, id: number, note: string) => changeSos(ctx, id, 'closed', note);

/**
 * Announces again every open call nobody acknowledged for its estate's interval (basic set-up;
 * `defaultMs` where the estate set none), as event 10, message type 7, `sos: 'again'`, no new
 * message: the bells do not count it twice. Answers how many.
 */
export async function announceUnacknowledged(db: Db, realtime: PushSink, defaultMs: number): Promise<number> {
  return withPushes(db, realtime, async (tx) => {
    const calls = await repo.takeSosToAnnounceAgain(tx, defaultMs);
    for (const c of calls)
      pushAfterCommit(tx, await sosStaff(tx, c.housingEstateId), {
        channelType: ChannelType.disasterWarning,
        messageType: MessageType.sosAlarm,
        dataId: c.id,
        sos: 'again',
        position: c.position,
        ...(c.houseType !== null && { houseType: c.houseType }),
      });
    return calls.length;
  });
}

/**
 * Checks for calls to announce again a few times per interval (at least every 2.5 s: an estate may
 * set 10 s); returns a function that stops it. `defaultMs`: the interval of estates that set none.
 */
export function startSosReannouncer(
  db: Db,
  realtime: PushSink,
  defaultMs: number,
  onError: (err: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      announceUnacknowledged(db, realtime, defaultMs)
        .catch(onError)
        .finally(() => (running = false));
    },
    Math.max(100, Math.min(2500, Math.floor(defaultMs / 4))),
  );
  timer.unref();
  return () => clearInterval(timer);
}

// --- Warnings ------------------------------------------------------------------------------------

export const estateBlocks = (ctx: AuthedContext) => repo.listBlocks(ctx.db, ctx.tenant);

export async function listWarnings(ctx: AuthedContext, b: { type?: number; page: number; limit: number }) {
  const { rows, total } = await repo.listWarnings(ctx.db, ctx.tenant, b);
  return listPage(rows, total, b);
}

export async function getWarning(ctx: AuthedContext, id: number) {
  const warn = await repo.findWarning(ctx.db, ctx.tenant, id);
  if (!warn) throw AppError.notFound();
  return warn;
}

/** Releases a warning to the estate's residents (of the blocks) and its committee and office staff. */
export async function releaseWarning(ctx: AuthedContext, body: WarnSave) {
  const blockIds = [...new Set(body.blockIds ?? [])];
  if (blockIds.length > 0 && !(await repo.blocksOfEstate(ctx.db, ctx.tenant, blockIds)))
    throw new AppError(400, 'disaster.errors.unknownBlock');
  const id = await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const staff = await disasterWarningStaff(tx, ctx.tenant.housingEstateId);
      const warn = await repo.insertWarning(
        tx,
        ctx.tenant,
        { type: body.type, content: body.content, blockIds, publisherPersonId: ctx.caller.personId },
        staff,
      );
      // Every recipient and the staff who follow warnings: one push, fanned out after commit.
      pushAfterCommit(tx, [...warn.personIds, ...(await warningFollowers(tx, ctx.tenant.housingEstateId))], {
        channelType: ChannelType.disasterWarning,
        dataId: warn.id,
        warn: 'released',
        type: body.type,
      });
      return warn.id;
    },
    pushError(ctx),
  );
  return getWarning(ctx, id);
}

export async function revokeWarning(ctx: AuthedContext, id: number) {
  await getWarning(ctx, id);
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      if (!(await repo.revokeWarning(tx, ctx.tenant, id))) throw new AppError(409, 'disaster.errors.warningRevoked');
      const people = [
        ...(await repo.warningRecipients(tx, id)),
        ...(await warningFollowers(tx, ctx.tenant.housingEstateId)),
      ];
      pushAfterCommit(tx, people, { channelType: ChannelType.disasterWarning, dataId: id, warn: 'revoked' });
    },
    pushError(ctx),
  );
  return getWarning(ctx, id);
}

export async function warningPeople(
  ctx: AuthedContext,
  id: number,
  b: { list: WarnPeopleList; page: number; limit: number },
) {
  await getWarning(ctx, id);
  const { rows, total } = await repo.listWarnPeople(ctx.db, id, b);
  return listPage(rows, total, b);
}

/** Marks a help request handled; every console following warnings sees it at once. */
export async function handleHelpRequest(ctx: AuthedContext, id: number, note: string) {
  const person = await repo.findWarnPerson(ctx.db, ctx.tenant, id);
  if (!person) throw AppError.notFound();
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      if (!(await repo.handleWarnPerson(tx, ctx.tenant, id, ctx.caller.personId, note)))
        throw new AppError(409, 'disaster.errors.notHelpRequest');
      pushAfterCommit(tx, await warningFollowers(tx, ctx.tenant.housingEstateId), {
        channelType: ChannelType.disasterWarning,
        dataId: person.disasterWarnId,
        warn: 'handled',
      });
    },
    pushError(ctx),
  );
  const { disasterWarnId: _w, ...row } = (await repo.findWarnPerson(ctx.db, ctx.tenant, id))!;
  return row;
}

// --- Declarations --------------------------------------------------------------------------------

export async function listDeclarations(ctx: AuthedContext, b: { status?: number; page: number; limit: number }) {
  const { rows, total } = await repo.listDeclarations(ctx.db, ctx.tenant, b);
  return listPage(rows, total, b);
}

/** Marks a declaration handled (who, when, a note); every console listing declarations sees it at once. */
export async function handleDeclaration(ctx: AuthedContext, id: number, note: string) {
  if (!(await repo.findDeclaration(ctx.db, ctx.tenant, id))) throw AppError.notFound();
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      if (!(await repo.handleDeclaration(tx, ctx.tenant, id, ctx.caller.personId, note)))
        throw new AppError(409, 'disaster.errors.declarationHandled');
      pushAfterCommit(tx, await declarationStaff(tx, ctx.tenant.housingEstateId), {
        channelType: ChannelType.disasterWarning,
        dataId: id,
        declaration: 'handled',
      });
    },
    pushError(ctx),
  );
  return (await repo.findDeclaration(ctx.db, ctx.tenant, id))!;
}
